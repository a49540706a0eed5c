import Testing
import Wire
@testable import HostCore

@Suite struct GATTReadWriteTests {
    private func harness(_ configure: (FakeATTServer) -> Void = { _ in }) -> GATTHarness { .heartRate(configure) }

    // Core Spec v5.4 Vol 3, Part G, §4.8.1 Read Characteristic Value.
    @Test func read() {
        let h = harness()
        let id = h.perform(.read(handle: 0x0003))
        #expect(h.value(id) == Array("rtstack HR".utf8))
        #expect(h.server.requests == [.readRequest])
    }

    // §4.8.3 Read Long Characteristic Values at ATT_MTU 23: 22 bytes per answer; a short
    // answer ends the read.
    @Test func readLongValueLongerThanTheMTU() {
        let long = (0..<60).map { UInt8($0) }
        let h = harness { $0.setValue(long, at: 0x0003) }
        let id = h.perform(.readLong(handle: 0x0003))
        #expect(h.value(id) == long)
        #expect(h.server.requests == [.readRequest, .readBlobRequest, .readBlobRequest])
        let offsets = h.server.received.compactMap { bytes -> UInt16? in
            if case let .readBlobRequest(_, offset)? = try? ATTPDU.decode(bytes) { return offset }
            return nil
        }
        #expect(offsets == [22, 44])
    }

    // A value that is an exact multiple of MTU − 1 needs one more (empty) blob to end.
    @Test func readLongExactMultiple() {
        let value = [UInt8](repeating: 0x5A, count: 44)
        let h = harness { $0.setValue(value, at: 0x0003) }
        let id = h.perform(.readLong(handle: 0x0003))
        #expect(h.value(id) == value)
        #expect(h.server.requests == [.readRequest, .readBlobRequest, .readBlobRequest])
    }

    @Test func readLongOfAShortValueIsOneRead() {
        let h = harness()
        let id = h.perform(.readLong(handle: 0x0005))
        #expect(h.value(id) == [0x41, 0x03])
        #expect(h.server.requests == [.readRequest])
    }

    // Attribute Not Long on the blob at the value's end (§3.4.4.5) completes the read.
    @Test func readLongEndsOnAttributeNotLong() {
        let value = [UInt8](repeating: 1, count: 22)
        let h = harness {
            $0.setValue(value, at: 0x0003)
            $0.opcodeErrors[ATTOpcode.readBlobRequest.rawValue] = .attributeNotLong
        }
        let id = h.perform(.readLong(handle: 0x0003))
        #expect(h.value(id) == value)
    }

    // §4.8.2 Read Using Characteristic UUID.
    @Test func readByType() {
        let h = harness()
        let id = h.perform(.readByType(BluetoothUUID(0x2A38), range: 0x0001...0xFFFF))
        guard case let .success(.values(values))? = h.result(id) else {
            Issue.record("no values")
            return
        }
        #expect(values.map(\.handle) == [0x0011])
        #expect(values.map(\.value) == [[0x01]])
    }

    @Test func readByTypeOfAnAbsentTypeFailsWithAttributeNotFound() {
        let h = harness()
        let id = h.perform(.readByType(BluetoothUUID(0x2A6E), range: 0x0001...0xFFFF))
        #expect(h.error(id)?.attErrorCode == .attributeNotFound)
    }

    // §4.9.3 Write Characteristic Value.
    @Test func write() {
        let h = harness()
        let id = h.perform(.write(handle: 0x0013, value: [0x01]))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("write failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(h.server.value(at: 0x0013) == [0x01])
        #expect(h.server.requests == [.writeRequest])
    }

    @Test func writeLongerThanOnePDUIsRefusedBeforeSending() {
        let h = harness()
        let id = h.perform(.write(handle: 0x0013, value: [UInt8](repeating: 0, count: 21)))
        guard case .invalidState? = h.error(id) else {
            Issue.record("expected invalidState, got \(String(describing: h.result(id)))")
            return
        }
        #expect(h.server.requests.isEmpty)
    }

    // §4.9.1 Write Without Response: a command, complete at once, nothing to wait for.
    @Test func writeWithoutResponse() {
        let h = harness()
        let id = h.perform(.writeWithoutResponse(handle: 0x0013, value: [0x01]))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("not done")
            return
        }
        #expect(h.server.requests.isEmpty)
        #expect(h.server.commands.map(\.handle) == [0x0013])
        #expect(h.session.nextDeadline == nil)
    }

    // §4.9.4 Write Long Characteristic Values: 18-byte parts at ATT_MTU 23, then Execute Write.
    @Test func writeLong() {
        let value = (0..<50).map { UInt8($0) }
        let h = harness()
        let id = h.perform(.writeLong(handle: 0x0003, value: value))
        guard case .success(.done)? = h.result(id) else {
            Issue.record("write long failed: \(String(describing: h.result(id)))")
            return
        }
        #expect(h.server.requests == [.prepareWriteRequest, .prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest])
        #expect(h.server.value(at: 0x0003) == value)
        let parts = h.server.received.compactMap { bytes -> (UInt16, Int)? in
            if case let .prepareWriteRequest(p)? = try? ATTPDU.decode(bytes) { return (p.valueOffset, p.partAttributeValue.count) }
            return nil
        }
        #expect(parts.map(\.0) == [0, 18, 36])
        #expect(parts.map(\.1) == [18, 18, 14])
    }

    // §4.9.5: an echo that differs from the request cancels the queue (Execute Write, flags
    // 0x00) and fails the write.
    @Test func writeLongEchoMismatchCancels() throws {
        let h = harness { $0.corruptPrepareEcho = true }
        let before = h.server.value(at: 0x0003)
        let id = h.perform(.writeLong(handle: 0x0003, value: [UInt8](repeating: 7, count: 30)))
        guard case .protocolViolation? = h.error(id) else {
            Issue.record("expected protocolViolation, got \(String(describing: h.result(id)))")
            return
        }
        #expect(h.server.requests == [.prepareWriteRequest, .executeWriteRequest])
        let last = try ATTPDU.decode(try #require(h.server.received.last))
        #expect(last == .executeWriteRequest(flags: .cancelAllPreparedWrites))
        #expect(h.server.value(at: 0x0003) == before)
    }

    // §3.4.1.1 Error Response: the operation fails with the peer's code, request and handle.
    @Test(arguments: [
        ATTErrorCode.readNotPermitted, .insufficientAuthentication, .insufficientEncryption,
        .invalidHandle, .attributeNotFound, ATTErrorCode(0x80),
    ])
    func errorResponseMapsToTheOperation(code: ATTErrorCode) {
        let h = harness { $0.handleErrors[0x0011] = code }
        let id = h.perform(.read(handle: 0x0011))
        #expect(h.error(id) == .att(error: code.rawValue, request: ATTOpcode.readRequest.rawValue, handle: 0x0011))
        #expect(h.error(id)?.attErrorCode == code)
        #expect(h.error(id)?.attRequestOpcode == .readRequest)
        #expect(h.error(id)?.attDescription.contains(code.name) == true)
    }

    @Test func writeErrorNamesTheCode() {
        let h = harness { $0.handleErrors[0x0013] = .writeNotPermitted }
        let id = h.perform(.write(handle: 0x0013, value: [1]))
        #expect(h.error(id)?.attErrorCode == .writeNotPermitted)
        #expect(h.error(id)?.attDescription == "ATT error Write Not Permitted (0x03) for Write Request (0x12) on handle 0x0013")
    }

    // §3.4.2: the bearer uses the smaller receive MTU, and never less than 23.
    @Test(arguments: [(UInt16(512), UInt16(247), UInt16(247)), (100, 247, 100), (20, 247, 23), (23, 23, 23)])
    func exchangeMTU(server: UInt16, client: UInt16, expected: UInt16) {
        let h = harness { $0.serverRxMTU = server }
        let id = h.perform(.exchangeMTU(client))
        guard case let .success(.mtu(m))? = h.result(id) else {
            Issue.record("no MTU")
            return
        }
        #expect(m == expected)
        #expect(h.session.mtu == expected)
        #expect(h.mtuChanges == (expected == 23 ? [] : [expected]))
        // Sent once per connection (§3.4.2.1): a second ask answers from what is known.
        let again = h.perform(.exchangeMTU(client))
        guard case let .success(.mtu(m2))? = h.result(again) else {
            Issue.record("no MTU")
            return
        }
        #expect(m2 == expected)
        #expect(h.server.requests == [.exchangeMTURequest])
    }

    @Test func operationsRunInOrderOneRequestAtATime() {
        let h = harness()
        var ids: [OperationID] = []
        for handle: UInt16 in [0x0003, 0x0005, 0x0011, 0x0016] {
            ids.append(h.perform(.read(handle: handle), pumping: false))
        }
        ids.append(h.perform(.write(handle: 0x0013, value: [2]), pumping: false))
        ids.append(h.perform(.readLong(handle: 0x0003), pumping: false))
        #expect(h.server.requests.count == 1)
        h.pump()
        #expect(h.server.inFlightViolations == 0)
        let order = h.events.compactMap { e -> OperationID? in
            if case let .operationCompleted(id, _) = e { return id }
            return nil
        }
        #expect(order == ids)
        #expect(h.value(ids[3]) == [87])
    }
}
