/// The last minute of one sensor's values as a row of block characters, so a trend shows at a
/// glance: one character per two-second slot (its mean), ▁ the minute's lowest, █ its highest,
/// a space for a slot without values. Small by design: 30 slots, kept as a ring.
struct Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Slots shown (the width in characters).
    static let slots = 30
    /// Seconds per slot: 30 × 2 s is the last minute.
    static let slotSeconds = 2.0

    private var sums = [Double](repeating: 0, count: Sparkline.slots)
    private var counts = [Int](repeating: 0, count: Sparkline.slots)
    /// The slot number (time / slotSeconds) each ring entry holds.
    private var numbers = [Int](repeating: -1, count: Sparkline.slots)

    /// The slot a time falls in; nil for a time no session reaches (negative, NaN, infinite or
    /// beyond a million years), which would otherwise trap converting to Int.
    static func slotNumber(_ seconds: Double) -> Int? {
        guard seconds >= 0, seconds < 3e13 else { return nil }
        return Int(seconds / slotSeconds)
    }

    /// A value that is no number (NaN, ±infinity) is left out rather than drawn.
    mutating func add(_ value: Double, at seconds: Double) {
        guard value.isFinite, let n = Self.slotNumber(seconds) else { return }
        let i = n % Self.slots
        if numbers[i] != n {
            numbers[i] = n
            sums[i] = 0
            counts[i] = 0
        }
        sums[i] += value
        counts[i] += 1
    }

    /// The minute up to `seconds`, oldest first; empty while there is no value in it.
    func render(at seconds: Double) -> String {
        guard let now = Self.slotNumber(seconds) else { return "" }
        var means: [Double?] = []
        means.reserveCapacity(Self.slots)
        for n in (now - Self.slots + 1)...now {
            let i = ((n % Self.slots) + Self.slots) % Self.slots
            means.append(n >= 0 && numbers[i] == n && counts[i] > 0 ? sums[i] / Double(counts[i]) : nil)
        }
        let present = means.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return "" }
        var out = ""
        for m in means {
            guard let m else { out.append(" "); continue }
            out.append(Self.blocks[Self.level(m, low: low, high: high)])
        }
        return out
    }

    /// The block for a mean between the minute's lowest and highest; a flat minute sits mid-height.
    /// The span is taken in halves so values near ±Double.greatestFiniteMagnitude cannot overflow it.
    static func level(_ m: Double, low: Double, high: Double) -> Int {
        let top = blocks.count - 1
        let span = high / 2 - low / 2
        guard span > 0 else { return top / 2 }
        let fraction = (m / 2 - low / 2) / span
        guard fraction.isFinite else { return top / 2 }
        return min(max(Int((fraction * Double(top)).rounded()), 0), top)
    }
}
