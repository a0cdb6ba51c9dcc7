//go:build amd64 && !purego

package chacha20poly1305

import (
	"unsafe"
)

// The glue of the assembly backends, over the functions generated into
// asm_ssse3_amd64.s and asm_avx2_amd64.s (declared in asm_<backend>_amd64.go,
// or asm_<backend>_vgsim_amd64.go under the build tag vgsim). Each method
// meets the contract at [backend]. The whole-message functions read the
// text through slice headers (the gather seal's form): seal passes one
// header on its stack for a contiguous text.

// The block kernels of the assembly backends (see kernels.go).
const (
	ssse3Kernels kernels = genericKernels + 1 + iota
	avx2Kernels
)

// xorBlocks is the ChaCha20 block kernel k.
func (k kernels) xorBlocks(s *[16]uint32, dst, src []byte) {
	if len(src) == 0 {
		return
	}
	switch k {
	case avx2Kernels:
		xorBlocksAVX2(s, unsafe.SliceData(dst), unsafe.SliceData(src), len(src))
	case ssse3Kernels:
		xorBlocksSSSE3(s, unsafe.SliceData(dst), unsafe.SliceData(src), len(src))
	default:
		xorBlocksGeneric(s, dst, src)
	}
}

// polyBlocks is the Poly1305 block kernel k.
func (k kernels) polyBlocks(p *polyState, msg []byte) {
	if len(msg) == 0 {
		return
	}
	switch k {
	case avx2Kernels:
		polyBlocksAVX2((*[7]uint64)(unsafe.Pointer(p)), unsafe.SliceData(msg), len(msg))
	case ssse3Kernels:
		polyBlocksSSSE3((*[7]uint64)(unsafe.Pointer(p)), unsafe.SliceData(msg), len(msg))
	default:
		polyBlocksGeneric(p, msg)
	}
}

// ssse3Backend is the ssse3 backend: the whole-message short functions for
// texts up to shortMaxSSSE3 bytes, the drivers over its block kernels
// beyond.
type ssse3Backend struct{}

func (ssse3Backend) kernels() kernels { return ssse3Kernels }

func (b ssse3Backend) seal(out []byte, key *[KeySize]byte, nonce, plaintext, ad []byte) {
	if len(plaintext) > shortMaxSSSE3 {
		sealKernels(ssse3Kernels, out, key, nonce, plaintext, ad)
		return
	}
	srcs := [1][]byte{plaintext}
	b.sealAsm(out, key, nonce, srcs[:], len(plaintext), ad)
}

func (ssse3Backend) open(out []byte, key *[KeySize]byte, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	n := len(ciphertext)
	if n > shortMaxSSSE3 {
		return openKernels(ssse3Kernels, out, key, nonce, ciphertext, tag, ad)
	}
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, key, nonce)
	ok := openShortSSSE3(unsafe.SliceData(out), mk, &mn, unsafe.SliceData(ciphertext), n, unsafe.SliceData(ad), len(ad), tag)
	wipeSubkey(&subkey, nonce)
	return ok == 1
}

func (b ssse3Backend) sealGather(out []byte, key *[KeySize]byte, nonce []byte, plaintext [][]byte, ad []byte) {
	n := len(out) - TagSize
	if n > shortMaxSSSE3 {
		sealGatherKernels(ssse3Kernels, out, key, nonce, plaintext, ad)
		return
	}
	b.sealAsm(out, key, nonce, plaintext, n, ad)
}

// sealAsm seals the first n bytes (at most shortMaxSSSE3) of the slices of
// srcs with sealShortSSSE3.
func (ssse3Backend) sealAsm(out []byte, key *[KeySize]byte, nonce []byte, srcs [][]byte, n int, ad []byte) {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, key, nonce)
	sealShortSSSE3(unsafe.SliceData(out), mk, &mn, srcs, n, unsafe.SliceData(ad), len(ad))
	wipeSubkey(&subkey, nonce)
}

// avx2Backend is the avx2 backend: whole-message functions for every
// length, the short ones up to shortMaxAVX2 bytes, the long ones beyond.
// Its block kernels serve the Encryptor (stream.go), the tests and the
// benchmarks.
type avx2Backend struct{}

func (avx2Backend) kernels() kernels { return avx2Kernels }

func (b avx2Backend) seal(out []byte, key *[KeySize]byte, nonce, plaintext, ad []byte) {
	srcs := [1][]byte{plaintext}
	b.sealAsm(out, key, nonce, srcs[:], len(plaintext), ad)
}

func (avx2Backend) open(out []byte, key *[KeySize]byte, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, key, nonce)
	o, c, a, n := unsafe.SliceData(out), unsafe.SliceData(ciphertext), unsafe.SliceData(ad), len(ciphertext)
	var ok int
	if n <= shortMaxAVX2 {
		ok = openShortAVX2(o, mk, &mn, c, n, a, len(ad), tag)
	} else {
		ok = openLongAVX2(o, mk, &mn, c, n, a, len(ad), tag)
	}
	wipeSubkey(&subkey, nonce)
	return ok == 1
}

func (b avx2Backend) sealGather(out []byte, key *[KeySize]byte, nonce []byte, plaintext [][]byte, ad []byte) {
	b.sealAsm(out, key, nonce, plaintext, len(out)-TagSize, ad)
}

// sealAsm seals the first n bytes of the slices of srcs with sealShortAVX2
// or sealLongAVX2.
func (avx2Backend) sealAsm(out []byte, key *[KeySize]byte, nonce []byte, srcs [][]byte, n int, ad []byte) {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, key, nonce)
	o, a := unsafe.SliceData(out), unsafe.SliceData(ad)
	if n <= shortMaxAVX2 {
		sealShortAVX2(o, mk, &mn, srcs, n, a, len(ad))
	} else {
		sealLongAVX2(o, mk, &mn, srcs, n, a, len(ad))
	}
	wipeSubkey(&subkey, nonce)
}
