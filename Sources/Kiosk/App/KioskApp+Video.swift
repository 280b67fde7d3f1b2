import ScrollEngine

/// Video scenes (docs/video.md), the router's side: the core says which film plays and for how long (a
/// `VideoShot` in the frame's draw list); the host decodes and shows it and says back what it showed and what
/// happened, as the frame's trace events and line.
extension KioskApp {
    /// Each frame: the scene shown, if it is a film that has not begun since it opened, begins now (a new playback,
    /// from its first frame, each time its scene opens) — once the change to its scene is over: a transition
    /// shows its poster (it draws the scene once, and a film begun under it would be begun again after it).
    /// On a carousel the film is its current page's: a page's film swiped away pauses where it is (`videoDidPause`)
    /// and waits for its page to come back, when it plays on (`videoDidResume`); a page's film not seen before
    /// begins.
    func startFilm() {
        let page = scene.filmPage
        guard transition == nil, scene.film.clock == nil || scene.film.page != page else { return }
        var f = scene.film
        defer { scene.film = f }
        if var away = f.clock, let old = f.page, let video = scene.film(page: old) {
            let wasPaused = away.isPaused
            away.pause(at: now)
            f.parked[old] = SceneFilm.Parked(clock: away, wasPaused: wasPaused, failed: f.failed)
            f.failed = false
            if !wasPaused { sink.add(TraceEvent(view: scene.config.id, .videoDidPause(video: video.path))) }
            f.clock = nil
        }
        f.page = page
        guard let video = scene.film(page: page) else { return }
        if let back = f.parked.removeValue(forKey: page ?? -1) {
            var clock = back.clock
            f.failed = back.failed
            if !back.wasPaused {
                clock.resume(at: now)
                sink.add(TraceEvent(view: scene.config.id, .videoDidResume(video: video.path)))
            }
            f.clock = clock
            return
        }
        film.sessions += 1
        f.failed = false
        f.clock = FilmClock(start: now, session: film.sessions)
        film.pts = nil
    }

    /// Each frame, the controls' timed rule (`FilmControls.step`): they hide when their time is up, and show while
    /// the keys' focus is on one.
    /// A change is `videoControlsDidChange`: the frame that shows it is drawn (a paused film's kiosk sleeps).
    func stepFilmControls() {
        guard scene.config.type == .video else { return }
        let was = scene.film.controls.isShown
        scene.film.controls.step(at: now, focused: access.focused?.hasPrefix("chrome:film:") == true)
        controlsChanged(from: was)
    }

    private func controlsChanged(from was: Bool) {
        let shown = scene.film.controls.isShown
        if shown != was { sink.add(TraceEvent(view: scene.config.id, .videoControlsDidChange(shown: shown))) }
    }

    /// A tap on the film or one of its controls (or a key on one): the film shows or hides its controls; play/pause
    /// pauses it where it is or plays it on (`videoDidPause`, `videoDidResume`), start again plays it from its
    /// first frame (a new playback), captions turns them off or on. Every button keeps the controls shown.
    func tapFilm(_ id: String) {
        guard let video = scene.config.video else { return }
        let was = scene.film.controls.isShown
        var f = scene.film
        defer {
            scene.film = f
            controlsChanged(from: was)
        }
        guard let action = FilmControls.Action(id: id) else {
            if f.controls.isShown { f.controls.shownUntil = nil } else { f.controls.show(at: now) }
            return
        }
        f.controls.show(at: now)
        switch action {
        case .playPause:
            guard var clock = f.clock, !f.failed else { return }
            if clock.isPaused {
                clock.resume(at: now)
                sink.add(TraceEvent(view: scene.config.id, .videoDidResume(video: video.path)))
            } else {
                clock.pause(at: now)
                sink.add(TraceEvent(view: scene.config.id, .videoDidPause(video: video.path)))
            }
            f.clock = clock
        case .again:
            // A new playback from the first frame, begun by this frame's `startFilm`.
            f.clock = nil
        case .captions:
            f.controls.captionsOn.toggle()
        }
    }

    /// The films `scene` shows now and how long each has played: its own, or its pages' (the current page's
    /// playing, those swiped away paused where they are; none before one begins).
    func videoShots(of scene: Scene) -> [VideoShot] {
        let f = scene.film
        // Typed: Swift 6.0 (Debian 13's, the arm64 package's compiler) infers [Any] for the sum.
        let clocks: [(Int?, FilmClock)] =
            (f.clock.map { [(f.page, $0)] } ?? [])
            + f.parked.sorted { $0.key < $1.key }.map { ($0.key, $0.value.clock) }
        return clocks.compactMap { page, clock in
            guard let video = scene.film(page: page) else { return nil }
            return VideoShot(
                path: video.path, box: scene.filmBox(page: page), fit: video.fit, time: clock.seconds(at: now),
                session: clock.session, loops: video.loops, paused: clock.isPaused, sound: video.sound)
        }
    }

    /// What the host's video did this frame: the frame it showed (its time and number in the clip, for the frame
    /// line) and its events.
    func videoDid(_ events: [TraceEvent.Kind], shown: (pts: Double, frame: Int)?) {
        for e in events {
            sink.add(TraceEvent(view: scene.config.id, e))
            switch e {
            case .videoDidEnd: film.ended = scene.film.clock?.session
            case .videoDidFail:
                film.ended = scene.film.clock?.session
                // A film that cannot play is not playing: its clock stops, and swiping its page away and back,
                // or its play button, says nothing of a pause or a resume that never were.
                scene.film.clock?.pause(at: now)
                scene.film.failed = true
            default: break
            }
        }
        film.shown = shown
        if let shown, let session = scene.film.clock?.session { film.pts = (session, shown.pts) }
    }

    /// Each frame: the caption of the film on screen, in the visitor's language, at the time of the frame the host
    /// showed last (a frame behind, well within the 100 ms a cue may be late); a change is `captionDidChange`,
    /// and said in audio mode (EN 301 549 5.1.3: captions are heard).
    func showCaption() {
        var text: String?
        if let video = scene.filmShown, scene.film.controls.captionsOn, let at = film.pts,
            at.session == scene.film.clock?.session,
            let track = video.captions(in: language, fallback: navigator.languages.first)
        {
            text = track.text(at: at.pts)
        }
        guard text != film.caption else { return }
        film.caption = text
        sink.add(TraceEvent(view: scene.config.id, .captionDidChange(text: text)))
        if access.audio, let text { access.say(Utterance(text: text, language: captionLanguage(of: scene))) }
    }

    /// The language the caption is in: the visitor's where the film has a track in it, else its fallback's.
    func captionLanguage(of scene: Scene) -> String {
        guard let video = scene.filmShown, video.captions[language] == nil else { return language }
        return video.captions[navigator.languages.first] != nil ? navigator.languages.first : language
    }

    /// The caption over the film: the kiosk's words on a plate, centred in a band above the bottom edge (a gallery
    /// page's: above its page's caption and the page dots, moving with its page), two lines at most (larger with
    /// larger text, right to left in Arabic).
    func captionRun(in scene: Scene) -> TextRun? {
        guard let caption = film.caption, !caption.isEmpty else { return nil }
        let margin = 48.0
        let height = WordStyle.captionBandHeight
        var x = 0.0
        var bottom = scene.size.height
        if let page = scene.film.page {
            let band = scene.captionBand(x: scene.pageOrigin(page).x)
            x = band.minX
            bottom = page < scene.config.captions.count && scene.config.captions[page] != nil ? band.minY : band.maxY
        }
        return TextRun(
            caption, language: captionLanguage(of: scene), size: WordStyle.captionSize, color: WordStyle.white,
            rect: Rect(
                x: x + margin, y: bottom - height - margin / 2, width: max(0, scene.size.width - 2 * margin),
                height: height),
            wraps: true, plate: WordStyle.labelPlate)
    }
}

/// The films played, as the router keeps them: playbacks begun so far (each `VideoShot` its own number), the
/// frame the host last said it showed (for the frame line), where in its clip the film on screen is as the host
/// last showed it (its playback's number with it), the caption that shows (`captionDidChange`), and the last
/// playback that ended or failed (an attract step waits for it).
struct FilmPlayback {
    var sessions = 0
    var ended: Int?
    var shown: (pts: Double, frame: Int)?
    var pts: (session: Int, pts: Double)?
    var caption: String?
}
