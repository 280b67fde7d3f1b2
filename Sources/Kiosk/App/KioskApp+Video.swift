import ScrollEngine

/// Video scenes (docs/video.md), the router's side: the core says which film plays and for how long (a
/// `VideoShot` in the frame's draw list); the host decodes and shows it and says back what it showed and what
/// happened, as the frame's trace events and line.
extension KioskApp {
    /// The film `scene` shows now: playing since the scene was first drawn after it opened (a new playback,
    /// from its first frame, each time it opens).
    func videoShot(of scene: Scene) -> VideoShot? {
        guard let video = scene.config.video else { return nil }
        if scene.video == nil {
            videoSessions += 1
            scene.video = (now, videoSessions)
        }
        let (start, session) = scene.video!
        return VideoShot(
            path: video.path, box: Rect(origin: .zero, size: scene.size), fit: video.fit,
            time: max(0, now - start) / 1000, session: session, loops: video.loops)
    }

    /// What the host's video did this frame: the frame it showed (its time and number in the clip, for the frame
    /// line) and its events.
    public func videoDid(_ events: [TraceEvent.Kind], shown: (pts: Double, frame: Int)?) {
        for e in events { sink.add(TraceEvent(view: scene.config.id, e)) }
        videoShown = shown
    }
}
