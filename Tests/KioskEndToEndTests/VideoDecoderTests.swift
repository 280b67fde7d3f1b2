import Foundation
import TestClips
import Testing

/// Which decoder plays a film (docs/video.md): a hardware one where the machine has one, the software decoder
/// otherwise, named with why no hardware decoder plays it; and the frames a hardware decoder gives (NV12: VA-API's
/// and many V4L2 M2M decoders') shown as the software decoder's are.
@Suite struct VideoDecoderTests {
    let dir = Kiosk.folder()

    /// `frames` of the test pattern at 30 fps, uncompressed in `pixelFormat` (a NUT file: what a decoder gives is
    /// exactly what was written).
    static func raw(_ path: String, pixelFormat: String, frames: Int = 3) throws {
        var clip = TestClip(seconds: Double(frames) / 30)
        clip.codec = "rawvideo"
        clip.pixelFormat = pixelFormat
        try clip.write(to: path)
    }

    func film(_ video: String) throws -> String {
        try Kiosk.manifest(
            """
            {"kioskManifest": 1, "home": "film", "idleTimeoutSeconds": 0,
             "scenes": [{"id": "film", "type": "video", "video": "\(video)", "loop": false}]}
            """, in: dir)
    }

    /// An NV12 film (two planes: Y, then U and V interleaved) shows the same screen as the same frames in three
    /// planes: it was "not 8-bit 4:2:0" and its poster.
    @Test func nv12FramesShowAsThreePlanesDo() throws {
        var screens: [Picture] = []
        for format in ["yuv420p", "nv12"] {
            let clip = dir.appendingPathComponent("\(format).nut").path
            try Self.raw(clip, pixelFormat: format)
            let shot = dir.appendingPathComponent("\(format).png").path
            let r = try Kiosk.run(
                ["--headless", "640x400", "--config", try film(clip), "--screenshot", "40:\(shot)"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("<3>"), "\(format): \(r.stderr)")
            #expect(r.events.contains { $0.name == "videoDidStart" }, "\(format) did not start")
            screens.append(try #require(Picture(path: shot)))
        }
        // SDL turns the two layouts into RGB by different routines: a level or two apart, no more.
        var different = 0
        for y in 0..<screens[0].height {
            for x in 0..<screens[0].width where !close(screens[0].rgb(x, y), screens[1].rgb(x, y), 3) {
                different += 1
            }
        }
        #expect(different == 0, "\(different) pixels differ between the two films' screens")
        // The film is on the screen, not a poster: the test pattern's colour bars.
        #expect(Set(screens[1].pixels).count > 20)
    }

    /// The trace and the metrics name the decoder in use; a software one says why no hardware decoder plays the
    /// film (this machine's graphics, or `KIOSK_VIDEO_DECODER=software`).
    @Test func theDecoderInUseSaysWhyItIsNotHardware() throws {
        let clip = dir.appendingPathComponent("film.mp4").path
        try VideoTests.clip(clip, seconds: 0.2)
        let config = try film(clip)
        func decoder(_ environment: [String: String]) throws -> String {
            let metrics = dir.appendingPathComponent("film.prom").path
            let r = try Kiosk.run(
                ["--headless", "320x240", "--config", config, "--metrics", metrics], in: dir, environment: environment)
            #expect(r.status == 0, "\(r.stderr)")
            let start = try #require(r.events.first { $0.name == "videoDidStart" })
            let name = try #require(start.fields["decoder"] as? String)
            let text = try String(contentsOfFile: metrics, encoding: .utf8)
            #expect(text.contains("kiosk_video_decoder_info{decoder=\"\(name)\"} 1"), "\(text)")
            return name
        }
        let chosen = try decoder([:])
        if chosen.hasPrefix("software") {
            // Both hardware decoders were asked, and each said why not.
            #expect(chosen.hasPrefix("software h264 (1 thread; "), "\(chosen)")
            #expect(chosen.contains("VA-API") && chosen.contains("V4L2 M2M"), "\(chosen)")
        } else {
            #expect(chosen.hasPrefix("VA-API h264") || chosen.hasPrefix("V4L2 M2M h264"), "\(chosen)")
        }
        #expect(
            try decoder(["KIOSK_VIDEO_DECODER": "software"]) == "software h264 (1 thread; KIOSK_VIDEO_DECODER=software)"
        )
    }
}
