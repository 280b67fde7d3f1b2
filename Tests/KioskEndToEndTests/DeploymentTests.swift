import Foundation
import TestSupport
import Testing

/// The unit file and the install script.
/// Serialized: two systemd booted at once on two cores start their kiosks slower than the checks wait.
@Suite(.serialized) struct DeploymentTests {
    let dir = Kiosk.folder()

    func run(_ tool: String, _ args: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let analyze = "/usr/bin/systemd-analyze"

    @Test(Installed.needs(analyze, from: "systemd", for: "the unit's exposure is scored"))
    func theUnitIsHardenedToOnePointSixOrBetter() throws {
        let unit = Kiosk.repository.appendingPathComponent("kiosk.service").path
        let r = try run(Self.analyze, ["security", "--offline=true", unit])
        let line = try #require(r.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        // 1.5 before the clock's state could be read: systemd-analyze counts any @clock call allowed (0.1), the
        // reads adjtimex and clock_adjtime included, though without CAP_SYS_TIME none can set the clock.
        #expect(score <= 1.6, "\(line)")
        #expect(!r.output.contains("✗ CapabilityBoundingSet=~CAP_SYS_TIME"), "the clock cannot be set")
        // What keeps DRM and evdev working is there, and what would break them is not.
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        for needed in [
            "Type=notify", "WatchdogSec=", "Restart=always", "RestartSec=", "StartLimitBurst=", "User=kiosk",
            "SupplementaryGroups=video input render audio", "Environment=SDL_VIDEODRIVER=kmsdrm",
            "Conflicts=getty@tty1.service",
            "TTYPath=/dev/tty1", "StandardInput=tty-fail", "StateDirectory=kiosk", "CacheDirectory=kiosk",
            "DevicePolicy=closed", "DeviceAllow=char-drm rw", "DeviceAllow=char-input r",
            "DeviceAllow=char-alsa rw", "DeviceAllow=char-video4linux rw",
            "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "RestartPreventExitStatus=3",
            "UnsetEnvironment=DISPLAY WAYLAND_DISPLAY",
        ] {
            #expect(text.contains(needed), "\(needed)")
        }
        let settings = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!settings.contains { $0.hasPrefix("PrivateDevices=") || $0.hasPrefix("MemoryDenyWriteExecute=") })
        // The calls allowed back come after the list that takes them away (@privileged holds @clock): in
        // another order the clock's state could not be read, nor EGL start under a compositor.
        let filters = settings.filter { $0.hasPrefix("SystemCallFilter=") }
        #expect(
            filters == [
                "SystemCallFilter=@system-service",
                "SystemCallFilter=~@privileged @mount @swap @reboot @raw-io @module @obsolete @cpu-emulation @debug",
                "SystemCallFilter=adjtimex clock_adjtime mincore",
            ])
    }

    /// The drop-in that runs the kiosk under cage replaces what must change and keeps the rest of the unit: its
    /// paths are the prefix's, the kiosk (cage's child) may notify, a reload reaches the kiosk.
    @Test func theCageDropInChangesOnlyWhatACompositorNeeds() throws {
        let text = try String(
            contentsOf: Kiosk.repository.appendingPathComponent("kiosk-cage.conf"), encoding: .utf8)
        let settings = text.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("=") }.map(String.init)
        #expect(
            settings == [
                "Description=Touch kiosk (fullscreen under cage, a Wayland compositor)", "Wants=seatd.service",
                "After=seatd.service", "ExecStart=", "ExecStart=/usr/bin/cage -d -- /usr/local/bin/kiosk",
                "Environment=LIBSEAT_BACKEND=seatd SDL_VIDEODRIVER=wayland", "RuntimeDirectory=kiosk",
                "Environment=XDG_RUNTIME_DIR=/run/kiosk", "NotifyAccess=all", "ExecReload=",
                "ExecReload=/usr/bin/pkill -HUP -x -P $MAINPID kiosk", "InaccessiblePaths=",
                "InaccessiblePaths=-/run/lock",
            ])
        #expect(text.contains("/usr/local/share/kiosk/kiosk-cage.conf /etc/systemd/system/kiosk.service.d/cage.conf"))
    }

    @Test(Installed.needs(analyze, from: "systemd", for: "the installed units are verified"))
    func theInstalledUnitVerifies() throws {
        let stage = dir.appendingPathComponent("stage")
        let install = Kiosk.repository.appendingPathComponent("install.sh").path
        // A small stand-in for the deep-zoom demo, so that the script does not draw the full one here.
        let demo = dir.appendingPathComponent("small/demo.dzi").path
        try Kiosk.pyramid(size: 512, out: demo)
        let r = try run(
            "/usr/bin/env",
            [
                "KIOSK_DEEPZOOM_DEMO=\(demo)", "bash", install, "--destdir", stage.path, "--prefix", "/opt/kiosk",
                "--binary",
                Kiosk.binary.path,
            ])
        #expect(r.status == 0, "\(r.output)")
        let unit = stage.appendingPathComponent("etc/systemd/system/kiosk.service")
        let text = try String(contentsOf: unit, encoding: .utf8)
        #expect(text.contains("ExecStart=/opt/kiosk/bin/kiosk"))
        #expect(text.contains("KIOSK_CONFIG=/opt/kiosk/share/kiosk/kiosk.json"))
        let cage = try String(
            contentsOf: stage.appendingPathComponent("opt/kiosk/share/kiosk/kiosk-cage.conf"), encoding: .utf8)
        #expect(cage.contains("ExecStart=/usr/bin/cage -d -- /opt/kiosk/bin/kiosk\n"))
        #expect(cage.contains(" /opt/kiosk/share/kiosk/kiosk-cage.conf /etc/systemd/system/kiosk.service.d/cage.conf"))
        for file in [
            "opt/kiosk/bin/kiosk", "opt/kiosk/share/kiosk/kiosk.json", "opt/kiosk/share/kiosk/images/floorplan.png",
            "opt/kiosk/share/kiosk/deepzoom/demo.dzi", "opt/kiosk/share/kiosk/deepzoom/demo_files/9/0_0.jpeg",
        ] {
            #expect(FileManager.default.fileExists(atPath: stage.appendingPathComponent(file).path), "\(file)")
        }
        // systemd-analyze verify wants the binary where ExecStart says: point it at the staged one.
        let verifiable = dir.appendingPathComponent("kiosk.service")
        try text.replacingOccurrences(
            of: "/opt/kiosk/bin/kiosk", with: stage.appendingPathComponent("opt/kiosk/bin/kiosk").path
        )
        .write(to: verifiable, atomically: true, encoding: .utf8)
        let v = try run(Self.analyze, ["verify", verifiable.path])
        #expect(v.status == 0, "\(v.output)")
        // The calibration tool's unit beside it: the same sandbox, stops the kiosk, starts it again after.
        let tool = try String(
            contentsOf: stage.appendingPathComponent("etc/systemd/system/kiosk-calibrate.service"), encoding: .utf8)
        #expect(tool.contains("ExecStart=/opt/kiosk/bin/kiosk --calibrate"))
        for needed in [
            "Conflicts=getty@tty1.service kiosk.service", "OnSuccess=kiosk.service", "OnFailure=kiosk.service",
        ] {
            #expect(tool.contains(needed), "\(needed)")
        }
        #expect(!tool.contains("Restart=always") && !tool.contains("[Install]"))
        let touchTest = try String(
            contentsOf: stage.appendingPathComponent("etc/systemd/system/kiosk-touch-test.service"), encoding: .utf8)
        #expect(touchTest.contains("ExecStart=/opt/kiosk/bin/kiosk --touch-test"))
        let sandbox = text.split(separator: "\n").filter {
            $0.hasPrefix("Protect") || $0.hasPrefix("SystemCall") || $0.hasPrefix("Device") || $0.hasPrefix("Restrict")
                || $0.hasPrefix("StateDirectory") || $0.hasPrefix("User=")
        }
        #expect(sandbox.count > 10 && sandbox.allSatisfy { tool.contains($0) })
        // The staged kiosk runs from its prefix with the installed manifest.
        let k = try Kiosk.run(
            [
                "--headless", "320x200", "--config",
                stage.appendingPathComponent("opt/kiosk/share/kiosk/kiosk.json").path,
            ], in: dir)
        #expect(k.status == 0)
        // An operator's `systemctl edit` drop-in goes with the unit: a later install must not inherit it.
        let dropIns = stage.appendingPathComponent("etc/systemd/system/kiosk.service.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        try "[Service]\nEnvironment=A=1\n".write(
            to: dropIns.appendingPathComponent("override.conf"), atomically: true, encoding: .utf8)
        let u = try run("/bin/bash", [install, "--uninstall", "--destdir", stage.path, "--prefix", "/opt/kiosk"])
        #expect(u.status == 0)
        #expect(!FileManager.default.fileExists(atPath: unit.path))
        #expect(!FileManager.default.fileExists(atPath: dropIns.path))
        #expect(
            !FileManager.default.fileExists(
                atPath: stage.appendingPathComponent("etc/systemd/system/kiosk-touch-test.service").path))
        #expect(!FileManager.default.fileExists(atPath: stage.appendingPathComponent("opt/kiosk/bin/kiosk").path))
    }

    /// Content published by switching a symlink (`current` → `releases/…`, README "Many kiosks"): the kiosk
    /// reads its images from the release the manifest really is in, so a switch while it runs does not mix two
    /// releases under it.
    @Test func aManifestBehindASymlinkReadsItsRealFolder() throws {
        let release = dir.appendingPathComponent("releases/a")
        try FileManager.default.createDirectory(
            at: release.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("not a picture".utf8).write(to: release.appendingPathComponent("images/floorplan.png"))
        let manifest =
            #"{"kioskManifest": 1, "home": "map", "scenes": "#
            + #"[{"id": "map", "type": "zoom", "image": "images/floorplan.png"}]}"#
        try manifest.write(to: release.appendingPathComponent("kiosk.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("current").path, withDestinationPath: "releases/a")
        let r = try Kiosk.run(
            ["--headless", "320x200", "--config", dir.appendingPathComponent("current/kiosk.json").path], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("releases/a/images/floorplan.png: cannot load the image"), "\(r.stderr)")
    }

    /// Why this machine cannot boot a systemd for the test (not root, no namespaces…), or nil when it can.
    static let cannotBoot: String? = {
        // The package is made with dpkg-dev's tools (package.sh), before anything is booted.
        if let missing = Installed.missing("/usr/bin/dpkg-shlibdeps", from: "dpkg-dev", for: "no package to make") {
            return missing
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [Kiosk.repository.appendingPathComponent(".ci/boot-systemd").path, "--check"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "cannot run .ci/boot-systemd" }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return p.terminationStatus == 0 ? nil : text.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    /// Runs `script` of `.ci` (`.ci/deploy-test`) on `debs`, in a folder of its own.
    func boot(_ script: String, _ debs: [String]) throws -> (status: Int32, output: String) {
        let folder = dir.appendingPathComponent(URL(fileURLWithPath: script).lastPathComponent).path
        return try run("/bin/bash", [Kiosk.repository.appendingPathComponent(script).path, folder] + debs)
    }

    /// Two test packages of this build: 1.0.0, and 1.0.0+2 holding another binary (the same program with a
    /// byte more), with a small deep-zoom demo.
    func testPackages() throws -> [String] {
        let package = Kiosk.repository.appendingPathComponent("package.sh").path
        let demo = dir.appendingPathComponent("small/demo.dzi").path
        try Kiosk.pyramid(size: 512, out: demo)
        let second = dir.appendingPathComponent("kiosk-second")
        var bytes = try Data(contentsOf: Kiosk.binary)
        bytes.append(0)
        try bytes.write(to: second)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: second.path)
        var debs: [String] = []
        for (binary, version) in [(Kiosk.binary.path, "1.0.0"), (second.path, "1.0.0+2")] {
            let r = try run(
                "/usr/bin/env",
                [
                    "KIOSK_DEEPZOOM_DEMO=\(demo)", "bash", package, "--test-binary", binary, "--version", version,
                    "--out", dir.appendingPathComponent("deb").path,
                ])
            #expect(r.status == 0, "\(r.output)")
            debs.append(try #require(r.output.split(separator: "\n").last.map(String.init)))
        }
        return debs
    }

    /// The Debian package under a real systemd booted in private namespaces (`.ci/deploy-test`): installed,
    /// started, READY and sandboxed; kill -9 restarts it with its state; an upgrade to a second build (a bumped
    /// version, another binary) restarts it on the new binary with its state; a configuration error is not
    /// retried; remove stops it; purge leaves nothing. The packages hold this build's kiosk (linked to the
    /// toolchain, which the overlay of this machine's root has) and a small deep-zoom demo. Where systemd
    /// cannot be booted the test says why and is skipped.
    @Test(.enabled(if: cannotBoot == nil, Comment(rawValue: cannotBoot ?? "")))
    func thePackageUnderARealSystemd() throws {
        let debs = try testPackages()
        // Lintian where it is installed (.ci/run installs it). The test binary is unstripped and finds the
        // toolchain by its RUNPATH: those two are the test build's, not the package's.
        let lint = try run(
            "/usr/bin/env",
            [
                "sh", "-c",
                "command -v lintian >/dev/null || exit 0; lintian --suppress-tags "
                    + "custom-library-search-path,unstripped-binary-or-object \(debs[0])",
            ])
        #expect(!lint.output.contains("E: "), "\(lint.output)")
        let r = try boot(".ci/deploy-test", debs)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("ok: purged"), "\(r.output)")
    }

    /// What the fleet test needs beyond a bootable systemd (`.ci/run` installs it), or nil when all is there.
    static let cannotRunFleet: String? = {
        if let cannotBoot { return cannotBoot }
        let tools = ["reprepro", "webfsd", "prometheus-node-exporter", "rsync", "curl"]
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let missing = tools.filter { tool in
            !path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
        return missing.isEmpty
            ? nil
            : "\(missing.joined(separator: ", ")) is not installed (apt-get install reprepro webfs "
                + "prometheus-node-exporter rsync curl; .ci/run installs them)"
    }()

    /// A kiosk of a fleet under a real systemd (`.ci/fleet-test`): installed with apt-get from a reprepro
    /// repository served by webfs, upgraded from it, content pushed with rsync and reloaded, its health served
    /// by Debian's node_exporter (frames increasing over two scrapes, the version and content, the reload) and a
    /// picture of its screen on SIGUSR1.
    @Test(.enabled(if: cannotRunFleet == nil, Comment(rawValue: cannotRunFleet ?? "")))
    func aKioskOfAFleetUnderARealSystemd() throws {
        let r = try boot(".ci/fleet-test", try testPackages())
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("ok: systemctl kill -s USR1 kiosk"), "\(r.output)")
    }
}
