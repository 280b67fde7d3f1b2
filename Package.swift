// swift-tools-version:6.0
// Swift 6.0 too (Debian 13's swiftlang, the arm64 package's compiler): docs/architecture.md, "Swift 6.0".
import PackageDescription

let package = Package(
    name: "kiosk",
    products: [
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
        .executable(name: "kiosk-deepzoom-demo", targets: ["kiosk-deepzoom-demo"]),
        .library(name: "ScrollEngine", targets: ["ScrollEngine"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "EventLog", targets: ["EventLog"]),
    ],
    targets: [
        // UIScrollView's model and physics: pure Swift, no SDL, no clock, no I/O.
        .target(name: "ScrollEngine"),
        // Fingers to gestures: pan, pinch, taps, content touches, nested scroll views. Pure, like the engine.
        .target(name: "TouchInput", dependencies: ["ScrollEngine"]),
        // The event-log format (docs/event-log-and-trace.md): reader, writer, and fingers to touch input.
        .target(name: "EventLog", dependencies: ["ScrollEngine"]),
        // The kiosk without SDL: manifest, scenes, input mapping, draw lists, trace.
        .target(name: "Kiosk", dependencies: ["ScrollEngine", "TouchInput", "EventLog"]),
        .executableTarget(name: "kiosk", dependencies: ["Kiosk", "KioskSDL", "CEarlySignals"]),
        // SIGHUP and SIGUSR1 ignored from before the first line of Swift until the frame loop's handlers exist: one C
        // function in the executable's .preinit_array, which runs before any library's constructor; and those
        // handlers, in C because a signal handler must not allocate.
        .target(name: "CEarlySignals"),
        // SDL2 and SDL2_image from Debian (libsdl2-dev, libsdl2-image-dev), with shims for the macros.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2Image", pkgConfig: "SDL2_image", providers: [.apt(["libsdl2-image-dev"])]),
        // Words: SDL2_ttf (shaped by HarfBuzz: joined Arabic, right to left) and fontconfig (a font that covers a
        // language), from Debian (libsdl2-ttf-dev, libfontconfig-dev).
        .systemLibrary(name: "CSDL2TTF", pkgConfig: "SDL2_ttf", providers: [.apt(["libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // The kernel's word on the wall clock (adjtimex) and its notice when the clock is set (timerfd), which
        // Glibc's Swift module does not bring.
        .target(name: "CClock"),
        // What a trace or a recording still holds in memory, written by a signal handler when the process crashes
        // (a Swift runtime trap, a fault, an abort): a few lines of C over glibc, as a handler must be.
        .target(name: "CLastWords"),
        // Large pictures read a few rows at a time, straight into the tile file, never decoded whole: libpng and
        // libjpeg (libjpeg62-turbo) from Debian (libpng-dev, libjpeg-dev; SDL2_image already links both).
        .target(
            name: "CPictureRows", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
        // A picture's rows copied onto the screen with stores that bypass the cache (the software renderer's plain
        // copies, RowCopy.swift): a few lines of C, as Swift has no non-temporal store.
        .target(name: "CCopyRows"),
        // The panel's power while the screen is blank: the connector's DPMS set with the kernel's mode-setting
        // ioctls on SDL's own DRM file descriptor (the kernel's structures from libdrm-dev's copy of its headers,
        // which libsdl2-dev brings; nothing more is linked).
        .target(name: "CDisplayPower"),
        // The headphone jack (audio mode begins when a headset is plugged in): the kernel's input switch
        // SW_HEADPHONE_INSERT read with its evdev ioctls (its headers; nothing is linked).
        .target(name: "CHeadphoneJack"),
        // When the kernel took each touch: a touchscreen read a second time beside SDL (which stamps a touch
        // when it reads it, so touches that waited out a busy frame all had its time), its evdev events followed
        // as SDL follows them (its headers; nothing is linked).
        .target(name: "CTouchTimes"),
        // Video: libavformat, libavcodec and libswresample from Debian (libavformat-dev, libavcodec-dev,
        // libswresample-dev: a film's sound resampled for the kiosk's mixer), a file decoded frame by frame in a
        // few lines of C (their error codes are macros Swift cannot import), loaded at the first film (dlopen: a
        // kiosk without one does not carry them).
        .target(name: "CVideo", linkerSettings: [.linkedLibrary("dl")]),
        // The SDL boundary: display, images, words, drawing, events, the frame loop.
        .target(
            name: "KioskSDL",
            dependencies: [
                "CSDL2", "CSDL2Image", "CSDL2TTF", "CFontconfig", "CClock", "CLastWords", "CPictureRows", "CCopyRows",
                "CDisplayPower", "CEarlySignals", "CHeadphoneJack", "CTouchTimes", "CVideo", "Kiosk",
                "EventLog",
                "ScrollEngine",
            ]),
        // Writes the deep-zoom demo (Assets/deepzoom/demo.dzi), procedurally.
        .executableTarget(name: "kiosk-deepzoom-demo", dependencies: ["Kiosk", "CSDL2", "CSDL2Image"]),
        // Counts heap allocations by interposing malloc in the benchmark binary only.
        .target(name: "CAllocCounter"),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: [
                "ScrollEngine", "TouchInput", "EventLog", "Kiosk", "KioskSDL", "CSDL2", "CSDL2Image", "CAllocCounter",
            ]),
        // Helpers shared by the test targets (a seeded generator, tolerant comparisons).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Test films written in-process by Debian's libavformat and libavcodec (the -dev packages ./run.sh installs
        // for the kiosk), so the tests need no `ffmpeg` command: linked here, in the tests only.
        .target(
            name: "CTestClips", path: "Tests/CTestClips",
            linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        .target(name: "TestClips", dependencies: ["CTestClips"], path: "Tests/TestClips"),
        .testTarget(name: "ScrollEngineTests", dependencies: ["ScrollEngine", "TestSupport"]),
        .testTarget(
            name: "KioskTests", dependencies: ["Kiosk", "ScrollEngine", "EventLog", "TouchInput", "TestSupport"]),
        .testTarget(
            name: "KioskSDLTests",
            dependencies: [
                "KioskSDL", "Kiosk", "EventLog", "ScrollEngine", "CSDL2", "CCopyRows", "TestSupport", "TestClips",
            ]),
        // Runs the built kiosk binary headless (the dependency makes SwiftPM build it first).
        .testTarget(
            name: "KioskEndToEndTests",
            dependencies: ["kiosk", "kiosk-deepzoom-demo", "CSDL2", "CSDL2Image", "TestSupport", "TestClips"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "EventLogTests", dependencies: ["EventLog", "Kiosk", "ScrollEngine", "TouchInput", "TestSupport"]),
        .testTarget(
            name: "TouchInputTests", dependencies: ["TouchInput", "ScrollEngine", "EventLog", "Kiosk", "TestSupport"],
            resources: [.copy("Fixtures")]),
    ]
)
