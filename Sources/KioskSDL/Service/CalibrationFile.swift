import Foundation
import Kiosk

/// The calibration file of docs/deploying.md: `calibration.json` in `$STATE_DIRECTORY`, or `--calibration PATH`.
/// `{"kioskCalibration": 1, "matrix": [a, b, c, d, e, f], "created": "…", "residual": 0.004}`.
enum CalibrationFile {
    struct Contents: Codable {
        var kioskCalibration: Int
        var matrix: [Double]
        var created: String?
        var residual: Double?
    }

    /// Where the calibration is read: `--calibration PATH`, else `$STATE_DIRECTORY/calibration.json`.
    static func path(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        option ?? stateFolder(environment).map { $0 + "/calibration.json" }
    }

    /// The calibration in effect and the one `<6>` line that says which: a valid file, else the manifest's,
    /// else none. A file that is corrupt or whose matrix cannot be a calibration is a `<4>` warning naming it,
    /// and the next in line is used.
    static func effective(file: String?, manifest: Calibration) -> Calibration {
        if let file {
            switch RegularFile.read(file, limit: RegularFile.textLimit) {
            case .failure(let p) where p.isMissing: break
            case .failure(let p): log(.warning, "\(file): cannot read the calibration (\(p.message)); not using it")
            case .success(let data):
                if let matrix = matrix(in: Data(data), file: file) {
                    log(.info, "calibration: \(file) (matrix \(describe(matrix)))")
                    return Calibration(matrix: matrix)
                }
            }
        }
        if manifest != Calibration() {
            log(.info, "calibration: the manifest's (matrix \(describe(manifest.affine)))")
            return manifest
        }
        log(.info, "calibration: none (touches are taken as they come)")
        return manifest
    }

    /// The file's matrix, or nil after a warning saying what is wrong with it.
    static func matrix(in data: Data, file: String) -> AffineMatrix? {
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.kioskCalibration == 1
        else {
            log(.warning, "\(file): not a calibration file (corrupt, or not version 1); ignoring it")
            return nil
        }
        guard let matrix = AffineMatrix(contents.matrix) else {
            log(.warning, "\(file): matrix: expected six numbers; ignoring the file")
            return nil
        }
        if let problem = matrix.problem {
            log(.warning, "\(file): matrix: \(problem); ignoring the file")
            return nil
        }
        return matrix
    }

    static func describe(_ m: AffineMatrix) -> String {
        // (Negative zero is written 0.)
        "[" + m.values.map { String(format: "%.6g", $0 == 0 ? 0 : $0) }.joined(separator: ", ") + "]"
    }

    /// Writes a calibration made now (atomically); false after an error line naming the file.
    static func write(_ matrix: AffineMatrix, residual: Double, to path: String, created: Date = Date()) -> Bool {
        let stamp = ISO8601DateFormatter().string(from: created)
        let numbers = matrix.values.map { String(format: "%.9g", $0 == 0 ? 0 : $0) }.joined(separator: ", ")
        let text =
            "{\"kioskCalibration\": 1, \"matrix\": [\(numbers)], \"created\": \"\(stamp)\", "
            + "\"residual\": \(String(format: "%.6g", residual))}\n"
        guard writeAtomically(Data(text.utf8), to: path) else {
            log(.error, "\(path): cannot write the calibration (\(String(cString: strerror(errno)))); nothing written")
            return false
        }
        log(
            .info,
            "calibration: written to \(path): matrix \(describe(matrix)), residual \(String(format: "%.4f", residual))")
        return true
    }
}
