package main

import "github.com/vgcrypto/vg/asmgen"

// avx512 declares the avx512 backend: EVEX on zmm, every rotation one
// VPROLD; 16 blocks per lane-layout pass with the whole state in
// registers, four blocks per register set in the row layout of the short
// functions, Poly1305 on zmm in eight lanes, tails under opmasks.
func avx512(g *asmgen.Generator) {
	g.Package("chacha20poly1305")
	v := newVec(g)
	zp := newZPoly(g)
	s := g.Suffix()
	declareXORBlocksZ(g, v, "xorBlocks"+s)
	declarePolyBlocksZ(g, v, zp, "polyBlocks"+s)
	declareShort(g, v, s)
	declareLongZ(g, v, zp, s)
}
