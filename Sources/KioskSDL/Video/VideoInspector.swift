import CVideo
import Foundation
import Kiosk

/// A film as `kiosk --check` and a reload see it (docs/video.md): opened with the decoder the kiosk plays it
/// with and its first frame decoded, within `timeLimitSeconds` (a file on a share that stopped answering, a
/// decoder stuck on a broken stream: a line, not a hang). What is found is its container, codec, size and
/// duration, or the problem.
enum VideoInspector {
    /// The longest a film may take to open and give its first frame (our choice: a 4K file on a slow card
    /// opens in well under a second).
    static let timeLimitSeconds = 10.0

    static func inspect(
        _ path: String, maxPixels: Int = VideoStore.maxPixels, timeLimit: Double = timeLimitSeconds
    ) -> VideoReport {
        if let problem = RegularFile.problem(path) { return VideoReport(problem: problem) }
        var why = [CChar](repeating: 0, count: 256)
        guard kiosk_video_library(&why, why.count) == 1 else {
            return VideoReport(problem: VideoPlayer.text(why), libraryMissing: true)
        }
        // A film that does not open in time is left to its thread; the check goes on.
        let work = WorkerResult(name: "kiosk-video-check") { look(path, maxPixels: maxPixels) }
        return work.wait(seconds: timeLimit) ?? VideoReport(problem: tooSlow(timeLimit))
    }

    /// Why a film that did not open within `seconds` is not shown.
    static func tooSlow(_ seconds: Double = timeLimitSeconds) -> String {
        "did not open within \(Int(seconds)) s (a file that does not answer?)"
    }

    /// Opens `path` and decodes its first frame.
    private static func look(_ path: String, maxPixels: Int) -> VideoReport {
        var why = [CChar](repeating: 0, count: 256)
        guard let v = kiosk_video_open(path, maxPixels, VideoPlayer.tryHardware ? 1 : 0, &why, why.count) else {
            return VideoReport(problem: VideoPlayer.text(why))
        }
        defer { kiosk_video_close(v) }
        var frame = kiosk_video_frame()
        switch kiosk_video_next(v, &frame, &why, why.count) {
        case 1: break
        case 0: return VideoReport(problem: "it has no frame that decodes")
        default: return VideoReport(problem: VideoPlayer.text(why))
        }
        // libavformat names a demuxer by every format it reads ("mov,mp4,m4a,3gp,3g2,mj2"): the file's own.
        let formats = String(cString: kiosk_video_container(v)).split(separator: ",").map(String.init)
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        return VideoReport(
            container: formats.contains(ext) ? ext : formats.first ?? "", codec: String(cString: kiosk_video_codec(v)),
            width: Int(kiosk_video_width(v)), height: Int(kiosk_video_height(v)), duration: kiosk_video_duration(v))
    }
}
