// Package chacha20poly1305 implements the ChaCha20-Poly1305 AEAD of
// RFC 8439 and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03, 24-byte
// nonces), with one constant-time backend per CPU feature set, chosen once
// when a key is prepared.
//
// # Use
//
// [New] and [NewX] have the shapes of golang.org/x/crypto/chacha20poly1305's
// constructors, func([]byte) (cipher.AEAD, error), so vg drops in wherever
// code calls them or passes them around; the error is only ever a wrong key
// length. Their AEAD is an [*AEAD], reached with a type assertion, and
// [Prepare] and [PrepareX] return it directly and take options
// ([WithBackend]). An [*AEAD] implements [crypto/cipher.AEAD] exactly: Seal
// and Open append to dst, work in place
// when dst is the input's [:0], panic on a wrong nonce length or an
// inexact buffer overlap as crypto/cipher does, release no plaintext when
// authentication fails, do not allocate when dst has room, and may be called
// from several goroutines at once. [AEAD.SealGather] seals a message held in
// several slices (a record header and a payload, say) without copying it
// together first.
//
// For a message that arrives in pieces, [AEAD.NewEncryptor] returns an
// [Encryptor]: Encrypt takes chunks of any size (appending their
// ciphertext to dst, in place when dst is the chunk's [:0]) and Finish
// appends the tag; the bytes are exactly Seal's for the whole text. It
// runs on the backend's block kernels with the cipher, keystream and
// Poly1305 state carried between chunks, and wipes them at Finish.
// [AEAD.NewDecryptor] returns a [Decryptor], which collects the sealed
// message through Write and releases nothing before its tag has checked:
// Open verifies the whole message first and appends the plaintext only if
// it is authentic. Both work like aesgcm's, with the same panics and
// errors.
//
// A nonce must never repeat under one key. The 12-byte nonces of [New] are
// for counters; choose the 24-byte nonces of [NewX] at random.
//
// # Backends
//
// [Backends] lists the backends this build implements and whether each can
// run here; [AEAD.Backend] says which one a key uses, and [WithBackend]
// picks one by name (for tests and benchmarks). The portable backend,
// "generic", is ChaCha20 with its state in local variables, XORing 8 bytes
// at a time, and Poly1305 with 64-bit limbs (math/bits.Mul64) and a final
// reduction by masks; nothing branches on or indexes by the key or the text.
// On amd64 three assembly backends, generated with avo from ./_asm and
// checked at generation time (instruction sets, constant-time taint, wipe
// of stack scratch and vector registers on every return):
//
//   - "avx512" (AVX, AVX2, AVX-512 F/BW/VL, BMI2): whole message in one
//     call, every rotation one VPROLD; up to 64 bytes a ymm row set, up to
//     512 bytes the row layout at 4 blocks per zmm with scalar Poly1305;
//     above, 16-block lane-layout passes with the state in registers, two
//     interleaved (32 blocks) while 2 KiB remain, and Poly1305 on zmm (8
//     lanes of 26-bit limbs) from 384 bytes in a pass of its own. It is not
//     the default on the Intel models that lower their clock for zmm
//     (cpufeat.PreferYMM), where avx2 is.
//   - "ssse3" (SSSE3): ChaCha20 in the row layout for texts up to 128
//     bytes, whole message in one assembly call; above, the Go drivers of
//     kernels.go over block kernels with 4-block lane-layout passes and
//     scalar Poly1305 (64-bit limbs, MULQ).
//   - "avx2" (AVX, AVX2): up to 320 bytes, two blocks per ymm register set
//     in the row layout, whole message in one call; above, 8-block
//     lane-layout passes with Poly1305 (scalar, MULQ) interleaved in the
//     ChaCha20 rounds, also whole message in one call.
//
// The assembly seals read the text through slice headers, so
// [AEAD.SealGather] runs the same code as [AEAD.Seal].
//
// On arm64, loong64, ppc64, ppc64le and s390x, where golang.org/x/crypto
// has ChaCha20 assembly and vg has none, the default backend is "stdlib"
// (cpufeat's stdchacha20): Seal, Open and SealGather run x/crypto's
// chacha20poly1305 (the implementation the standard library vendors for
// crypto/tls), so vg is never slower there than what it replaces and its
// output is x/crypto's by construction. SealGather copies the pieces into
// place and seals them there; the Encryptor runs the generic kernels.
// Wipe zeroes the key vg holds and drops x/crypto's AEAD, whose copy of
// the key it cannot reach to zero: the garbage collector frees it
// unzeroed.
//
// The features used follow VG_CPU_FEATURES (see package
// github.com/vgcrypto/vg/cpufeat); when that variable is invalid, the
// constructors follow its valid names and say so once on standard error,
// never failing because of it. The purego build tag removes all assembly.
//
// # Limits
//
// One nonce encrypts at most [MaxPlaintextSize] bytes (2³⁸-64, the 32-bit
// block counter's range). Seal and SealGather panic beyond it, as
// golang.org/x/crypto/chacha20poly1305 does; Open returns an error.
package chacha20poly1305
