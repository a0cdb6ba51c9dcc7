package main

import "github.com/vgcrypto/vg/asmgen"

// aesni declares the functions of backend aesni (SSSE3, AES-NI, PCLMULQDQ):
// legacy SSE encodings, suffix AESNI.
func aesni(g *asmgen.Generator) { declareGCM(g, "AESNI", false) }
