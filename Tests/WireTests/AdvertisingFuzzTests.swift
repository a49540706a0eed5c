import Testing
import TestSupport
@testable import Wire


@Suite struct AdvertisingFuzzTests {
    /// Exercises every entry point a scanner or the dissector uses and checks the invariants
    /// that must hold for any input.
    /// (Plain checks with `Issue.record` rather than `#expect` in the loop: the sweep runs
    /// tens of thousands of times and the expectation machinery would dominate its time.)
    static func exercise(_ raw: [UInt8]) {
        func fail(_ what: String) { Issue.record("\(what) for \(Hex.spaced(raw))") }
        let adv = AdvertisingData(raw)
        // Structures lie inside the buffer, in order, each with its length octet.
        var lastEnd = 0
        for s in adv.structures {
            guard s.offset >= lastEnd, s.offset + s.encodedCount <= raw.count else { return fail("structure outside buffer") }
            if raw[s.offset] != UInt8(s.data.count + 1) || raw[s.offset + 1] != s.type.rawValue { fail("length/type octets") }
            lastEnd = s.offset + s.encodedCount
            // A structure decodes exactly when the cheap check finds no problem.
            if (s.problem == nil) != (s.value != nil) { fail("check and decode disagree on \(s.type.name)") }
        }
        // Where no length overran and nothing was padding, re-encoding gives the input back.
        let overran = adv.issues.contains { if case .lengthOverrun = $0 { true } else { false } }
        if !overran, adv.padding == nil, adv.encodedStructures != raw { fail("re-encoding differs") }
        if overran, adv.padding != nil { fail("both overrun and padding") }
        _ = adv.flags
        _ = adv.localName
        _ = adv.serviceUUIDs
        _ = adv.solicitedServiceUUIDs
        _ = adv.advertisesService(.heartRate)
        _ = adv.advertisesService(.thingyConfiguration)
        _ = adv.manufacturerData
        _ = adv.allManufacturerData
        _ = adv.txPower
        _ = adv.appearance
        _ = adv.serviceData
        _ = adv.serviceData(for: .batteryService)
        _ = adv.peripheralConnectionIntervalRange
        _ = adv.uri
        _ = adv.leRole
        _ = adv.advertisingInterval
        _ = adv.leBluetoothDeviceAddress
        _ = adv.summary
        var fields = FieldList()
        adv.describeFields(into: &fields)
        if fields.entries.count < adv.structures.count { fail("fewer field lines than structures") }
        for v in adv.values where (try? ADStructure(v).decodeValue()) != v { fail("value round trip \(v.type.name)") }
    }

    // Thousands of random buffers of 0…62 octets (legacy advertising data and scan response
    // together): never a trap, always the invariants above.
    @Test func randomBuffersNeverTrap() {
        var rng = SplitMix64(seed: 0x5EED_AD00)
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...62, using: &rng)
            let raw = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            Self.exercise(raw)
        }
    }

    // Random buffers are mostly overruns after the first octet; these are made of plausible
    // structures (small lengths, assigned types) so that every typed decoder sees random data.
    @Test func plausibleStructuresNeverTrap() {
        var rng = SplitMix64(seed: 0xAD57_2C7E)
        let types = ADType.allKnown.map(\.rawValue) + [0x00, 0x13, 0x33, 0xFE]
        for _ in 0..<10_000 {
            var raw: [UInt8] = []
            let target = Int.random(in: 0...62, using: &rng)
            while raw.count < target {
                let length = Int.random(in: 0...20, using: &rng)
                raw.append(UInt8(length))
                if length > 0 { raw.append(types.randomElement(using: &rng) ?? 0x01) }
                if length > 1 { raw.append(contentsOf: (1..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
            }
            if Bool.random(using: &rng), !raw.isEmpty { raw.removeLast(Int.random(in: 0...min(3, raw.count), using: &rng)) }
            Self.exercise(raw)
        }
    }

    // For every type and every data length up to 24: decode throws exactly when `check`
    // reports a problem, never traps, and what decodes re-encodes to a value that decodes the same.
    @Test func everyTypeEveryLength() {
        var rng = SplitMix64(seed: 42)
        for t in 0...255 {
            let type = ADType(UInt8(t))
            for n in 0...24 {
                let data = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }[...]
                let problem = ADValue.check(type: type, data: data)
                let value = try? ADValue.decode(type: type, data: data)
                #expect((problem == nil) == (value != nil), "\(type.name) with \(n) octets")
                if let v = value {
                    #expect(v.type == type)
                    let again = try? ADStructure(v).decodeValue()
                    #expect(again == v, "\(type.name) with \(n) octets")
                }
            }
        }
    }

    @Test func everyFirstOctetOfAURI() {
        // CSS Part A §1.18: the scheme is one UTF-8 character; malformed UTF-8 is an error, not a trap.
        for b in 0...255 {
            for tail in [[], [0x80], [0x80, 0x80], [0x80, 0x80, 0x80], [0x41]] as [[UInt8]] {
                let data = ([UInt8(b)] + tail)[...]
                let value = try? ADValue.decode(type: .uri, data: data)
                #expect((ADValue.check(type: .uri, data: data) == nil) == (value != nil))
            }
        }
    }
}
