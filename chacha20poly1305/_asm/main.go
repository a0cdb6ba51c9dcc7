// Command _asm generates the assembly backends of chacha20poly1305 (RFC 8439
// ChaCha20-Poly1305): ssse3 (xmm, legacy SSE) and avx2 (ymm, VEX), one
// generator file per backend sharing the ChaCha20 and Poly1305 emitters of
// vec.go, chacha.go, poly.go and aead.go. Run it with
//
//	cd chacha20poly1305/_asm && GOWORK=off go run .
//
// or go generate in the chacha20poly1305 package. The designs are those of
// ALGORITHMS.md §2: ChaCha20 in the row layout (one block per four
// registers, diagonals by word rotation) for short inputs and the lane
// layout (one block per 32-bit lane, four on xmm, eight on ymm) above;
// Poly1305 scalar with 64-bit limbs and MULQ.
package main

import (
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	asmgen.Main(cpufeat.ChaCha20Poly1305,
		asmgen.Target{Backend: "ssse3", Declare: ssse3},
		asmgen.Target{Backend: "avx2", Declare: avx2},
	)
}
