/// The Unicode bidirectional algorithm (UAX #9) for one line of a manifest's text, without explicit embeddings
/// or isolates (the marks LRM and RLM are honoured as strong characters): an Arabic line with a year or a Latin
/// name in it, or an English one with an Arabic word, split into runs of one direction in the order they are
/// seen, each to be shaped in its own direction. Pure: no font, no SDL.
public enum Bidi {
    /// A run of one direction and one script, its characters in reading order.
    public struct Run: Equatable, Sendable {
        public var text: String
        public var isRightToLeft: Bool
        /// The ISO 15924 script of its letters ("Latn" for a run of digits and signs only).
        public var script: String

        public init(text: String, isRightToLeft: Bool, script: String) {
            self.text = text
            self.isRightToLeft = isRightToLeft
            self.script = script
        }
    }

    /// UAX #9's bidirectional character types, those a manifest's text uses.
    enum Kind: Equatable {
        case l, r, al, en, es, et, an, cs, nsm, ws, on
        var isStrong: Bool { self == .l || self == .r || self == .al }
        var isNeutral: Bool { self == .ws || self == .on }
    }

    /// `line`'s runs from left to right, in a paragraph of the direction `rightToLeft`.
    public static func runs(_ line: String, rightToLeft: Bool) -> [Run] {
        let scalars = Array(line.unicodeScalars)
        guard !scalars.isEmpty else { return [] }
        let levels = resolvedLevels(scalars.map(kind), paragraph: rightToLeft ? 1 : 0)
        // Runs in reading order: one level and one script (a digit or sign joins the script before it).
        var logical: [(scalars: [Unicode.Scalar], level: Int, script: String?)] = []
        for (s, level) in zip(scalars, levels) {
            let script = Self.script(of: s)
            if let last = logical.last, last.level == level,
                script == nil || last.script == nil || last.script == script
            {
                logical[logical.count - 1].scalars.append(s)
                if last.script == nil { logical[logical.count - 1].script = script }
            } else {
                logical.append(([s], level, script))
            }
        }
        var visual = logical.map { run in
            Run(
                text: String(String.UnicodeScalarView(run.scalars)), isRightToLeft: run.level % 2 == 1,
                script: run.script ?? "Latn")
        }
        // L2: from the highest level down to the lowest odd one, every stretch at that level or higher reversed.
        let runLevels = logical.map(\.level)
        var order = Array(visual.indices)
        let highest = runLevels.max() ?? 0
        let lowestOdd = runLevels.filter { $0 % 2 == 1 }.min() ?? (highest + 1)
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard runLevels[order[i]] >= level else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count && runLevels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        visual = order.map { visual[$0] }
        return visual
    }

    /// The embedding level of each character (rules W1–W7, N1–N2, I1–I2 and L1) in a paragraph of `paragraph`.
    static func resolvedLevels(_ input: [Kind], paragraph: Int) -> [Int] {
        var types = input
        let sos: Kind = paragraph == 1 ? .r : .l
        // W1: a mark takes the type before it.
        for i in types.indices where types[i] == .nsm { types[i] = i == 0 ? sos : types[i - 1] }
        // W2, W3: a European digit after Arabic letters is an Arabic one; Arabic letters are right to left.
        var lastStrong = sos
        for i in types.indices {
            switch types[i] {
            case .l, .r, .al: lastStrong = types[i]
            case .en where lastStrong == .al: types[i] = .an
            default: break
            }
        }
        for i in types.indices where types[i] == .al { types[i] = .r }
        // W4: one separator between two numbers of one kind joins them.
        for i in types.indices.dropFirst().dropLast() {
            let (before, after) = (types[i - 1], types[i + 1])
            if types[i] == .es && before == .en && after == .en { types[i] = .en }
            if types[i] == .cs && before == after && (before == .en || before == .an) { types[i] = before }
        }
        // W5: terminators (%, $, °) beside a European number belong to it.
        var i = 0
        while i < types.count {
            guard types[i] == .et else {
                i += 1
                continue
            }
            var j = i
            while j < types.count && types[j] == .et { j += 1 }
            if (i > 0 && types[i - 1] == .en) || (j < types.count && types[j] == .en) {
                for k in i..<j { types[k] = .en }
            }
            i = j
        }
        // W6: the separators left are neutral. W7: a European number in left-to-right text is left to right.
        for i in types.indices where types[i] == .es || types[i] == .et || types[i] == .cs { types[i] = .on }
        lastStrong = sos
        for i in types.indices {
            if types[i] == .l || types[i] == .r { lastStrong = types[i] }
            if types[i] == .en && lastStrong == .l { types[i] = .l }
        }
        // N1, N2: neutrals between two of one direction take it (numbers count as right to left); others the
        // paragraph's.
        func direction(_ k: Kind) -> Kind { k == .l ? .l : .r }
        i = 0
        while i < types.count {
            guard types[i].isNeutral else {
                i += 1
                continue
            }
            var j = i
            while j < types.count && types[j].isNeutral { j += 1 }
            let before = i == 0 ? sos : direction(types[i - 1])
            let after = j == types.count ? sos : direction(types[j])
            let resolved = before == after ? before : sos
            for k in i..<j { types[k] = resolved }
            i = j
        }
        // I1, I2: the levels; L1: trailing white space at the paragraph's level.
        var levels = types.map { k -> Int in
            switch (paragraph % 2, k) {
            case (0, .r): 1
            case (0, .an), (0, .en): 2
            case (1, .l), (1, .an), (1, .en): 2
            default: paragraph
            }
        }
        for i in input.indices.reversed() {
            guard input[i] == .ws else { break }
            levels[i] = paragraph
        }
        return levels
    }

    /// A character's bidirectional type (UAX #9, DerivedBidiClass, for the characters a manifest's text uses).
    static func kind(_ s: Unicode.Scalar) -> Kind {
        let v = s.value
        switch v {
        case 0x200E: return .l  // LEFT-TO-RIGHT MARK
        case 0x200F: return .r  // RIGHT-TO-LEFT MARK
        case 0x30...0x39, 0x6F0...0x6F9, 0xB2, 0xB3, 0xB9: return .en
        case 0x660...0x669, 0x66B, 0x66C: return .an
        case 0x2B, 0x2D, 0x2212: return .es
        case 0x23...0x25, 0xA2...0xA5, 0xB0, 0xB1, 0x66A, 0x2030...0x2034, 0x20A0...0x20CF: return .et
        case 0x2C, 0x2E, 0x2F, 0x3A, 0xA0, 0x60C, 0x202F: return .cs
        case 0x9, 0x20, 0x2000...0x200A, 0x3000: return .ws
        default: break
        }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return .nsm
        default: break
        }
        switch v {
        case 0x590...0x5FF, 0x7C0...0x85F, 0xFB1D...0xFB4F, 0x10800...0x10FFF: return .r
        case 0x600...0x7BF, 0x860...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .al
        default: break
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark,
            .decimalNumber, .letterNumber:
            return .l
        default: return .on
        }
    }

    /// The script of a letter (nil for digits, signs, spaces and marks, which take their neighbours').
    static func script(of s: Unicode.Scalar) -> String? {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: break
        default: return nil
        }
        switch s.value {
        case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return "Arab"
        case 0x590...0x5FF, 0xFB1D...0xFB4F: return "Hebr"
        case 0x370...0x3FF, 0x1F00...0x1FFF: return "Grek"
        case 0x400...0x52F: return "Cyrl"
        case 0x900...0x97F: return "Deva"
        case 0xE00...0xE7F: return "Thai"
        case 0x3040...0x30FF: return "Jpan"
        case 0xAC00...0xD7AF, 0x1100...0x11FF: return "Kore"
        case 0x4E00...0x9FFF, 0x3400...0x4DBF: return "Hani"
        default: return "Latn"
        }
    }
}
