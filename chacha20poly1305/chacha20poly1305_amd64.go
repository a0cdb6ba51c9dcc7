//go:build amd64 && !purego

package chacha20poly1305

import "github.com/vgcrypto/vg/cpufeat"

//go:generate env GOWORK=off go -C _asm run .

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (backend.go), which orders them as
// cpufeat declares them and chooses one at New. The assembly backends' key
// types are in asm_glue_amd64.go.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: "avx512", Value: newKeyAVX512,
		Doc: "whole-message functions, every rotation one VPROLD: up to 64 bytes a ymm row set, up to 512 the row layout at 4 blocks per zmm; above, 16-block lane passes with the state in registers, two interleaved (32 blocks) while 2 KiB remain, then Poly1305 on zmm (8 lanes of 26-bit limbs, from 384 bytes) in a pass of its own; tails under opmasks; not the default on Intel models that lower their clock for zmm (cpufeat.PreferYMM)"},
	{Name: "avx2", Value: newKeyAVX2,
		Doc: "whole-message short path; 8-block lane passes with 32 scalar Poly1305 blocks fused into the rounds, keystream XORed from registers"},
	{Name: "ssse3", Value: newKeySSSE3,
		Doc: "1-block row layout for short texts, 4-block lane layout, scalar Poly1305"},
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}
