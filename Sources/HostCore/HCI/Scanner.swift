import Wire

/// Scanning: what the application wants (`wanted`), where the controller is (`phase`), and
/// when a refused scan command is tried again (`retryAt`). Which scan command goes next — and
/// whether one may go at all beside a connection attempt or an address rotation — is decided by
/// `ControllerSchedule`; this records what was sent and answered. The wish stays until the
/// application withdraws it: a refused command is retried, never silently dropped
/// (Docs/host-core.md, "Controller states").
struct Scanner: Sendable {
    enum Phase: Sendable, Equatable {
        case idle
        case settingParameters
        /// The parameters were accepted; scanning is still disabled.
        case parametersSet
        case enabling
        case scanning
        case disabling
    }

    /// The first wait after a refusal that no controller state explains; doubled per refusal.
    static let firstRetryDelay: HostTime = HostDuration.seconds(1)
    static let maximumRetryDelay: HostTime = HostDuration.seconds(30)

    private(set) var phase: Phase = .idle
    /// The scan the application asked for; nil when none.
    var wanted: ScanConfiguration?
    /// The configuration of the scan on the controller (or being started).
    private(set) var current: ScanConfiguration?
    /// A refused scan command is tried again from then on; nil when nothing waits.
    private(set) var retryAt: HostTime?
    /// Refusals in a row since scanning last started (the backoff grows with it).
    private(set) var refusals = 0
    /// A refusal has been reported to the application since scanning last started: the retries
    /// after it are not reported again.
    var refusalReported = false

    /// Nothing on the controller and nothing under way.
    var isQuiet: Bool { ControllerSchedule.isQuiet(phase) }

    var isScanning: Bool { phase == .scanning }

    /// Forgets the controller's side (controller reset); what the application wants stays.
    mutating func controllerReset() {
        phase = .idle
        current = nil
        retryAt = nil
        refusals = 0
    }

    /// A new wish from the application is tried at once, whatever an earlier refusal said.
    mutating func want(_ scan: ScanConfiguration?) {
        wanted = scan
        retryAt = nil
    }

    /// Whether a refused command still waits for its retry time. A retry time that has passed
    /// is forgotten, so that a deadline in the past is never reported again.
    mutating func isWaitingToRetry(at now: HostTime) -> Bool {
        guard let r = retryAt else { return false }
        if r > now { return true }
        retryAt = nil
        return false
    }

    mutating func parametersSent(_ scan: ScanConfiguration) {
        phase = .settingParameters
        current = scan
    }

    mutating func enableSent() {
        phase = .enabling
    }

    mutating func disableSent() {
        phase = .disabling
    }

    /// Answer to the scan parameters command; the schedule then enables the scan, or sets
    /// other parameters when the target changed meanwhile.
    mutating func parametersAnswered(success: Bool) {
        guard phase == .settingParameters else { return }
        if success {
            phase = .parametersSet
        } else {
            phase = .idle
            current = nil
        }
    }

    /// Answer to an enable; true when scanning started.
    mutating func enableAnswered(success: Bool) -> Bool {
        guard phase == .enabling else { return false }
        if success {
            phase = .scanning
            refusals = 0
            refusalReported = false
            return true
        }
        phase = .idle
        current = nil
        return false
    }

    /// A refusal the controller's state explains (Command Disallowed while LE Create Connection
    /// is pending): the host will not ask again until that state has passed, so no timer.
    mutating func refusedForNow() {
        retryAt = nil
    }

    /// A refusal nothing explains: the wish is kept and tried again after a backoff that
    /// doubles per refusal in a row (1 s … 30 s). Returns the wait.
    @discardableResult
    mutating func refused(at now: HostTime) -> HostTime {
        var delay = Self.firstRetryDelay
        var i = 0
        while i < refusals, delay < Self.maximumRetryDelay {
            delay = delay &* 2
            i += 1
        }
        delay = min(delay, Self.maximumRetryDelay)
        refusals += 1
        retryAt = now &+ delay
        return delay
    }

    /// Answer to a disable: the controller no longer scans, whatever the status (a failed
    /// disable means it was not scanning).
    mutating func disableAnswered() {
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
