/// How long after coming to rest the picture on screen became complete (`pictureDidSettle`): a kiosk that sleeps
/// before its sharp tiles arrive shows a blurred picture until someone touches it, so the loop draws until the
/// picture is complete, and the log says how long that took.
struct SettleWatch {
    /// What one report says: the milliseconds since the screen came to rest, and whether it came to rest after
    /// a scene was opened (a start, a transition: the idle reset, the attract loop's steps and end, a reload).
    struct Report: Equatable {
        var ms: Double
        var afterOpening: Bool
    }

    /// When the screen came to rest with its picture incomplete.
    private var restAt: Double?
    private var wasAtRest = false
    /// Whether a scene was opened since the last report (true at the start).
    private var opened = true

    /// After a frame at `ms`: a report on the first frame at rest whose picture is `complete` (0 ms when it was
    /// complete at once); nil otherwise. `opening`: a transition between scenes is running.
    mutating func observe(atRest: Bool, opening: Bool, complete: Bool, at ms: Double) -> Report? {
        defer { wasAtRest = atRest }
        if opening { opened = true }
        guard atRest else {
            restAt = nil
            return nil
        }
        if !wasAtRest { restAt = ms }
        guard let since = restAt, complete else { return nil }
        restAt = nil
        defer { opened = false }
        return Report(ms: ms - since, afterOpening: opened)
    }
}
