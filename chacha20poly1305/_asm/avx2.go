package main

import "github.com/vgcrypto/vg/asmgen"

// avx2 declares the avx2 backend: VEX on ymm, 8 blocks per lane-layout pass
// and two blocks per register set in the row layout.
func avx2(g *asmgen.Generator) {
	g.Package("chacha20poly1305")
	v := newVec(g)
	declareXORBlocks(g, v, "xorBlocksAVX2")
	declarePolyBlocks(g, "polyBlocksAVX2")
	declareShort(g, v, "AVX2")
	declareLong(g, v, "AVX2")
}
