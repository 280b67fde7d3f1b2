import Foundation

/// The first time, as a visitor meets it after a start or a reboot: a fresh kiosk on the real clock at 1920x1080
/// over the demo with its attract loop after 3 s (the film, the map's drift and the gallery's pages, each for the
/// first time), an empty tile cache (the floor plan cut at the start) and the content's files advised out of the
/// page cache (`posix_fadvise(POSIX_FADV_DONTNEED)`; the libraries stay where the machine keeps them), for one round
/// of the loop. The kiosk's own longest frame (`frames: … the longest in X ms`), in ms: one run, the first time.
func coldFrames(folder: String) -> Double {
    let config = demoManifest(editing: ("\"afterSeconds\": 45", "\"afterSeconds\": 3"), at: folder + "/cold.json")
    let cache = folder + "/cold-cache-\(UUID().uuidString)"
    adviseOutOfPageCache(URL(fileURLWithPath: demoManifest).deletingLastPathComponent().path)
    let run = KioskProcess(
        ["--headless", "1920x1080", "--realtime", "--config", config], environment: [:], cache: cache)
    run.start()
    // The wait before the loop, and its three steps (8 + 12 + 16 s).
    usleep(41_000_000)
    let text = run.stop()
    try? FileManager.default.removeItem(atPath: cache)
    return number(after: "the longest in ", in: text) ?? .infinity
}

/// Every regular file under `folder`, advised out of the page cache: the next read comes from the disk, as after a
/// reboot (where the machine allows; a file another process maps stays).
func adviseOutOfPageCache(_ folder: String) {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return }
    for case let name as String in walker {
        let fd = open(folder + "/" + name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { continue }
        var s = stat()
        if fstat(fd, &s) == 0, s.st_mode & S_IFMT == S_IFREG {
            fdatasync(fd)
            posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        }
        close(fd)
    }
}
