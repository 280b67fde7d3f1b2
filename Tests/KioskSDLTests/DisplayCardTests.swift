import Foundation
import Testing

@testable import KioskSDL

/// The DRM card chosen by what it drives, whatever its number (a Raspberry Pi 5's render-only card and its
/// display card, vgem loaded first), and a display another program holds said in one line with who and the two
/// ways out.
@Suite struct DisplayCardTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-cards-\(UUID().uuidString)")

    @Test func theFirstCardThatDrivesAScreenIsChosen() throws {
        let cards = [
            DisplayCard(number: 0, state: .noModeSetting),
            DisplayCard(number: 1, state: .nothingConnected),
            DisplayCard(number: 2, state: .drives(connectors: "Virtual-1")),
            DisplayCard(number: 3, state: .drives(connectors: "HDMI-A-1")),
        ]
        let card = try DisplayCard.choose(cards).get()
        #expect(card.number == 2)
        #expect(card.named == "card2 (Virtual-1)")
        // A held card ahead of one the kiosk can drive is passed over.
        let passed = [DisplayCard(number: 0, state: .held(connectors: "DSI-1"))] + cards.suffix(1)
        #expect(try DisplayCard.choose(passed).get().number == 3)
    }

    @Test func aHeldDisplayNamesWhoHoldsItAndTheTwoWays() {
        let cards = [
            DisplayCard(number: 0, state: .noModeSetting), DisplayCard(number: 1, state: .held(connectors: "HDMI-A-1")),
        ]
        guard case .failure(let error) = DisplayCard.choose(cards, holders: { _ in "cage (pid 412)" }) else {
            Issue.record("a held card was chosen")
            return
        }
        #expect(
            error.message.hasPrefix(
                "the display is held: another program is the DRM master of /dev/dri/card1 (HDMI-A-1): cage (pid 412); "
            ))
        #expect(error.message.contains("on the console") && error.message.contains("as a Wayland client"))
        #expect(!error.message.contains("\n"))
        guard case .failure(let unseen) = DisplayCard.choose(cards) else { return }
        #expect(unseen.message.contains("(not visible to this user)"))
    }

    @Test func noScreenSaysWhatEachCardIs() {
        let cards = [
            DisplayCard(number: 0, state: .noModeSetting),
            DisplayCard(number: 1, state: .unopenable(reason: "Permission denied")),
        ]
        guard case .failure(let error) = DisplayCard.choose(cards) else {
            Issue.record("a card was chosen")
            return
        }
        #expect(error.message.hasPrefix("no display: "))
        #expect(error.message.contains("card0 no mode setting, card1 Permission denied"))
        guard case .failure(let none) = DisplayCard.choose([]) else { return }
        #expect(none.message.contains("(no card)"))
    }

    /// Cards by number, not by the folder's order ("card10" after "card2"); a file that is no DRM device has no
    /// mode setting.
    @Test func cardsAreSurveyedByNumber() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["card10", "renderD128", "card2", "card0", "cardx"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let cards = DisplayCard.survey(folder: folder.path)
        #expect(cards.map(\.number) == [0, 2, 10])
        #expect(cards.allSatisfy { $0.state == .noModeSetting })
    }

    /// Who holds the card: a process with it open, else the display servers running; never the kiosk itself.
    @Test func theHoldersAreNamed() throws {
        let proc = folder.appendingPathComponent("proc").path
        let fm = FileManager.default
        defer { try? fm.removeItem(at: folder) }
        func process(_ pid: Int, _ comm: String, fds: [String: String]) throws {
            let dir = "\(proc)/\(pid)"
            try fm.createDirectory(atPath: dir + "/fd", withIntermediateDirectories: true)
            try (comm + "\n").write(toFile: dir + "/comm", atomically: false, encoding: .utf8)
            for (fd, target) in fds {
                try fm.createSymbolicLink(atPath: "\(dir)/fd/\(fd)", withDestinationPath: target)
            }
        }
        try process(100, "bash", fds: ["1": "/dev/null"])
        try process(150, "labwc", fds: [:])
        try process(300, "kiosk", fds: ["7": "/dev/dri/card1"])
        #expect(
            DisplayHolders.processes(card: "/dev/dri/card1", proc: proc, me: 300) == "running here, labwc (pid 150)")
        try process(412, "cage", fds: ["3": "/dev/dri/card1", "4": "/dev/tty7"])
        #expect(DisplayHolders.processes(card: "/dev/dri/card1", proc: proc, me: 300) == "cage (pid 412)")
        // A second kiosk holding the card is named as one.
        #expect(
            DisplayHolders.processes(card: "/dev/dri/card1", proc: proc, me: 1) == "kiosk (pid 300), cage (pid 412)")
        // Nobody seen with card0 open: the display servers running are named, and nothing when there are none.
        try fm.removeItem(atPath: "\(proc)/150")
        #expect(DisplayHolders.processes(card: "/dev/dri/card0", proc: proc, me: 300) == "running here, cage (pid 412)")
        try fm.removeItem(atPath: "\(proc)/412")
        #expect(DisplayHolders.processes(card: "/dev/dri/card0", proc: proc, me: 300) == nil)
    }

    /// Where other users' processes cannot be seen (the unit's ProtectProc=invisible): logind's graphical
    /// sessions and the display manager.
    @Test func sessionsAndTheDisplayManagerAreNamed() throws {
        let fm = FileManager.default
        defer { try? fm.removeItem(at: folder) }
        let run = folder.appendingPathComponent("run").path
        let etc = folder.appendingPathComponent("etc").path
        try fm.createDirectory(atPath: run + "/sessions", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: etc + "/systemd/system", withIntermediateDirectories: true)
        #expect(DisplayHolders.named(card: "/dev/dri/card0", proc: folder.path, run: run, etc: etc) == nil)
        try "UID=1000\nUSER=pi\nTYPE=wayland\nSEAT=seat0\nSERVICE=lightdm-autologin\nLEADER=812\n"
            .write(toFile: run + "/sessions/2", atomically: false, encoding: .utf8)
        try "UID=0\nNAME=root\nTYPE=tty\nSEAT=seat0\n".write(
            toFile: run + "/sessions/1", atomically: false, encoding: .utf8)
        try "".write(toFile: run + "/sessions/2.ref", atomically: false, encoding: .utf8)
        try fm.createSymbolicLink(
            atPath: etc + "/systemd/system/display-manager.service",
            withDestinationPath: "/lib/systemd/system/lightdm.service")
        #expect(
            DisplayHolders.named(card: "/dev/dri/card0", proc: folder.path, run: run, etc: etc)
                == "a wayland session of pi (lightdm-autologin, pid 812); the display manager lightdm.service")
    }
}
