import Testing
@testable import Dissector

@Suite struct DissectorSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}
