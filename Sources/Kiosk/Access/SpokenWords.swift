/// The words the kiosk itself speaks (docs/accessibility.md): roles and states after an element's label, as a
/// screen reader says them ("Café, button"), the welcome that says how the keys work, and the help. English,
/// German and Arabic written; another language hears English (in an English voice).
enum SpokenWords {
    enum Word: CaseIterable {
        case button, heading, picture, selected, home, language, welcome, help, pictureHint, volume, zoomIn, zoomOut,
            stillThere, accessibility, largerText, highContrast, speech, on, off, switchButton, play, pause, startAgain,
            captions
    }

    static let written: [String: [Word: String]] = [
        "en": [
            .button: "button", .heading: "heading", .picture: "picture", .selected: "selected", .home: "Home",
            .language: "Language", .volume: "Volume", .zoomIn: "Zoom in", .zoomOut: "Zoom out",
            .stillThere: "Are you still there? Press a key or touch the screen to carry on.",
            .welcome:
                "Audio on. Arrow keys or Tab move, Enter chooses, Escape goes back, plus and minus zoom, F1 helps, F3 repeats.",
            .help:
                "Arrow keys or Tab move from one thing to the next, Enter chooses, Escape goes back and then home, Page Up and Page Down turn pages, plus and minus zoom, F3 repeats, F11 and F12 change the volume.",
            .pictureHint: "Arrow keys move it",
            .accessibility: "Accessibility", .largerText: "Larger text", .highContrast: "High contrast",
            .speech: "Speech", .on: "on", .off: "off", .switchButton: "switch button",
            .play: "Play", .pause: "Pause", .startAgain: "Start again", .captions: "Captions",
        ],
        "de": [
            .button: "Taste", .heading: "Überschrift", .picture: "Bild", .selected: "ausgewählt", .home: "Startseite",
            .language: "Sprache", .volume: "Lautstärke", .zoomIn: "Vergrößern", .zoomOut: "Verkleinern",
            .stillThere:
                "Sind Sie noch da? Drücken Sie eine Taste oder berühren Sie den Bildschirm, um weiterzumachen.",
            .welcome:
                "Ton an. Pfeiltasten oder Tab bewegen, Eingabe wählt, Escape geht zurück, Plus und Minus zoomen, F1 hilft, F3 wiederholt.",
            .help:
                "Pfeiltasten oder Tab gehen von einem Element zum nächsten, Eingabe wählt, Escape geht zurück und dann zur Startseite, Bild auf und Bild ab blättern, Plus und Minus zoomen, F3 wiederholt, F11 und F12 ändern die Lautstärke.",
            .pictureHint: "Pfeiltasten verschieben es",
            .accessibility: "Barrierefreiheit", .largerText: "Größere Schrift", .highContrast: "Hoher Kontrast",
            .speech: "Sprachausgabe", .on: "ein", .off: "aus", .switchButton: "Schalter",
            .play: "Abspielen", .pause: "Pause", .startAgain: "Von vorn", .captions: "Untertitel",
        ],
        "ar": [
            .button: "زر", .heading: "عنوان", .picture: "صورة", .selected: "محدد", .home: "الصفحة الرئيسية",
            .language: "اللغة", .volume: "مستوى الصوت", .zoomIn: "تكبير", .zoomOut: "تصغير",
            .stillThere: "هل ما زلت هنا؟ اضغط مفتاحًا أو المس الشاشة للمتابعة.",
            .welcome:
                "الصوت مفعل. مفاتيح الأسهم أو Tab للتنقل، Enter للاختيار، Escape للرجوع، زائد وناقص للتكبير، F1 للمساعدة، F3 للتكرار.",
            .help:
                "مفاتيح الأسهم أو Tab تنتقل من عنصر إلى آخر، Enter يختار، Escape يرجع ثم إلى الصفحة الرئيسية، Page Up و Page Down تقلب الصفحات، زائد وناقص للتكبير، F3 يكرر، F11 و F12 لمستوى الصوت.",
            .pictureHint: "مفاتيح الأسهم تحركها",
            .accessibility: "إمكانية الوصول", .largerText: "نص أكبر", .highContrast: "تباين عالٍ",
            .speech: "النطق", .on: "مفعّل", .off: "معطّل", .switchButton: "مفتاح تبديل",
            .play: "تشغيل", .pause: "إيقاف مؤقت", .startAgain: "من البداية", .captions: "الترجمة",
        ],
    ]

    /// `word` in `language` and the language it is in (English where it is not written).
    static func say(_ word: Word, in language: String) -> (text: String, language: String) {
        if let text = written[Languages.primary(language)]?[word] { return (text, language) }
        return (written["en"]![word]!, "en")
    }

    /// The separator between an element's parts: a comma, the Arabic comma in Arabic.
    static func comma(_ language: String) -> String { Languages.primary(language) == "ar" ? "، " : ", " }

    /// "Page 2 of 3", in `language`.
    static func page(_ n: Int, of count: Int, in language: String) -> String {
        switch Languages.primary(language) {
        case "de": "Seite \(n) von \(count)"
        case "ar": "الصفحة \(n) من \(count)"
        default: "Page \(n) of \(count)"
        }
    }
}
