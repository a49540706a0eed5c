#ifndef RTSTACK_CNETTLE_SHIM_H
#define RTSTACK_CNETTLE_SHIM_H
/*
 * Nettle (Debian nettle-dev: libnettle, libhogweed, and GMP under it) for the Security
 * Manager's crypto: AES-128, AES-CMAC, P-256. Linked statically from the archives by the
 * Swift target that imports this module (Package.swift); see Docs/security.md for why Nettle
 * and not OpenSSL's libcrypto (a static libcrypto costs 3.8 MB, Nettle 0.2 MB).
 *
 * GMP's and Nettle's public names are macros (mpz_init → __gmpz_init, aes128_encrypt →
 * nettle_aes128_encrypt), which Swift does not import; the helpers below are the only entry
 * points Swift uses. They marshal bytes to and from Nettle's types and do no crypto of their
 * own. Every integer is 32 bytes, most significant first; a public key is X then Y.
 *
 * The ESPHome native API's Noise_NNpsk0_25519_ChaChaPoly_SHA256 (Gateway's proxy) uses X25519,
 * ChaCha20-Poly1305 (RFC 8439, 12-byte nonce), SHA-256, HMAC-SHA-256 and Base64 below.
 */
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/random.h>
#include <nettle/aes.h>
#include <nettle/cmac.h>
#include <nettle/ccm.h>
#include <nettle/ecc.h>
#include <nettle/ecc-curve.h>
#include <nettle/bignum.h>
#include <nettle/curve25519.h>
#include <nettle/chacha-poly1305.h>
#include <nettle/sha2.h>
#include <nettle/hmac.h>
#include <nettle/base64.h>

/* e: AES-128 of one block. */
static inline void rtstack_aes128_encrypt(const uint8_t *key, const uint8_t *in, uint8_t *out) {
    struct aes128_ctx ctx;
    aes128_set_encrypt_key(&ctx, key);
    aes128_encrypt(&ctx, AES_BLOCK_SIZE, out, in);
}

/* AES-CMAC (RFC 4493) of `length` bytes with a 128-bit key. */
static inline void rtstack_aes_cmac(const uint8_t *key, const uint8_t *message, size_t length, uint8_t *mac) {
    struct cmac_aes128_ctx ctx;
    cmac_aes128_set_key(&ctx, key);
    cmac_aes128_update(&ctx, length, message);
    cmac_aes128_digest(&ctx, CMAC128_DIGEST_SIZE, mac);
}

/* AES-128-CCM without associated data (BTHome's encrypted advertisements): `length` bytes of
 * ciphertext followed by a `tag_length`-byte tag into `length` bytes of plaintext. Returns 1
 * when the tag authenticates them (and 0 otherwise, with `out` not to be used). */
static inline int rtstack_aes128_ccm_decrypt(const uint8_t *key, size_t nonce_length, const uint8_t *nonce,
                                             size_t tag_length, size_t length, const uint8_t *in, uint8_t *out) {
    struct ccm_aes128_ctx ctx;
    ccm_aes128_set_key(&ctx, key);
    return ccm_aes128_decrypt_message(&ctx, nonce_length, nonce, 0, NULL, tag_length, length, out, in);
}

/* The other way: `length` bytes of plaintext into ciphertext followed by the tag
 * (`length + tag_length` bytes). */
static inline void rtstack_aes128_ccm_encrypt(const uint8_t *key, size_t nonce_length, const uint8_t *nonce,
                                              size_t tag_length, size_t length, const uint8_t *in, uint8_t *out) {
    struct ccm_aes128_ctx ctx;
    ccm_aes128_set_key(&ctx, key);
    ccm_aes128_encrypt_message(&ctx, nonce_length, nonce, 0, NULL, tag_length, length + tag_length, out, in);
}

/* The public key d·G of private key d. Returns 0 (and writes nothing) unless 0 < d < n. */
static inline int rtstack_p256_public_key(const uint8_t *d, uint8_t *xy) {
    const struct ecc_curve *curve = nettle_get_secp_256r1();
    struct ecc_scalar s;
    struct ecc_point p;
    mpz_t z, x, y;
    int ok;
    mpz_init(z); mpz_init(x); mpz_init(y);
    nettle_mpz_set_str_256_u(z, 32, d);
    ecc_scalar_init(&s, curve);
    ecc_point_init(&p, curve);
    ok = ecc_scalar_set(&s, z);
    if (ok) {
        ecc_point_mul_g(&p, &s);
        ecc_point_get(&p, x, y);
        nettle_mpz_get_str_256(32, xy, x);
        nettle_mpz_get_str_256(32, xy + 32, y);
    }
    ecc_point_clear(&p);
    ecc_scalar_clear(&s);
    mpz_clear(z); mpz_clear(x); mpz_clear(y);
    return ok;
}

/* Whether (x, y) is a point of P-256: both coordinates below p and y² = x³ − 3x + b
 * (Nettle's ecc_point_set checks exactly that). */
static inline int rtstack_p256_is_valid_public_key(const uint8_t *xy) {
    const struct ecc_curve *curve = nettle_get_secp_256r1();
    struct ecc_point p;
    mpz_t x, y;
    int ok;
    mpz_init(x); mpz_init(y);
    nettle_mpz_set_str_256_u(x, 32, xy);
    nettle_mpz_set_str_256_u(y, 32, xy + 32);
    ecc_point_init(&p, curve);
    ok = ecc_point_set(&p, x, y);
    ecc_point_clear(&p);
    mpz_clear(x); mpz_clear(y);
    return ok;
}

/* The X coordinate of d·Q (the DHKey). Returns 0 (and writes nothing) when Q is not a point
 * of P-256 or d is out of range. */
static inline int rtstack_p256_dhkey(const uint8_t *d, const uint8_t *peer_xy, uint8_t *dhkey) {
    const struct ecc_curve *curve = nettle_get_secp_256r1();
    struct ecc_scalar s;
    struct ecc_point q, r;
    mpz_t z, x, y;
    int ok;
    mpz_init(z); mpz_init(x); mpz_init(y);
    nettle_mpz_set_str_256_u(z, 32, d);
    nettle_mpz_set_str_256_u(x, 32, peer_xy);
    nettle_mpz_set_str_256_u(y, 32, peer_xy + 32);
    ecc_scalar_init(&s, curve);
    ecc_point_init(&q, curve);
    ecc_point_init(&r, curve);
    ok = ecc_point_set(&q, x, y) && ecc_scalar_set(&s, z);
    if (ok) {
        ecc_point_mul(&r, &s, &q);
        ecc_point_get(&r, x, NULL);
        nettle_mpz_get_str_256(32, dhkey, x);
    }
    ecc_point_clear(&r);
    ecc_point_clear(&q);
    ecc_scalar_clear(&s);
    mpz_clear(z); mpz_clear(x); mpz_clear(y);
    return ok;
}

/* X25519 (RFC 7748): the public key of a 32-byte private key, and a shared secret. */
static inline void rtstack_x25519_public_key(const uint8_t *private_key, uint8_t *public_key) {
    curve25519_mul_g(public_key, private_key);
}
static inline void rtstack_x25519(const uint8_t *private_key, const uint8_t *peer_public_key, uint8_t *secret) {
    curve25519_mul(secret, private_key, peer_public_key);
}

/* ChaCha20-Poly1305 (RFC 8439) with a 32-byte key and a 12-byte nonce: `length` bytes of
 * plaintext into `length` bytes of ciphertext followed by the 16-byte tag. */
static inline void rtstack_chacha_poly1305_seal(const uint8_t *key, const uint8_t *nonce,
                                                size_t ad_length, const uint8_t *ad,
                                                size_t length, const uint8_t *in, uint8_t *out) {
    struct chacha_poly1305_ctx ctx;
    chacha_poly1305_set_key(&ctx, key);
    chacha_poly1305_set_nonce(&ctx, nonce);
    chacha_poly1305_update(&ctx, ad_length, ad);
    chacha_poly1305_encrypt(&ctx, length, out, in);
    chacha_poly1305_digest(&ctx, CHACHA_POLY1305_DIGEST_SIZE, out + length);
}

/* The other way: `length` bytes of ciphertext and the 16-byte tag after them into `length`
 * bytes of plaintext. Returns 1 when the tag authenticates them (0: `out` is not to be used). */
static inline int rtstack_chacha_poly1305_open(const uint8_t *key, const uint8_t *nonce,
                                               size_t ad_length, const uint8_t *ad,
                                               size_t length, const uint8_t *in, uint8_t *out) {
    struct chacha_poly1305_ctx ctx;
    uint8_t tag[CHACHA_POLY1305_DIGEST_SIZE];
    uint8_t difference = 0;
    chacha_poly1305_set_key(&ctx, key);
    chacha_poly1305_set_nonce(&ctx, nonce);
    chacha_poly1305_update(&ctx, ad_length, ad);
    chacha_poly1305_decrypt(&ctx, length, out, in);
    chacha_poly1305_digest(&ctx, CHACHA_POLY1305_DIGEST_SIZE, tag);
    for (size_t i = 0; i < CHACHA_POLY1305_DIGEST_SIZE; i++) difference |= tag[i] ^ in[length + i];
    return difference == 0;
}

/* SHA-256 of `length` bytes. */
static inline void rtstack_sha256(const uint8_t *message, size_t length, uint8_t *digest) {
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, length, message);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
}

/* HMAC-SHA-256 (RFC 2104) of two concatenated parts (the second may be empty), as Noise's HKDF
 * needs them: HMAC(key, previous output || counter byte). */
static inline void rtstack_hmac_sha256(const uint8_t *key, size_t key_length,
                                       const uint8_t *first, size_t first_length,
                                       const uint8_t *second, size_t second_length, uint8_t *mac) {
    struct hmac_sha256_ctx ctx;
    hmac_sha256_set_key(&ctx, key_length, key);
    hmac_sha256_update(&ctx, first_length, first);
    hmac_sha256_update(&ctx, second_length, second);
    hmac_sha256_digest(&ctx, SHA256_DIGEST_SIZE, mac);
}

/* Base64 (RFC 4648) text into bytes. Returns the number of bytes written (at most `capacity`),
 * or -1 when the text is not Base64 or would not fit. */
static inline long rtstack_base64_decode(const char *text, size_t length, uint8_t *out, size_t capacity) {
    struct base64_decode_ctx ctx;
    size_t written;
    if (length > 4 * ((capacity + 2) / 3) + 4) return -1;
    written = BASE64_DECODE_LENGTH(length);
    uint8_t buffer[BASE64_DECODE_LENGTH(length) + 1];
    base64_decode_init(&ctx);
    if (!base64_decode_update(&ctx, &written, buffer, length, text)) return -1;
    if (!base64_decode_final(&ctx)) return -1;
    if (written > capacity) return -1;
    for (size_t i = 0; i < written; i++) out[i] = buffer[i];
    return (long)written;
}

/* `length` bytes from the kernel's CSPRNG: getrandom(2), which blocks until the generator is
 * seeded at boot, or /dev/urandom on a kernel older than 3.17 (ENOSYS). Returns 0 on success,
 * else the errno of the failure. */
static inline int rtstack_random_bytes(uint8_t *out, size_t length) {
    size_t done = 0;
    int fd = -1;
    while (done < length) {
        ssize_t n = fd < 0 ? getrandom(out + done, length - done, 0) : read(fd, out + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == ENOSYS && fd < 0) {
            fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
            if (fd < 0) return errno;
            continue;
        }
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            if (fd >= 0) close(fd);
            return e;
        }
        done += (size_t)n;
    }
    if (fd >= 0) close(fd);
    return 0;
}
#endif
