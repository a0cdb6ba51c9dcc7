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

// seal is the seal of backend b; see the contract at [backend].
func (b backend) seal(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, plaintext, ad []byte) {
	b.sealKernels(out, key, nonce, plaintext, ad)
}

// open is the open of backend b; see the contract at [backend].
func (b backend) open(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	return b.openKernels(out, key, nonce, ciphertext, tag, ad)
}

// sealGather is the gather seal of backend b; see the contract at [backend].
func (b backend) sealGather(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, plaintext [][]byte, ad []byte) {
	b.sealGatherKernels(out, key, nonce, plaintext, ad)
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
