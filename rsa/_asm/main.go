// Command _asm generates the assembly of the rsa package's two assembly
// backends. Run it with
//
//	cd rsa/_asm && GOWORK=off go run .
//
// or go generate in the rsa package.
//
// adx (adx.go): Montgomery multiplication and squaring kernels on 64-bit
// limbs with MULX and the two carry chains of ADCX (CF) and ADOX (OF), one
// fixed-size kernel per limb count, and the constant-time gather of the
// fixed 5-bit window. The strategy is that of OpenSSL's x86_64-mont5.pl,
// read for its strategy, not ported: products and reductions one row of 64
// bits at a time, each row one pass of MULX over the operand with the row's
// high words carried on CF and the accumulator's words added on OF; almost
// Montgomery multiplication (results below R = 2^(64n), not necessarily
// below the modulus); a table of 32 entries interleaved word by word, read
// whole at every lookup.
//
// ifma (ifma.go): almost Montgomery multiplication on 52-bit digits with
// AVX-512 IFMA (VPMADD52LUQ/HUQ), single and dual kernels (both CRT halves
// in one loop), and the window-5 lookup of both halves' tables in one pass
// under opmasks.
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
