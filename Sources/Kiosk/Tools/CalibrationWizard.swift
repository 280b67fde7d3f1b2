import EventLog
import ScrollEngine

/// The five-target calibration of docs/deploying.md as a pure state machine: raw finger events in (SDL's normalised
/// positions, before any calibration or `--rotate`), on the kiosk's clock; the target to show, what happened
/// (for the trace and the log) and the outcome out. The screen that draws it and the file it writes are the SDL
/// layer's.
public final class CalibrationWizard {
    /// The targets, in normalised positions of the physical screen: four corners for the fit, the centre to check.
    public static let targets = [
        Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.9), Point(x: 0.1, y: 0.9),
        Point(x: 0.5, y: 0.5),
    ]
    /// A target is taken by a finger held at least this long (docs/deploying.md)…
    public static let minimumHoldMs = 100.0
    /// …that moved at most this fraction of the screen's diagonal (docs/deploying.md).
    public static let maximumTravel = 0.02
    /// The check point must land within this fraction of the diagonal of the centre (docs/deploying.md).
    public static let checkTolerance = 0.025
    /// Two corner targets whose raw positions are closer than this fraction of the diagonal were the same place
    /// touched twice (the targets are 80 % of the screen apart).
    static let minimumSpread = 0.1
    /// Rounds before it gives up (docs/deploying.md).
    public static let maximumRounds = 3
    /// Without a touch for this long it gives up (docs/deploying.md).
    public static let idleTimeoutMs = 30_000.0

    public enum Outcome: Equatable, Sendable {
        case running
        /// The fitted matrix, and the check point's error as a fraction of the diagonal.
        case done(AffineMatrix, residual: Double)
        /// Nothing is written: why.
        case failed(String)
    }

    /// What happened, in order, for the trace (`calibrationTarget`, `calibrationRound`, `calibrationDone`).
    public enum Event: Equatable, Sendable {
        case target(index: Int, raw: Point)
        case round(Int, reason: String)
        case done(AffineMatrix, residual: Double)
    }

    /// The physical screen in pixels (distances are measured on it).
    public let screen: Size
    /// The target shown now: 0 to 4.
    public private(set) var index = 0
    public private(set) var round = 1
    public private(set) var outcome = Outcome.running
    /// Events since the caller last took them (`takeEvents`).
    public private(set) var events: [Event] = []
    /// The raw positions taken for targets 1 to 4 in this round.
    private(set) var taken: [Point] = []
    private var fit: AffineMatrix?
    /// The finger on the target: its id, when it went down, its raw positions; `spoiled` once a second finger
    /// came or it slid too far (then it takes nothing).
    private var finger: (touchId: Int64, fingerId: Int64, down: Double, samples: [Point], spoiled: Bool)?
    /// Fingers down that are not the one on the target.
    private var others = Set<[Int64]>()
    private var lastTouch: Double

    public init(screen: Size, at ms: Double = 0) {
        self.screen = screen
        lastTouch = ms
    }

    /// When it gives up if nothing touches it (the idle loop wakes for it).
    public var deadline: Double { lastTouch + Self.idleTimeoutMs }

    /// Whether a finger is on the target now (the target pulses).
    var isPressed: Bool { finger.map { !$0.spoiled } ?? false }

    func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    /// A finger event: `x`, `y` raw normalised.
    public func handle(
        _ phase: EventLog.FingerPhase, touchId: Int64, fingerId: Int64, x: Double, y: Double, at ms: Double
    ) {
        guard outcome == .running else { return }
        lastTouch = ms
        let p = Point(x: x, y: y)
        let isTheFinger = finger.map { $0.touchId == touchId && $0.fingerId == fingerId } ?? false
        switch phase {
        case .down:
            if finger == nil && others.isEmpty {
                finger = (touchId, fingerId, ms, [p], false)
            } else {
                // Two fingers: whatever the first was doing does not count.
                others.insert([touchId, fingerId])
                finger?.spoiled = true
            }
        case .motion:
            guard isTheFinger, var f = finger else { return }
            f.samples.append(p)
            if distance(f.samples[0], p) > Self.maximumTravel { f.spoiled = true }
            finger = f
        case .up:
            guard isTheFinger, let f = finger else {
                others.remove([touchId, fingerId])
                return
            }
            finger = nil
            var samples = f.samples
            samples.append(p)
            let moved = distance(f.samples[0], p) > Self.maximumTravel
            guard !f.spoiled, !moved, others.isEmpty, ms - f.down >= Self.minimumHoldMs else { return }
            take(median(samples))
        }
    }

    /// The clock moved to `ms`: 30 s without a touch ends it.
    public func step(to ms: Double) {
        guard outcome == .running, ms - lastTouch >= Self.idleTimeoutMs else { return }
        outcome = .failed("no touch for \(Int(Self.idleTimeoutMs / 1000)) s")
    }

    /// A target taken at raw position `raw`.
    func take(_ raw: Point) {
        events.append(.target(index: index + 1, raw: raw))
        if index < 4 {
            taken.append(raw)
            index += 1
            guard index == 4 else { return }
            // The same place touched for two targets fits nothing useful, even where the algebra allows it.
            let apart = taken.indices.allSatisfy { i in
                taken.indices.allSatisfy { j in i == j || distance(taken[i], taken[j]) > Self.minimumSpread }
            }
            fit = apart ? AffineMatrix.fit(raw: taken, screen: Array(Self.targets.prefix(4))) : nil
            if fit == nil || fit?.problem != nil { newRound("the four points do not span the screen") }
            return
        }
        guard let fit else { return }
        let error = distance(fit.apply(raw), Self.targets[4])
        if error <= Self.checkTolerance {
            events.append(.done(fit, residual: error))
            outcome = .done(fit, residual: error)
        } else {
            newRound("the check point is \(Int((error * 1000).rounded()) / 10) % of the diagonal off")
        }
    }

    func newRound(_ reason: String) {
        guard round < Self.maximumRounds else {
            outcome = .failed("\(Self.maximumRounds) rounds without a calibration (the last: \(reason))")
            return
        }
        round += 1
        index = 0
        taken = []
        fit = nil
        events.append(.round(round, reason: reason))
    }

    /// The distance between two normalised points as a fraction of the screen's diagonal.
    func distance(_ a: Point, _ b: Point) -> Double {
        let dx = (a.x - b.x) * screen.width
        let dy = (a.y - b.y) * screen.height
        return (dx * dx + dy * dy).squareRoot()
            / (screen.width * screen.width + screen.height * screen.height).squareRoot()
    }

    /// The component-wise median of a finger's positions (a stray sample does not move it).
    func median(_ points: [Point]) -> Point {
        func middle(_ v: [Double]) -> Double {
            let s = v.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        return Point(x: middle(points.map(\.x)), y: middle(points.map(\.y)))
    }
}

extension AffineMatrix {
    /// The least-squares affine map taking each `raw` point to its `screen` point (six unknowns, two equations
    /// a point), or nil where the raw points do not determine one (fewer than three, or all on a line).
    public static func fit(raw: [Point], screen: [Point]) -> AffineMatrix? {
        guard raw.count == screen.count, raw.count >= 3 else { return nil }
        // The normal equations: the same 3x3 matrix for both rows of the map.
        var n = [[Double]](repeating: [0, 0, 0], count: 3)
        var bx = [0.0, 0, 0]
        var by = [0.0, 0, 0]
        for (p, q) in zip(raw, screen) {
            let v = [p.x, p.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { n[i][j] += v[i] * v[j] }
                bx[i] += v[i] * q.x
                by[i] += v[i] * q.y
            }
        }
        guard let x = solve(n, bx), let y = solve(n, by) else { return nil }
        return AffineMatrix(a: x[0], b: x[1], c: x[2], d: y[0], e: y[1], f: y[2])
    }

    /// Solves the 3x3 system `m·v = b` by Cramer's rule; nil when `m` is (nearly) singular.
    static func solve(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(m)
        // The points' spread, squared twice over (the matrix sums products of coordinates): a line has none.
        guard abs(d) > 1e-9 else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = b[row] }
            return det(replaced) / d
        }
    }
}
