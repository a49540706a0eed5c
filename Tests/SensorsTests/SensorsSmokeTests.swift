import Testing
@testable import Sensors

@Suite struct SensorsSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}
