// Command _asm generates the AES-NI backends of package aesgcm: aesni (SSE
// encodings) and aesni-avx (VEX encodings of the same code), each checked by
// asmgen against its cpufeat declaration (arch gates, constant-time taint,
// wipe present). Run it with go generate in package aesgcm, or here with
// GOWORK=off go run .
//
// The design is the 8-block one of Linux's aes-gcm-aesni-x86_64.S described
// in ALGORITHMS.md sections 1.1 and 1.3 (written here from that description):
// byte-reflected GHASH with the key powers H^8..H^1 pre-multiplied by x^-1,
// Karatsuba products with precomputed halves, one multiply per AES round of
// an 8-block CTR batch, the two-fold reduction around the last round, and a
// remainder under 128 bytes handled with one keystream batch and one
// reduction.
package main

import (
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	asmgen.Main(cpufeat.AESGCM,
		asmgen.Target{Backend: "aesni", Declare: aesni},
		asmgen.Target{Backend: "aesni-avx", Declare: aesniAVX},
		asmgen.Target{Backend: "vaes-avx2", Declare: vaesAVX2},
	)
}
