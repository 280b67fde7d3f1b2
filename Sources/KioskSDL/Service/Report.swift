import CSDL2
import CSDL2Image
import CSDL2TTF
import Foundation
import Kiosk

/// `kiosk --stats --report DIR` (docs/operations.md): `index.html`, its charts as PNG beside it and `report.json`,
/// from the visits and the touches in the state folder, readable in any browser with no network. The state
/// folder is only read.
enum Report {
    /// Writes the report of `visits` (and the touches files in `folder` from `since` on) into `dir`, the pictures
    /// found through `manifest`; the exit status.
    static func write(
        _ visits: [Visit], folder: String, since: String?, manifest: Manifest?, into target: String
    ) -> Int32 {
        // Written whole or not at all: into a new folder beside `target`, renamed in place of it once complete (a
        // failure halfway left new charts beside the old page, which then disagreed; a FIFO named like a chart
        // hung the report). Only a report's own files are ever replaced.
        if let problem = notAReport(target) {
            log(.error, "--report \(target): \(problem); choose an empty folder or an earlier report's")
            return 2
        }
        let dir = besideFolder(target, "new")
        do {
            try? FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            log(.error, "--report \(target): cannot make the folder (\(reason(error)))")
            return 2
        }
        let report = VisitReport(visits, touches: touches(in: folder, since: since))
        SDL_SetMainReady()
        IMG_Init(Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue))
        if TTF_WasInit() == 0 { TTF_Init() }
        let charts = ReportCharts()
        var sections: [String] = []
        var failed: [String] = []
        func chart(_ name: String, _ s: UnsafeMutablePointer<SDL_Surface>?, alt: String, table: [(String, String)]) {
            if !ReportCharts.save(s, dir + "/" + name) { failed.append(name) }
            let rows = table.map { "<tr><td>\(html($0.0))</td><td>\(html($0.1))</td></tr>" }.joined()
            sections.append(
                "<section><img src=\"\(name)\" alt=\"\(html(alt))\" width=\"960\">"
                    + (rows.isEmpty ? "" : "<details><summary>The numbers</summary><table>\(rows)</table></details>")
                    + "</section>")
        }
        let stats = report.statistics
        let days = stats.days.sorted { $0.key < $1.key }
        chart(
            "visits-per-day.png",
            charts.bars(
                title: "Visits per day", labels: days.map { String($0.key.dropFirst(5)) },
                values: days.map { Double($0.value) }, valueText: { "\(Int($0))" }),
            alt: "Visits per day, \(days.count) days", table: days.map { ($0.key, "\($0.value)") })
        chart(
            "hours-of-week.png", charts.hoursOfWeek(report.hoursOfWeek), alt: "Visits by hour of the week",
            table: report.hoursOfWeek.enumerated().map { d, row in
                (
                    VisitReport.weekdays[d],
                    row.enumerated().filter { $0.1 > 0 }.map { "\($0.0):00 \($0.1)" }
                        .joined(separator: ", ")
                )
            })
        let binLabels =
            VisitReport.durationBinsSeconds.map { "< " + seconds($0) } + [
                seconds(VisitReport.durationBinsSeconds.last!) + " or more"
            ]
        let lengthTitle =
            "Visit length: median \(seconds(report.medianMs / 1000)), 90th percentile \(seconds(report.p90Ms / 1000))"
        chart(
            "visit-length.png",
            charts.bars(
                title: lengthTitle, labels: binLabels, values: report.durationBins.map(Double.init),
                valueText: { "\(Int($0))" }),
            alt: lengthTitle, table: zip(binLabels, report.durationBins).map { ($0, "\($1)") })
        for (name, title, values, unit) in [
            ("scenes.png", "Scenes by time spent (minutes)", stats.scenes, 60_000.0),
            ("languages.png", "Languages by time read (minutes)", report.languages, 60_000.0),
            ("hotspots.png", "Hotspots and rows by taps", stats.hotspots, 1.0),
        ] where !values.isEmpty {
            let sorted = values.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            chart(
                name,
                charts.bars(
                    title: title, labels: sorted.map(\.key), values: sorted.map { Double($0.value) / unit },
                    valueText: { String(format: unit > 1 ? "%.1f" : "%.0f", $0) }),
                alt: title,
                table: sorted.map { ($0.key, String(format: unit > 1 ? "%.1f" : "%.0f", Double($0.value) / unit)) })
        }
        var saidNoPicture = false
        var otherPictures: [String] = []
        for (i, (key, grid)) in report.touches.pictures.sorted(by: { $0.key < $1.key }).enumerated() {
            var picture = manifest.flatMap { picturePath(key, in: $0) }
            if picture.map({ RegularFile.problem($0) != nil }) ?? true, !saidNoPicture {
                saidNoPicture = true
                log(.warning, "--report: the picture of \(key) is not found; its touches are drawn over a grey field")
            }
            // Touches recorded on a picture of another size were on another picture (another manifest's, or an
            // earlier version of this one): never drawn over this one.
            if let path = picture, case let found = ImageInspector.size(path), found.problem == nil,
                found.width > 0, Double(found.width) != grid.image.width || Double(found.height) != grid.image.height
            {
                picture = nil
                otherPictures.append(
                    "\(key) (touched on \(Int(grid.image.width))x\(Int(grid.image.height)), the manifest's is "
                        + "\(found.width)x\(found.height))")
            }
            chart(
                "touches-\(i + 1).png", charts.heatmap(key, grid: grid, picture: picture),
                alt: "Touches on \(key): \(grid.counts.reduce(0, +))", table: [])
        }
        if let first = otherPictures.first {
            log(
                .warning,
                "--report: the touches were recorded on other pictures than the manifest's: \(first)"
                    + (otherPictures.count > 1 ? " and \(otherPictures.count - 1) more" : "")
                    + "; drawn over a grey field. Pass the manifest the kiosk showed them with, --config PATH")
        }
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Kiosk visits</title>
            <style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#202028}
            section{margin:2em 0}img{max-width:100%;height:auto;border:1px solid #ddd}
            td{padding:0 1em 0 0}</style></head><body>
            <h1>Kiosk visits</h1>
            <p>\(stats.visits) visits on \(days.count) days\(since.map { " from \($0)" } ?? ""); median \
            \(html(seconds(report.medianMs / 1000))), 90th percentile \(html(seconds(report.p90Ms / 1000))). \
            The same numbers: <a href="report.json">report.json</a>.</p>
            \(sections.joined(separator: "\n"))
            </body></html>

            """
        guard writeAtomically(Data(page.utf8), to: dir + "/index.html"),
            writeAtomically(Data(report.json.utf8), to: dir + "/report.json")
        else {
            log(.error, "--report \(target): cannot write it (\(String(cString: strerror(errno))))")
            try? FileManager.default.removeItem(atPath: dir)
            return 2
        }
        if !failed.isEmpty {
            log(.warning, "--report: could not draw \(failed.joined(separator: ", ")) (\(sdlError()))")
        }
        guard replace(target, with: dir) else {
            log(.error, "--report \(target): cannot put the report in place (\(String(cString: strerror(errno))))")
            try? FileManager.default.removeItem(atPath: dir)
            return 2
        }
        printLine(
            "report: \(target)/index.html, \(stats.visits) visits, \(report.touches.pictures.count) pictures touched")
        return 0
    }

    /// Why `folder` is not one a report may be written into (a file; a folder holding what a report does not
    /// write: the operator's own files, a FIFO), or nil (missing, empty, or an earlier report).
    static func notAReport(_ folder: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return "is a file, not a folder" }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let foreign = names.sorted().filter { name in
            var st = stat()
            let regular = lstat(folder + "/" + name, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
            return !regular || !(name == "index.html" || name == "report.json" || name.hasSuffix(".png"))
        }
        guard let first = foreign.first else { return nil }
        let more = foreign.count > 1 ? " and \(foreign.count - 1) more" : ""
        return "holds \(first)\(more), which a report does not write"
    }

    /// A hidden folder beside `folder` for `what` (the report being made, the one it replaces).
    static func besideFolder(_ folder: String, _ what: String) -> String {
        let url = URL(fileURLWithPath: folder)
        return url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).\(what)-\(getpid())"
    }

    /// Puts the complete report `made` in place of `target` (an earlier report, or nothing), which is removed.
    static func replace(_ target: String, with made: String) -> Bool {
        let old = besideFolder(target, "old")
        let existed = FileManager.default.fileExists(atPath: target)
        if existed {
            try? FileManager.default.removeItem(atPath: old)
            guard rename(target, old) == 0 else { return false }
        }
        guard rename(made, target) == 0 else {
            if existed { rename(old, target) }
            return false
        }
        if existed { try? FileManager.default.removeItem(atPath: old) }
        return true
    }

    /// Every day's touches in `folder` from `since` on; a file that is not a grid is said and left out.
    static func touches(in folder: String, since: String?) -> [TouchGrid] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return names.compactMap { name in
            guard name.hasSuffix(VisitLog.touchesSuffix) else { return nil }
            let day = String(name.dropLast(VisitLog.touchesSuffix.count))
            guard LocalTime.parse(day) != nil, since.map({ day >= $0 }) ?? true else { return nil }
            guard case .success(let bytes) = RegularFile.read(folder + "/" + name, limit: RegularFile.textLimit),
                let grid = TouchGrid.parse(String(decoding: bytes, as: UTF8.self))
            else {
                log(.warning, "\(folder)/\(name): not a grid of touches; left out of the report")
                return nil
            }
            return grid
        }
    }

    /// The file of picture `key` (a scene's id, or `scene/page`) in `manifest`, in its first language.
    static func picturePath(_ key: String, in manifest: Manifest) -> String? {
        let parts = key.split(separator: "/")
        guard let scene = manifest.scene(String(parts[0])) else { return nil }
        let page = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let paths = scene.imagePaths(in: manifest.languages.first ?? Languages.undetermined)
        return page < paths.count ? paths[page] : nil
    }

    /// `48 s`, `3 min`, `2 min 30 s`.
    static func seconds(_ s: Int) -> String {
        if s < 60 { return "\(s) s" }
        return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s"
    }

    static func html(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
