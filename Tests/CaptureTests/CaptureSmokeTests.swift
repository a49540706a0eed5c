import Testing
@testable import Capture

@Suite struct CaptureSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}
