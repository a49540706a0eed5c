import Wire

/// Bytes from spaced hex text ("06 48 00"); an invalid literal gives a value no test expects.
func bytes(_ text: String) -> [UInt8] {
    Hex.parse(text) ?? [0xBA, 0xD0]
}

/// Deterministic generator so a failing random test can be replayed (SplitMix64).
struct SensorTestRNG: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension FieldDescribing {
    var fieldList: FieldList {
        var list = FieldList()
        describeFields(into: &list)
        return list
    }
}
