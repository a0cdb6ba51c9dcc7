/*
 * peerbench: the C side of vg's peer benchmarks (ci/peers).
 *
 * One source, built once per peer library by ci/peers (go doc
 * github.com/vgcrypto/vg/ci/peers), with one of
 *
 *   -DPEER_BORINGSSL  BoringSSL  (EVP_AEAD; static libcrypto.a, linked with g++)
 *   -DPEER_AWSLC      AWS-LC     (EVP_AEAD; static libcrypto.a)
 *   -DPEER_OPENSSL    OpenSSL 3  (EVP_CIPHER; Debian's libcrypto.so.3)
 *
 * and -DPEER_SOURCE="..." naming the commit the library was built from.
 *
 * It times each workload the way vg's Go benchmarks time vg (the
 * bench_test.go files of aesgcm, chacha20poly1305 and rsa): the key is
 * prepared once, outside the timed loop, and the loop is timed as a whole
 * with Go's b.Loop ramp-up (1 iteration, then predicted counts, 1.2x the
 * goal, at most 100x the previous count, until -benchtime is reached)
 * after one untimed call, and
 * each result is printed in Go's benchmark format under the very name of
 * vg's benchmark with the peer as the last element:
 *
 *   pkg: github.com/vgcrypto/vg/aesgcm
 *   BenchmarkSeal/AES-128/1350/boringssl   	 1000000	      1043 ns/op	1294.35 MB/s
 *
 * so that benchcmp pairs it with vg's backends as a sibling. The names carry
 * the "-N" GOMAXPROCS suffix exactly when a Go test binary started the same
 * way would (N = the CPUs of this process's affinity, or $GOMAXPROCS).
 *
 * Usage:
 *   peerbench [-benchtime 1s|0.02s|10x] [-keys DIR] [NAME...]   run NAMEs (default all)
 *   peerbench -list          every benchmark: "PKG<TAB>NAME" per line
 *   peerbench -provenance    the provenance line alone
 *   peerbench -check         answer the smoke-check requests on stdin (see check())
 * DIR holds vg's RSA test keys, rsa<bits>.pem (rsa/testdata).
 *
 * Each run prints, once, a provenance line: the peer, its version or
 * commit, and the code path it dispatches to on this CPU for each
 * algorithm, decided from the CPU feature bits the way the library decides
 * (from the library's own capability vector where it can be read, else
 * from CPUID with the library's rules). This file contains no code of the
 * peers: only calls of their public API and the conditions under which
 * their dispatchers choose a path, written here from reading their source.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#if defined(PEER_BORINGSSL)
#define PEER_NAME "boringssl"
#define HAVE_EVP_AEAD 1
#include <openssl/aead.h>
#elif defined(PEER_AWSLC)
#define PEER_NAME "awslc"
#define HAVE_EVP_AEAD 1
#include <openssl/aead.h>
#elif defined(PEER_OPENSSL)
#define PEER_NAME "openssl"
#include <openssl/opensslv.h>
#if !defined(OPENSSL_VERSION_MAJOR) || OPENSSL_VERSION_MAJOR < 3
#error "vg-peerbench: OpenSSL 3 headers required"
#endif
#else
#error "define PEER_BORINGSSL, PEER_AWSLC or PEER_OPENSSL"
#endif

#ifndef PEER_SOURCE
#define PEER_SOURCE "commit unknown"
#endif

#define PKG_AESGCM "github.com/vgcrypto/vg/aesgcm"
#define PKG_CHACHA "github.com/vgcrypto/vg/chacha20poly1305"
#define PKG_RSA "github.com/vgcrypto/vg/rsa"

#define TAG_LEN 16
#define NONCE_LEN 12
#define AAD_LEN 13 /* vg's benchmarks: the additional data of a TLS 1.2 record */
#define MAX_SIZE 16385
#define MAX_RSA_BYTES 1024 /* 8192 bits */

static void die(const char *what) {
  fprintf(stderr, "peerbench (%s): %s failed\n", PEER_NAME, what);
  ERR_print_errors_fp(stderr);
  exit(1);
}

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (p == NULL) die("calloc");
  return p;
}

/* ------------------------------------------------------------------ */
/* CPU features and the peers' dispatch                                */
/* ------------------------------------------------------------------ */

/*
 * All three libraries keep the CPU features in the same four words
 * (OPENSSL_ia32cap_P): [0] CPUID.1:EDX, [1] CPUID.1:ECX, [2] CPUID.7.0:EBX,
 * [3] CPUID.7.0:ECX, each adjusted by the library (OS support from XCR0,
 * model quirks, the OPENSSL_ia32cap environment variable).
 */
static int bit(const uint32_t w[4], int word, int b) { return (w[word] >> b) & 1; }

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
  __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static uint64_t xgetbv0(void) {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

typedef struct {
  int intel;
  uint32_t family, model;
  uint32_t sig; /* CPUID.1:EAX */
} cpu_id;

/* cpu_words returns the raw words with the OS-support gating all three
 * libraries apply: no AVX state in XCR0 clears AVX and AVX2 (and VAES,
 * VPCLMULQDQ); no opmask/ZMM state clears the AVX-512 bits. */
static void cpu_words(uint32_t w[4], cpu_id *id) {
  uint32_t r[4];
  cpuid(0, 0, r);
  uint32_t max = r[0];
  id->intel = r[1] == 0x756e6547 && r[3] == 0x49656e69 && r[2] == 0x6c65746e;
  cpuid(1, 0, r);
  id->sig = r[0];
  id->family = (r[0] >> 8) & 15;
  id->model = (r[0] >> 4) & 15;
  if (id->family == 15) id->family += (r[0] >> 20) & 255;
  if (id->family == 6 || id->family == 15) id->model |= ((r[0] >> 16) & 15) << 4;
  w[0] = r[3];
  w[1] = r[2];
  w[2] = w[3] = 0;
  if (max >= 7) {
    cpuid(7, 0, r);
    w[2] = r[1];
    w[3] = r[2];
  }
  uint64_t xcr0 = (w[1] >> 27) & 1 ? xgetbv0() : 0;
  if ((xcr0 & 6) != 6) {
    w[1] &= ~((1u << 28) | (1u << 12) | (1u << 11)); /* AVX, FMA, XOP */
    w[2] &= ~(1u << 5);                              /* AVX2 */
    w[3] &= ~((1u << 9) | (1u << 10));               /* VAES, VPCLMULQDQ */
  }
  if ((xcr0 & 0xe6) != 0xe6) {
    /* AVX512F, DQ, IFMA, CD, BW, VL; VBMI, VBMI2 */
    w[2] &= ~((1u << 16) | (1u << 17) | (1u << 21) | (1u << 28) | (1u << 30) | (1u << 31));
    w[3] &= ~((1u << 1) | (1u << 6));
  }
}

/* parse_cap parses one OPENSSL_ia32cap value (decimal or 0x hex). */
static int parse_cap(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (end == s || errno != 0 || (*end != '\0' && *end != ':')) return 0;
  *v = x;
  return 1;
}

/* env_adjust applies OPENSSL_ia32cap as the libraries do: "[~|]A[:[~|]B]",
 * A for words 0-1, B for words 2-3; "~" clears the given bits, "|" sets
 * them (BoringSSL, AWS-LC), a bare value replaces the words. */
static int env_adjust(uint32_t w[4]) {
  const char *env = getenv("OPENSSL_ia32cap");
  if (env == NULL) return 0;
  for (int half = 0; half < 2 && env != NULL; half++) {
    const char *s = env;
    char op = 0;
    if (*s == '~' || *s == '|') op = *s++;
    uint64_t v;
    if (*s != ':' && parse_cap(s, &v)) {
      uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
      uint32_t *p = w + 2 * half;
      if (op == '~') {
        p[0] &= ~lo;
        p[1] &= ~hi;
      } else if (op == '|') {
        p[0] |= lo;
        p[1] |= hi;
      } else {
        p[0] = lo;
        p[1] = hi;
      }
    }
    env = strchr(s, ':');
    if (env != NULL) env++;
  }
  return 1;
}

/* The capability words the library uses, and where they came from. */
static uint32_t caps[4];
static const char *caps_source = "";

#if defined(PEER_BORINGSSL)
/* bssl::OPENSSL_get_ia32cap(int), internal to BoringSSL (C++ linkage); weak
 * so that a build without it falls back to CPUID. */
extern uint32_t bssl_get_ia32cap(int idx) __asm__("_ZN4bssl19OPENSSL_get_ia32capEi") __attribute__((weak));
#elif defined(PEER_AWSLC)
extern uint32_t OPENSSL_ia32cap_P[4] __attribute__((weak));
#endif

static void load_caps(void) {
  cpu_id id;
  uint32_t w[4];
  cpu_words(w, &id);
#if defined(PEER_BORINGSSL)
  if (bssl_get_ia32cap != NULL) {
    for (int i = 0; i < 4; i++) caps[i] = bssl_get_ia32cap(i);
    caps_source = "BoringSSL's capability vector";
    return;
  }
  /* BoringSSL avoids zmm registers on Skylake to Tiger Lake (Intel family
   * 6 models 85, 106, 108, 125, 126, 140, 141), flagged in bit 14 of word 2. */
  w[2] &= ~(1u << 14);
  if (id.intel && id.family == 6) {
    switch (id.model) {
      case 85: case 106: case 108: case 125: case 126: case 140: case 141:
        w[2] |= 1u << 14;
    }
  }
  caps_source = env_adjust(w) ? "CPUID with BoringSSL's rules and OPENSSL_ia32cap" : "CPUID with BoringSSL's rules";
#elif defined(PEER_AWSLC)
  CRYPTO_library_init();
  if (OPENSSL_ia32cap_P != NULL && (OPENSSL_ia32cap_P[0] | OPENSSL_ia32cap_P[1]) != 0) {
    memcpy(caps, OPENSSL_ia32cap_P, sizeof(caps));
    caps_source = "AWS-LC's capability vector";
    return;
  }
  caps_source = env_adjust(w) ? "CPUID with AWS-LC's rules and OPENSSL_ia32cap" : "CPUID with AWS-LC's rules";
#else
  /* OpenSSL's x86_64cpuid.pl: no ADX on Knights Landing/Mill (no XSAVE),
   * no AVX512F on Skylake-X (family 6, model 0x55). Its shared library's
   * vector is not exported, so this is the derivation. */
  if ((id.sig & 0x0fff0ff0) == 0x00050670 || (id.sig & 0x0fff0ff0) == 0x00080650) {
    w[1] &= ~(1u << 26);
    w[2] &= ~(1u << 19);
  }
  if ((id.sig & 0x0fff0ff0) == 0x00050650) w[2] &= ~(1u << 16);
  caps_source = env_adjust(w) ? "CPUID with OpenSSL's rules and OPENSSL_ia32cap" : "CPUID with OpenSSL's rules";
#endif
  memcpy(caps, w, sizeof(caps));
}

/* Feature bits, in the words above. */
#define F_FXSR bit(caps, 0, 24)
#define F_PCLMUL bit(caps, 1, 1)
#define F_SSSE3 bit(caps, 1, 9)
#define F_SSE41 bit(caps, 1, 19)
#define F_MOVBE bit(caps, 1, 22)
#define F_AESNI bit(caps, 1, 25)
#define F_AVX bit(caps, 1, 28)
#define F_BMI1 bit(caps, 2, 3)
#define F_AVX2 bit(caps, 2, 5)
#define F_BMI2 bit(caps, 2, 8)
#define F_AVOID_ZMM bit(caps, 2, 14) /* BoringSSL's flag */
#define F_AVX512F bit(caps, 2, 16)
#define F_AVX512DQ bit(caps, 2, 17)
#define F_ADX bit(caps, 2, 19)
#define F_AVX512IFMA bit(caps, 2, 21)
#define F_AVX512BW bit(caps, 2, 30)
#define F_AVX512VL bit(caps, 2, 31)
#define F_VAES bit(caps, 3, 9)
#define F_VPCLMULQDQ bit(caps, 3, 10)

static char path_aes[160], path_chacha[160], path_rsa[200];

#if defined(HAVE_EVP_AEAD)
/* BoringSSL and AWS-LC: ChaCha20-Poly1305 runs the stitched assembly from
 * SSE4.1 up, its AVX2 version with AVX2 and BMI2. */
static void chacha_path_evp_aead(void) {
  if (!F_SSE41)
    snprintf(path_chacha, sizeof(path_chacha), "ChaCha20 and Poly1305 in separate passes");
  else if (F_AVX2 && F_BMI2)
    snprintf(path_chacha, sizeof(path_chacha), "stitched AVX2 (chacha20_poly1305_seal/open_avx2)");
  else
    snprintf(path_chacha, sizeof(path_chacha), "stitched SSE4.1 (chacha20_poly1305_seal/open_sse41)");
}

/* Their modular exponentiation (x86_64-mont5, RSAZ AVX2 for 1024-bit
 * halves when MULX/ADX are missing). */
static const char *mont_path(void) {
  if (F_BMI1 && F_BMI2 && F_ADX) return "MULX/ADX Montgomery (bn_powerx5, bn_mulx4x_mont_gather5)";
  if (F_AVX2) return "RSAZ AVX2 for 2048-bit keys, x86_64-mont5 otherwise";
  return "x86_64-mont5";
}
#endif

static void derive_paths(void) {
  load_caps();
#if defined(PEER_BORINGSSL)
  /* crypto/fipsmodule/aes/gcm.cc.inc: CRYPTO_ghash_init, then the AES-GCM
   * implementation from the GHASH chosen and VAES. */
  int clmul = F_PCLMUL && F_SSSE3;
  if (clmul && F_VPCLMULQDQ && F_AVX2) {
    int zmm = F_AVX512BW && F_AVX512VL && F_BMI2 && !F_AVOID_ZMM;
    if (F_VAES)
      snprintf(path_aes, sizeof(path_aes), "%s", zmm ? "VAES-AVX512 (aes_gcm_enc/dec_update_vaes_avx512)" : "VAES-AVX2 (aes_gcm_enc/dec_update_vaes_avx2)");
    else
      snprintf(path_aes, sizeof(path_aes), "AES-NI CTR + VPCLMULQDQ GHASH (%s)", zmm ? "zmm" : "ymm");
  } else if (clmul && F_AVX && F_MOVBE) {
    snprintf(path_aes, sizeof(path_aes), "%s", F_AESNI ? "AES-NI+AVX (aesni_gcm_encrypt/decrypt)" : "VPAES CTR + AVX GHASH");
  } else if (clmul) {
    snprintf(path_aes, sizeof(path_aes), "%s CTR + CLMUL GHASH", F_AESNI ? "AES-NI" : "VPAES");
  } else {
    snprintf(path_aes, sizeof(path_aes), "%s", F_SSSE3 ? "VPAES + SSSE3 GHASH" : "constant-time C (nohw)");
  }
  chacha_path_evp_aead();
  snprintf(path_rsa, sizeof(path_rsa), "%s", mont_path());
#elif defined(PEER_AWSLC)
  /* crypto/fipsmodule/modes/gcm.c: crypto_gcm_avx512_enabled, else the AVX
   * GHASH with the stitched AES-NI code. */
  int avx512 = F_VAES && F_AVX512F && F_AVX512DQ && F_AVX512BW && F_AVX512VL && F_VPCLMULQDQ;
  int clmul = F_FXSR && F_PCLMUL;
  if (avx512)
    snprintf(path_aes, sizeof(path_aes), "%s", F_AESNI ? "AVX-512 VAES (aes_gcm_encrypt/decrypt_avx512)" : "AVX-512 GHASH, no AES-NI");
  else if (clmul && F_AVX && F_MOVBE)
    snprintf(path_aes, sizeof(path_aes), "%s", F_AESNI ? "AES-NI+AVX (aesni_gcm_encrypt/decrypt)" : "VPAES CTR + AVX GHASH");
  else if (clmul)
    snprintf(path_aes, sizeof(path_aes), "%s CTR + CLMUL GHASH", F_AESNI ? "AES-NI" : "VPAES");
  else
    snprintf(path_aes, sizeof(path_aes), "%s", F_SSSE3 ? "VPAES + SSSE3 GHASH" : "constant-time C (nohw)");
  chacha_path_evp_aead();
  /* crypto/fipsmodule/bn/exponentiation.c: BN_mod_exp_mont_consttime_x2
   * runs both CRT halves on AVX-512 IFMA for 1024/1536/2048-bit primes. */
  if (F_AVX512F && F_AVX512DQ && F_AVX512IFMA && F_AVX512BW && F_AVX512VL)
    snprintf(path_rsa, sizeof(path_rsa), "AVX-512 IFMA (RSAZ_mod_exp_avx512_x2) for 2048/3072/4096-bit keys, %s for the public key", mont_path());
  else
    snprintf(path_rsa, sizeof(path_rsa), "%s", mont_path());
#else
  int v30 = (OpenSSL_version_num() >> 20) == 0x300;
  /* providers' AES-GCM with gcm128.c and aesni-gcm-x86_64.pl (3.0 has no
   * VAES code): the stitched AES-NI+AVX code takes encryptions of 288
   * bytes and more, decryptions of 96 and more. */
  if (F_AESNI && F_PCLMUL && F_AVX && F_MOVBE)
    snprintf(path_aes, sizeof(path_aes), "AES-NI+AVX (aesni_gcm_encrypt from 288 B and aesni_gcm_decrypt from 96 B, AVX GHASH below that)");
  else if (F_AESNI && F_PCLMUL)
    snprintf(path_aes, sizeof(path_aes), "AES-NI CTR + CLMUL GHASH");
  else
    snprintf(path_aes, sizeof(path_aes), "%s", F_AESNI ? "AES-NI + table GHASH" : F_SSSE3 ? "VPAES + table GHASH" : "C");
  /* chacha-x86_64.pl (ChaCha20_ctr32) and poly1305-x86_64.pl (poly1305_init). */
  const char *c20 = F_AVX512F ? "AVX-512F (ChaCha20_avx512)" : F_AVX512VL ? "AVX-512VL (ChaCha20_avx512vl)" : F_SSSE3 ? "SSSE3/AVX2 (ChaCha20_ssse3/4x/8x)" : "scalar";
  const char *p1305 = (F_AVX && F_AVX2 && F_AVX512F && F_AVX512IFMA && F_AVX512VL) ? "AVX-512 IFMA (base 2^44)"
                      : (F_AVX && F_AVX2)                                        ? (F_AVX512F ? "AVX2, AVX-512F on long inputs" : "AVX2")
                      : F_AVX                                                    ? "AVX"
                                                                                 : "scalar";
  snprintf(path_chacha, sizeof(path_chacha), "ChaCha20 %s + Poly1305 %s", c20, p1305);
  /* rsa_ossl.c with bn_exp.c: both CRT halves on IFMA for 1024-bit primes
   * (ossl_rsaz_avx512ifma_eligible: AVX512F, DQ, IFMA, VL); x86_64-mont5
   * with MULX/ADX (BMI2 and ADX) otherwise. */
  const char *mont = (F_BMI2 && F_ADX) ? "MULX/ADX Montgomery (bn_powerx5)" : F_AVX2 ? "RSAZ AVX2 for 2048-bit keys, x86_64-mont5 otherwise" : "x86_64-mont5";
  if (F_AVX512F && F_AVX512DQ && F_AVX512IFMA && F_AVX512VL)
    snprintf(path_rsa, sizeof(path_rsa), "AVX-512 IFMA for 2048-bit keys (ossl_rsaz_mod_exp_avx512_x2), %s for 3072/4096 and the public key", mont);
  else
    snprintf(path_rsa, sizeof(path_rsa), "%s", mont);
  if (!v30) {
    /* The conditions above are OpenSSL 3.0's; later versions added
     * VAES AES-GCM and IFMA for larger keys. */
    strncat(path_aes, " [3.0's dispatch, and this is another version]", sizeof(path_aes) - strlen(path_aes) - 1);
    strncat(path_rsa, " [3.0's dispatch, and this is another version]", sizeof(path_rsa) - strlen(path_rsa) - 1);
  }
#endif
}

static const char *peer_version(void) {
  static char v[200];
#if defined(PEER_BORINGSSL)
  snprintf(v, sizeof(v), "BoringSSL %s, API version %d", PEER_SOURCE, BORINGSSL_API_VERSION);
#elif defined(PEER_AWSLC)
  snprintf(v, sizeof(v), "AWS-LC %s %s", AWSLC_VERSION_NUMBER_STRING, PEER_SOURCE);
#else
  snprintf(v, sizeof(v), "%s (%s)", OpenSSL_version(OPENSSL_VERSION), PEER_SOURCE);
#endif
  return v;
}

/* provenance prints the line that says what was measured. It starts with
 * "# ", so that Go benchmark-format readers (benchfmt, benchstat) skip it
 * rather than take it for a configuration line. */
static void provenance(FILE *f) {
  fprintf(f, "# peer %s: %s; on this CPU (%s): AES-GCM %s; ChaCha20-Poly1305 %s; RSA %s\n", PEER_NAME, peer_version(), caps_source, path_aes, path_chacha,
          path_rsa);
}

/* ------------------------------------------------------------------ */
/* AEADs                                                               */
/* ------------------------------------------------------------------ */

enum alg { AES128GCM, AES256GCM, CHACHA20POLY1305 };

static const char *alg_name(enum alg a) {
  switch (a) {
    case AES128GCM: return "aes-128-gcm";
    case AES256GCM: return "aes-256-gcm";
    default: return "chacha20-poly1305";
  }
}

static size_t alg_key_len(enum alg a) { return a == AES128GCM ? 16 : 32; }

static int alg_parse(const char *s, enum alg *a) {
  for (int i = AES128GCM; i <= CHACHA20POLY1305; i++) {
    if (strcmp(s, alg_name((enum alg)i)) == 0) {
      *a = (enum alg)i;
      return 1;
    }
  }
  return 0;
}

/* aead is a prepared key: an EVP_AEAD_CTX, or for OpenSSL an encryption and
 * a decryption EVP_CIPHER_CTX holding the key schedule. */
typedef struct {
  enum alg alg;
#if defined(HAVE_EVP_AEAD)
  EVP_AEAD_CTX ctx;
#else
  EVP_CIPHER_CTX *enc, *dec;
#endif
} aead;

#if defined(HAVE_EVP_AEAD)
static const EVP_AEAD *evp_aead(enum alg a) {
  switch (a) {
    case AES128GCM: return EVP_aead_aes_128_gcm();
    case AES256GCM: return EVP_aead_aes_256_gcm();
    default: return EVP_aead_chacha20_poly1305();
  }
}

static void aead_init(aead *a, enum alg alg, const uint8_t *key) {
  a->alg = alg;
  if (!EVP_AEAD_CTX_init(&a->ctx, evp_aead(alg), key, alg_key_len(alg), TAG_LEN, NULL)) die("EVP_AEAD_CTX_init");
}

static void aead_free(aead *a) { EVP_AEAD_CTX_cleanup(&a->ctx); }

/* aead_seal writes n bytes of ciphertext and the tag to out. */
static void aead_seal(aead *a, uint8_t *out, const uint8_t *nonce, const uint8_t *in, size_t n, const uint8_t *ad, size_t adn) {
  size_t outn;
  if (!EVP_AEAD_CTX_seal(&a->ctx, out, &outn, n + TAG_LEN, nonce, NONCE_LEN, in, n, ad, adn) || outn != n + TAG_LEN) die("EVP_AEAD_CTX_seal");
}

/* aead_open decrypts ct (ciphertext and tag, ctn bytes) into out. */
static int aead_open(aead *a, uint8_t *out, const uint8_t *nonce, const uint8_t *ct, size_t ctn, const uint8_t *ad, size_t adn) {
  size_t outn;
  if (ctn < TAG_LEN) return 0;
  return EVP_AEAD_CTX_open(&a->ctx, out, &outn, ctn - TAG_LEN, nonce, NONCE_LEN, ct, ctn, ad, adn) && outn == ctn - TAG_LEN;
}

/* aead_rekey is the key setup the New benchmarks time: a key prepared per
 * call (EVP_AEAD_CTX_init, then EVP_AEAD_CTX_cleanup). */
static void aead_rekey(aead *a, const uint8_t *key) {
  EVP_AEAD_CTX ctx;
  if (!EVP_AEAD_CTX_init(&ctx, evp_aead(a->alg), key, alg_key_len(a->alg), TAG_LEN, NULL)) die("EVP_AEAD_CTX_init");
  EVP_AEAD_CTX_cleanup(&ctx);
}
#else
static const EVP_CIPHER *evp_cipher(enum alg a) {
  switch (a) {
    case AES128GCM: return EVP_aes_128_gcm();
    case AES256GCM: return EVP_aes_256_gcm();
    default: return EVP_chacha20_poly1305();
  }
}

static void aead_init(aead *a, enum alg alg, const uint8_t *key) {
  a->alg = alg;
  a->enc = EVP_CIPHER_CTX_new();
  a->dec = EVP_CIPHER_CTX_new();
  if (a->enc == NULL || a->dec == NULL) die("EVP_CIPHER_CTX_new");
  if (!EVP_EncryptInit_ex(a->enc, evp_cipher(alg), NULL, key, NULL)) die("EVP_EncryptInit_ex");
  if (!EVP_DecryptInit_ex(a->dec, evp_cipher(alg), NULL, key, NULL)) die("EVP_DecryptInit_ex");
}

static void aead_free(aead *a) {
  EVP_CIPHER_CTX_free(a->enc);
  EVP_CIPHER_CTX_free(a->dec);
}

/* OpenSSL 3.0's per-message sequence: the nonce, the AAD update, the text
 * update, the final, the tag read back. */
static void aead_seal(aead *a, uint8_t *out, const uint8_t *nonce, const uint8_t *in, size_t n, const uint8_t *ad, size_t adn) {
  int l1, l2, l3;
  if (!EVP_EncryptInit_ex(a->enc, NULL, NULL, NULL, nonce) || !EVP_EncryptUpdate(a->enc, NULL, &l1, ad, (int)adn) ||
      !EVP_EncryptUpdate(a->enc, out, &l2, in, (int)n) || !EVP_EncryptFinal_ex(a->enc, out + l2, &l3) || (size_t)(l2 + l3) != n ||
      !EVP_CIPHER_CTX_ctrl(a->enc, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, out + n))
    die("EVP_Encrypt (seal)");
}

static int aead_open(aead *a, uint8_t *out, const uint8_t *nonce, const uint8_t *ct, size_t ctn, const uint8_t *ad, size_t adn) {
  int l1, l2, l3;
  if (ctn < TAG_LEN) return 0;
  size_t n = ctn - TAG_LEN;
  if (!EVP_DecryptInit_ex(a->dec, NULL, NULL, NULL, nonce) || !EVP_DecryptUpdate(a->dec, NULL, &l1, ad, (int)adn) ||
      !EVP_DecryptUpdate(a->dec, out, &l2, ct, (int)n) || !EVP_CIPHER_CTX_ctrl(a->dec, EVP_CTRL_AEAD_SET_TAG, TAG_LEN, (void *)(ct + n)))
    die("EVP_Decrypt (open)");
  return EVP_DecryptFinal_ex(a->dec, out + l2, &l3) > 0 && (size_t)(l2 + l3) == n;
}

/* aead_rekey: a new key into the prepared context (EVP_EncryptInit_ex with
 * the key alone: the key schedule and, for GCM, the hash key). */
static void aead_rekey(aead *a, const uint8_t *key) {
  if (!EVP_EncryptInit_ex(a->enc, NULL, NULL, key, NULL)) die("EVP_EncryptInit_ex (key)");
}
#endif

/* ------------------------------------------------------------------ */
/* RSA                                                                 */
/* ------------------------------------------------------------------ */

static const char *keys_dir = "rsa/testdata";

typedef struct {
  int bits;
  EVP_PKEY *priv, *pub;
} rsa_key;

static rsa_key rsa_keys[8];
static int rsa_nkeys;

/* key returns vg's test key of the given size (keys_dir/rsa<bits>.pem,
 * PKCS #1), parsed once, with its public half as a key of its own. */
static rsa_key *key(int bits) {
  for (int i = 0; i < rsa_nkeys; i++)
    if (rsa_keys[i].bits == bits) return &rsa_keys[i];
  if (rsa_nkeys == (int)(sizeof(rsa_keys) / sizeof(rsa_keys[0]))) die("too many keys");
  char path[4096];
  snprintf(path, sizeof(path), "%s/rsa%d.pem", keys_dir, bits);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "peerbench (%s): %s: %s (-keys names vg's rsa/testdata)\n", PEER_NAME, path, strerror(errno));
    exit(1);
  }
  EVP_PKEY *priv = PEM_read_PrivateKey(f, NULL, NULL, NULL);
  fclose(f);
  if (priv == NULL) die(path);
  unsigned char *der = NULL;
  int n = i2d_PUBKEY(priv, &der);
  if (n <= 0) die("i2d_PUBKEY");
  const unsigned char *p = der;
  EVP_PKEY *pub = d2i_PUBKEY(NULL, &p, n);
  OPENSSL_free(der);
  if (pub == NULL) die("d2i_PUBKEY");
  rsa_key *k = &rsa_keys[rsa_nkeys++];
  k->bits = bits;
  k->priv = priv;
  k->pub = pub;
  return k;
}

enum pad { PAD_PKCS1, PAD_PSS, PAD_OAEP };

static void set_padding(EVP_PKEY_CTX *c, enum pad pad, int sig) {
  int p = pad == PAD_PSS ? RSA_PKCS1_PSS_PADDING : pad == PAD_OAEP ? RSA_PKCS1_OAEP_PADDING : RSA_PKCS1_PADDING;
  if (EVP_PKEY_CTX_set_rsa_padding(c, p) <= 0) die("EVP_PKEY_CTX_set_rsa_padding");
  if (sig && EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0) die("EVP_PKEY_CTX_set_signature_md");
  if (pad == PAD_PSS) {
    /* crypto/rsa's PSSSaltLengthEqualsHash: 32 bytes, MGF1 with SHA-256. */
    if (EVP_PKEY_CTX_set_rsa_pss_saltlen(c, 32) <= 0 || EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()) <= 0) die("PSS parameters");
  }
  if (pad == PAD_OAEP) {
    if (EVP_PKEY_CTX_set_rsa_oaep_md(c, EVP_sha256()) <= 0 || EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()) <= 0) die("OAEP parameters");
  }
}

/* pkey_ctx prepares an operation on k once, as vg's benchmarks prepare
 * the key once: op is 's' sign, 'v' verify, 'd' decrypt, 'e' encrypt. */
static EVP_PKEY_CTX *pkey_ctx(rsa_key *k, char op, enum pad pad) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(op == 's' || op == 'd' ? k->priv : k->pub, NULL);
  if (c == NULL) die("EVP_PKEY_CTX_new");
  int ok = op == 's' ? EVP_PKEY_sign_init(c) : op == 'v' ? EVP_PKEY_verify_init(c) : op == 'd' ? EVP_PKEY_decrypt_init(c) : EVP_PKEY_encrypt_init(c);
  if (ok <= 0) die("EVP_PKEY_*_init");
  set_padding(c, pad, op == 's' || op == 'v');
  return c;
}

static void digest(const uint8_t *in, size_t n, uint8_t out[32]) {
  unsigned int l;
  if (!EVP_Digest(in, n, out, &l, EVP_sha256(), NULL) || l != 32) die("EVP_Digest");
}

/* ------------------------------------------------------------------ */
/* Benchmarks                                                          */
/* ------------------------------------------------------------------ */

enum kind { K_SEAL, K_OPEN, K_SEAL_TLS, K_NEW, K_SIGN, K_DECRYPT, K_VERIFY };

typedef struct {
  const char *pkg;
  char name[96];
  enum kind kind;
  enum alg alg;
  size_t size; /* message bytes */
  int bits;
  enum pad pad;
} bench;

static bench benches[256];
static int nbenches;

static void add(const char *pkg, enum kind kind, enum alg alg, size_t size, int bits, enum pad pad, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void add(const char *pkg, enum kind kind, enum alg alg, size_t size, int bits, enum pad pad, const char *fmt, ...) {
  if (nbenches == (int)(sizeof(benches) / sizeof(benches[0]))) die("too many benchmarks");
  bench *b = &benches[nbenches++];
  b->pkg = pkg;
  b->kind = kind;
  b->alg = alg;
  b->size = size;
  b->bits = bits;
  b->pad = pad;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b->name, sizeof(b->name) - sizeof("/" PEER_NAME), fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof(b->name) - sizeof("/" PEER_NAME)) die("benchmark name too long");
  strcat(b->name, "/" PEER_NAME);
}

/* The sizes of the peer comparison, and vg's 13-byte AAD. */
static const size_t sizes[] = {16, 64, 256, 512, 1350, 4096, 16384};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* define_benches lists every benchmark under the name of vg's own
 * (aesgcm/bench_test.go, chacha20poly1305/bench_test.go, rsa/bench_test.go). */
static void define_benches(void) {
  static const char *aes[] = {"AES-128", "AES-256"};
  const char *ops[] = {"Seal", "Open"};
  for (int op = 0; op < 2; op++)
    for (int k = 0; k < 2; k++)
      for (size_t i = 0; i < NSIZES; i++)
        add(PKG_AESGCM, op ? K_OPEN : K_SEAL, k ? AES256GCM : AES128GCM, sizes[i], 0, 0, "Benchmark%s/%s/%zu", ops[op], aes[k], sizes[i]);
  /* The TLS 1.3 record shape: size bytes of payload and the content-type
   * byte, which the peers seal as one contiguous buffer (vg's SealGather
   * takes them as two slices). */
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < NSIZES; i++)
      add(PKG_AESGCM, K_SEAL_TLS, k ? AES256GCM : AES128GCM, sizes[i] + 1, 0, 0, "BenchmarkSealGather/%s/%zu", aes[k], sizes[i]);
  for (int k = 0; k < 2; k++) add(PKG_AESGCM, K_NEW, k ? AES256GCM : AES128GCM, 0, 0, 0, "BenchmarkNew/%s", aes[k]);

  for (int op = 0; op < 2; op++)
    for (size_t i = 0; i < NSIZES; i++)
      add(PKG_CHACHA, op ? K_OPEN : K_SEAL, CHACHA20POLY1305, sizes[i], 0, 0, "Benchmark%s/%zu", ops[op], sizes[i]);
  for (size_t i = 0; i < NSIZES; i++) add(PKG_CHACHA, K_SEAL_TLS, CHACHA20POLY1305, sizes[i] + 1, 0, 0, "BenchmarkSealGather/%zu", sizes[i]);
  add(PKG_CHACHA, K_NEW, CHACHA20POLY1305, 0, 0, 0, "BenchmarkNew");

  static const int bits[] = {2048, 3072, 4096};
  for (int b = 0; b < 3; b++) add(PKG_RSA, K_SIGN, 0, 0, bits[b], PAD_PSS, "BenchmarkSign/PSS-SHA256/%d", bits[b]);
  for (int b = 0; b < 3; b++) add(PKG_RSA, K_SIGN, 0, 0, bits[b], PAD_PKCS1, "BenchmarkSign/PKCS1v15-SHA256/%d", bits[b]);
  for (int b = 0; b < 3; b++) add(PKG_RSA, K_DECRYPT, 0, 0, bits[b], PAD_PKCS1, "BenchmarkDecrypt/PKCS1v15/%d", bits[b]);
  for (int b = 0; b < 3; b++) add(PKG_RSA, K_DECRYPT, 0, 0, bits[b], PAD_OAEP, "BenchmarkDecrypt/OAEP-SHA256/%d", bits[b]);
  static const int vbits[] = {2048, 3072, 4096, 8192};
  for (int b = 0; b < 4; b++) add(PKG_RSA, K_VERIFY, 0, 0, vbits[b], PAD_PKCS1, "BenchmarkVerify/PKCS1v15-SHA256/%d", vbits[b]);
}

/* state is what one benchmark's timed loop works on, set up before it. */
typedef struct {
  aead a;
  uint8_t key[32], nonce[NONCE_LEN], ad[AAD_LEN];
  uint8_t *in, *out, *ct;
  size_t n, ctn;
  EVP_PKEY_CTX *pctx;
  uint8_t dgst[32];
  uint8_t sig[MAX_RSA_BYTES], rct[MAX_RSA_BYTES], buf[MAX_RSA_BYTES];
  size_t siglen, rctlen;
} state;

static void op_seal(state *s) { aead_seal(&s->a, s->out, s->nonce, s->in, s->n, s->ad, AAD_LEN); }

static void op_open(state *s) {
  if (!aead_open(&s->a, s->out, s->nonce, s->ct, s->ctn, s->ad, AAD_LEN)) die("open of the peer's own ciphertext");
}

static void op_new(state *s) { aead_rekey(&s->a, s->key); }

static void op_sign(state *s) {
  size_t l = sizeof(s->buf);
  if (EVP_PKEY_sign(s->pctx, s->buf, &l, s->dgst, 32) <= 0) die("EVP_PKEY_sign");
}

static void op_decrypt(state *s) {
  size_t l = sizeof(s->buf);
  if (EVP_PKEY_decrypt(s->pctx, s->buf, &l, s->rct, s->rctlen) <= 0 || l != 32) die("EVP_PKEY_decrypt");
}

static void op_verify(state *s) {
  if (EVP_PKEY_verify(s->pctx, s->sig, s->siglen, s->dgst, 32) != 1) die("EVP_PKEY_verify");
}

/* The keys of vg's benchmarks: bytes 0, 1, 2, ... for AES-GCM, zeros for
 * ChaCha20-Poly1305; the nonce, AAD and plaintext are zeros. */
static void bench_key(enum alg alg, uint8_t key[32]) {
  for (int i = 0; i < 32; i++) key[i] = alg == CHACHA20POLY1305 ? 0 : (uint8_t)i;
}

typedef void (*op_fn)(state *);

static op_fn setup(const bench *b, state *s) {
  memset(s, 0, sizeof(*s));
  switch (b->kind) {
    case K_SEAL:
    case K_SEAL_TLS:
    case K_OPEN:
    case K_NEW:
      bench_key(b->alg, s->key);
      aead_init(&s->a, b->alg, s->key);
      s->n = b->size;
      s->in = xmalloc(s->n);
      s->out = xmalloc(s->n + TAG_LEN);
      if (b->kind == K_NEW) return op_new;
      if (b->kind != K_OPEN) return op_seal;
      s->ctn = s->n + TAG_LEN;
      s->ct = xmalloc(s->ctn);
      aead_seal(&s->a, s->ct, s->nonce, s->in, s->n, s->ad, AAD_LEN);
      return op_open;
    default:
      break;
  }
  rsa_key *k = key(b->bits);
  static const char msg[] = "benchmark";
  digest((const uint8_t *)msg, sizeof(msg) - 1, s->dgst);
  if (b->kind == K_SIGN) {
    s->pctx = pkey_ctx(k, 's', b->pad);
    return op_sign;
  }
  if (b->kind == K_DECRYPT) {
    /* A 32-byte message encrypted once, as vg's benchmark does. */
    uint8_t m[32] = {0};
    EVP_PKEY_CTX *e = pkey_ctx(k, 'e', b->pad);
    s->rctlen = sizeof(s->rct);
    if (EVP_PKEY_encrypt(e, s->rct, &s->rctlen, m, sizeof(m)) <= 0) die("EVP_PKEY_encrypt");
    EVP_PKEY_CTX_free(e);
    s->pctx = pkey_ctx(k, 'd', b->pad);
    return op_decrypt;
  }
  EVP_PKEY_CTX *sc = pkey_ctx(k, 's', PAD_PKCS1);
  s->siglen = sizeof(s->sig);
  if (EVP_PKEY_sign(sc, s->sig, &s->siglen, s->dgst, 32) <= 0) die("EVP_PKEY_sign");
  EVP_PKEY_CTX_free(sc);
  s->pctx = pkey_ctx(k, 'v', b->pad);
  return op_verify;
}

static void teardown(const bench *b, state *s) {
  if (b->kind <= K_NEW) aead_free(&s->a);
  free(s->in);
  free(s->out);
  free(s->ct);
  EVP_PKEY_CTX_free(s->pctx);
}

/* benchtime is -benchtime: a duration or a count ("10x"). */
typedef struct {
  int64_t ns, iters;
} benchtime;

static int parse_benchtime(const char *s, benchtime *bt) {
  char *end;
  size_t l = strlen(s);
  bt->ns = bt->iters = 0;
  if (l > 1 && s[l - 1] == 'x') {
    long long n = strtoll(s, &end, 10);
    if (end != s + l - 1 || n <= 0) return 0;
    bt->iters = n;
    return 1;
  }
  double v = strtod(s, &end);
  if (end == s || v < 0) return 0;
  static const struct {
    const char *unit;
    double ns;
  } units[] = {{"ns", 1}, {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}};
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if (strcmp(end, units[i].unit) == 0) {
      bt->ns = (int64_t)(v * units[i].ns);
      return 1;
    }
  }
  return 0;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* predict is Go's predictN: the count expected to reach goal from the last
 * count and time, 1.2x that, at most 100x the last count, at least one
 * more, at most 1e9. */
static int64_t predict(int64_t goal, int64_t iters, int64_t ns, int64_t last) {
  if (ns <= 0) ns = 1;
  __int128 n = (__int128)goal * iters / ns;
  n += n / 5;
  if (n > (__int128)last * 100) n = (__int128)last * 100;
  if (n < last + 1) n = last + 1;
  if (n > 1000000000) n = 1000000000;
  return (int64_t)n;
}

/* measure runs op in one loop the way b.Loop does: the timer covers every
 * iteration, the count grows until the loop has run for bt. */
static void measure(op_fn op, state *s, benchtime bt, int64_t *iters, int64_t *ns) {
  int64_t n = bt.iters > 0 ? bt.iters : 1, i = 0, t;
  int64_t start = now_ns();
  for (;;) {
    for (; i < n; i++) op(s);
    t = now_ns() - start;
    if (bt.iters > 0 || t >= bt.ns) break;
    int64_t next = predict(bt.ns, n, t, n);
    if (next <= n) break;
    n = next;
  }
  *iters = n;
  *ns = t;
}

/* pretty prints x as Go's testing package prints ns/op. */
static void pretty(double x, const char *unit) {
  double y = x < 0 ? -x : x;
  const char *f = y == 0 || y >= 999.95 ? "%10.0f %s"
                  : y >= 99.995       ? "%12.1f %s"
                  : y >= 9.9995       ? "%13.2f %s"
                  : y >= 0.99995      ? "%14.3f %s"
                  : y >= 0.099995     ? "%15.4f %s"
                  : y >= 0.0099995    ? "%16.5f %s"
                  : y >= 0.00099995   ? "%17.6f %s"
                                      : "%18.7f %s";
  printf(f, x, unit);
}

/* procs is what GOMAXPROCS would be for a Go program started the same way:
 * $GOMAXPROCS, else the CPUs this process may run on. */
static int procs(void) {
  const char *env = getenv("GOMAXPROCS");
  if (env != NULL && atoi(env) > 0) return atoi(env);
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return 1;
}

static void run(const bench *b, benchtime bt, int np) {
  state s;
  op_fn op = setup(b, &s);
  /* One untimed call first: a library's one-time lazy initialization (on
   * first use of an algorithm, AWS-LC ran for a quarter of a second here)
   * is not part of the workload. */
  op(&s);
  int64_t n, ns;
  measure(op, &s, bt, &n, &ns);
  teardown(b, &s);
  char name[128];
  if (np != 1)
    snprintf(name, sizeof(name), "%s-%d", b->name, np);
  else
    snprintf(name, sizeof(name), "%s", b->name);
  printf("%s\t%8lld\t", name, (long long)n);
  pretty((double)ns / (double)n, "ns/op");
  size_t bytes = b->kind == K_SEAL || b->kind == K_OPEN || b->kind == K_SEAL_TLS ? b->size : 0;
  if (bytes > 0 && ns > 0) printf("\t%7.2f MB/s", ((double)bytes * (double)n / 1e6) / ((double)ns / 1e9));
  printf("\n");
  fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Smoke check                                                         */
/* ------------------------------------------------------------------ */

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* unhex decodes s ("-" is empty) into a new buffer. */
static uint8_t *unhex(const char *s, size_t *n) {
  if (strcmp(s, "-") == 0) s = "";
  size_t l = strlen(s);
  if (l % 2) return NULL;
  uint8_t *out = xmalloc(l / 2);
  for (size_t i = 0; i < l / 2; i++) {
    int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(out);
      return NULL;
    }
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  *n = l / 2;
  return out;
}

/* ok_hex answers "ok HEX", or "ok" for nothing. */
static void ok_hex(const uint8_t *p, size_t n) {
  printf("ok%s", n ? " " : "");
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
  printf("\n");
}

/*
 * check answers one request per line of stdin with one line on stdout, "ok
 * [HEX]", "fail" (a rejected input) or "error MESSAGE", through the same
 * calls the benchmarks time:
 *
 *   seal ALG KEY NONCE AAD PLAINTEXT      -> ok CIPHERTEXT||TAG
 *   open ALG KEY NONCE AAD CIPHERTEXT     -> ok PLAINTEXT | fail
 *   new ALG KEY                           -> ok (the key setup ran)
 *   sign-pkcs1|sign-pss BITS DIGEST       -> ok SIGNATURE
 *   verify-pkcs1|verify-pss BITS DIGEST SIG -> ok | fail
 *   decrypt-pkcs1|decrypt-oaep BITS CT    -> ok PLAINTEXT | fail
 *
 * ALG is aes-128-gcm, aes-256-gcm or chacha20-poly1305; byte strings are hex
 * ("-" for none); DIGEST is a SHA-256 digest; keys are vg's test keys.
 */
static int check(void) {
  char line[1 << 17];
  while (fgets(line, sizeof(line), stdin) != NULL) {
    char *f[8];
    int nf = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok != NULL && nf < 8; tok = strtok(NULL, " \t\r\n")) f[nf++] = tok;
    if (nf == 0) continue;
    uint8_t *v[5] = {0};
    size_t vn[5] = {0};
    int bad = 0;
    const char *cmd = f[0];
    int aeadcmd = strcmp(cmd, "seal") == 0 || strcmp(cmd, "open") == 0 || strcmp(cmd, "new") == 0;
    /* The hex fields follow ALG or BITS. */
    for (int i = 2; i < nf && i - 2 < 5; i++) {
      v[i - 2] = unhex(f[i], &vn[i - 2]);
      if (v[i - 2] == NULL) bad = 1;
    }
    enum alg alg = AES128GCM;
    if (bad) {
      printf("error bad hex\n");
    } else if (aeadcmd) {
      int want = strcmp(cmd, "new") == 0 ? 3 : 6;
      if (nf != want || !alg_parse(f[1], &alg) || vn[0] != alg_key_len(alg) || (want == 6 && vn[1] != NONCE_LEN)) {
        printf("error usage: %s\n", cmd);
      } else {
        aead a;
        aead_init(&a, alg, v[0]);
        if (strcmp(cmd, "new") == 0) {
          aead_rekey(&a, v[0]);
          printf("ok\n");
        } else if (strcmp(cmd, "seal") == 0) {
          uint8_t *out = xmalloc(vn[3] + TAG_LEN);
          aead_seal(&a, out, v[1], v[3], vn[3], v[2], vn[2]);
          ok_hex(out, vn[3] + TAG_LEN);
          free(out);
        } else {
          uint8_t *out = xmalloc(vn[3]);
          if (aead_open(&a, out, v[1], v[3], vn[3], v[2], vn[2])) {
            ok_hex(out, vn[3] - TAG_LEN);
          } else {
            printf("fail\n");
          }
          free(out);
        }
        aead_free(&a);
      }
    } else {
      int bits = nf > 1 ? atoi(f[1]) : 0;
      enum pad pad = strstr(cmd, "-pss") ? PAD_PSS : strstr(cmd, "-oaep") ? PAD_OAEP : PAD_PKCS1;
      char op = strncmp(cmd, "sign-", 5) == 0 ? 's' : strncmp(cmd, "verify-", 7) == 0 ? 'v' : strncmp(cmd, "decrypt-", 8) == 0 ? 'd' : 0;
      int want = op == 'v' ? 4 : 3;
      if (op == 0 || nf != want || bits < 1024 || ((op == 's' || op == 'v') && vn[0] != 32) || (op == 'd' && pad == PAD_PSS) ||
          (op != 'd' && pad == PAD_OAEP)) {
        printf("error usage: %s\n", cmd);
      } else {
        EVP_PKEY_CTX *c = pkey_ctx(key(bits), op, pad);
        uint8_t out[MAX_RSA_BYTES];
        size_t l = sizeof(out);
        if (op == 's') {
          if (EVP_PKEY_sign(c, out, &l, v[0], vn[0]) <= 0) die("EVP_PKEY_sign");
          ok_hex(out, l);
        } else if (op == 'v') {
          printf("%s\n", EVP_PKEY_verify(c, v[1], vn[1], v[0], vn[0]) == 1 ? "ok" : "fail");
        } else if (EVP_PKEY_decrypt(c, out, &l, v[0], vn[0]) > 0) {
          ok_hex(out, l);
        } else {
          printf("fail\n");
        }
        ERR_clear_error();
        EVP_PKEY_CTX_free(c);
      }
    }
    for (int i = 0; i < 5; i++) free(v[i]);
    fflush(stdout);
  }
  return 0;
}

/* ------------------------------------------------------------------ */

static void usage(void) {
  fprintf(stderr,
          "usage: peerbench [-benchtime D|Nx] [-keys DIR] [NAME...]\n"
          "       peerbench -list | -provenance | -check\n");
  exit(2);
}

int main(int argc, char **argv) {
  benchtime bt = {1000000000, 0};
  int list = 0, prov = 0, chk = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *a = argv[i];
    if (a[1] == '-') a++;
    if (strcmp(a, "-benchtime") == 0 && i + 1 < argc) {
      if (!parse_benchtime(argv[++i], &bt)) {
        fprintf(stderr, "peerbench: bad -benchtime %s\n", argv[i]);
        return 2;
      }
    } else if (strcmp(a, "-keys") == 0 && i + 1 < argc) {
      keys_dir = argv[++i];
    } else if (strcmp(a, "-list") == 0) {
      list = 1;
    } else if (strcmp(a, "-provenance") == 0) {
      prov = 1;
    } else if (strcmp(a, "-check") == 0) {
      chk = 1;
    } else {
      usage();
    }
  }
  define_benches();
  if (list) {
    for (int b = 0; b < nbenches; b++) printf("%s\t%s\n", benches[b].pkg, benches[b].name);
    return 0;
  }
  derive_paths();
  if (prov) {
    provenance(stdout);
    return 0;
  }
  if (chk) return check();

  /* The benchmarks to run, in the order given (default: all). */
  const bench *todo[256];
  int ntodo = 0;
  if (i == argc) {
    for (int b = 0; b < nbenches; b++) todo[ntodo++] = &benches[b];
  }
  for (; i < argc; i++) {
    int found = 0;
    for (int b = 0; b < nbenches && !found; b++) {
      if (strcmp(argv[i], benches[b].name) == 0) {
        if (ntodo == (int)(sizeof(todo) / sizeof(todo[0]))) die("too many benchmarks");
        todo[ntodo++] = &benches[b];
        found = 1;
      }
    }
    if (!found) {
      fprintf(stderr, "peerbench (%s): no benchmark %s (see -list)\n", PEER_NAME, argv[i]);
      return 2;
    }
  }
  provenance(stdout);
  int np = procs();
  const char *pkg = NULL;
  for (int t = 0; t < ntodo; t++) {
    if (pkg == NULL || strcmp(pkg, todo[t]->pkg) != 0) {
      pkg = todo[t]->pkg;
      printf("pkg: %s\n", pkg);
    }
    run(todo[t], bt, np);
  }
  printf("PASS\n");
  return 0;
}
