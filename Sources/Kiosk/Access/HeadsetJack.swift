/// The headset jack as the app hears it (docs/accessibility.md): a plug begins audio mode once it has held for
/// `settleMs`; a pull ends audio mode at once (what it says would be said to the room). A contact that bounces,
/// or a worn jack toggling ten times a second, began audio mode and started a synthesiser at every plug.
struct HeadsetJack {
    /// Our choice: far longer than a contact's bounce (milliseconds), shorter than a visitor waits for the welcome
    /// after plugging in (it is said as the plug settles).
    static let settleMs = 300.0
    /// When the plug now waiting to settle came (nil: none waits).
    private(set) var pluggedAt: Double?

    /// A plug at `ms` (a second plug while one waits changes nothing).
    mutating func plugged(at ms: Double) { pluggedAt = pluggedAt ?? ms }

    /// A pull: the plug waiting, if any, never settles.
    mutating func pulled() { pluggedAt = nil }

    /// When the plug waiting settles, for the loop's sleep.
    var deadline: Double? { pluggedAt.map { $0 + Self.settleMs } }

    /// Whether the plug waiting has settled by `ms`: true once, then it no longer waits.
    mutating func settles(at ms: Double) -> Bool {
        guard let d = deadline, ms >= d else { return false }
        pluggedAt = nil
        return true
    }
}
