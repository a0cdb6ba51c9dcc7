package main

import "github.com/vgcrypto/vg/asmgen"

// ssse3 declares the ssse3 backend: SSSE3 (PSHUFB for the 16- and 8-bit
// rotations) on top of SSE2, 4 blocks per lane-layout pass.
func ssse3(g *asmgen.Generator) {
	g.Package("chacha20poly1305")
	v := newVec(g)
	declareXORBlocks(g, v, "xorBlocksSSSE3")
	declarePolyBlocks(g, "polyBlocksSSSE3")
	declareShort(g, v, "SSSE3")
}
