import Wire

/// A BTHome v2 advertisement (bthome.io/format): Service Data for UUID 0xFCD2 holding a device
/// information octet, the MAC address when its flag is set, and objects — an id octet then a
/// value whose length the id implies. Encrypted payloads (AES-CCM, bthome.io/encryption) are
/// ciphertext, a 4-octet counter and a 4-octet MIC; without a key they are reported as
/// encrypted, with the key they are decrypted through a `BTHomeCipher` and decoded.
///
/// Decoding never throws: what decodes is kept, and the first problem is in `issue`.
public struct BTHomeAdvertisement: Sendable, Hashable {
    public static let serviceUUID = BluetoothUUID(0xFCD2)

    public var deviceInfo: BTHomeDeviceInfo
    /// The MAC address the payload names (when the MAC flag is set).
    public var macAddress: BDAddress?
    /// Decoded objects, in the order sent.
    public var objects: [BTHomeObject]
    /// For an encrypted advertisement: the encrypted part as sent.
    public var encrypted: EncryptedPayload?
    /// Why decoding stopped early, if it did.
    public var issue: BTHomeIssue?

    public struct EncryptedPayload: Sendable, Hashable {
        public var ciphertext: ArraySlice<UInt8>
        /// The counter octets as sent (little-endian), part of the nonce.
        public var counterBytes: ArraySlice<UInt8>
        public var mic: ArraySlice<UInt8>

        public var counter: UInt32 {
            var r = ByteReader(counterBytes)
            return (try? r.u32("counter")) ?? 0
        }
    }

    /// Decodes the service data (the octets after the UUID). Encrypted payloads stay
    /// `encrypted` with issue `.encryptedWithoutKey`; see `decrypting`.
    public init(serviceData: ArraySlice<UInt8>) {
        objects = []
        encrypted = nil
        macAddress = nil
        issue = nil
        guard let first = serviceData.first else {
            deviceInfo = BTHomeDeviceInfo(rawValue: 0)
            issue = .empty
            return
        }
        deviceInfo = BTHomeDeviceInfo(rawValue: first)
        guard deviceInfo.version == 2 else {
            issue = .unsupportedVersion(deviceInfo.version)
            return
        }
        var rest = serviceData.dropFirst()
        if deviceInfo.isMACIncluded {
            guard rest.count >= 6 else {
                issue = .truncatedMAC(available: rest.count)
                return
            }
            macAddress = BDAddress(littleEndian: rest.prefix(6))
            rest = rest.dropFirst(6)
        }
        if deviceInfo.isEncrypted {
            guard rest.count >= 9 else {
                issue = .truncatedEncryptedPayload(available: rest.count)
                return
            }
            let end = rest.endIndex
            encrypted = EncryptedPayload(ciphertext: rest[rest.startIndex..<end - 8],
                                         counterBytes: rest[end - 8..<end - 4], mic: rest[end - 4..<end])
            issue = .encryptedWithoutKey
            return
        }
        (objects, issue) = Self.objects(in: rest, offsetBase: serviceData.startIndex)
    }

    public init(serviceData: [UInt8]) {
        self.init(serviceData: serviceData[...])
    }

    /// The BTHome advertisement in advertising data, if there is one.
    public init?(advertisingData: AdvertisingData) {
        guard let data = advertisingData.serviceData(for: Self.serviceUUID) else { return nil }
        self.init(serviceData: data)
    }

    /// The nonce of an encrypted payload: the advertiser's address (most significant octet
    /// first), the UUID 0xFCD2 little-endian, the device information octet and the counter.
    public func nonce(address: BDAddress) -> [UInt8]? {
        guard let e = encrypted else { return nil }
        return (macAddress ?? address).bytes.reversed() + [0xD2, 0xFC, deviceInfo.rawValue] + Array(e.counterBytes)
    }

    /// This advertisement decrypted with `key` (16 octets) and decoded; unchanged when it is not
    /// encrypted. `address` is the advertiser's address when the payload does not carry one.
    public func decrypting(key: [UInt8], address: BDAddress, cipher: some BTHomeCipher) -> BTHomeAdvertisement {
        guard let e = encrypted, let nonce = nonce(address: address) else { return self }
        var out = self
        guard key.count == 16 else {
            out.issue = .invalidKeyLength(key.count)
            return out
        }
        guard let plain = cipher.decrypt(key: key, nonce: nonce, ciphertext: e.ciphertext, tag: e.mic) else {
            out.issue = .decryptionFailed
            return out
        }
        (out.objects, out.issue) = Self.objects(in: plain[...], offsetBase: 0)
        return out
    }

    /// Walks objects until the end or the first id that cannot be read. `offsetBase` makes the
    /// offsets in issues count from the start of the service data.
    static func objects(in payload: ArraySlice<UInt8>, offsetBase: Int) -> ([BTHomeObject], BTHomeIssue?) {
        var out: [BTHomeObject] = []
        var i = payload.startIndex
        while i < payload.endIndex {
            let id = payload[i]
            let offset = i - offsetBase
            guard let type = BTHomeObjectType.forID(id) else {
                return (out, .unknownObjectID(id: id, offset: offset))
            }
            var start = i + 1
            let length: Int
            if let n = type.format.fixedLength {
                length = n
            } else {
                guard start < payload.endIndex else {
                    return (out, .truncatedObject(id: id, offset: offset, needed: 1, available: 0))
                }
                length = Int(payload[start])
                start += 1
            }
            let available = payload.endIndex - start
            guard available >= length else {
                return (out, .truncatedObject(id: id, offset: offset, needed: length, available: available))
            }
            out.append(BTHomeObject(type: type, data: payload[start..<start + length]))
            i = start + length
        }
        return (out, nil)
    }

    /// The packet id object's value, for dropping repeats of the same advertisement.
    public var packetID: UInt8? {
        objects.first { $0.id == 0x00 }.flatMap { $0.data.first }
    }
}
