/// The touch a hit target (hotspot) under the first finger has or will have, as UIScrollView delivers it:
/// after `TouchConstants.contentTouchDelay` when the scroll view `delaysContentTouches`, at once otherwise, and
/// taken back (cancelled) when a scroll or zoom claims the touch.
enum ContentTouch {
    case none
    case pending(id: String, deliverAt: Double)
    case delivered(id: String)

    /// The touch a sequence beginning on hit target `id` at `now` gives it.
    init(id: String?, now: Double, delays: Bool) {
        guard let id else {
            self = .none
            return
        }
        self = delays ? .pending(id: id, deliverAt: now + TouchConstants.contentTouchDelay * 1000) : .delivered(id: id)
    }

    /// The target that has the touch delivered.
    var deliveredID: String? {
        if case .delivered(let id) = self { return id }
        return nil
    }

    /// The target the touch is for, delivered or not yet.
    var targetID: String? {
        switch self {
        case .none: nil
        case .pending(let id, _), .delivered(let id): id
        }
    }

    /// When a pending touch is delivered.
    var dueAt: Double? {
        if case .pending(_, let deliverAt) = self { return deliverAt }
        return nil
    }

    /// Delivers a pending touch once its delay has passed; returns its target when it does.
    mutating func deliver(at now: Double) -> String? {
        guard case .pending(let id, let deliverAt) = self, now >= deliverAt else { return nil }
        self = .delivered(id: id)
        return id
    }

    /// Takes the touch back; returns the target that had it delivered (and so is told it was cancelled).
    mutating func cancel() -> String? {
        defer { self = .none }
        return deliveredID
    }
}
