import ScrollEngine

#if canImport(Glibc)
    import Glibc
#endif

// The SDL front end comes with the kiosk-program issue; until then the executable answers --version and --help.
let version = "0.1.0"
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--version") {
    print("kiosk \(version)")
} else if arguments.contains("--help") {
    print("usage: kiosk [--version] [--help]  (the scroll engine is built; the display front end is not yet)")
} else {
    let message = "<3>kiosk: the display front end is not built yet; only the scroll engine exists (see README)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
