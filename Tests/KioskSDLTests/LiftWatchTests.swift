import EventLog
import Testing

@testable import KioskSDL

/// `LiftWatch`: a finger the kiosk has down that is on none of its panel's slots at every look for
/// `LiftWatch.graceMs` is lost; one SDL lifts meanwhile, one back on the panel, and one whose panel cannot say
/// are not.
@Suite struct LiftWatchTests {
    static let a = FingerKey(touchId: 5, fingerId: 40)
    static let b = FingerKey(touchId: 5, fingerId: 41)
    static let c = FingerKey(touchId: 9, fingerId: 2)

    @Test func offThePanelForAQuarterSecondIsLost() {
        var watch = LiftWatch()
        var panel: [Int64: Set<Int64>] = [5: [41]]
        func look(_ down: Set<FingerKey>, at t: Double) -> [FingerKey] {
            watch.lost(down: down, at: t, onPanel: { panel[$0] })
        }
        // a is off the panel: not lost yet (its lift may be on its way to SDL).
        #expect(look([Self.a, Self.b, Self.c], at: 1000).isEmpty)
        #expect(watch.missing == [Self.a: 1000])
        #expect(look([Self.a, Self.b, Self.c], at: 1000 + LiftWatch.graceMs - 1).isEmpty)
        // Still down a quarter second on: lost. b is on the panel; device 9 cannot say.
        #expect(look([Self.a, Self.b, Self.c], at: 1000 + LiftWatch.graceMs) == [Self.a])
        // b lifts and SDL reports it before the grace ends: never lost.
        panel[5] = []
        #expect(look([Self.b], at: 2000).isEmpty)
        #expect(look([], at: 3000).isEmpty)
        #expect(watch.missing.isEmpty)
    }

    /// A finger off the panel at one look and back under the same id at the next is not lost, and its grace
    /// starts again when it is off again.
    @Test func backOnThePanelStartsAgain() {
        var watch = LiftWatch()
        var panel: [Int64: Set<Int64>] = [5: []]
        func look(at t: Double) -> [FingerKey] { watch.lost(down: [Self.a], at: t, onPanel: { panel[$0] }) }
        #expect(look(at: 0).isEmpty)
        panel[5] = [40]
        #expect(look(at: 200).isEmpty)
        panel[5] = []
        #expect(look(at: 400).isEmpty)
        #expect(look(at: 600).isEmpty)
        #expect(look(at: 650) == [Self.a])
    }

    @Test func aTallySaysOnceAMinute() {
        var tally = Tally()
        #expect(tally.toSay(at: 0) == nil)
        tally.add(3)
        #expect(tally.toSay(at: 10) == 3)
        tally.add(1)
        #expect(tally.toSay(at: 59_999) == nil)
        #expect(tally.toSay(at: 60_010) == 1)
        #expect(tally.toSay(at: 200_000) == nil)
    }
}
