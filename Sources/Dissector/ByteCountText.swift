/// Counts of bytes in summaries read as English ("1 byte", "2 bytes"): the summary line is
/// what a person debugging a peripheral reads first.
enum ByteCountText {
    static func phrase(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }
}
