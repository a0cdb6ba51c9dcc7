//go:build amd64 && !purego

package chacha20poly1305

import "unsafe"

//go:generate env GOWORK=off go -C _asm run .

// implemented lists the backends of this build, best first. New picks among
// them with cpufeat.Select, so each name must be declared in
// cpufeat.Backends(cpufeat.ChaCha20Poly1305).
var implemented = []backend{
	backendAVX2,
	backendSSSE3,
	backendGeneric,
}

// The longest texts the whole-message short functions take (shortMax in
// the generator): the keystream of block 0 and of the text computed at once,
// 3 blocks on xmm, 6 on ymm.
const (
	shortMaxSSSE3 = 128
	shortMaxAVX2  = 320
)

// seal is the seal of backend b; see the contract at [backend].
func (b backend) seal(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, plaintext, ad []byte) {
	if b == backendGeneric || b == backendSSSE3 && len(plaintext) > shortMaxSSSE3 {
		b.sealKernels(out, key, nonce, plaintext, ad)
		return
	}
	// The assembly seals read the text through slice headers (the gather
	// seal's form); one header on the stack describes a contiguous text.
	srcs := [1][]byte{plaintext}
	b.sealAsm(out, key, nonce, srcs[:], len(plaintext), ad)
}

// sealAsm is the whole-message assembly seal of the first n bytes of the
// slices of srcs, for the backends and lengths that have one.
func (b backend) sealAsm(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, srcs [][]byte, n int, ad []byte) {
	o, a := unsafe.SliceData(out), unsafe.SliceData(ad)
	switch {
	case b == backendAVX2 && n <= shortMaxAVX2:
		sealShortAVX2(o, key, nonce, srcs, n, a, len(ad))
	case b == backendAVX2:
		sealLongAVX2(o, key, nonce, srcs, n, a, len(ad))
	default:
		sealShortSSSE3(o, key, nonce, srcs, n, a, len(ad))
	}
}

// open is the open of backend b; see the contract at [backend].
func (b backend) open(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	o, c, a, n := unsafe.SliceData(out), unsafe.SliceData(ciphertext), unsafe.SliceData(ad), len(ciphertext)
	switch {
	case b == backendAVX2 && n <= shortMaxAVX2:
		return openShortAVX2(o, key, nonce, c, n, a, len(ad), tag) == 1
	case b == backendAVX2:
		return openLongAVX2(o, key, nonce, c, n, a, len(ad), tag) == 1
	case b == backendSSSE3 && n <= shortMaxSSSE3:
		return openShortSSSE3(o, key, nonce, c, n, a, len(ad), tag) == 1
	default:
		return b.openKernels(out, key, nonce, ciphertext, tag, ad)
	}
}

// sealGather is the gather seal of backend b; see the contract at [backend].
func (b backend) sealGather(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, plaintext [][]byte, ad []byte) {
	n := len(out) - TagSize
	if b == backendGeneric || b == backendSSSE3 && n > shortMaxSSSE3 {
		b.sealGatherKernels(out, key, nonce, plaintext, ad)
		return
	}
	b.sealAsm(out, key, nonce, plaintext, n, ad)
}

// hChaCha20 sets out to the XChaCha20 subkey for key and nonce.
func (b backend) hChaCha20(out *[KeySize]byte, key *[KeySize]byte, nonce *[16]byte) {
	hChaCha20Generic(out, key, nonce)
}

// xorBlocks is the ChaCha20 block kernel of backend b (see kernels.go).
func (b backend) xorBlocks(s *[16]uint32, dst, src []byte) {
	if len(src) == 0 {
		return
	}
	switch b {
	case backendAVX2:
		xorBlocksAVX2(s, unsafe.SliceData(dst), unsafe.SliceData(src), len(src))
	case backendSSSE3:
		xorBlocksSSSE3(s, unsafe.SliceData(dst), unsafe.SliceData(src), len(src))
	default:
		xorBlocksGeneric(s, dst, src)
	}
}

// polyBlocks is the Poly1305 block kernel of backend b (see kernels.go).
func (b backend) polyBlocks(p *polyState, msg []byte) {
	if len(msg) == 0 {
		return
	}
	switch b {
	case backendAVX2:
		polyBlocksAVX2((*[7]uint64)(unsafe.Pointer(p)), unsafe.SliceData(msg), len(msg))
	case backendSSSE3:
		polyBlocksSSSE3((*[7]uint64)(unsafe.Pointer(p)), unsafe.SliceData(msg), len(msg))
	default:
		polyBlocksGeneric(p, msg)
	}
}
