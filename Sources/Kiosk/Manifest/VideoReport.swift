/// What opening a film found (`kiosk --check`, a reload; docs/video.md): its container, codec, size and
/// duration, or why it cannot play. `libraryMissing`: the machine has no libavformat/libavcodec to open it
/// with (the film shows its poster; a package's recommendation not installed, not a fault of the content).
public struct VideoReport: Equatable, Sendable {
    public var container = ""
    public var codec = ""
    public var width = 0
    public var height = 0
    /// Seconds (0 where the container does not say).
    public var duration = 0.0
    public var problem: String?
    public var libraryMissing = false

    public init(container: String, codec: String, width: Int, height: Int, duration: Double) {
        self.container = container
        self.codec = codec
        self.width = width
        self.height = height
        self.duration = duration
    }

    public init(problem: String, libraryMissing: Bool = false) {
        self.problem = problem
        self.libraryMissing = libraryMissing
    }

    /// "mp4, h264 1280x720, 12.0 s", as the check's summary says it.
    public var summary: String {
        let length = duration > 0 ? ", \((duration * 10).rounded() / 10) s" : ""
        return "\(container), \(codec) \(width)x\(height)\(length)"
    }
}
