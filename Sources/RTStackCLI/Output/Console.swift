/// The two streams a command writes to; tests hand in streams over temporary files.
public struct Console: Sendable {
    public var out: OutputStream
    public var err: OutputStream

    public init(out: OutputStream, err: OutputStream) {
        self.out = out
        self.err = err
    }

    /// A line about what rtstack does to the user's system (an adapter taken down), on stderr.
    var notice: @Sendable (String) -> Void {
        let err = self.err
        return { text in
            err.line("rtstack: " + text)
            err.flush()
        }
    }
}
