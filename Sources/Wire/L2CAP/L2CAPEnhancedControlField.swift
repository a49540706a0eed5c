/// The 16-bit Enhanced Control Field of I-frames and S-frames on a channel in Enhanced
/// Retransmission or Streaming mode (Core Spec v5.4 Vol 3, Part A, §3.3.2). Bit 0 tells the
/// two apart: 0 an I-frame (TxSeq, ReqSeq, SAR), 1 an S-frame (supervisory function, ReqSeq).
public struct L2CAPEnhancedControlField: Hashable, Sendable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public var isIFrame: Bool { rawValue & 0x0001 == 0 }
    /// Send sequence number of an I-frame (bits 1–6).
    public var txSeq: UInt8 { UInt8((rawValue >> 1) & 0x3F) }
    /// Final bit (bit 7).
    public var final: Bool { rawValue & 0x0080 != 0 }
    /// Receive sequence number, the next I-frame expected (bits 8–13).
    public var reqSeq: UInt8 { UInt8((rawValue >> 8) & 0x3F) }
    /// Segmentation and Reassembly of an I-frame (bits 14–15): 0 unsegmented, 1 start (an
    /// SDU Length follows the control field), 2 end, 3 continuation.
    public var sar: UInt8 { UInt8(rawValue >> 14) }
    /// Supervisory function of an S-frame (bits 2–3).
    public var supervisoryFunction: UInt8 { UInt8((rawValue >> 2) & 0x03) }
    /// Poll bit of an S-frame (bit 4).
    public var poll: Bool { rawValue & 0x0010 != 0 }

    public var sarName: String {
        switch sar {
        case 0: return "unsegmented"
        case 1: return "start"
        case 2: return "end"
        default: return "continuation"
        }
    }

    /// `RR`, `REJ`, `RNR`, `SREJ`.
    public var supervisoryName: String {
        switch supervisoryFunction {
        case 0: return "RR"
        case 1: return "REJ"
        case 2: return "RNR"
        default: return "SREJ"
        }
    }

    /// `I-frame TxSeq 3 ReqSeq 2 unsegmented` or `S-frame RR ReqSeq 4 poll`.
    public var summary: String {
        if isIFrame {
            return "I-frame TxSeq \(txSeq) ReqSeq \(reqSeq) \(sarName)" + (final ? " final" : "")
        }
        return "S-frame \(supervisoryName) ReqSeq \(reqSeq)" + (poll ? " poll" : "") + (final ? " final" : "")
    }
}
