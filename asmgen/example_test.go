package asmgen_test

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/operand"
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

// A function that XORs a 32-byte secret key into a buffer through stack
// scratch, for the ChaCha20-Poly1305 ssse3 backend. The generated
// declaration carries the secret classification; the assembly wipes the
// scratch and the vector registers before RET.
func Example() {
	g := asmgen.New(cpufeat.MustLookup(cpufeat.ChaCha20Poly1305, "ssse3"))
	g.Package("chacha20poly1305")
	fn := g.Func("xorKey32SSSE3", "func(dst, src *byte, blocks int, key *[32]byte)",
		asmgen.Doc("xorKey32SSSE3 sets dst[i] = src[i] ^ key[i%32] for i < 32*blocks."),
		asmgen.Secret("src", "key"), asmgen.Output("dst"), asmgen.Public("blocks"),
		asmgen.Len("dst", "32*blocks"), asmgen.Len("src", "32*blocks"), asmgen.Scratch(32))

	dst, src, blocks, key := g.GP64(), g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("dst"), dst)
	g.Load(g.Param("src"), src)
	g.Load(g.Param("blocks"), blocks)
	g.Load(g.Param("key"), key)

	// Copy the key into the scratch with the shared copy loop.
	sp, n := g.GP64(), g.GP64()
	g.LEAQ(fn.Scratch(), sp)
	g.MOVQ(operand.U32(32), n)
	fn.CopyBytes(sp, key, n)

	loop, done := fn.Label("block"), fn.Label("done")
	g.Label(loop)
	g.TESTQ(blocks, blocks)
	g.JZ(operand.LabelRef(done))
	g.LEAQ(fn.Scratch(), sp)
	g.MOVQ(operand.U32(32), n)
	fn.XORBytes(dst, src, sp, n)
	g.DECQ(blocks)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
	fn.Ret()

	asm, stubs, err := g.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := string(stubs)
	fmt.Println(strings.TrimSpace(s[strings.Index(s, "// xorKey32SSSE3"):]))
	a := string(asm)
	fmt.Println(strings.TrimSpace(a[strings.Index(a, "\t// phase: wipe"):]))
	// Output:
	// // xorKey32SSSE3 sets dst[i] = src[i] ^ key[i%32] for i < 32*blocks.
	// //
	// // Secret: src, key. Public: blocks. Output: dst. Wipes its 32 bytes of stack scratch and the vector registers it wrote before returning.
	// //
	// //go:noescape
	// func xorKey32SSSE3(dst *byte, src *byte, blocks int, key *[32]byte)
	// // phase: wipe (stack scratch and vector registers)
	// 	PXOR  X0, X0
	// 	PXOR  X1, X1
	// 	PXOR  X2, X2
	// 	PXOR  X3, X3
	// 	MOVOU X0, (SP)
	// 	MOVOU X0, 16(SP)
	// 	RET
}
