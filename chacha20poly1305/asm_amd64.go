//go:build amd64 && !purego

package chacha20poly1305

import (
	"unsafe"
)

// The assembly backends' shared Go side: their block kernels, which the
// drivers of kernels.go and the Encryptor run on. Each backend's key type
// is in asm_glue_amd64.go.

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
