import CDisplayPower
import Foundation
import Kiosk

/// The DRM card the kiosk shows on under kmsdrm: the first, by number, with mode setting and a connected
/// connector. Cards come in an order that can change across reboots (a Raspberry Pi 5's render-only card and its
/// display card; vgem), and SDL 2.26 takes the first it reads from the folder, unsorted: the kiosk chooses, names
/// its choice at start and hands SDL its number (`SDL_HINT_KMSDRM_DEVICE_INDEX`).
struct DisplayCard: Equatable {
    /// What one card drives, as `kiosk_drm_card_survey` saw it.
    enum State: Equatable {
        case drives(connectors: String)
        case noModeSetting
        case nothingConnected
        /// Connected, but another process is its DRM master.
        case held(connectors: String)
        case unopenable(reason: String)
    }

    let number: Int
    let state: State

    var path: String { "/dev/dri/card\(number)" }

    /// The cards in `folder`, by number, each surveyed.
    static func survey(folder: String = "/dev/dri") -> [DisplayCard] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbers = names.compactMap { $0.hasPrefix("card") ? Int($0.dropFirst(4)) : nil }.sorted()
        return numbers.map { number in
            var out = [CChar](repeating: 0, count: 256)
            let code = kiosk_drm_card_survey("\(folder)/card\(number)", &out, out.count)
            let said = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let state: State =
                switch code {
                case 0: .drives(connectors: said)
                case 1: .noModeSetting
                case 2: .nothingConnected
                case 3: .held(connectors: said)
                default: .unopenable(reason: said)
                }
            return DisplayCard(number: number, state: state)
        }
    }

    /// The card to show on, or the one line that says why there is none and what to do. `holders` names who
    /// holds a card (`DisplayHolders.named`).
    static func choose(
        _ cards: [DisplayCard], folder: String = "/dev/dri", holders: (String) -> String? = { _ in nil }
    ) -> Result<DisplayCard, KioskError> {
        if let card = cards.first(where: { if case .drives = $0.state { true } else { false } }) {
            return .success(card)
        }
        if let card = cards.first(where: { if case .held = $0.state { true } else { false } }),
            case .held(let connectors) = card.state
        {
            return .failure(held(card.path, connectors: connectors, by: holders(card.path)))
        }
        let seen = cards.map { "card\($0.number) \($0.said)" }.joined(separator: ", ")
        return .failure(
            .other(
                "no display: no DRM card in \(folder) drives a connected screen (\(seen.isEmpty ? "no card" : seen)); "
                    + "check the panel's cable and that the kiosk's user may open \(folder)/card*"))
    }

    /// The line for a card another program is the DRM master of: who, where that can be seen, and the two ways.
    static func held(_ path: String, connectors: String, by who: String?) -> KioskError {
        .other(
            "the display is held: another program is the DRM master of \(path)"
                + (connectors.isEmpty ? "" : " (\(connectors))")
                + (who.map { ": \($0)" } ?? " (not visible to this user)")
                + "; stop it to run the kiosk on the console (its unit), or run the kiosk as a Wayland client under "
                + "it (docs/deploying.md, \"Under a compositor\")")
    }

    /// For the start's line: "card1 (HDMI-A-1)".
    var named: String {
        if case .drives(let connectors) = state { return "card\(number) (\(connectors))" }
        return "card\(number)"
    }

    private var said: String {
        switch state {
        case .drives(let connectors), .held(let connectors): connectors
        case .noModeSetting: "no mode setting"
        case .nothingConnected: "nothing connected"
        case .unopenable(let reason): reason
        }
    }
}

/// Who holds a DRM card, as far as this user can see: the processes with the card open (their `/proc/PID/fd`
/// readable: the same user's, or all for root), else the display servers running; then the graphical sessions
/// logind keeps (`/run/systemd/sessions`, readable by anyone: the unit's `ProtectProc=invisible` hides other
/// users' processes) and the display manager enabled.
enum DisplayHolders {
    /// All that can be seen, joined: "cage (pid 412); a wayland session of pi (lightdm-autologin)"; nil when
    /// nothing can.
    static func named(card path: String, proc: String = "/proc", run: String = "/run/systemd", etc: String = "/etc")
        -> String?
    {
        let clues = [processes(card: path, proc: proc), sessions(run: run), displayManager(etc: etc)]
        let seen = clues.compactMap { $0 }
        return seen.isEmpty ? nil : seen.joined(separator: "; ")
    }

    /// The graphical sessions logind has on a seat (its files name the user USER=): "a wayland session of pi
    /// (lightdm-autologin, pid 812)".
    static func sessions(run: String = "/run/systemd") -> String? {
        let folder = "\(run)/sessions"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.contains(".") }
        let said = files.sorted().compactMap { name -> String? in
            guard let text = try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8) else { return nil }
            var keys: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let eq = line.firstIndex(of: "=") else { continue }
                keys[String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
            guard let type = keys["TYPE"], ["wayland", "x11", "mir"].contains(type), keys["SEAT"] != nil else {
                return nil
            }
            let how = [keys["SERVICE"], keys["LEADER"].map { "pid \($0)" }].compactMap { $0 }
            return "a \(type) session of \(keys["USER"] ?? keys["NAME"] ?? "a user")"
                + (how.isEmpty ? "" : " (\(how.joined(separator: ", ")))")
        }
        return said.isEmpty ? nil : said.joined(separator: ", ")
    }

    /// The display manager systemd starts at boot: "the display manager lightdm.service".
    static func displayManager(etc: String = "/etc") -> String? {
        let link = "\(etc)/systemd/system/display-manager.service"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return nil }
        return "the display manager \(URL(fileURLWithPath: target).lastPathComponent)"
    }

    /// Display servers and compositors a kiosk meets: Raspberry Pi OS's desktops (labwc, wayfire, X), cage,
    /// weston, GNOME's and KDE's, a second kiosk.
    static let displayServers: Set<String> = [
        "labwc", "wayfire", "cage", "weston", "sway", "Xorg", "X", "gnome-shell", "kwin_wayland", "mutter",
        "kiosk", "plymouthd", "lightdm", "gdm3", "sddm",
    ]

    /// "cage (pid 412)", "labwc (pid 9), Xwayland (pid 30)"; nil when nobody can be seen.
    static func processes(card path: String, proc: String = "/proc", me: Int32 = getpid()) -> String? {
        let fm = FileManager.default
        let pids = ((try? fm.contentsOfDirectory(atPath: proc)) ?? []).compactMap(Int32.init).filter { $0 != me }
            .sorted()
        func comm(_ pid: Int32) -> String {
            ((try? String(contentsOfFile: "\(proc)/\(pid)/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let openers = pids.filter { pid in
            let fds = (try? fm.contentsOfDirectory(atPath: "\(proc)/\(pid)/fd")) ?? []
            return fds.contains { (try? fm.destinationOfSymbolicLink(atPath: "\(proc)/\(pid)/fd/\($0)")) == path }
        }
        let seen = openers.isEmpty ? pids.filter { displayServers.contains(comm($0)) } : openers
        guard !seen.isEmpty else { return nil }
        let names = seen.prefix(4).map { "\(comm($0)) (pid \($0))" }.joined(separator: ", ")
        return openers.isEmpty ? "running here, \(names)" : names
    }
}
