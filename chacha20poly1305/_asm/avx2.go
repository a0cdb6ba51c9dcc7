package main

import "github.com/vgcrypto/vg/asmgen"

// avx2 declares the avx2 backend: VEX on ymm, 8 blocks per lane-layout pass
// and two blocks per register set in the row layout, and the fused long
// functions above shortMax.
func avx2(g *asmgen.Generator) { declareBackend(g, true) }
