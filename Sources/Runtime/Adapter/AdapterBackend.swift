import HostCore

/// Why an adapter could not be opened.
public enum AdapterOpenError: Error, Sendable, CustomStringConvertible {
    case transport(TransportError)
    case kernel(KernelAdapterProblem)
    /// `--backend kernel` asked of an adapter that is not a kernel one.
    case notAKernelAdapter(AdapterSpec)

    public var description: String {
        switch self {
        case .transport(let e): return e.description
        case .kernel(let p): return p.description
        case .notAKernelAdapter(let spec): return "\(spec) is not a kernel adapter (hciN): it has no kernel host stack"
        }
    }
}

extension AdapterSpec {
    /// Opens the adapter's I/O for `backend` on the calling thread, so that failures reach the
    /// caller at once; hand the result to an `EventLoop<AdapterDriver>`. The tap's sinks are
    /// made here too.
    /// `notice` is told what is done to the adapter on the way (see `openTransport`);
    /// `connectTimeout` bounds a TCP connect (a loop that reopens a lost adapter waits less).
    public func open(backend: AdapterBackend, configuration: HostConfiguration, security: KernelSecurityLevel? = nil,
                     sinks: [any PacketSinkFactory] = [], connectTimeout: UInt64 = TCPTransport.defaultConnectTimeout,
                     notice: @escaping @Sendable (String) -> Void = { _ in }) throws(AdapterOpenError) -> any AdapterIO {
        switch backend {
        case .userChannel:
            let transport: any HCITransport
            do throws(TransportError) {
                transport = try openTransport(connectTimeout: connectTimeout, notice: notice)
            } catch {
                throw .transport(error)
            }
            return HCITransportIO(transport: transport, configuration: configuration, tap: PacketTap.make(sinks))
        case .kernel:
            guard case .hciSocket(let index) = self else { throw .notAKernelAdapter(self) }
            do throws(KernelAdapterProblem) {
                try KernelAdapterCheck.check(index: index)
            } catch {
                throw .kernel(error)
            }
            let s = configuration.security
            var kernel = KernelHostConfiguration(index: index, security: security
                ?? (s.level > .low ? KernelSecurityLevel(rawValue: UInt8(s.level.rawValue)) : nil))
            kernel.automaticSecurity = s.automatic
            if s.configuresKernel {
                kernel.ioCapability = s.pairing.ioCapability
                kernel.bondable = s.pairing.bonding
            }
            do throws(HCISocketError) {
                return try KernelSocketsIO(configuration: kernel, tap: PacketTap.make(sinks), notice: notice)
            } catch {
                throw .kernel(.management(error))
            }
        }
    }
}
