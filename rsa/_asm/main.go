// Command _asm generates the assembly of the rsa package's adx backend:
// Montgomery multiplication and squaring kernels on 64-bit limbs with MULX
// and the two carry chains of ADCX (CF) and ADOX (OF), one fixed-size kernel
// per limb count, and the constant-time gather of the fixed 5-bit window.
// Run it with
//
//	cd rsa/_asm && GOWORK=off go run .
//
// or go generate in the rsa package. The design is ALGORITHMS.md §3.2 (the
// MULX/ADCX/ADOX code of OpenSSL's x86_64-mont5.pl, read for its strategy,
// not ported): products and reductions one row of 64 bits at a time, each
// row one pass of MULX over the operand with the row's high words carried on
// CF and the accumulator's words added on OF; almost Montgomery
// multiplication (results below R = 2^(64n), not necessarily below the
// modulus); a table of 32 entries interleaved word by word, read whole at
// every lookup.
package main

import (
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	asmgen.Main(cpufeat.RSA,
		asmgen.Target{Backend: "adx", Declare: adx},
		asmgen.Target{Backend: "ifma", Declare: ifma},
	)
}
