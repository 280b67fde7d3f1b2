import EventLog

/// The timed rules as the app applies them each frame: Presence decides when each is due, the app acts (goes
/// home, blanks, plays the attract loop).
extension KioskApp {
    /// The timed rules, in their order: the screen blanks for want of input; the idle reset takes the kiosk
    /// home at its opening state (home first, then blank or attract); the opening hours; the attract loop.
    func applyTimedRules() {
        if presence.blankIsDue(at: now, touchHeld: touches.isHolding, sceneAtRest: scene.isAtRest) { blank(.idle) }
        if presence.stillThereIsDue(at: now, sceneAtRest: scene.isAtRest) {
            presence.screen = .askingStillThere(since: now)
            sink.add(TraceEvent(.stillThereShown))
        }
        if presence.idleResetIsDue(at: now, sceneAtRest: scene.isAtRest) {
            if presence.isAskingStillThere { presence.screen = .scenes }
            presence.becomeIdle(at: now)
            sink.add(TraceEvent(.idleReset))
            navigator.resetLanguage()
            if scene.config.id != manifest.home {
                show(scene: manifest.home)
            } else {
                scene.reset(animated: true)
            }
        }
        applyHours()
        applyAttract()
    }

    // MARK: The attract loop

    /// Images the kiosk will show soon, for the SDL layer to decode ahead: while the attract loop plays, its
    /// next step's scene; in the last `attractPrepareMs` before it starts, the scenes of all its steps (once
    /// shown they stay loaded anyway, so this adds no memory: it only makes them ready while nothing moves).
    public var upcomingImagePaths: [String] {
        guard let attract = manifest.attract else { return [] }
        let scenes: [String]
        if let loop = presence.attractLoop {
            scenes = [attract.steps[(loop.step + 1) % attract.steps.count].scene]
        } else if presence.attractIsNear(at: now) {
            scenes = attract.steps.map(\.scene)
        } else {
            return []
        }
        var seen: Set<String> = [scene.config.id]
        return scenes.filter { seen.insert($0).inserted }.flatMap {
            manifest.scene($0)?.imagePaths(in: navigator.languages.current) ?? []
        }
    }

    /// Starts the loop when it is due, and plays it.
    func applyAttract() {
        let quiet = scene.isAtRest && transition == nil
        if presence.attractLoop == nil, presence.attractIsDue(at: now, touchHeld: touches.isHolding, quiet: quiet),
            let attract = manifest.attract
        {
            presence.screen = .attracting(AttractLoop(attract, at: now))
            sink.add(TraceEvent(.attractDidStart))
            beginAttractStep()
        }
        guard let loop = presence.attractLoop, transition == nil else { return }
        if loop.advance(at: now) { return beginAttractStep() }
        if loop.place(scene, at: now) { scene.turnPage(1, wrapping: true) }
    }

    func beginAttractStep() {
        guard let loop = presence.attractLoop else { return }
        sink.add(TraceEvent(.attractStep(index: loop.step)))
        if loop.current.scene != scene.config.id {
            show(scene: loop.current.scene)
        } else {
            reopen()
        }
        _ = loop.place(scene, at: now)
    }

    /// The first touch ends the loop (that touch does nothing else) and the kiosk shows home, at rest, with a
    /// fade.
    func endAttract() {
        guard presence.attractLoop != nil else { return }
        presence.screen = .scenes
        sink.add(TraceEvent(.attractDidEnd))
        if scene.config.id != manifest.home {
            show(scene: manifest.home, style: .fade)
        } else {
            reopen()
        }
    }

    /// The screen goes blank; an attract loop playing ends (without going home: the screen is dark).
    func blank(_ reason: Presence.BlankReason) {
        let wasAttracting = presence.attractLoop != nil
        presence.screen = .blank(reason)
        sink.add(
            TraceEvent(.screenDidBlank(reason: reason)))
        if wasAttracting { sink.add(TraceEvent(.attractDidEnd)) }
    }

    /// Outside the opening hours the screen is blank, unless a touch woke it: then until the idle reset. When
    /// the kiosk opens, a screen blank for the hours wakes by itself.
    func applyHours() {
        guard let hours = hoursNow else { return }
        if hours.open {
            if presence.blankReason == .hours {
                presence.screen = .scenes
                sink.add(TraceEvent(.screenDidWake))
            }
            return
        }
        let quiet = scene.isAtRest && transition == nil
        if presence.closedBlankIsDue(at: now, touchHeld: touches.isHolding, quiet: quiet) { blank(.hours) }
    }

    /// The opening hours now, read once on the wall clock: open or not, and when they next open or close the
    /// kiosk on its own clock (nil: no hours, or no wall clock known, and the kiosk is always open).
    var hoursNow: (open: Bool, changeAt: Double?)? {
        guard let hours = manifest.openingHours, let wallClock else { return nil }
        let wall = wallClock(now)
        let state = hoursWatch.state(of: hours, at: wall, calendar: calendar)
        return (state.open, state.until.map { now + ($0 - wall) * 1000 })
    }

    /// When the kiosk's own timers next have something to do (blanking the screen, the idle reset), in its
    /// clock's milliseconds; nil when none is pending. A sleeping frame loop wakes then, not before.
    public var nextDeadline: Double? {
        if let toolScreen { return toolScreen.deadline }
        let hours = hoursNow
        var deadlines = presence.dueTimes(
            at: now, touchHeld: touches.isHolding, closed: hours?.open == false, hoursChange: hours?.changeAt)
        if let t = transition { deadlines.append(t.end) }
        return deadlines.min()
    }
}
