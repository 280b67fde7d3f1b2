import CSDL2
import Kiosk
import ScrollEngine

/// A scene change is drawn from two kept pictures (`SceneSnapshots`), so each frame of it is two copies. They are
/// drawn on its first two frames, one each, and both show the old scene (at progress 0 and about 0.01): no frame
/// draws a scene and mixes two. A reload's old scene is what the screen showed before it. A zoom grows or shrinks
/// the scenes' content only: the chrome stays put over it, the incoming scene's from the first frame, as a
/// navigation bar stays through a push.
extension Renderer {
    func drawTransition(
        _ t: SceneTransition, from outgoing: Scene, to shown: KioskFrame, of app: KioskApp, at ms: Double
    ) {
        drawScenes(t, from: outgoing, to: shown, of: app, at: ms)
        if Self.chromeStaysPut(t) {
            execute(
                app.drawList(.chrome(over: shown.scene), tiles: &query),
                in: frameContext(scene: shown.scene, background: app.manifest.background, sceneSize: shown.drawSize))
        }
    }

    /// Whether `t` moves the content under chrome that stays (a zoom), or fades whole screens.
    static func chromeStaysPut(_ t: SceneTransition) -> Bool { t.style == .zoom && t.rect != nil && !t.reload }

    /// The two scenes of `t` at `ms`, from their kept pictures.
    private func drawScenes(
        _ t: SceneTransition, from outgoing: Scene, to shown: KioskFrame, of app: KioskApp, at ms: Double
    ) {
        if snapshots.running?.transition != t, t.reload, let before = snapshots.shownBeforeReload {
            snapshots.endTransition()
            snapshots.shownBeforeReload = nil
            snapshots.running = (t, before, nil)
        } else if snapshots.running?.transition != t {
            snapshots.endTransition()
            guard
                let old = snapshot(
                    outgoing, sceneSize: shown.drawSize, chrome: !Self.chromeStaysPut(t), of: app)
            else { return }
            snapshots.running = (t, old, nil)
            return
        }
        guard let (_, old, kept) = snapshots.running else { return }
        let full = Rect(origin: .zero, size: display.size)
        guard let new = kept else {
            // The frame that draws the new scene shows the old one again (it is a hundredth of the way through):
            // drawing, keeping and mixing in one frame would take it past its time.
            guard
                let captured = snapshot(
                    shown.scene, sceneSize: shown.drawSize, chrome: !Self.chromeStaysPut(t), of: app)
            else { return }
            snapshots.running = (t, old, captured)
            calls.perform(.blend(old, SDL_BLENDMODE_NONE))
            calls.perform(.copy(old, nil, sdlRect(full)))
            return
        }
        compose(
            t, old: old, new: new, at: t.progress(at: ms), full: full, scale: shown.displayScale, box: shown.drawSize)
    }

    /// One frame of transition `t` at progress `p` from the kept pictures of the old and the new scene.
    func compose(
        _ t: SceneTransition, old: OpaquePointer, new: OpaquePointer, at p: Double, full: Rect, scale: Double,
        box: Size
    ) {
        switch t.style {
        case .zoom where t.rect != nil:
            let small = rotation.rect(t.rect! * scale, in: box)
            // Growing: the old scene stays, the new one grows out of the hotspot; shrinking: the old one shrinks
            // into the hotspot of the scene it came from, which is already there beneath.
            let (under, over, from, to) = t.shrinks ? (new, old, full, small) : (old, new, small, full)
            calls.perform(.blend(under, SDL_BLENDMODE_NONE))
            calls.perform(.copy(under, nil, sdlRect(full)))
            let r = Rect(
                x: from.minX + (to.minX - from.minX) * p, y: from.minY + (to.minY - from.minY) * p,
                width: from.width + (to.width - from.width) * p, height: from.height + (to.height - from.height) * p)
            calls.perform(.blend(over, SDL_BLENDMODE_NONE))
            calls.perform(.copyF(over, nil, frect(r)))
        default:
            // At either end one scene alone is a plain copy (blending at full alpha is the slowest copy there is).
            let alpha = channel(p)
            if alpha < 255 {
                calls.perform(.blend(old, SDL_BLENDMODE_NONE))
                calls.perform(.copy(old, nil, sdlRect(full)))
            }
            guard alpha > 0 else { return }
            calls.perform(.blend(new, alpha < 255 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE))
            calls.perform(.alpha(new, alpha))
            calls.perform(.copy(new, nil, sdlRect(full)))
        }
    }

    /// Draws `scene` as a frame at rest shows it (its pictures kept at their scale, filtered), with its `chrome`
    /// or without, and keeps it.
    func snapshot(
        _ scene: Scene, sceneSize: Size, chrome: Bool, of app: KioskApp
    ) -> OpaquePointer? {
        var context = frameContext(scene: scene, background: app.manifest.background, sceneSize: sceneSize)
        context.snapshotting = true
        let list = withTilesAtHand {
            app.drawList(chrome ? .scene(scene) : .content(scene), tiles: &$0)
        }
        draw(list, in: context)
        tiles.request(missing: query.missing, prefetch: query.prefetch)
        return snapshots.captureScreen()
    }

    /// Keeps what the frame drawn so far shows (call before presenting the frame after which the content
    /// changes).
    func keepForReload() { snapshots.keepForReload() }
}
