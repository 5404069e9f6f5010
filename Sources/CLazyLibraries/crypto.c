// libcrypto's functions as VoteStore calls them, loaded on first use (see CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(__linux__)
#include <openssl/evp.h>
#include <openssl/hmac.h>

RB_LAZY_LIBRARY(
  rb_crypto_library, "ROADMAPBRIDGE_CRYPTO_LIBRARY", "libcrypto", "libssl3", "libcrypto.so.3",
  "libcrypto.so");

int rb_crypto_load(char *error, size_t size) {
  return rb_lazy_load(&rb_crypto_library, error, size);
}

// clang-format off
RB_LAZY_FORWARD(rb_crypto_library, const EVP_MD *, EVP_sha256, (void), ())
RB_LAZY_FORWARD(rb_crypto_library, unsigned char *, HMAC,
  (const EVP_MD *digest, const void *key, int keyLength, const unsigned char *data,
   size_t dataLength, unsigned char *output, unsigned int *outputLength),
  (digest, key, keyLength, data, dataLength, output, outputLength))
// clang-format on

#endif  // elsewhere the loaders are in lazy.c
