import Foundation
import HostCore
import Runtime
import Wire

/// A connection's beginning and end, as the manager drives them.
extension CBPeripheral {
    /// `.connecting`, when it was disconnected; the generation the connection will have.
    func beginConnecting() -> Int? {
        lock.guarded {
            guard storedState == .disconnected else { return nil }
            storedState = .connecting
            generation += 1
            return generation
        }
    }

    /// The link is up: false when the attempt was cancelled meanwhile (the link must go).
    func attach(_ link: Peripheral, generation g: Int) -> Bool {
        lock.guarded {
            guard generation == g, storedState == .connecting else { return false }
            connection = PeripheralConnection(link: link)
            storedState = .connected
            storedServices = nil
            return true
        }
    }

    /// The attempt failed: true when it is still the one to report.
    func connectFailed(generation g: Int) -> Bool {
        lock.guarded {
            guard generation == g, storedState == .connecting else { return false }
            storedState = .disconnected
            return true
        }
    }

    /// Follows the link's events until it ends; `ended` is told once, with the reason (nil
    /// when the adapter went away under it).
    func follow(_ link: Peripheral, generation g: Int, ended: @escaping @Sendable (HCIStatus?) -> Void) {
        Task { [self] in
            for await event in link.events() {
                switch event {
                case .mtuChanged(let mtu):
                    lock.guarded { if generation == g { connection?.mtu = mtu } }
                case .databaseChanged:
                    let invalidated: [CBService] = lock.guarded {
                        guard generation == g else { return [] }
                        defer { storedServices = [] }
                        return storedServices ?? []
                    }
                    onQueue { p in p.delegate?.peripheral(p, didModifyServices: invalidated) }
                case .disconnected(let reason):
                    return ended(reason)
                }
            }
            ended(nil)
        }
    }

    /// The connection ended (or was cancelled): true once per connection, with whether the
    /// app asked for it. Requests still queued are dropped, notifications stop, the services
    /// are forgotten (iOS invalidates them too).
    func detach(generation g: Int) -> Bool? {
        lock.guarded {
            guard generation == g, storedState != .disconnected else { return nil }
            let cancelled = connection?.cancelled ?? true
            if let c = connection {
                for t in c.notifications.values { t.cancel() }
                c.requests.close()
            }
            for s in storedServices ?? [] { for c in s.storedCharacteristics ?? [] { c.storedNotifying = false } }
            connection = nil
            storedState = .disconnected
            storedServices = nil
            generation += 1
            return cancelled
        }
    }

    /// `cancelPeripheralConnection`: the link to take down (nil while still connecting) and the
    /// generation to end, or nil when there is nothing to cancel.
    func beginCancelling() -> (link: Peripheral?, generation: Int)? {
        lock.guarded {
            switch storedState {
            case .disconnected, .disconnecting: return nil
            case .connecting: return (nil, generation)
            case .connected:
                storedState = .disconnecting
                connection?.cancelled = true
                return (connection?.link, generation)
            }
        }
    }

    /// Takes the name an advertisement carries; true when it changed.
    func takeAdvertised(_ a: AdvertisementSnapshot) -> Bool {
        lock.guarded {
            advertisedServices = a.serviceUUIDs
            guard let n = a.localName, n != storedName else { return false }
            storedName = n
            return true
        }
    }
}
