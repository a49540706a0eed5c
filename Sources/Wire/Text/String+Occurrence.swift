extension StringProtocol {
    /// Whether `other` occurs in this string, compared as UTF-8 bytes.
    ///
    /// The standard library's `contains(_:)` for a string argument lives in _StringProcessing,
    /// and using it links that module and the Regex parser into a static binary: 0.9 MB of the
    /// 12 MB the board binary may have (Docs/embedded.md, "One file to copy: the static build").
    public func containsText(_ other: some StringProtocol) -> Bool {
        let needle = Array(other.utf8)
        guard !needle.isEmpty else { return true }
        let hay = Array(utf8)
        guard hay.count >= needle.count else { return false }
        var i = 0
        while i <= hay.count - needle.count {
            var j = 0
            while j < needle.count, hay[i + j] == needle[j] { j += 1 }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }
}
