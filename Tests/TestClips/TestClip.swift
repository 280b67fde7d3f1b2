import CTestClips
import Foundation

/// A test film written in-process by Debian's libavformat and libavcodec (`Tests/CTestClips`): the tests need
/// no `ffmpeg` command, only the libraries `./run.sh` installs for the kiosk. Its picture is a moving test pattern
/// (colour bars sliding four pixels a frame), its sound, if any, a sine tone at 1/8 of full scale.
public struct TestClip {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public var seconds: Double
    public var width = 320
    public var height = 240
    public var rate = 30
    /// A key frame every `gop` frames; 0 leaves it to the encoder.
    public var gop = 0
    /// The encoder: "libx264" (H.264, as a camera or an editor writes it), "rawvideo" (what a decoder gives is
    /// exactly what was written).
    public var codec = "libx264"
    public var pixelFormat = "yuv420p"
    /// The tone's pitch; 0 for a silent film.
    public var toneHz = 0.0
    /// false for a file with sound only.
    public var picture = true
    /// From frame `after` on, the picture is `width` x `height`, from an encoder started anew in the same stream (as
    /// an editor's concatenation of two clips writes it; a container that carries the parameters in-band: .ts).
    public var resized: (after: Int, width: Int, height: Int)?
    /// How far a player is to turn it clockwise (its display matrix, as a phone's portrait film carries it).
    public var rotation = 0
    /// Its pixels' width and height (nil: square; PAL 16:9 is 64:45).
    public var sampleAspect: (Int, Int)?

    public init(seconds: Double) { self.seconds = seconds }

    /// Frames while their time is inside `seconds`, as FFmpeg's sources count them.
    public var frames: Int { picture ? Int((seconds * Double(rate) - 1e-9).rounded(.up)) : 0 }

    /// Writes the clip to `path`; its container is the file name's (.mp4, .nut, .m4a...).
    public func write(to path: String) throws {
        var clip = kiosk_test_clip()
        clip.width = Int32(width)
        clip.height = Int32(height)
        clip.rate = Int32(rate)
        clip.frames = Int32(frames)
        clip.gop = Int32(gop)
        clip.tone_hz = toneHz
        clip.sound_seconds = seconds
        clip.rotation = Int32(rotation)
        if let (n, d) = sampleAspect { (clip.sar_num, clip.sar_den) = (Int32(n), Int32(d)) }
        if let resized {
            clip.resize_after = Int32(resized.after)
            clip.width2 = Int32(resized.width)
            clip.height2 = Int32(resized.height)
        }
        var why = [CChar](repeating: 0, count: 256)
        let status = codec.withCString { codecName in
            pixelFormat.withCString { format in
                clip.codec = codecName
                clip.pixel_format = format
                return kiosk_test_clip_write(path, &clip, &why, why.count)
            }
        }
        guard status == 0 else {
            let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(description: "\(path): cannot write the test clip (\(reason))")
        }
    }
}
