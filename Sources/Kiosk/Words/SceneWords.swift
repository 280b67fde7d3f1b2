import ScrollEngine

/// A scene's words as text runs: each hotspot's label on its picture, the overlays, each page's caption, the
/// title. The frame draws the labels on screen (`wordCommands`), the overlays as part of their picture
/// (`Picture.words`: they zoom with it), the captions and the title as the chrome's (`Chrome.commands`);
/// `kiosk --check` measures every one of them at the opening view (`wordBoxes`). One builder per kind, for both.
extension Scene {
    /// The hotspots' labels on the scene's pictures in `language` (`fallback`: the manifest's first) that are
    /// on screen now.
    func wordCommands(language: String, fallback: String) -> [DrawCommand] {
        var out: [DrawCommand] = []
        let screen = Rect(origin: .zero, size: size)
        for h in config.hotspots {
            guard let label = h.label, let (view, origin) = imageViewShowing(h) else { continue }
            let run = labelRun(label, of: h, view: view, origin: origin, language: language, fallback: fallback)
            if run.rect.intersects(screen) { out.append(.text(run)) }
        }
        return out
    }

    /// Every text of the scene in `language` as laid out at its opening view (each page's caption and labels as
    /// if that page were shown), with its JSON path (`scenes[0].hotspots[2].label.de`).
    func wordBoxes(language: String, fallback: String) -> [(key: String, run: TextRun)] {
        func key(_ path: String, _ text: LocalizedText) -> String {
            "\(config.path).\(path)" + (text.every == nil ? ".\(language)" : "")
        }
        var out: [(key: String, run: TextRun)] = []
        if let title = config.title {
            out.append((key("title", title), titleRun(title, language: language, fallback: fallback)))
        }
        for h in config.hotspots {
            guard let label = h.label else { continue }
            let view = config.type == .carousel && h.page < pages.count ? pages[h.page] : view
            let run = labelRun(label, of: h, view: view, origin: .zero, language: language, fallback: fallback)
            out.append((key("hotspots[\(h.index)].label", label), run))
        }
        for (i, run) in overlayRuns(language: language, fallback: fallback).enumerated() {
            var run = run
            run.rect.origin = run.rect.origin - view.contentOffset
            out.append((key("overlays[\(i)].text", config.overlays[i].text), run))
        }
        for (i, caption) in config.captions.enumerated() {
            guard let caption else { continue }
            let run = captionRun(caption, in: captionBand(x: 0), language: language, fallback: fallback)
            out.append((key("pages[\(i)].caption", caption), run))
        }
        return out
    }

    /// A hotspot's label, centred on its point of the picture, as wide as `labelMaximumWidth` allows.
    func labelRun(
        _ label: LocalizedText, of h: Hotspot, view: ScrollView, origin: Point, language: String, fallback: String
    ) -> TextRun {
        let scale = imageScale(view)
        let growth = wordGrowth(view)
        let textSize = WordStyle.labelSize * growth
        let at = origin + h.labelPoint * scale - view.contentOffset
        let width = WordStyle.labelMaximumWidth * growth
        let height = textSize * 2
        return TextRun(
            label.text(in: language, fallback: fallback), language: language, size: textSize,
            color: WordStyle.white, rect: Rect(x: at.x - width / 2, y: at.y - height / 2, width: width, height: height),
            plate: WordStyle.labelPlate, isSettled: !view.isZoomChanging)
    }

    /// The text boxes on a zoom or scroll scene's picture, each wrapped to its rectangle, in points of the
    /// picture placed at the origin (`Picture.words`). With larger text (`textGrowth` > 1: the words grow against
    /// the picture) a box keeps its width and grows down from its middle, kept on the picture, so that what fitted
    /// still fits on more lines.
    func overlayRuns(language: String, fallback: String, textGrowth: Double = 1) -> [TextRun] {
        guard config.type == .zoom || config.type == .scroll else { return [] }
        let scale = imageScale(view)
        let picture = images.first.map { $0.size * scale } ?? size
        return config.overlays.map { box in
            var rect = Rect(
                x: box.rect.minX * scale, y: box.rect.minY * scale, width: box.rect.width * scale,
                height: box.rect.height * scale)
            if textGrowth > 1 {
                // As Dynamic Type: the curator's width is kept and the words wrap over more lines, each as much
                // taller (the square of the growth), from its middle down, kept on the picture.
                let height = rect.height * textGrowth * textGrowth
                rect = Rect(
                    x: rect.minX, y: min(max(0, rect.midY - height / 2), max(0, picture.height - height)),
                    width: rect.width, height: height)
            }
            return TextRun(
                box.text.text(in: language, fallback: fallback), language: language, size: box.size * wordGrowth(view),
                color: box.color, rect: rect, align: box.align, wraps: true, isSettled: !view.isZoomChanging)
        }
    }

    /// The captions of the carousel's pages on screen now, each with its band (moving with its page).
    func visibleCaptions() -> [(LocalizedText, Rect)] {
        guard config.type == .carousel else { return [] }
        return config.captions.enumerated().compactMap { i, caption in
            guard let caption, i < pages.count else { return nil }
            let x = pageOrigin(i).x
            guard x < size.width, x + size.width > 0 else { return nil }
            return (caption, captionBand(x: x))
        }
    }

    /// The caption bands on screen now (the chrome's: they take their touches).
    func captionBands() -> [Rect] { visibleCaptions().map { intersection($0.1, Rect(origin: .zero, size: size)) } }

    /// The band of a page's caption, the page's left edge at `x`: above the page control, where there is one.
    func captionBand(x: Double) -> Rect {
        let dots = config.pageControl && pages.count > 1
        let bottom = dots ? size.height - PageControlStyle.bottomMargin - PageControlStyle.spacing / 2 - 8 : size.height
        return Rect(
            x: x, y: bottom - WordStyle.captionBandHeight, width: size.width, height: WordStyle.captionBandHeight)
    }

    func captionRun(_ caption: LocalizedText, in band: Rect, language: String, fallback: String) -> TextRun {
        TextRun(
            caption.text(in: language, fallback: fallback), language: language, size: WordStyle.captionSize,
            color: WordStyle.white, rect: band.insetBy(dx: 32, dy: 8), align: .start, wraps: true)
    }

    static func titleBar(_ size: Size) -> Rect { Rect(x: 0, y: 0, width: size.width, height: WordStyle.titleBarHeight) }

    /// The title, clear of the home and language buttons.
    func titleRun(_ title: LocalizedText, language: String, fallback: String) -> TextRun {
        TextRun(
            title.text(in: language, fallback: fallback), language: language, size: WordStyle.titleSize,
            color: WordStyle.white, rect: Self.titleBar(size).insetBy(dx: WordStyle.titleInset, dy: 0))
    }

    /// How much words on `view`'s picture have grown with its zoom since the fitted view (1 on a scroll scene,
    /// whose picture never zooms).
    func wordGrowth(_ view: ScrollView) -> Double {
        view.minimumZoomScale > 0 && config.type != .scroll ? view.zoomScale / view.minimumZoomScale : 1
    }

    /// The view showing hotspot `h`'s image and its origin in scene points (nil: its page is off screen).
    func imageViewShowing(_ h: Hotspot) -> (ScrollView, Point)? {
        guard config.type == .carousel else { return (view, .zero) }
        guard h.page < pages.count else { return nil }
        let origin = pageOrigin(h.page)
        guard origin.x < size.width, origin.x + size.width > 0 else { return nil }
        return (pages[h.page], origin)
    }
}
