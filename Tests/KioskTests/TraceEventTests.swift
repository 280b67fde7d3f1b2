import ScrollEngine
import Testing

@testable import Kiosk

/// The frame's typed events: the trace writes them as docs/event-log-and-trace.md says, and systemd's status reads the same
/// values (docs/operations.md).
@Suite struct TraceEventTests {
    @Test func eventsWithArgumentsWriteTheContractsJSON() {
        let cases: [(TraceEvent, String)] = [
            (
                TraceEvent(
                    view: "map",
                    .scrollView(
                        .willEndDragging(velocity: Point(x: 1.5, y: -2), targetContentOffset: Point(x: 0, y: 120.25)))),
                #"{"view": "map", "name": "scrollViewWillEndDragging", "velocity": [1.5, -2.0], "targetContentOffset": [0.0, 120.25]}"#
            ),
            (
                TraceEvent(view: "map", .scrollView(.didEndDragging(willDecelerate: true))),
                #"{"view": "map", "name": "scrollViewDidEndDragging", "willDecelerate": true}"#
            ),
            (TraceEvent(.contentDidReload(error: nil)), #"{"name": "contentDidReload", "ok": true}"#),
            (
                TraceEvent(.contentDidReload(error: "a \"b\"")),
                #"{"name": "contentDidReload", "ok": false, "error": "a \"b\""}"#
            ),
            (
                TraceEvent(.sceneTransition(from: "home", to: "map", style: .zoom)),
                #"{"name": "sceneTransition", "from": "home", "to": "map", "style": "zoom"}"#
            ),
            (TraceEvent(.screenDidBlank(reason: .hours)), #"{"name": "screenDidBlank", "reason": "hours"}"#),
            (
                TraceEvent(.calibrationDone(matrix: [1, 0, 0.5], residual: 0.25)),
                #"{"name": "calibrationDone", "matrix": [1.0, 0.0, 0.5], "residual": 0.25}"#
            ),
            (TraceEvent(.idleReset), #"{"name": "idleReset"}"#),
        ]
        for (event, json) in cases { #expect(event.json == json) }
    }

    @Test func theStatusSaysReadyAfterTheFirstFrameAndAgainAfterEachReloadsOutcome() {
        var status = ServiceStatus()
        #expect(status.afterFrame([], scene: "home").map(\.message) == ["READY=1\nSTATUS=showing home"])
        #expect(status.afterFrame([TraceEvent(.idleReset)], scene: "home").isEmpty)
        let failed = status.afterFrame([TraceEvent(.contentDidReload(error: "kiosk.json: bad"))], scene: "home")
        #expect(failed == [.reloadFailed(why: "kiosk.json: bad", renderer: nil)])
        #expect(failed.map(\.message) == ["READY=1\nSTATUS=reload failed: kiosk.json: bad"])
        let reloaded = status.afterFrame(
            [TraceEvent(.sceneDidChange(scene: "lobby")), TraceEvent(.contentDidReload(error: nil))], scene: "lobby")
        #expect(reloaded.map(\.message) == ["READY=1\nSTATUS=showing lobby (reloaded)"])
        #expect(reloaded.allSatisfy { $0.endsReload })
        #expect(!ServiceStatus.Update.ready(scene: "home", renderer: nil).endsReload)
        // Started with pictures or films that cannot be shown: STATUS= says so before the renderer.
        var degraded = ServiceStatus(renderer: "opengles2")
        degraded.contentProblems = 2
        #expect(
            degraded.afterFrame([], scene: "map").map(\.message) == [
                "READY=1\nSTATUS=showing map (degraded: 2 pictures or films shown as placeholders); renderer opengles2"
            ])
    }

    @Test func theStatusNamesTheRendererThatDraws() {
        var status = ServiceStatus(renderer: "opengles2")
        #expect(
            status.afterFrame([], scene: "map").map(\.message) == ["READY=1\nSTATUS=showing map; renderer opengles2"])
        #expect(
            status.afterFrame([TraceEvent(.contentDidReload(error: nil))], scene: "map").map(\.message) == [
                "READY=1\nSTATUS=showing map (reloaded); renderer opengles2"
            ])
        #expect(
            status.afterFrame([TraceEvent(.contentDidReload(error: "kiosk.json: bad"))], scene: "map").map(\.message)
                == ["READY=1\nSTATUS=reload failed: kiosk.json: bad; renderer opengles2"])
    }
}
