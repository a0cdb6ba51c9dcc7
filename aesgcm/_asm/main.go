// Command _asm generates the assembly backends of package aesgcm from one
// design at each register width: aesni (xmm, SSE encodings), aesni-avx
// (xmm, VEX) and vaes-avx2 (ymm, two blocks per register), each checked by
// asmgen against its cpufeat declaration (arch gates, constant-time taint,
// wipe present), and the Go glue of each (asm_glue_amd64.go): a key type
// whose methods call its backend's functions directly. Run it with go
// generate in package aesgcm, or here with GOWORK=off go run .
//
// The design is the 8-block one of Linux's aes-gcm-aesni-x86_64.S and
// aes-gcm-avx10-x86_64.S described in ALGORITHMS.md sections 1.1, 1.3 and
// 1.4 (written here from that description): byte-reflected GHASH with the
// key powers pre-multiplied by x^-1, Karatsuba products with precomputed
// halves, the GHASH of one batch spread over the AES rounds of the next,
// the two-fold reduction, and a remainder under 128 bytes handled with one
// keystream batch and one reduction.
//
// Files: entry.go has the entry points (seal, open, gather, stream, nonce,
// init); gcm.go the emitter, the widths and the table layouts; aes.go the
// AES rounds and counters; ghash.go the GHASH building blocks; bulk.go the
// 8-block loop; tail.go the remainder and a stream's pieces; short.go the
// short-message path; partial.go partial blocks and the tag; glue.go the
// Go glue.
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
