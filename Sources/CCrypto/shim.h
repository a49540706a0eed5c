// OpenSSL's libcrypto (Debian libssl-dev for the header, libssl3 at run time) is opened with
// dlopen when a BTHome key is configured (Sources/Gateway/Crypto), like libmosquitto: this
// module links nothing and names a pointer type for each EVP function resolved with dlsym.
#include <openssl/evp.h>

typedef __typeof__(EVP_CIPHER_CTX_new) *rt_EVP_CIPHER_CTX_new_t;
typedef __typeof__(EVP_CIPHER_CTX_free) *rt_EVP_CIPHER_CTX_free_t;
typedef __typeof__(EVP_CIPHER_CTX_ctrl) *rt_EVP_CIPHER_CTX_ctrl_t;
typedef __typeof__(EVP_aes_128_ccm) *rt_EVP_aes_128_ccm_t;
typedef __typeof__(EVP_DecryptInit_ex) *rt_EVP_DecryptInit_ex_t;
typedef __typeof__(EVP_DecryptUpdate) *rt_EVP_DecryptUpdate_t;
typedef __typeof__(EVP_EncryptInit_ex) *rt_EVP_EncryptInit_ex_t;
typedef __typeof__(EVP_EncryptUpdate) *rt_EVP_EncryptUpdate_t;
typedef __typeof__(EVP_EncryptFinal_ex) *rt_EVP_EncryptFinal_ex_t;

// The control codes are macros; Swift imports them as constants through these.
static const int rt_EVP_CTRL_CCM_SET_IVLEN = EVP_CTRL_CCM_SET_IVLEN;
static const int rt_EVP_CTRL_CCM_SET_TAG = EVP_CTRL_CCM_SET_TAG;
static const int rt_EVP_CTRL_CCM_GET_TAG = EVP_CTRL_CCM_GET_TAG;
