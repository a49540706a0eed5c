import Testing
@testable import Runtime

@Suite struct NotificationBatchTests {
    // Values of different lengths (an empty one included) come back in order, each whole.
    @Test func valuesComeBackInOrder() {
        var batch = NotificationBatch()
        #expect(batch.isEmpty)
        let values: [[UInt8]] = [[0x10, 72, 0x00, 0x04], [], [0x00, 0x80, 0x03, 90], [21]]
        for v in values { batch.append(v[...]) }
        #expect(batch.count == 4)
        #expect(batch.map { Array($0) } == values)
        #expect(Array(batch[2]) == [0x00, 0x80, 0x03, 90])
        #expect(batch.bytes.count == 9)
    }
}
