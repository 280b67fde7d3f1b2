import EventLog
import ScrollEngine
import Testing

@testable import Kiosk

/// A headset plugged into the kiosk's jack begins audio mode (a visitor who cannot see cannot find a key first),
/// with the welcome and the first element focused, as a visit's first navigation key does; pulled out, audio
/// mode ends (its speech would go to the room). `KIOSK_HEADSET` in the event log, replayed like any input.
@Suite struct HeadsetTests {
    @Test func aPlugBeginsAudioModeAndPullingItOutEndsIt() throws {
        let app = try KeysAndFocusTests.app()
        app.step(to: 0)
        _ = app.sink.take()
        app.handle(.headset(plugged: true), at: 100)
        app.step(to: 101)
        // It begins once the plug has settled.
        #expect(!app.access.audio)
        #expect(app.nextDeadline == 100 + HeadsetJack.settleMs)
        app.step(to: 100 + HeadsetJack.settleMs)
        let said = KeysAndFocusTests.spoken(app)
        #expect(said.first == "audio true")
        #expect(said.contains { $0.hasPrefix("focus ") })
        #expect(said.contains { $0.hasPrefix("say[en] ") && $0.contains(SpokenWords.say(.welcome, in: "en").text) })
        #expect(app.access.audio)
        // A second plug (a bouncing contact) begins nothing again.
        _ = app.sink.take()
        app.handle(.headset(plugged: true), at: 500)
        app.step(to: 900)
        #expect(!KeysAndFocusTests.spoken(app).contains("audio true"))
        app.handle(.headset(plugged: false), at: 1000)
        app.step(to: 1001)
        #expect(!app.access.audio)
        #expect(KeysAndFocusTests.spoken(app).contains("audio false"))
    }

    /// On a blank screen the plug wakes it, as a key does, and audio mode begins too.
    @Test func aPlugWakesABlankScreen() throws {
        let app = try AppRig.app(extra: "\"blankAfterSeconds\": 1,", idleTimeout: 0)
        AppRig.run(app, from: 0, to: 1100)
        #expect(app.isBlanked)
        app.handle(.headset(plugged: true), at: 1200)
        AppRig.run(app, from: 1100, to: 1300)
        #expect(!app.isBlanked)
        AppRig.run(app, from: 1300, to: 1600)
        #expect(app.access.audio)
    }

    /// A worn jack toggling ten times a second for two seconds begins nothing (each plug began audio mode and
    /// started a synthesiser for its welcome: ten a second); once the plug holds, audio mode begins once.
    @Test func aJackThatTogglesBeginsAudioModeOnceItHolds() throws {
        let app = try KeysAndFocusTests.app()
        app.step(to: 0)
        _ = app.sink.take()
        var said: [String] = []
        for i in 0..<20 {
            let t = 100 + Double(i) * 100
            app.handle(.headset(plugged: i % 2 == 0), at: t)
            app.step(to: t + 50)
            said += KeysAndFocusTests.spoken(app)
            _ = app.sink.take()
        }
        #expect(!said.contains("audio true"), "\(said)")
        #expect(!said.contains { $0.hasPrefix("say[") }, "\(said)")
        app.handle(.headset(plugged: true), at: 2100)
        app.step(to: 2100 + HeadsetJack.settleMs)
        said = KeysAndFocusTests.spoken(app)
        #expect(said.filter { $0 == "audio true" }.count == 1, "\(said)")
    }

    @Test func theEventLogCarriesIt() throws {
        let text = """
            {"kioskEventLog": 1, "display": {"w": 800, "h": 480}}
            {"timestamp": 5, "type": "KIOSK_HEADSET", "plugged": true}
            {"timestamp": 9, "type": "KIOSK_HEADSET", "plugged": false}
            """
        let log = try EventLog.parse(text, file: "h.jsonl")
        #expect(log.records.map(\.event) == [.headset(plugged: true), .headset(plugged: false)])
        let again = try EventLog.parse(log.encoded(), file: "again.jsonl")
        #expect(again.records.map(\.event) == log.records.map(\.event))
    }

    /// In audio mode the frame says what the next and the previous key would say, for the host to synthesise
    /// ahead; out of it, nothing.
    @Test func theFrameSaysWhatTheNextKeyWouldSay() throws {
        let app = try KeysAndFocusTests.app()
        app.step(to: 0)
        #expect(app.frame.upcomingSpeech.isEmpty)
        KeysAndFocusTests.press(app, "Down", at: 100)
        let elements = app.accessibilityElements
        let focused = try #require(elements.firstIndex { $0.id == app.access.focused })
        let expected = [elements[focused + 1], elements[(focused - 1 + elements.count) % elements.count]]
        #expect(app.frame.upcomingSpeech == expected.map { Utterance(text: $0.spoken, language: $0.language) })
        // The next key says what was made ahead.
        _ = app.sink.take()
        KeysAndFocusTests.press(app, "Down", at: 200)
        #expect(KeysAndFocusTests.spoken(app).contains("say[\(expected[0].language)] \(expected[0].spoken)"))
        #expect(app.frame.upcomingSpeech.first?.text != expected[0].spoken)
        app.handle(.headset(plugged: false), at: 300)
        #expect(app.frame.upcomingSpeech.isEmpty)
    }
}
