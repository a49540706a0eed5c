import Wire

/// Eddystone-TLM, unencrypted (eddystone-tlm/tlm-plain.md), after the frame type and version
/// 0x00: battery voltage (uint16 mV, 0 = not supported), beacon temperature (signed 8.8 fixed
/// point °C, 0x8000 = not supported), advertising PDU count (uint32) and time since power-on
/// (uint32, 0.1 s). All big-endian.
public struct EddystoneTLM: Sendable, Hashable, WireCodable {
    public var batteryMillivolts: UInt16
    /// Signed 8.8 fixed point °C as sent.
    public var temperatureRaw: Int16
    public var advertisingCount: UInt32
    /// Tenths of a second since power-on or reboot.
    public var uptimeTenths: UInt32

    public static let temperatureNotSupported = Int16.min

    public init(batteryMillivolts: UInt16, temperatureRaw: Int16, advertisingCount: UInt32, uptimeTenths: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureRaw = temperatureRaw
        self.advertisingCount = advertisingCount
        self.uptimeTenths = uptimeTenths
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        batteryMillivolts = try r.u16BE("Eddystone-TLM VBATT")
        temperatureRaw = Int16(bitPattern: try r.u16BE("Eddystone-TLM TEMP"))
        advertisingCount = try r.u32BE("Eddystone-TLM ADV_CNT")
        uptimeTenths = try r.u32BE("Eddystone-TLM SEC_CNT")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16BE(batteryMillivolts)
        w.u16BE(UInt16(bitPattern: temperatureRaw))
        w.u32BE(advertisingCount)
        w.u32BE(uptimeTenths)
    }

    /// Temperature in hundredths of a degree (8.8 rounded to 0.01 °C); nil when not supported.
    public var temperatureHundredths: Int? {
        temperatureRaw == Self.temperatureNotSupported ? nil : FixedPoint.rounded(Int(temperatureRaw) * 100, 256)
    }
}

/// Eddystone-TLM version 0x01 (eddystone-tlm/tlm-encrypted.md): 12 octets of encrypted
/// telemetry, a 2-octet salt and a 2-octet MIC.
public struct EddystoneEncryptedTLM: Sendable, Hashable, WireCodable {
    public var encryptedTelemetry: [UInt8]
    public var salt: UInt16
    public var mic: UInt16

    public init(encryptedTelemetry: [UInt8], salt: UInt16, mic: UInt16) {
        self.encryptedTelemetry = encryptedTelemetry
        self.salt = salt
        self.mic = mic
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        encryptedTelemetry = Array(try r.bytes(12, "Eddystone-ETLM data"))
        salt = try r.u16BE("Eddystone-ETLM salt")
        mic = try r.u16BE("Eddystone-ETLM MIC")
    }

    public func encode(into w: inout ByteWriter) {
        w.append(encryptedTelemetry.prefix(12))
        w.u16BE(salt)
        w.u16BE(mic)
    }
}
