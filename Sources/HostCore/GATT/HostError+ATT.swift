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

    /// `description` with the ATT error and request named, e.g. "ATT error Read Not
    /// Permitted (0x02) for Read Request (0x0A) on handle 0x0003".
    public var attDescription: String {
        if case let .att(code, request, handle) = self {
            return "ATT error \(ATTErrorCode(code)) for \(ATTOpcode(request)) on handle \(Hex.number(handle, width: 4))"
        }
        if case let .attTimeout(request) = self {
            return "ATT \(ATTOpcode(request)) timed out after 30 s; the link can no longer be used for ATT"
        }
        return description
    }
}
