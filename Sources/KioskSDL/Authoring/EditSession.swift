import CSDL2
import EventLog
import Foundation
import Kiosk
import ScrollEngine

/// `kiosk --edit` in the frame loop (docs/authoring.md): the watch that asks for a reload when a content file is
/// saved, the editor (`ContentEditor`) that takes its inputs before the app and draws over the frame, and the
/// hotspots it draws, printed and put on the clipboard.
final class EditSession {
    var editor = ContentEditor()
    let watch: ContentWatch?
    /// The manifest's folder: the banner names files from there.
    let folder: String

    /// A session on the manifest at `path` whose check read `files` and found `problems` (the start's, when it
    /// could not be used); a save posts `reloadEvent`.
    init(manifest path: String, files: [String], reloadEvent: UInt32, problems: [String] = []) {
        folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        editor.checked(problems: problems)
        watch = ContentWatch { IdleWait.post(reloadEvent) }
        watch?.watch(files + [path])
        log(
            .info,
            "edit: watching \(Set(files.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }).count) "
                + "folders; a saved file is shown at once; right-drag (or Ctrl-drag) a hotspot, G a grid")
    }

    /// A reload's check: its problems become the banner (or clear it), the files it read are watched from now
    /// on. The manifest to show, if the content is good: the timed rules that would leave the scene being edited
    /// (`Manifest.forEditing`) are off.
    func checked(_ report: ContentReport, files: [String], path: String, began: Double) -> Manifest? {
        let named = report.errors + report.problems.filter(\.isWarning)
        editor.checked(
            problems: named.map { p in
                var e = p
                if e.file.hasPrefix(folder + "/") { e.file.removeFirst(folder.count + 1) }
                return (p.isWarning ? "warning: " : "") + e.description
            })
        watch?.watch(files + [path], changedSince: began)
        return report.manifest?.forEditing
    }

    /// An input before the app: true when the editor took it. A finished rectangle's hotspot is printed on
    /// standard output (a line of its own) and put on the clipboard.
    func take(_ event: EventLog.Event, app: KioskApp) -> Bool {
        switch editor.take(event, app: app) {
        case .notTaken: return false
        case .taken: return true
        case .hotspot(let json):
            // A line of its own, written at once (standard output may be a pipe).
            FileHandle.standardOutput.write(Data((json + "\n").utf8))
            if SDL_SetClipboardText(json) != 0 {
                log(.info, "edit: no clipboard (\(sdlError())): the hotspot is above")
            }
            return true
        }
    }

    /// Draws the editor's grid, rectangle and banner over the frame.
    func draw(on renderer: Renderer, app: KioskApp, size: Size) {
        let commands = editor.overlay(app: app)
        guard !commands.isEmpty else { return }
        renderer.execute(
            commands, in: renderer.frameContext(scene: nil, background: app.manifest.background, sceneSize: size))
    }
}
