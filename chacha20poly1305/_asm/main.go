// Command _asm generates the assembly backends of chacha20poly1305 (RFC 8439
// ChaCha20-Poly1305): ssse3 (xmm, legacy SSE), avx2 (ymm, VEX) and avx512
// (zmm, EVEX), one generator file per backend (ssse3.go, avx2.go,
// avx512.go) over shared emitters on asmgen's vector-op layer: vec.go (the
// register width, tables, rotations and row-layout rounds), chacha.go (the
// lane layout and the block kernels of xmm and ymm), zmm.go (the 16-block
// lane layout and kernel of zmm), poly.go (scalar Poly1305), vpoly.go
// (Poly1305 on zmm), aead.go (the short whole-message functions), long.go
// (the fused long functions of avx2), zlong.go (the long functions of
// avx512), xor.go (the keystream XOR through the gather cursor) and glue.go
// (the Go key types calling each backend's functions). Run it with
//
//	cd chacha20poly1305/_asm && GOWORK=off go run .
//
// or go generate in the chacha20poly1305 package. The designs are those of
// OpenSSL's chacha-x86_64.pl: ChaCha20 in the row layout (one block per four
// registers, diagonals by word rotation) for short inputs and the lane
// layout (one block per 32-bit lane, four on xmm, eight on ymm) above;
// Poly1305 scalar with 64-bit limbs and MULQ.
package main

import (
	"fmt"
	"os"

	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	asmgen.Main(cpufeat.ChaCha20Poly1305,
		asmgen.Target{Backend: "ssse3", Declare: ssse3},
		asmgen.Target{Backend: "avx2", Declare: avx2},
		asmgen.Target{Backend: "avx512", Declare: avx512},
	)
	if err := writeGlue("../asm_glue_amd64.go"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// declareBackend declares the functions of g's backend: the two block
// kernels of the Go drivers, the short whole-message functions and, with
// long, the fused long ones.
func declareBackend(g *asmgen.Generator, long bool) {
	g.Package("chacha20poly1305")
	v := newVec(g)
	s := g.Suffix()
	declareXORBlocks(g, v, "xorBlocks"+s)
	declarePolyBlocks(g, "polyBlocks"+s)
	declareShort(g, v, s)
	if long {
		declareLong(g, v, s)
	}
}
