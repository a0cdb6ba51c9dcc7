package main

import "github.com/vgcrypto/vg/asmgen"

// aesniAVX declares the functions of backend aesni-avx (aesni plus AVX):
// the same code in VEX three-operand encodings, suffix AESNIAVX.
func aesniAVX(g *asmgen.Generator) { declareGCM(g, "AESNIAVX", true) }
