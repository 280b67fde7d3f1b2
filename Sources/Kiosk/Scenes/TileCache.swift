/// A least-recently-used cache of tiles within a byte budget. Generic over what a tile holds (a texture in
/// the kiosk, a number in tests). Tiles used in the current frame are evicted last; pinned tiles never.
public struct TileCache<Value> {
    struct Entry {
        var value: Value
        var bytes: Int
        var lastUsed: UInt64
        var pinned: Bool
    }

    public private(set) var budget: Int
    public private(set) var bytes = 0
    /// The most bytes ever held.
    public private(set) var peakBytes = 0
    var entries: [TileKey: Entry] = [:]
    var clock: UInt64 = 0

    public init(budget: Int) { self.budget = max(0, budget) }

    public var count: Int { entries.count }

    public func contains(_ key: TileKey) -> Bool { entries[key] != nil }

    /// The value, marked as used now.
    public mutating func use(_ key: TileKey) -> Value? {
        guard entries[key] != nil else { return nil }
        entries[key]!.lastUsed = clock
        return entries[key]!.value
    }

    /// A new frame: what is used from now on is newer than everything before.
    public mutating func nextFrame() { clock += 1 }

    /// Makes room by evicting the least recently used tiles, then adds this one; returns the evicted values (for
    /// the owner to free). A pinned tile (the pyramid's smallest levels) is never evicted, so only pinned tiles
    /// can take the cache over its budget.
    @discardableResult
    public mutating func insert(_ key: TileKey, _ value: Value, bytes size: Int, pinned: Bool = false) -> [Value] {
        var evicted: [Value] = []
        if let old = entries.removeValue(forKey: key) {
            bytes -= old.bytes
            evicted.append(old.value)
        }
        evicted += evict(downTo: budget - size, sparing: key)
        entries[key] = Entry(value: value, bytes: size, lastUsed: clock, pinned: pinned)
        bytes += size
        peakBytes = max(peakBytes, bytes)
        return evicted
    }

    /// A new budget (new content may set another): when it is lower, the least recently used tiles go until the
    /// rest fits (pinned ones never); returns them for the owner to free.
    @discardableResult
    public mutating func setBudget(_ newBudget: Int) -> [Value] {
        budget = max(0, newBudget)
        return evict(downTo: budget, sparing: nil)
    }

    /// Evicts the least recently used tiles (never a pinned one, nor `key`) until at most `limit` bytes are held
    /// or none is left to evict; returns them.
    mutating func evict(downTo limit: Int, sparing key: TileKey?) -> [Value] {
        var evicted: [Value] = []
        while bytes > limit, let victim = leastRecentlyUsed(excluding: key) {
            let e = entries.removeValue(forKey: victim)!
            bytes -= e.bytes
            evicted.append(e.value)
        }
        return evicted
    }

    /// Evicts the tiles not used in the last `frames` frames while more than `softBudget` bytes are held (the
    /// least recently used first; pinned ones never); returns them for the owner to free. What the screen
    /// shows stays; what it showed a while ago goes, so memory follows the screen, not the visit's history.
    @discardableResult
    public mutating func trim(toSoftBudget softBudget: Int, unusedFor frames: UInt64) -> [Value] {
        guard bytes > softBudget else { return [] }
        var evicted: [Value] = []
        let old = entries.filter { !$0.value.pinned && $0.value.lastUsed + frames <= clock }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, e) in old where bytes > softBudget {
            entries[key] = nil
            bytes -= e.bytes
            evicted.append(e.value)
        }
        return evicted
    }

    /// Removes the entries whose key `which` picks, pinned or not (for the owner to free).
    public mutating func remove(where which: (TileKey) -> Bool) -> [Value] {
        var removed: [Value] = []
        for (key, e) in entries where which(key) {
            entries[key] = nil
            bytes -= e.bytes
            removed.append(e.value)
        }
        return removed
    }

    /// Removes everything (for the owner to free).
    public mutating func removeAll() -> [Value] {
        defer {
            entries.removeAll()
            bytes = 0
        }
        return entries.values.map(\.value)
    }

    func leastRecentlyUsed(excluding key: TileKey?) -> TileKey? {
        var best: (TileKey, UInt64)?
        for (k, e) in entries where k != key && !e.pinned {
            if best == nil || e.lastUsed < best!.1 { best = (k, e.lastUsed) }
        }
        return best?.0
    }
}
