import HostCore

/// The run session drives the kernel backend's host as it drives `Host`.
extension KernelHost: SessionHost {
    public func startScan(_ configuration: ScanConfiguration, at now: HostTime) {
        startScan(Optional(configuration), at: now)
    }
}
