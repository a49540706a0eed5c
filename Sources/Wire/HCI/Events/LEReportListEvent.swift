/// The shape the LE advertising report subevents share (Vol 4, Part E, §7.7.65.2, .11 and
/// .13): Num_Reports, then that many reports one after another. One generic type, so that
/// decoding, encoding and showing a list of reports is written once for the three kinds.
public struct LEReportListEvent<Report: WireCodable & FieldDescribing & Hashable>: WireCodable, FieldDescribing, Hashable {
    public var reports: HCIEventArray<Report>

    /// Num_Reports.
    public var numReports: Int { reports.count }

    public init(reports: [Report]) {
        self.reports = HCIEventArray(reports)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let n = try r.u8("Num_Reports")
        reports = try HCIEventArray(count: Int(n), decoding: &r)
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(UInt8(truncatingIfNeeded: reports.count))
        reports.encode(into: &w)
    }

    public var summary: String {
        var t = TextBuffer()
        appendSummary(to: &t)
        return t.string
    }

    public func appendSummary(to t: inout TextBuffer) {
        if reports.count == 1, let only = reports.first {
            only.appendSummary(to: &t)
        } else {
            EventFormat.plural(reports.count, "report", into: &t)
        }
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Num reports") { $0.appendDecimal(numReports) }
        for (i, report) in reports.enumerated() {
            Self.describe(report, index: i, into: &f)
        }
    }

    /// Summary and fields with each report decoded once (nearly every event has one report).
    public func describe(summary: inout TextBuffer, fields f: inout FieldList) {
        f.add("Num reports") { $0.appendDecimal(numReports) }
        if reports.count != 1 { EventFormat.plural(reports.count, "report", into: &summary) }
        for (i, report) in reports.enumerated() {
            if reports.count == 1 { report.appendSummary(to: &summary) }
            Self.describe(report, index: i, into: &f)
        }
    }

    private static func describe(_ report: Report, index i: Int, into f: inout FieldList) {
        f.nested(i < LEReportLabels.all.count ? LEReportLabels.all[i] : "Report " + String(i + 1)) { f in
            report.describeFields(into: &f)
        }
    }
}

/// "Report 1" to "Report 25" (the most a controller sends in one event), made once; a generic
/// type cannot hold a stored static.
enum LEReportLabels {
    static let all = (1...25).map { "Report \($0)" }
}

/// HCI_LE_Advertising_Report (§7.7.65.2): advertising PDUs and scan responses received while
/// scanning with legacy commands. In Core 5.x each report's fields come together, report
/// after report.
public typealias LEAdvertisingReportEvent = LEReportListEvent<LEAdvertisingReport>

/// HCI_LE_Directed_Advertising_Report (§7.7.65.11): directed advertising aimed at a resolvable
/// private address the controller could not resolve, reported only with scanning filter policy
/// 0x02/0x03 so that the host can try to resolve it.
public typealias LEDirectedAdvertisingReportEvent = LEReportListEvent<LEDirectedAdvertisingReport>

/// HCI_LE_Extended_Advertising_Report (§7.7.65.13): advertising received while scanning with
/// the extended commands — legacy PDUs too, then with the legacy bit set. Long advertising
/// data can arrive split over several reports (`dataStatus`).
public typealias LEExtendedAdvertisingReportEvent = LEReportListEvent<LEExtendedAdvertisingReport>
