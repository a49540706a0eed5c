/// The two streams a command writes to; tests hand in streams over temporary files.
public struct Console: Sendable {
    public var out: OutputStream
    public var err: OutputStream

    public init(out: OutputStream, err: OutputStream) {
        self.out = out
        self.err = err
    }
}
