import Wire
import Dissector

/// Where `decode` and `monitor` send what the dissector made: filtered, rendered as text or
/// JSON Lines, advertising reports folded into the summary table when asked, and the totals
/// at the end.
final class Presenter {
    let json: Bool
    let summaryOnly: Bool
    let filter: PacketFilter
    let out: OutputStream
    private let text: TextRenderer
    private let jsonRenderer: JSONRenderer
    private(set) var advertising: AdvertisingSummary?
    private var jsonMemo = JSONRenderer.FieldsMemo()

    init(json: Bool, hex: Bool, brief: Bool, summaryOnly: Bool, filter: PacketFilter, advertisingSummary: Bool,
         out: OutputStream) {
        self.json = json
        self.summaryOnly = summaryOnly
        self.filter = filter
        self.out = out
        text = TextRenderer(hexDump: hex, showFields: !brief)
        jsonRenderer = JSONRenderer(includeFields: !brief)
        advertising = advertisingSummary ? AdvertisingSummary() : nil
    }

    func packet(_ p: DissectedPacket) {
        if summaryOnly || !filter.accepts(p) { return }
        if advertising?.add(p) == true { return }
        if json {
            out.append(text: { line in
                jsonRenderer.render(p, into: &line, memo: &jsonMemo)
                line.append(byte: 0x0A)
            })
        } else {
            out.append(text: { text.render(p, into: &$0) })
        }
    }

    func note(_ n: DissectedNote) {
        if summaryOnly || !filter.accepts(n) { return }
        if json {
            out.append(text: { line in
                jsonRenderer.render(n, into: &line)
                line.append(byte: 0x0A)
            })
        } else {
            out.append(text: { text.render(n, into: &$0) })
        }
    }

    /// The advertising table so far (the monitor prints it every few seconds).
    func showAdvertising() {
        guard let advertising, !advertising.isEmpty else { return }
        out.line(json ? advertising.json.finished : advertising.text)
    }

    /// The advertising table and the totals.
    func finish(statistics: DecodeStatistics, file: String?, summary: Bool) {
        showAdvertising()
        guard summary else { return }
        if json {
            var s = statistics.json
            if let file { s.add("file", file) }
            out.line(s.finished)
        } else {
            out.line(statistics.text)
        }
    }
}
