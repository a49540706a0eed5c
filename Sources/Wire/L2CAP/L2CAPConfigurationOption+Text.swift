extension L2CAPConfigurationOption: CustomStringConvertible {
    /// `MTU 672`, `Retransmission and Flow Control: Enhanced Retransmission mode, TxWindow 10, …`;
    /// a value of the wrong size, or of a type without a layout here, shows as hex.
    public var description: String {
        let hint = isHint ? " (hint)" : ""
        if let mtu { return "MTU \(mtu)" + hint }
        if let t = flushTimeout { return "Flush Timeout " + (t == 0xFFFF ? "infinite" : t == 0x0001 ? "none (no retransmissions)" : "\(t) ms") + hint }
        if let w = extendedWindowSize { return "Extended Window Size \(w)" + hint }
        if let f = fcsType { return "Frame Check Sequence: " + (f == 0 ? "no FCS" : f == 1 ? "16-bit FCS" : "reserved type \(L2CAPText.hex8(f))") + hint }
        if let r = retransmissionAndFlowControl {
            var s = "Retransmission and Flow Control: \(r.mode.name) mode"
            if r.mode != .basic {
                s += ", TxWindow \(r.txWindowSize), MaxTransmit \(r.maxTransmit), retransmission time-out \(r.retransmissionTimeout) ms"
                    + ", monitor time-out \(r.monitorTimeout) ms, MPS \(r.mps)"
            }
            return s + hint
        }
        return "\(L2CAPText.named(type.name, type.rawValue))\(hint): \(L2CAPText.bytes(value))"
    }
}
