extension ScrollView {
    /// Advances every animation to time `t` (seconds), telling the delegate what happened.
    public func step(to t: Double) {
        time = sanitizedTime(t)
        switch activity {
        case .idle:
            break
        case .decelerating(let start, let sx, let sy):
            let local = time - start
            var p = offset
            if let sx { p.x = sx.x(local) }
            if let sy { p.y = sy.x(local) }
            apply(offset: p)
            if sx?.isDone(local) ?? true, sy?.isDone(local) ?? true {
                activity = .idle
                isDecelerating = false
                delegate?.scrollViewDidEndDecelerating(self)
            }
        case .transition(let tr):
            let p = tr.progress(time)
            let s = tr.state(p)
            apply(offset: s.offset, scale: s.scale)
            if p >= 1 { finish(tr) }
        }
        updateIndicatorClock()
    }

    /// Where the current motion will leave the content: a deceleration's rest, an animation's target, else the
    /// offset itself. The kiosk loads the tiles that will be seen there before the content arrives.
    public var restingContentOffset: Point {
        switch activity {
        case .idle: return offset
        case .decelerating(_, let x, let y):
            return Point(x: x?.restPosition ?? offset.x, y: y?.restPosition ?? offset.y)
        case .transition(let tr): return tr.toOffset
        }
    }

    /// Whether nothing moves and no finger is down: stepping further changes nothing but indicator fades.
    public var isAtRest: Bool {
        if case .idle = activity { return !isTracking && !fingerDrags && !isZooming && !isDecelerating }
        return false
    }

    func finish(_ tr: Transition) {
        activity = .idle
        switch tr.kind {
        case .programmatic where tr.endsAtTop:
            delegate?.scrollViewDidScrollToTop(self)
        case .programmatic:
            delegate?.scrollViewDidEndScrollingAnimation(self)
        case .zoomBounce:
            isZoomBouncing = false
        }
    }

    /// Stops whatever animates, where it is. An animation cut short still ends with its end event, so every
    /// begin is matched; a deceleration cut short by a touch stays pending (UIKit: a touch during deceleration
    /// leaves `isDecelerating` true until the next release). A programmatic animation goes on under a touch
    /// that only rests (a tap must not freeze a double-tap zoom halfway); `keepingAnimations` says so.
    func stopMotion(byTouch: Bool, keepingAnimations: Bool = false) {
        switch activity {
        case .idle:
            break
        case .transition(let tr) where keepingAnimations && tr.kind == .programmatic:
            return
        case .decelerating:
            activity = .idle
            if !byTouch {
                isDecelerating = false
                delegate?.scrollViewDidEndDecelerating(self)
            }
        case .transition(let tr):
            activity = .idle
            if tr.kind == .programmatic {
                // A scroll to the top cut short never arrived: UIKit says nothing of it.
                if !tr.endsAtTop { delegate?.scrollViewDidEndScrollingAnimation(self) }
            } else {
                isZoomBouncing = false
            }
        }
        if !byTouch && isDecelerating {
            isDecelerating = false
            delegate?.scrollViewDidEndDecelerating(self)
        }
    }
}
