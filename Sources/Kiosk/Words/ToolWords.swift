import ScrollEngine

/// What the installer's tools say (docs/deploying.md): one short instruction and the seconds left before the tool
/// gives up, in the kiosk's first language (English and German written; others in English).
enum ToolWords {
    enum Tool {
        case calibration(target: Int, of: Int)
        case touchTest
    }

    /// The instruction and the line under it with `seconds` left.
    static func lines(_ tool: Tool, language: String, seconds: Int) -> (String, String, language: String) {
        let german = Languages.primary(language) == "de"
        switch tool {
        case .calibration(let target, let count):
            return german
                ? (
                    "Die Kreuzmitte berühren, still halten, dann loslassen",
                    "Ziel \(target) von \(count) · noch \(seconds) s", "de"
                )
                : (
                    "Touch the centre of the cross, hold still, then lift",
                    "Target \(target) of \(count) · \(seconds) s left", "en"
                )
        case .touchTest:
            return german
                ? (
                    "Mit beliebig vielen Fingern berühren: jeder Ring zeigt, wo der Kiosk einen sieht",
                    "Endet 30 s nach der letzten Berührung · noch \(seconds) s", "de"
                )
                : (
                    "Touch with any number of fingers: each ring shows where the kiosk sees one",
                    "Ends 30 s after the last touch · \(seconds) s left", "en"
                )
        }
    }

    /// The instruction (wrapped, two lines at most) above `y` and the seconds left below it (scene points).
    static func commands(_ tool: Tool, language: String, seconds: Int, size: Size, y: Double) -> [DrawCommand] {
        let (instruction, status, tag) = lines(tool, language: language, seconds: seconds)
        let width = size.width * 0.86
        let x = (size.width - width) / 2
        let grey = Color(red: 0.75, green: 0.75, blue: 0.8, alpha: 1)
        return [
            .text(
                TextRun(
                    instruction, language: tag, size: 24, color: WordStyle.white,
                    rect: Rect(x: x, y: y - 72, width: width, height: 72), wraps: true)),
            .text(
                TextRun(
                    status, language: tag, size: 22, color: grey, rect: Rect(x: x, y: y + 4, width: width, height: 36))),
        ]
    }

    /// The whole seconds from `ms` to `deadline`, as a countdown shows them.
    static func seconds(until deadline: Double, at ms: Double) -> Int {
        max(0, Int(((deadline - ms) / 1000).rounded(.up)))
    }

    /// When the countdown to `deadline` next changes after `ms`.
    static func nextTick(until deadline: Double, at ms: Double) -> Double {
        let left = deadline - ms
        let whole = (left / 1000).rounded(.down) * 1000
        return min(deadline, deadline - (whole == left ? whole - 1000 : whole))
    }
}
