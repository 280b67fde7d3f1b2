import EventLog
import Foundation
import Kiosk
import KioskSDL

// The keys and speech (docs/accessibility.md): from a key to its first sound, the frame that draws a focus
// change, and the memory audio mode adds.

/// A walk of the demo's map by the Down key: `keys` presses 700 ms apart (each is said to its end or cut short by
/// the next), as an event log at `path`.
func keyWalkLog(_ path: String, keys: Int) {
    var lines = [#"{"kioskEventLog": 1, "display": {"w": 1920, "h": 1080}, "source": "kiosk-bench"}"#]
    for i in 0..<keys {
        let t = 500 + 700 * i
        lines.append(#"{"timestamp": \#(t), "type": "SDL_KEYDOWN", "key": "Down", "repeat": 0}"#)
        lines.append(#"{"timestamp": \#(t + 60), "type": "SDL_KEYUP", "key": "Down", "repeat": 0}"#)
    }
    try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

/// The real kiosk in real time walking the demo with speech through SDL's `disk` audio driver: the median from a
/// key to the first sound handed to SDL (the kiosk's own `speech:` line), and its peak resident memory less that
/// of the same walk without a synthesiser (audio mode without speech), in MiB.
func speechFigures(folder: String, cache: String) -> (keyToSpeech: Double, rss: Double) {
    let log = folder + "/key-walk.jsonl"
    keyWalkLog(log, keys: 14)
    func walk(espeak: String?) -> String {
        var env = ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": folder + "/speech.raw"]
        if let espeak { env["KIOSK_ESPEAK"] = espeak }
        let p = KioskProcess(
            ["--headless", "1920x1080", "--realtime", "--config", demoManifest, "--scene", "map", "--replay", log],
            environment: env, cache: cache)
        p.start()
        return p.wait()
    }
    let spoken = walk(espeak: nil)
    let silent = walk(espeak: "/nonexistent/espeak-ng")
    let latency = number(after: "from it to the first sound ", in: spoken) ?? .infinity
    let with = number(after: "peak ", in: spoken) ?? .infinity
    let without = number(after: "peak ", in: silent) ?? 0
    return (latency, (with - without) / 1024)
}

/// The frame that draws a focus change (a Tab on the demo's map, the ring moving) and the same scene's still
/// frame, medians over `rounds`, in ms.
func focusFrames(rounds: Int) -> (focus: Double, still: Double) {
    guard let session = try? HeadlessSession(manifestPath: demoManifest, width: 1920, height: 1080, scene: "map")
    else { return (.infinity, .infinity) }
    var t = 0.0
    func frame() -> Double {
        t += 1000.0 / 60
        let clock = ContinuousClock()
        let d = clock.measure { session.frame(at: t) }
        return Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000
    }
    // Settled, in audio mode (the first key begins it).
    session.app.handle(.key(down: true, key: "Down", repeat: false), at: t)
    for _ in 0..<120 { _ = frame() }
    var focus: [Double] = []
    var still: [Double] = []
    for _ in 0..<rounds {
        // Tab: it always moves the focus (an arrow pans the picture when the picture has it).
        session.app.handle(.key(down: true, key: "Tab", repeat: false), at: t)
        session.app.handle(.key(down: false, key: "Tab", repeat: false), at: t + 1)
        focus.append(frame())
        // The picture may scroll a hotspot into view: still frames once it has settled.
        for _ in 0..<40 { _ = frame() }
        still.append(frame())
    }
    return (median(focus), median(still))
}
