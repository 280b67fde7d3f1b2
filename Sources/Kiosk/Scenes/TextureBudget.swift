/// The manifest's texture budget (`textureBudgetMiB`), shared by the caches kept as textures: the words take an
/// eighth of it (at most 32 MiB, a few screens of text), the tile pyramids the rest. The pictures' whole
/// textures (the scenes' plain images, each decoded once) are held to half of it besides (64 MiB by default:
/// the demo's pictures, 59 MiB, all stay), so a gallery of hundreds of pages holds no more than that.
public enum TextureBudget {
    public static let wordsMaximum = 32 * 1_048_576

    public static func words(_ totalBytes: Int) -> Int { min(wordsMaximum, totalBytes / 8) }
    public static func tiles(_ totalBytes: Int) -> Int { totalBytes - words(totalBytes) }
    public static func pictures(_ totalBytes: Int) -> Int { totalBytes / 2 }
}
