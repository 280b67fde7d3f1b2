import EventLog

/// The timed rules as the app applies them each frame: Presence decides when each is due, the app acts (goes
/// home, blanks, plays the attract loop).
extension KioskApp {
    /// The timed rules, in their order: a jump of the wall clock is noticed; the screen blanks for want of
    /// input; the idle reset takes the kiosk home at its opening state (home first, then blank or attract), with
    /// the schedule's choice; the schedule; the opening hours; the attract loop.
    func applyTimedRules() {
        noticeClockJump()
        if presence.blankIsDue(at: now, touchHeld: touches.isHolding, sceneAtRest: scene.isAtRest) { blank(.idle) }
        if presence.stillThereIsDue(at: now, sceneAtRest: scene.isAtRest) {
            changeScreen(to: .askingStillThere(since: now))
        }
        if presence.idleResetIsDue(at: now, sceneAtRest: scene.isAtRest) {
            if presence.isAskingStillThere { changeScreen(to: .scenes) }
            presence.becomeIdle(at: now)
            sink.add(TraceEvent(.idleReset))
            access.reset(sink: sink)
            layOut()
            adoptSchedule(goingHome: false)
            navigator.resetLanguage()
            if scene.config.id != navigator.home {
                show(scene: navigator.home)
            } else {
                scene.reset(animated: true)
            }
        }
        applySchedule()
        applyHours()
        applyAttract()
    }

    // MARK: The wall clock and the schedule

    /// The wall clock now when it can be trusted (nil: none known, or not synchronised yet).
    var trustedWall: Double? {
        guard let wallTime, wallTime.isSynchronized else { return nil }
        return wallTime.unix(at: now)
    }

    /// A jump of the wall clock, either way, is noticed at the next frame: the hours and the schedule are read
    /// again at once.
    func noticeClockJump() {
        guard let wallTime, let jump = wallRules.jumps.jump(wall: wallTime.unix(at: now), at: now) else { return }
        sink.add(TraceEvent(.clockDidJump(seconds: jump)))
        wallRules.hours = HoursWatch()
        wallRules.schedule.forget()
    }

    /// What the schedule wants now, and when that may change on the kiosk's clock (nil: no schedule; the
    /// manifest's own while the wall clock is not trusted).
    var scheduleNow: (wanted: ScheduleRule.Wanted, changeAt: Double?)? {
        guard let schedule = manifest.schedule else { return nil }
        guard let wall = trustedWall else { return (ScheduleRule.Wanted(entry: nil, choice: .standard), nil) }
        let calendar = wallRules.calendar
        let w = wallRules.schedule.wanted(schedule, at: wall, calendar: calendar)
        return (w.wanted, now + (w.until - wall) * 1000)
    }

    /// The schedule's choice takes effect while nobody is here (idle, and at rest or in the attract loop) or
    /// the screen is blank; a visitor's session waits for its idle reset.
    func applySchedule() {
        guard let wanted = scheduleNow?.wanted, wanted != wallRules.schedule.inEffect else { return }
        let nobodyHere = presence.isIdle && transition == nil && (scene.isAtRest || presence.attractLoop != nil)
        if presence.isBlanked || nobodyHere { adoptSchedule(goingHome: true) }
    }

    /// The schedule's choice now takes effect: its home and attract set (a loop of another set ends); an idle
    /// kiosk goes to the new home (`goingHome`; the idle reset goes there itself, and a loop that plays on
    /// returns there when it ends).
    func adoptSchedule(goingHome: Bool) {
        guard let wanted = scheduleNow?.wanted, wallRules.schedule.adopt(wanted) else { return }
        navigator.home = wanted.choice.home ?? manifest.home
        let attract = wanted.choice.attract.flatMap { manifest.attractSets[$0] } ?? manifest.attract
        sink.add(
            TraceEvent(.scheduleDidApply(entry: wanted.entry, home: navigator.home, attract: wanted.choice.attract)))
        if attract != presence.rules.attract {
            presence.rules.attract = attract
            if presence.attractLoop != nil {
                changeScreen(to: .scenes)
                presence.becomeIdle(at: now)
            }
        }
        guard goingHome, presence.isIdle, presence.attractLoop == nil, scene.config.id != navigator.home else { return }
        show(scene: navigator.home, style: hasShownAFrame && !presence.isBlanked ? nil : TransitionStyle.none)
    }

    // MARK: The attract loop

    /// Images the kiosk will show soon, for the SDL layer to decode ahead: while the attract loop plays, its
    /// next step's scene; in the last `attractPrepareMs` before it starts, the scenes of all its steps (once
    /// shown they stay loaded anyway, within the pictures' budget, so this adds no memory: it only makes them
    /// ready while nothing moves).
    public var upcomingImagePaths: [String] {
        guard let attract = presence.rules.attract else { return [] }
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
            let attract = presence.rules.attract
        {
            changeScreen(to: .attracting(AttractLoop(attract, at: now)))
            beginAttractStep()
        }
        guard let loop = presence.attractLoop, transition == nil else { return }
        let filmEnded = film.ended != nil && film.ended == scene.film.clock?.session
        if loop.advance(at: now, filmEnded: filmEnded) { return beginAttractStep() }
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
        changeScreen(to: .scenes, byVisitor: true)
        if scene.config.id != navigator.home {
            show(scene: navigator.home, style: .fade)
        } else {
            reopen()
        }
    }

    /// The screen goes blank; an attract loop playing ends (without going home: the screen is dark).
    func blank(_ reason: Presence.BlankReason) { changeScreen(to: .blank(reason)) }

    /// The screen changes (`Presence.change`), and the frame's events say so.
    func changeScreen(to new: Presence.Screen, byVisitor: Bool = false) {
        for kind in presence.change(to: new, byVisitor: byVisitor) { sink.add(TraceEvent(kind)) }
    }

    /// Outside the opening hours the screen is blank, unless a touch woke it: then until the idle reset. When
    /// the kiosk opens, a screen blank for the hours wakes by itself.
    func applyHours() {
        guard let hours = hoursNow else { return }
        if hours.open {
            if presence.blankReason == .hours { changeScreen(to: .scenes) }
            return
        }
        let quiet = scene.isAtRest && transition == nil
        if presence.closedBlankIsDue(at: now, touchHeld: touches.isHolding, quiet: quiet) { blank(.hours) }
    }

    /// The opening hours and the schedule's closed days now, read once on the wall clock: open or not, and when
    /// that may next change on the kiosk's own clock (nil: neither, or no trusted wall clock, and the kiosk is
    /// always open).
    var hoursNow: (open: Bool, changeAt: Double?)? {
        guard let wall = trustedWall else { return nil }
        let calendar = wallRules.calendar
        let hours = manifest.openingHours.map { wallRules.hours.state(of: $0, at: wall, calendar: calendar) }
        let scheduled = scheduleNow
        guard hours != nil || scheduled != nil else { return nil }
        let open = (hours?.open ?? true) && scheduled?.wanted.choice.closed != true
        let changes = [hours?.until.map { now + ($0 - wall) * 1000 }, scheduled?.changeAt].compactMap { $0 }
        return (open, changes.min())
    }

    /// When the kiosk's own timers next have something to do (blanking the screen, the idle reset), in its
    /// clock's milliseconds; nil when none is pending. A sleeping frame loop wakes then, not before.
    public var nextDeadline: Double? {
        if let toolScreen { return toolScreen.deadline }
        let hours = hoursNow
        var deadlines = presence.dueTimes(
            at: now, touchHeld: touches.isHolding, closed: hours?.open == false, hoursChange: hours?.changeAt)
        if let t = transition { deadlines.append(t.end) }
        if let controls = scene.film.controls.shownUntil { deadlines.append(controls) }
        if access.audio, let d = access.explorer.deadline { deadlines.append(d) }
        if let d = access.jack.deadline { deadlines.append(d) }
        return deadlines.min()
    }
}

/// What the timed rules last read on the wall clock: the calendar it is read on, the opening hours' state, the
/// schedule's choice wanted and in effect, and the wall clock's advance against the kiosk's (where a jump shows).
struct WallRules {
    /// The wall clock as the host last read it (none: never given one).
    var time: WallTime?
    var calendar = LocalCalendar.system
    var hours = HoursWatch()
    var schedule = ScheduleRule()
    var jumps = ClockWatch()
}
