//go:build amd64 && !purego

package chacha20poly1305

import (
	"unsafe"
)

// The glue of the assembly backends, over the functions generated into
// asm_ssse3_amd64.s, asm_avx2_amd64.s and asm_avx512_amd64.s (declared in
// asm_<backend>_amd64.go,
// or asm_<backend>_vgsim_amd64.go under the build tag vgsim). Each method
// meets the contract at [backend]. The whole-message functions read the
// text through slice headers (the gather seal's form): seal passes one
// header on its stack for a contiguous text.

// The block kernels of the assembly backends (see kernels.go).
const (
	ssse3Kernels kernels = genericKernels + 1 + iota
	avx2Kernels
	avx512Kernels
)

// xorBlocks is the ChaCha20 block kernel k.
func (k kernels) xorBlocks(s *[16]uint32, dst, src []byte) {
	if len(src) == 0 {
		return
	}
	switch k {
	case avx512Kernels:
		xorBlocksAVX512(s, unsafe.SliceData(dst), unsafe.SliceData(src), len(src))
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
	case avx512Kernels:
		polyBlocksAVX512((*[7]uint64)(unsafe.Pointer(p)), unsafe.SliceData(msg), len(msg))
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

// wholeBackend is an assembly backend with whole-message functions for
// every length (avx2, avx512: the one whose kernels are k): the short ones
// up to its shortMax bytes, the long ones beyond. Its block kernels serve
// the Encryptor (stream.go), the tests and the benchmarks. The functions
// are chosen by a switch on k, so that every call is direct (see
// kernels).
type wholeBackend struct{ k kernels }

func (b wholeBackend) kernels() kernels { return b.k }

func (b wholeBackend) seal(out []byte, key *[KeySize]byte, nonce, plaintext, ad []byte) {
	srcs := [1][]byte{plaintext}
	b.sealAsm(out, key, nonce, srcs[:], len(plaintext), ad)
}

func (b wholeBackend) open(out []byte, key *[KeySize]byte, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, key, nonce)
	o, c, a, n := unsafe.SliceData(out), unsafe.SliceData(ciphertext), unsafe.SliceData(ad), len(ciphertext)
	var ok int
	switch {
	case b.k == avx512Kernels && n <= shortMaxAVX512:
		ok = openShortAVX512(o, mk, &mn, c, n, a, len(ad), tag)
	case b.k == avx512Kernels:
		ok = openLongAVX512(o, mk, &mn, c, n, a, len(ad), tag)
	case n <= shortMaxAVX2:
		ok = openShortAVX2(o, mk, &mn, c, n, a, len(ad), tag)
	default:
		ok = openLongAVX2(o, mk, &mn, c, n, a, len(ad), tag)
	}
	wipeSubkey(&subkey, nonce)
	return ok == 1
}

func (b wholeBackend) sealGather(out []byte, key *[KeySize]byte, nonce []byte, plaintext [][]byte, ad []byte) {
	b.sealAsm(out, key, nonce, plaintext, len(out)-TagSize, ad)
}

// sealAsm seals the first n bytes of the slices of srcs with the backend's
// short or long seal.
func (b wholeBackend) sealAsm(out []byte, key *[KeySize]byte, nonce []byte, srcs [][]byte, n int, ad []byte) {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, key, nonce)
	o, a := unsafe.SliceData(out), unsafe.SliceData(ad)
	switch {
	case b.k == avx512Kernels && n <= shortMaxAVX512:
		sealShortAVX512(o, mk, &mn, srcs, n, a, len(ad))
	case b.k == avx512Kernels:
		sealLongAVX512(o, mk, &mn, srcs, n, a, len(ad))
	case n <= shortMaxAVX2:
		sealShortAVX2(o, mk, &mn, srcs, n, a, len(ad))
	default:
		sealLongAVX2(o, mk, &mn, srcs, n, a, len(ad))
	}
	wipeSubkey(&subkey, nonce)
}
