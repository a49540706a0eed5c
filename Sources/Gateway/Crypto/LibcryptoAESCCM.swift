import CCrypto
import MQTT
import Sensors

/// AES-128-CCM from OpenSSL's libcrypto, opened with dlopen the first time a BTHome key is
/// used (a binary that never decrypts needs no libcrypto). BTHome's encrypted advertisements
/// use a 13-octet nonce and a 4-octet tag.
public struct LibcryptoAESCCM: BTHomeCipher, Sendable {
    let newContext: rt_EVP_CIPHER_CTX_new_t
    let freeContext: rt_EVP_CIPHER_CTX_free_t
    let control: rt_EVP_CIPHER_CTX_ctrl_t
    let aes128CCM: rt_EVP_aes_128_ccm_t
    let decryptInit: rt_EVP_DecryptInit_ex_t
    let decryptUpdate: rt_EVP_DecryptUpdate_t
    let encryptInit: rt_EVP_EncryptInit_ex_t
    let encryptUpdate: rt_EVP_EncryptUpdate_t
    let encryptFinal: rt_EVP_EncryptFinal_ex_t

    public static let fileName = "libcrypto.so.3"

    public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case missing(String)
        public var description: String {
            switch self {
            case .missing(let detail):
                return "BTHome keys need OpenSSL's libcrypto.so.3, which could not be loaded (\(detail)); "
                    + "install it with 'apt install libssl3'"
            }
        }
    }

    public static let shared: Result<LibcryptoAESCCM, LoadError> = Result { () throws(LoadError) in try load(fileName) }

    public static func load(_ fileName: String) throws(LoadError) -> LibcryptoAESCCM {
        do {
            let lib = try DynamicLibrary.open(fileName)
            return LibcryptoAESCCM(
                newContext: try lib.function("EVP_CIPHER_CTX_new", as: rt_EVP_CIPHER_CTX_new_t.self),
                freeContext: try lib.function("EVP_CIPHER_CTX_free", as: rt_EVP_CIPHER_CTX_free_t.self),
                control: try lib.function("EVP_CIPHER_CTX_ctrl", as: rt_EVP_CIPHER_CTX_ctrl_t.self),
                aes128CCM: try lib.function("EVP_aes_128_ccm", as: rt_EVP_aes_128_ccm_t.self),
                decryptInit: try lib.function("EVP_DecryptInit_ex", as: rt_EVP_DecryptInit_ex_t.self),
                decryptUpdate: try lib.function("EVP_DecryptUpdate", as: rt_EVP_DecryptUpdate_t.self),
                encryptInit: try lib.function("EVP_EncryptInit_ex", as: rt_EVP_EncryptInit_ex_t.self),
                encryptUpdate: try lib.function("EVP_EncryptUpdate", as: rt_EVP_EncryptUpdate_t.self),
                encryptFinal: try lib.function("EVP_EncryptFinal_ex", as: rt_EVP_EncryptFinal_ex_t.self))
        } catch {
            throw LoadError.missing(error.detail)
        }
    }

    /// The plaintext when `tag` authenticates `ciphertext` under `key` (16 octets) and `nonce`
    /// (7–13 octets); nil otherwise.
    public func decrypt(key: [UInt8], nonce: [UInt8], ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>) -> [UInt8]? {
        guard key.count == 16, (7...13).contains(nonce.count), [4, 6, 8, 10, 12, 14, 16].contains(tag.count),
              let ctx = newContext() else { return nil }
        defer { freeContext(ctx) }
        var tagCopy = Array(tag)
        guard decryptInit(ctx, aes128CCM(), nil, nil, nil) == 1,
              control(ctx, rt_EVP_CTRL_CCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
              control(ctx, rt_EVP_CTRL_CCM_SET_TAG, Int32(tagCopy.count), &tagCopy) == 1,
              decryptInit(ctx, nil, nil, key, nonce) == 1 else { return nil }
        let input = Array(ciphertext)
        var out = [UInt8](repeating: 0, count: max(1, input.count))
        var length: Int32 = 0
        let ok = input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                decryptUpdate(ctx, o.baseAddress, &length, i.baseAddress, Int32(i.count))
            }
        }
        guard ok > 0 else { return nil }
        return Array(out.prefix(Int(length)))
    }

    /// Ciphertext and tag, for tests and simulated BTHome devices.
    public func encrypt(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], tagLength: Int = 4) -> (ciphertext: [UInt8], tag: [UInt8])? {
        guard key.count == 16, (7...13).contains(nonce.count), let ctx = newContext() else { return nil }
        defer { freeContext(ctx) }
        guard encryptInit(ctx, aes128CCM(), nil, nil, nil) == 1,
              control(ctx, rt_EVP_CTRL_CCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
              control(ctx, rt_EVP_CTRL_CCM_SET_TAG, Int32(tagLength), nil) == 1,
              encryptInit(ctx, nil, nil, key, nonce) == 1 else { return nil }
        var out = [UInt8](repeating: 0, count: max(1, plaintext.count) + 16)
        var length: Int32 = 0
        var finalLength: Int32 = 0
        var tag = [UInt8](repeating: 0, count: tagLength)
        let ok = plaintext.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                encryptUpdate(ctx, o.baseAddress, &length, p.baseAddress, Int32(p.count)) == 1
                    && encryptFinal(ctx, o.baseAddress.map { $0 + Int(length) }, &finalLength) == 1
            }
        }
        guard ok, control(ctx, rt_EVP_CTRL_CCM_GET_TAG, Int32(tagLength), &tag) == 1 else { return nil }
        return (Array(out.prefix(Int(length + finalLength))), tag)
    }
}
