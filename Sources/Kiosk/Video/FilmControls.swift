import ScrollEngine

/// A film's playback as the core times it (docs/video.md): begun at `start` (kiosk ms) as playback `session` (a new
/// number each time it plays from its first frame), paused since `pausedAt` while it is. Its time does not run
/// while it is paused: resuming moves its start on by the pause.
struct FilmClock: Equatable {
    var start: Double
    var session: Int
    var pausedAt: Double?

    var isPaused: Bool { pausedAt != nil }

    /// How long it has played at `now`, in seconds.
    func seconds(at now: Double) -> Double { max(0, (pausedAt ?? now) - start) / 1000 }

    mutating func pause(at now: Double) {
        if pausedAt == nil { pausedAt = now }
    }

    mutating func resume(at now: Double) {
        guard let pausedAt else { return }
        start += now - pausedAt
        self.pausedAt = nil
    }
}

/// A video scene's film as its scene keeps it: its playback (nil until it is first drawn; a new one each time the
/// scene opens) and its controls.
struct SceneFilm: Equatable {
    var clock: FilmClock?
    var controls = FilmControls()
    /// A carousel's: the page whose film the clock times, and the films of pages swiped away, paused where they
    /// were (`wasPaused`: by the visitor, before the swipe: it stays paused when its page comes back).
    var page: Int?
    var parked: [Int: Parked] = [:]
    /// The host said the film the clock times cannot play (`videoDidFail`): its clock is stopped.
    var failed = false

    struct Parked: Equatable {
        var clock: FilmClock
        var wasPaused: Bool
        var failed = false
    }
}

/// A film's controls (docs/video.md): a tap on the film shows play/pause, start again and captions on/off for a
/// few seconds, a tap beside them hides them, as AVPlayerViewController's playback controls come and go. They are
/// chrome: as large as the other controls (64 pt), in its material, reached by the keys (`chrome:film…`); while
/// the keys' focus is on one they stay.
struct FilmControls: Equatable {
    /// The contract's "a few seconds".
    static let shownMs = 5000.0
    static let size = 64.0

    /// Until when they show (kiosk ms), nil while hidden.
    var shownUntil: Double?
    /// The visitor's choice: captions show (the default) or not.
    var captionsOn = true

    var isShown: Bool { shownUntil != nil }

    enum Action: String, CaseIterable {
        case again, playPause, captions
        /// The chrome's id of its button.
        var id: String { Self.prefix + rawValue }
        static let prefix = "\u{0}film:"
        init?(id: String) {
            guard id.hasPrefix(Self.prefix) else { return nil }
            self.init(rawValue: String(id.dropFirst(Self.prefix.count)))
        }
    }

    /// The whole film: a tap on it shows (or hides) the controls.
    static let filmID = "\u{0}film"

    mutating func show(at now: Double) { shownUntil = now + Self.shownMs }

    /// The timed rule: they hide when their time is up; while the keys' focus is on one of them they show.
    mutating func step(at now: Double, focused: Bool) {
        guard let until = shownUntil else {
            if focused { show(at: now) }
            return
        }
        if now >= until { shownUntil = focused ? now + Self.shownMs : nil }
    }

    /// The buttons in a row across the middle of the screen: start again, play/pause and, for a film with captions,
    /// captions on/off (the order of a player's transport controls, not mirrored in a right-to-left language).
    static func frames(in size: Size, captions: Bool) -> [(Action, Rect)] {
        let actions = captions ? Action.allCases : [.again, .playPause]
        let width = Double(actions.count) * (Self.size + 1) - 1
        let x = (size.width - width) / 2
        let y = (size.height - Self.size) / 2
        return actions.enumerated().map { i, a in
            (a, Rect(x: x + Double(i) * (Self.size + 1), y: y, width: Self.size, height: Self.size))
        }
    }

    /// The buttons drawn: one panel of the chrome's material with hairlines between them; pause's two bars or
    /// play's triangle, start again's bar and triangle, and "CC" underlined in the tint while captions show.
    func commands(in size: Size, paused: Bool, captions: Bool) -> [DrawCommand] {
        let frames = Self.frames(in: size, captions: captions)
        guard let first = frames.first?.1, let last = frames.last?.1 else { return [] }
        var out: [DrawCommand] = [
            .fill(Rect(x: first.minX, y: first.minY, width: last.maxX - first.minX, height: Self.size), ChromeStyle.bar)
        ]
        for (_, r) in frames.dropFirst() {
            out.append(
                .fill(Rect(x: r.minX - 1, y: r.minY + 12, width: 1, height: r.height - 24), ChromeStyle.separator))
        }
        for (action, r) in frames {
            switch action {
            case .again:
                out.append(.fill(Rect(x: r.midX - 13, y: r.midY - 13, width: 4, height: 26), WordStyle.white))
                out += Self.triangle(in: Rect(x: r.midX - 9, y: r.midY - 13, width: 22, height: 26), pointing: -1)
            case .playPause where paused:
                out += Self.triangle(in: Rect(x: r.midX - 10, y: r.midY - 14, width: 24, height: 28), pointing: 1)
            case .playPause:
                out.append(.fill(Rect(x: r.midX - 11, y: r.midY - 13, width: 8, height: 26), WordStyle.white))
                out.append(.fill(Rect(x: r.midX + 3, y: r.midY - 13, width: 8, height: 26), WordStyle.white))
            case .captions:
                out.append(
                    .text(
                        TextRun(
                            "CC", language: "en", size: WordStyle.languageNameSize,
                            color: captionsOn ? WordStyle.white : ChromeStyle.dimmed,
                            rect: Rect(x: r.minX, y: r.minY + 8, width: r.width, height: r.height - 20))))
                if captionsOn {
                    out.append(.fill(Rect(x: r.midX - 16, y: r.maxY - 16, width: 32, height: 4), ChromeStyle.tint))
                }
            }
        }
        return out
    }

    /// A triangle drawn as rows a point high (the chrome draws with rectangles), its tip towards `pointing` (1:
    /// right, -1: left).
    static func triangle(in r: Rect, pointing: Double) -> [DrawCommand] {
        let rows = Int(r.height)
        return (0..<rows).map { i in
            let y = Double(i) + 0.5
            let half = r.height / 2
            let width = r.width * (1 - abs(y - half) / half)
            let x = pointing > 0 ? r.minX : r.maxX - width
            return .fill(Rect(x: x, y: r.minY + Double(i), width: width, height: 1), WordStyle.white)
        }
    }
}

extension Scene {
    /// Whether its film has captions (its controls have a captions button).
    var hasCaptionedFilm: Bool { config.video.map { !$0.captions.isEmpty } ?? false }

    /// The page whose film plays: a carousel's current page (nil on the other kinds).
    var filmPage: Int? { config.type == .carousel ? currentPage : nil }

    /// The film playing or last played on the screen: the scene's own, or its current film page's.
    var filmShown: VideoConfig? { film(page: film.page) }

    /// The film of page `page` (a carousel's), or the scene's own (nil).
    func film(page: Int?) -> VideoConfig? {
        guard let page else { return config.video }
        return page < config.pageVideos.count ? config.pageVideos[page] : nil
    }

    /// Where the film of `page` shows now: its page on screen, or the whole screen.
    func filmBox(page: Int?) -> Rect {
        Rect(origin: page.map(pageOrigin) ?? .zero, size: size)
    }
}
