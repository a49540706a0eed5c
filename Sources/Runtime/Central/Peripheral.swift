import HostCore
import Wire

/// One connected peer, seen from async code.
public struct Peripheral: Sendable {
    public let central: Central
    public let link: LinkID
    public let connection: ConnectionInfo?

    init(central: Central, link: LinkID, connection: ConnectionInfo?) {
        self.central = central
        self.link = link
        self.connection = connection
    }

    /// Runs one GATT operation on the link and returns its result.
    public func perform(_ operation: GATTOperation) async throws -> GATTResult {
        let link = self.link
        return try await withCheckedThrowingContinuation { c in
            let ok = central.onLoop { driver, bridge in
                let id = driver.host.perform(operation, on: link, at: MonotonicClock.now())
                bridge.operations[id] = c
            }
            if !ok { c.resume(throwing: CentralError.closed) }
        }
    }

    public func discover() async throws -> GATTDatabase {
        guard case .database(let db) = try await perform(.discoverAll) else {
            throw CentralError.host(.protocolViolation("discovery returned no database"))
        }
        return db
    }

    public func read(handle: UInt16) async throws -> [UInt8] {
        switch try await perform(.readLong(handle: handle)) {
        case .value(let v): return v
        default: throw CentralError.host(.protocolViolation("read returned no value"))
        }
    }

    public func write(handle: UInt16, value: [UInt8], withResponse: Bool = true) async throws {
        if withResponse {
            _ = try await perform(value.count > 20 ? .writeLong(handle: handle, value: value) : .write(handle: handle, value: value))
        } else {
            _ = try await perform(.writeWithoutResponse(handle: handle, value: value))
        }
    }

    /// Values of one characteristic as they arrive (notifications and indications); writes its
    /// CCCD first. The stream ends when the link goes away for good.
    ///
    /// Built on `notificationBatches`: the loop thread hands over one batch per read, and the
    /// values are taken out of it on the consuming task, so a fast stream wakes that task once
    /// per read rather than once per value (Docs/performance.md: 4× the throughput).
    public func subscribe(valueHandle: UInt16, mode: SubscriptionMode = .automatic) async throws -> AsyncStream<[UInt8]> {
        let reader = BatchReader(try await notificationBatches(valueHandle: valueHandle, mode: mode))
        return AsyncStream(unfolding: { await reader.next() })
    }

    /// As `subscribe`, but the values come in batches: all those of one read from the transport
    /// in one `NotificationBatch`, so a fast stream costs one allocation and one wake-up of the
    /// consuming task per read rather than per value. For high rates; `subscribe` is simpler.
    ///
    /// Each stream is one registration for the characteristic (`GATTOperation.subscribe`): the
    /// CCCD is written for the first and written back to 0 when the last stream ends, while the
    /// link is still up (BlueZ's rule for its notify registrations).
    public func notificationBatches(valueHandle: UInt16, mode: SubscriptionMode = .automatic) async throws -> AsyncStream<NotificationBatch> {
        let (stream, continuation) = AsyncStream<NotificationBatch>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let link = self.link
        let token = SubscriptionToken()
        let ok = central.onLoop { _, bridge in
            bridge.batchSubscribers[link, default: [:]][valueHandle, default: []].append(BatchSubscriber(continuation, token: token))
        }
        if !ok { throw CentralError.closed }
        let central = self.central
        continuation.onTermination = { _ in
            _ = central.onLoop { driver, bridge in
                let registered = bridge.removeBatchSubscriber(token, link: link, valueHandle: valueHandle)
                // A stream the link's end finished has no registration left to take back.
                if registered, bridge.connections[link] != nil {
                    let op = driver.host.perform(.unsubscribe(valueHandle: valueHandle), on: link, at: driver.currentTime)
                    bridge.unsubscribeSent(op)
                }
            }
        }
        do {
            _ = try await perform(.subscribe(valueHandle: valueHandle, mode: mode))
        } catch {
            // No registration was made: the stream must not take one back.
            _ = central.onLoop { _, bridge in
                _ = bridge.removeBatchSubscriber(token, link: link, valueHandle: valueHandle)
            }
            continuation.finish()
            throw error
        }
        return stream
    }

    /// Secures the link: encrypts it with the bond's key, or pairs (prompts go to the agent
    /// given to `Central.open`); `need.fresh` pairs anew even when bonded (`rtstack pair`).
    /// Throws `CentralError.host(.security(…))` naming what failed.
    public func secure(_ need: SecurityNeed) async throws -> LinkSecurityStatus {
        let link = self.link
        return try await withCheckedThrowingContinuation { c in
            let ok = central.onLoop { driver, bridge in
                bridge.secures.removeValue(forKey: link)?.continuation.resume(throwing: CentralError.closed)
                bridge.secures[link] = PendingSecure(continuation: c, fresh: need.fresh, pairing: nil)
                driver.host.secure(link, need, at: driver.currentTime)
            }
            if !ok { c.resume(throwing: CentralError.closed) }
        }
    }

    /// Sends Disconnect and waits for Disconnection Complete (or `timeout`).
    public func disconnect(timeout: UInt64 = HostDuration.seconds(3)) async {
        await central.unsubscribed()
        let link = self.link
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ok = central.onLoop { driver, bridge in
                guard bridge.connections[link] != nil || bridge.connects[link] != nil else {
                    driver.host.disconnect(link, at: MonotonicClock.now())
                    c.resume()
                    return
                }
                let now = MonotonicClock.now()
                bridge.disconnects[link, default: []].append(c)
                bridge.disconnectDeadlines[link] = now &+ timeout
                driver.host.disconnect(link, at: now)
            }
            if !ok { c.resume() }
        }
    }
}
