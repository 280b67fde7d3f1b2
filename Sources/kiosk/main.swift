import CEarlySignals
import Foundation
import Kiosk
import KioskSDL

#if canImport(Glibc)
    import Glibc
#endif

// Only arguments here: everything else is in KioskSDL.Runner.

/// The manifest beside the sources (a development checkout), else the installed one.
func defaultManifest() -> String? {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/kiosk.json").path
    if FileManager.default.fileExists(atPath: source) { return source }
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("share/kiosk/kiosk.json").path
    return FileManager.default.fileExists(atPath: installed) ? installed : nil
}

// A picture of the screen (SIGUSR1) or a reload (SIGHUP) asked before the frame loop installs its handlers would
// end the process (both signals' default): CEarlySignals ignores them from before this line.
_ = kiosk_early_signals_linked()

if CommandLine.arguments.dropFirst().first == "new" {
    exit(NewContentCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if options.showVersion {
        print("kiosk \(kioskVersion)")
        exit(0)
    }
    if options.showHelp {
        print(Options.usage)
        exit(0)
    }
    if options.stats { exit(Runner.stats(options, defaultManifest: defaultManifest())) }
    if options.check { exit(Runner.check(options, defaultManifest: defaultManifest())) }
    exit(Runner.run(options, defaultManifest: defaultManifest()))
} catch {
    log(.error, error.message)
    exit(error.status)
}
