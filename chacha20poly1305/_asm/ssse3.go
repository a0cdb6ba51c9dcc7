package main

import "github.com/vgcrypto/vg/asmgen"

// ssse3 declares the ssse3 backend: SSSE3 (PSHUFB for the 16- and 8-bit
// rotations) on top of SSE2, 4 blocks per lane-layout pass; above shortMax
// the Go drivers run over its block kernels.
func ssse3(g *asmgen.Generator) { declareBackend(g, false) }
