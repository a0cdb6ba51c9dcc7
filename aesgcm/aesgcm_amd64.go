//go:build amd64 && !purego

package aesgcm

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (aesgcm.go), which orders them as
// cpufeat declares them and chooses one at New. The assembly backends' key
// types are in the generated asm_glue_amd64.go.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: "vaes-avx512", Value: newKeyVAESAVX512,
		Doc: "the zmm width: 16 blocks per pass and per reduction, the last register and partial block under BZHI opmasks, VPTERNLOGD; messages under 256 bytes at ymm width, up to 32 at xmm; not the default on Intel models that lower their clock for zmm (cpufeat.PreferYMM)"},
	{Name: "vaes-avx2", Value: newKeyVAESAVX2,
		Doc: "the ymm width: 8 blocks per pass, GHASH fused into the AES rounds, tails unreduced until one reduction"},
	{Name: "aesni-avx", Value: newKeyAESNIAVX,
		Doc: "aesni's code in VEX three-operand form"},
	{Name: "aesni", Value: newKeyAESNI,
		Doc: "xmm, 8 blocks per pass, one Karatsuba multiply per AES round, 16 blocks per reduction, GHASH operands prepared on the integer side, counter⊕rk0 on the stack, one-shot short path"},
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}

// stdState is empty: no backend of this build takes the nonce itself, and
// nonced's constant nil lets the compiler drop the AEAD's branches to one,
// which the shortest Seals feel.
type stdState struct{}

func (*stdState) nonced() nonceImpl   { return nil }
func (*stdState) setNonced(nonceImpl) {}
