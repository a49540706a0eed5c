#if canImport(Glibc)
import Glibc
#endif
import Testing
import HostCore
import Runtime
import SecurityCrypto
import Wire

private func tempStore() -> (FileBondStore, String) {
    var template = Array("/tmp/rtstack-bonds-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    return (FileBondStore(directory: StateDirectory(path: path + "/state")), path)
}

private let identity = DeviceAddress(BDAddress(string: "C1:A2:A3:A4:A5:A6")!, type: .randomDevice)
private let rpa = DeviceAddress(BDAddress(string: "70:81:94:0D:FB:AA")!, type: .randomDevice)

private func sampleBond(model: AssociationModel = .passkeyEntry(.responderDisplays), legacy: Bool = false) -> BondRecord {
    BondRecord(pairing: PairingResult(
        peerAddress: rpa, identityAddress: identity,
        longTermKey: LinkEncryptionKey(key: 0x69867911_69d7cd23_980522b5_94750a38, ediv: legacy ? 0xBEEF : 0, rand: legacy ? 0x0102_0304_0506_0708 : 0, keySize: 16),
        identityResolvingKey: 0xec0234a3_57c8ad05_341010a6_0a397d9b, peerSignatureKey: 0x11, localSignatureKey: 0x22,
        model: model, secureConnections: !legacy, keySize: 16, bonded: true), localSignCounter: 7, peerSignCounter: 3)
}

@Suite struct BondStoreTests {
    @Test(arguments: [AssociationModel.justWorks, .numericComparison, .passkeyEntry(.initiatorDisplays),
                      .passkeyEntry(.responderDisplays), .passkeyEntry(.bothInput)])
    func codecRoundTrips(_ model: AssociationModel) throws {
        for legacy in [false, true] {
            let bond = sampleBond(model: model, legacy: legacy)
            #expect(try BondRecordCodec.decode(BondRecordCodec.encode(bond)) == bond)
        }
        // A bond without an identity, LTK only.
        let plain = BondRecord(pairing: PairingResult(peerAddress: identity, longTermKey: LinkEncryptionKey(key: 5), model: model,
                                                      secureConnections: true, keySize: 16, bonded: true))
        #expect(try BondRecordCodec.decode(BondRecordCodec.encode(plain)) == plain)
    }

    @Test func textFormatIsTheDocumentedOne() {
        let text = BondRecordCodec.encode(sampleBond())
        #expect(text == """
        rtstack-bond 1
        address C1:A2:A3:A4:A5:A6/random
        identity yes
        connected-address 70:81:94:0D:FB:AA/random
        model passkey-peer-displays
        secure-connections yes
        key-size 16
        bonded yes
        ltk 6986791169d7cd23980522b594750a38 ediv 0000 rand 0000000000000000
        irk ec0234a357c8ad05341010a60a397d9b
        peer-csrk 00000000000000000000000000000011 counter 3
        local-csrk 00000000000000000000000000000022 counter 7

        """)
        #expect(!"\(sampleBond())".contains("69867911"), "descriptions never show keys")
    }

    @Test(arguments: ["", "rtstack-bond 2\n", "rtstack-bond 1\naddress nowhere\n",
                      "rtstack-bond 1\naddress C1:A2:A3:A4:A5:A6/random\nmodel just-works\nsecure-connections yes\nkey-size 5\n",
                      "rtstack-bond 1\naddress C1:A2:A3:A4:A5:A6/random\nmodel just-works\nsecure-connections yes\nkey-size 16\nltk 12 ediv 0 rand 0\n"])
    func damagedTextIsRefused(_ text: String) {
        #expect(throws: BondRecordError.self) { try BondRecordCodec.decode(text) }
    }

    @Test func storeIsMode0600AtomicAndListsAndRemoves() throws {
        let (store, root) = tempStore()
        defer { _ = system("rm -rf '\(root)'") }
        let bond = sampleBond()
        try store.store(bond)
        let path = store.directory.file("bond-C1-A2-A3-A4-A5-A6-random.txt")
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        #expect(try store.bond(for: identity) == bond)
        #expect(store.directory.names(prefix: "", suffix: "").allSatisfy { !$0.contains(".tmp") }, "no temporary file left")
        // Replacing keeps one file, still 0600.
        var newer = bond
        newer.localSignCounter = 8
        try store.store(newer)
        #expect(try store.bond(for: identity)?.localSignCounter == 8)
        #expect(store.directory.names(prefix: "bond-", suffix: ".txt").count == 1)
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        // A second bond, a damaged file.
        let other = BondRecord(pairing: PairingResult(peerAddress: DeviceAddress(BDAddress(string: "00:11:22:33:44:55")!, type: .publicDevice),
                                                      longTermKey: LinkEncryptionKey(key: 9), model: .justWorks, secureConnections: true, keySize: 16, bonded: true))
        try store.store(other)
        try store.directory.write("bond-FF-FF-FF-FF-FF-FF-public.txt", "garbage\n", mode: 0o600)
        let listed = store.list()
        #expect(listed.bonds.map(\.address) == [other.address, identity])
        #expect(listed.damaged.count == 1 && listed.damaged[0].hasSuffix("bond-FF-FF-FF-FF-FF-FF-public.txt"))
        #expect(throws: StateError.self) { try store.bond(for: DeviceAddress(BDAddress(string: "FF:FF:FF:FF:FF:FF")!, type: .publicDevice)) }
        #expect(store.remove(identity))
        #expect(!store.remove(identity))
        #expect(try store.bond(for: identity) == nil)
    }

    /// Appendix D.7's IRK resolves 70:81:94:0D:FB:AA (prand 0x708194, hash 0x0dfbaa).
    @Test func resolvablePrivateAddressFindsItsBond() throws {
        let (store, root) = tempStore()
        defer { _ = system("rm -rf '\(root)'") }
        try store.store(sampleBond())
        let crypto = NettleCryptography()
        #expect(store.bond(resolving: rpa.address, crypto: crypto)?.address == identity)
        #expect(store.bond(resolving: BDAddress(string: "70:81:94:0D:FB:AB")!, crypto: crypto) == nil)
        #expect(store.bond(resolving: identity.address, crypto: crypto) == nil, "a static address is not resolved")
    }
}
