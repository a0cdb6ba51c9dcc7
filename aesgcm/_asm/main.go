// Command _asm generates the assembly backends of package aesgcm from one
// design at each register width: vaes-avx512 (zmm, four blocks per
// register), vaes-avx2 (ymm, two blocks per register), aesni-avx (xmm, VEX)
// and aesni (xmm, SSE encodings), each checked by asmgen against its cpufeat
// declaration (arch gates, constant-time taint, wipe present), and the Go
// glue of each (asm_glue_amd64.go): a key type whose methods call its
// backend's functions directly. Run it with go generate in package aesgcm,
// or here with GOWORK=off go run .
//
// The design follows Linux's aes-gcm-aesni-x86_64.S and
// aes-gcm-avx10-x86_64.S (written here from their description, not
// ported): byte-reflected GHASH with the key powers pre-multiplied by x^-1,
// Karatsuba products with precomputed halves, the GHASH of one batch spread
// over the AES rounds of the next, the two-fold reduction, batches of 8
// blocks on xmm and ymm and 16 on zmm, and a remainder handled with one
// keystream batch and one reduction. Each backend's init function also
// expands the AES key (SubWord as one AESENCLAST).
//
// Files: entry.go has the entry points (seal, open, gather, stream, nonce,
// init and the key expansion); gcm.go the emitter, the widths and the table
// layouts; aes.go the AES rounds and counters; ghash.go the GHASH building
// blocks; bulk.go the batch loop; tail.go the remainder and a stream's
// pieces; short.go the short-message path; masked.go the opmask tails of
// the zmm width; partial.go partial blocks and the tag; glue.go the Go glue.
package main

import (
	"fmt"
	"os"

	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

// backends are the generated backends, best first, with their widths.
var backends = []struct {
	name string
	w    width
}{
	{"vaes-avx512", zmmWidth},
	{"vaes-avx2", ymmWidth},
	{"aesni-avx", xmmWidth},
	{"aesni", xmmWidth},
}

func main() {
	var targets []asmgen.Target
	for _, b := range backends {
		w := b.w
		targets = append(targets, asmgen.Target{Backend: b.name, Declare: func(g *asmgen.Generator) { declareGCM(g, w) }})
	}
	asmgen.Main(cpufeat.AESGCM, targets...)
	if err := writeGlue("../asm_glue_amd64.go"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
