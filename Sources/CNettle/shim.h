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
