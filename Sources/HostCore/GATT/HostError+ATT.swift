import Wire

extension HostError {
    /// The peer's ATT Error Code when this is `.att`, to test by name
    /// (`error.attErrorCode == .insufficientAuthentication`) and print its meaning.
    public var attErrorCode: ATTErrorCode? {
        if case let .att(code, _, _) = self { return ATTErrorCode(code) }
        return nil
    }

    /// The request that failed when this is `.att` or `.attTimeout`.
    public var attRequestOpcode: ATTOpcode? {
        switch self {
        case let .att(_, request, _), let .attTimeout(request): return ATTOpcode(request)
        default: return nil
        }
    }

    /// Kept for callers written before `description` named ATT errors itself.
    public var attDescription: String { description }
}
