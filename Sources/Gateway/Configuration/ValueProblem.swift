/// What is wrong with one value ("wants 0 or 1, got '2'"); written as a string literal where it
/// is made.
public struct ValueProblem: Error, Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public init(stringLiteral value: String) { message = value }
    public init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
    public var description: String { message }
}
