import Wire

/// Scanning: what the user wants (`wanted`), whether a connection attempt needs the radio
/// (`suspended`), and where the controller is (`phase`). The host asks `nextAction` after
/// every change and sends what it says, one command at a time.
struct Scanner: Sendable {
    enum Phase: Sendable, Equatable {
        case idle
        case settingParameters
        case enabling
        case scanning
        case disabling
    }

    enum Action: Sendable, Equatable {
        case none
        case setParameters(ScanConfiguration)
        case enable(ScanConfiguration)
        case disable
    }

    private(set) var phase: Phase = .idle
    /// The scan the user asked for; nil when none.
    var wanted: ScanConfiguration?
    /// Paused while LE Create Connection is pending on a controller that cannot scan and
    /// initiate at once.
    var suspended = false
    /// The configuration of the scan on the controller (or being started).
    private(set) var current: ScanConfiguration?

    /// Nothing on the controller and nothing under way.
    var isQuiet: Bool { phase == .idle }

    var isScanning: Bool { phase == .scanning }

    /// Forgets the controller's side (controller reset); what the user wants stays.
    mutating func controllerReset() {
        phase = .idle
        current = nil
        suspended = false
    }

    /// The next command that brings the controller towards what is wanted; none while a
    /// command is under way.
    mutating func nextAction() -> Action {
        let target = suspended ? nil : wanted
        switch phase {
        case .idle:
            guard let t = target else { return .none }
            phase = .settingParameters
            current = t
            return .setParameters(t)
        case .scanning:
            if target == current { return .none }
            phase = .disabling
            return .disable
        case .settingParameters, .enabling, .disabling:
            return .none
        }
    }

    /// Answer to the scan parameters command. On success the enable follows (or nothing, when
    /// the wish changed meanwhile).
    mutating func parametersAnswered(success: Bool) -> Action {
        guard phase == .settingParameters else { return .none }
        let target = suspended ? nil : wanted
        guard success, let c = current, target == c else {
            phase = .idle
            current = nil
            return .none
        }
        phase = .enabling
        return .enable(c)
    }

    /// Answer to an enable; true when scanning started.
    mutating func enableAnswered(success: Bool) -> Bool {
        guard phase == .enabling else { return false }
        if success {
            phase = .scanning
            return true
        }
        phase = .idle
        current = nil
        return false
    }

    /// Answer to a disable: the controller no longer scans, whatever the status (a failed
    /// disable means it was not scanning).
    mutating func disableAnswered() {
        phase = .idle
        current = nil
    }

    /// The command failed for good (e.g. timeout): back to idle.
    mutating func abandon() {
        phase = .idle
        current = nil
    }

    // MARK: Reports

    /// An LE Advertising Report entry as the application sees it (Vol 4, Part E, §7.7.65.2).
    static func report(_ r: LEAdvertisingReport) -> AdvertisementReport {
        let type = r.eventType
        return AdvertisementReport(
            address: DeviceAddress(r.address, type: r.addressType), rssi: r.rssi,
            connectable: type.isConnectable,
            scannable: type == .advInd || type == .advScanInd,
            isScanResponse: type == .scanRsp, data: r.data)
    }

    /// An LE Extended Advertising Report entry (§7.7.65.13); nil for an anonymous advertiser,
    /// which has no address to report. An unresolved RPA (0xFE) is reported as random.
    static func report(_ r: LEExtendedAdvertisingReport) -> AdvertisementReport? {
        let addressType: LEAddressType
        if let t = r.addressType.addressType {
            addressType = t
        } else if r.addressType == .randomUnresolved {
            addressType = .randomDevice
        } else {
            return nil
        }
        let type = r.eventType
        return AdvertisementReport(
            address: DeviceAddress(r.address, type: addressType), rssi: r.rssi,
            connectable: type.contains(.connectable), scannable: type.contains(.scannable),
            isScanResponse: type.contains(.scanResponse), data: r.data)
    }
}
