import Testing
@testable import HostCore

@Suite struct HostCoreSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}
