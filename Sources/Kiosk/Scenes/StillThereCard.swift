import ScrollEngine

/// "Still there?" (docs/manifest.md): a card over the dimmed scene, in the visitor's language, with the
/// seconds left before the idle reset and a bar that runs down with them. Any touch removes it.
struct StillThereCard {
    public let language: String
    let remainingMs: Double
    /// How long it shows in all (the bar's length).
    let ofMs: Double
    public let sceneSize: Size

    public init(language: String, remainingMs: Double, ofMs: Double, sceneSize: Size) {
        self.language = language
        self.remainingMs = remainingMs
        self.ofMs = ofMs
        self.sceneSize = sceneSize
    }

    /// The question and the invitation, by language (the kiosk's own words; English for a language not here).
    static let words: [String: (question: String, invitation: String)] = [
        "en": ("Are you still there?", "Touch the screen to carry on"),
        "de": ("Sind Sie noch da?", "Berühren Sie den Bildschirm, um weiterzumachen"),
        "ar": ("هل ما زلت هنا؟", "المس الشاشة للمتابعة"),
        "fr": ("Vous êtes toujours là ?", "Touchez l’écran pour continuer"),
        "es": ("¿Sigue ahí?", "Toque la pantalla para continuar"),
    ]

    /// The words shown, and the language they are in.
    var text: (question: String, invitation: String, language: String) {
        let primary = Languages.primary(language)
        guard let w = Self.words[primary] else {
            let en = Self.words["en"]!
            return (en.question, en.invitation, "en")
        }
        return (w.question, w.invitation, language)
    }

    /// The whole seconds left, as the countdown says them.
    var secondsLeft: Int { max(0, Int((remainingMs / 1000).rounded(.up))) }

    /// The card's size: wide enough for the invitation at its size, at most the screen less a margin.
    static let size = Size(width: 720, height: 260)

    public var commands: [DrawCommand] {
        let (question, invitation, tag) = text
        let w = min(Self.size.width, sceneSize.width - 48)
        let card = Rect(
            x: (sceneSize.width - w) / 2, y: (sceneSize.height - Self.size.height) / 2, width: w,
            height: Self.size.height)
        let fraction = ofMs > 0 ? min(1, max(0, remainingMs / ofMs)) : 0
        return [
            .fill(Rect(origin: .zero, size: sceneSize), Color(red: 0, green: 0, blue: 0, alpha: 0.45)),
            .fill(card, Self.paper),
            .text(
                TextRun(
                    question, language: tag, size: 40, color: Self.ink,
                    rect: Rect(x: card.minX + 24, y: card.minY + 28, width: w - 48, height: 64))),
            .text(
                TextRun(
                    invitation, language: tag, size: 26, color: Self.ink,
                    rect: Rect(x: card.minX + 24, y: card.minY + 104, width: w - 48, height: 44))),
            .text(
                TextRun(
                    "\(secondsLeft)", language: tag, size: 34, color: Self.accent,
                    rect: Rect(x: card.minX + 24, y: card.minY + 156, width: w - 48, height: 48))),
            .fill(
                Rect(x: card.minX + 24, y: card.maxY - 32, width: (w - 48) * fraction, height: 8), Self.accent),
        ]
    }

    static let paper = Color(red: 0.98, green: 0.97, blue: 0.94, alpha: 1)
    static let ink = Color(red: 0.12, green: 0.12, blue: 0.14, alpha: 1)
    static let accent = Color(red: 0.16, green: 0.36, blue: 0.70, alpha: 1)
}
