// Package aesgcm implements AES-GCM (NIST SP 800-38D) with one constant-time
// backend per CPU feature set, chosen once when a key is prepared.
//
// [New] is the drop-in: New(key) returns what
// cipher.NewGCM(aes.NewCipher(key)) returns in the standard library, as a
// cipher.AEAD, with the shape func([]byte) (cipher.AEAD, error) that code
// choosing an AEAD passes around. [NewWithRandomNonce] is
// cipher.NewGCMWithRandomNonce's equivalent. [Prepare] takes options and
// returns the [*AEAD] itself (as does a type assertion on New's result).
//
// Each prepares a key: it expands the AES key schedule and computes the
// GHASH key powers once, for the backend it picks (the best one this build
// implements among those the CPU and VG_CPU_FEATURES allow, or the one named
// with [WithBackend]). An [*AEAD] implements [crypto/cipher.AEAD] with the
// standard library's contract: Seal and Open append to dst, work in place
// when dst[:0] is the input, panic on an inexact overlap or a nonce of the
// wrong length, and Open releases no plaintext when the tag is wrong. No
// call allocates when dst has room for the result, and an AEAD is safe for
// concurrent use.
//
// Beyond crypto/cipher.AEAD:
//
//   - [AEAD.SealGather] seals the concatenation of several slices (the TLS
//     record shape is the payload, then one content-type byte) without the
//     caller concatenating them;
//   - [AEAD.NewEncryptor] seals a text that arrives in chunks of any size;
//     the output is that of Seal on the concatenation;
//   - [AEAD.NewDecryptor] takes a sealed message in chunks and releases its
//     plaintext only after the whole tag has been checked;
//   - [Backends] lists the backends of this build and [AEAD.Backend] names the
//     one a key uses;
//   - [AEAD.Wipe] zeroes the key schedule and GHASH key powers; every copy
//     of the AEAD refuses to work afterwards.
//
// # Backends
//
// The portable backend, "generic", is what runs with VG_CPU_FEATURES=none,
// with the purego build tag, and on every architecture but amd64 and the
// stdlib ones below. It is constant time: AES is bitsliced (four blocks per
// pass in eight 64-bit words, the S-box a Boolean circuit, no lookup table)
// and GHASH multiplies with integer multiplications on operands with holes,
// so no branch and no memory address depends on the key, the text or the
// tag.
//
// On amd64 four assembly backends, generated with avo from ./_asm by one
// generator at three vector widths and checked at generation time
// (instruction sets, constant-time taint, wipe of stack scratch and vector
// registers on every return), each also expanding the key with AESENCLAST:
//
//   - "vaes-avx512" (AES, PCLMULQDQ, AVX, AVX2, AVX-512 F/BW/VL, VAES,
//     VPCLMULQDQ, BMI2): zmm, 16 blocks per pass and per reduction, tails
//     under opmasks; short messages at ymm and xmm width. Not the default on
//     the Intel models that lower their clock for zmm (cpufeat.PreferYMM).
//   - "vaes-avx2" (AVX, AVX2, VAES, VPCLMULQDQ): ymm, 8 blocks per pass,
//     GHASH fused into the AES rounds.
//   - "aesni-avx" (AES, PCLMULQDQ, SSSE3, AVX): aesni's code in VEX form.
//   - "aesni" (AES, PCLMULQDQ, SSSE3): xmm, 8 blocks per pass, one
//     Karatsuba multiply per AES round, 16 blocks per reduction.
//
// On arm64, ppc64, ppc64le and s390x, where the standard library has
// AES-GCM assembly and vg has none, the default backend is "stdlib"
// (cpufeat's stdaes: the CPU has the AES and carry-less multiply
// instructions that assembly uses): Seal, Open, SealGather and
// NewWithRandomNonce's AEAD run crypto/cipher's GCM over crypto/aes, so vg
// is never slower there than what it replaces and its output is the
// standard library's by construction. SealGather copies the pieces into
// place and seals them there; the Encryptor, Seal with a tag shorter than
// 16 bytes (crypto/cipher's assembly writes zeros past the end of such a
// tag, into the caller's memory: golang/go#80288, in Go 1.26.8), and a key
// with both a nonce size other than 12 and a tag shorter than 16 (a pair
// crypto/cipher has no constructor for) run the generic code on the same
// key. Wipe zeroes what vg holds and drops crypto/cipher's GCM, whose key
// schedule it cannot reach to zero: the garbage collector frees it
// unzeroed.
//
// The features used follow VG_CPU_FEATURES (see package
// github.com/vgcrypto/vg/cpufeat); when that variable is invalid, the
// constructors follow its valid names and say so once on standard error,
// never failing because of it.
package aesgcm
