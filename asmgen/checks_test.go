package asmgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

var (
	ssse3Backend  = cpufeat.MustLookup(cpufeat.ChaCha20Poly1305, "ssse3")
	avx2Backend   = cpufeat.MustLookup(cpufeat.AESGCM, "vaes-avx2")
	avx512Backend = cpufeat.MustLookup(cpufeat.AESGCM, "vaes-avx512")
	adxBackend    = cpufeat.MustLookup(cpufeat.RSA, "adx")
)

// gen generates one function with body and returns the assembly and the
// error of Build.
func gen(t *testing.T, b cpufeat.Backend, name, sig string, opts []Option, body func(g *Generator, fn *Func)) (string, error) {
	t.Helper()
	g := New(b)
	name += g.Suffix()
	fn := g.Func(name, sig, append([]Option{Doc(name + " is a test function.")}, opts...)...)
	body(g, fn)
	g.Package("alg")
	asm, _, err := g.Build()
	if err == nil {
		// Every function that builds has its vgsim trampoline.
		_, err = g.Trampolines("alg_amd64.s")
	}
	return string(asm), err
}

func mustBuild(t *testing.T, b cpufeat.Backend, name, sig string, opts []Option, body func(g *Generator, fn *Func)) string {
	t.Helper()
	asm, err := gen(t, b, name, sig, opts, body)
	require.NoError(t, err)
	return asm
}

// loadSecretWord loads the first word of the secret argument key.
func loadSecretWord(g *Generator) reg.GPVirtual {
	p, k := g.GP64(), g.GP64()
	g.Load(g.Param("key"), p)
	g.MOVQ(operand.Mem{Base: p}, k)
	return k
}

const keyOutSig = "func(key *uint64, out *uint64)"

var keyOutOpts = []Option{Secret("key"), Output("out"), Len("key", "1"), Len("out", "1")}

func storeOut(g *Generator, v reg.Register) {
	o := g.GP64()
	g.Load(g.Param("out"), o)
	g.MOVQ(v, operand.Mem{Base: o})
}

func TestBranchOnSecretFails(t *testing.T) {
	_, err := gen(t, ssse3Backend, "branchOnSecret", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		g.CMPQ(k, operand.U8(0))
		g.JEQ(operand.LabelRef("skip"))
		storeOut(g, k)
		g.Label("skip")
		fn.Ret()
	})
	require.Error(t, err)
	msg := err.Error()
	assert.Equal(t, `asmgen: branchOnSecretSSSE3: instruction 3 "JEQ skip": conditional branch on secret flags; secret because:
	"CMPQ AX, $0x00" (instruction 2) reads AX
	"MOVQ (AX), AX" (instruction 1) loads through AX, which points to secret memory
	"MOVQ key+0(FP), AX" (instruction 0) loads argument key, which points to secret memory (declared Secret)`, msg)
}

func TestSelectOnSecretPasses(t *testing.T) {
	// The same selection written with CMOV: flags from a secret may feed
	// CMOVcc and SETcc.
	mustBuild(t, ssse3Backend, "selectOnSecret", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		z, s := g.GP64(), g.GP64()
		g.XORQ(z, z)
		g.CMPQ(k, operand.U8(0))
		g.CMOVQNE(k, z)
		g.SETEQ(s.As8())
		g.ADDQ(s, z)
		storeOut(g, z)
		fn.Ret()
	})
}

func TestLoopOnPublicCountPasses(t *testing.T) {
	// Flags written from secrets by XOR and then by DECQ of a public
	// counter: the branch reads only the counter's flags.
	mustBuild(t, ssse3Backend, "loopOnPublic", "func(key *uint64, out *uint64, n int)", []Option{Secret("key"), Output("out"), Public("n"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		n, acc := g.GP64(), g.GP64()
		g.Load(g.Param("n"), n)
		g.XORQ(acc, acc)
		g.Label("loop")
		g.XORQ(k, acc)
		g.ADDQ(k, acc)
		g.DECQ(n)
		g.JNZ(operand.LabelRef("loop"))
		storeOut(g, acc)
		fn.Ret()
	})
}

func TestCarryBranchAfterSecretAddFails(t *testing.T) {
	// INCQ keeps the carry of a secret ADDQ: JCS must be rejected.
	_, err := gen(t, ssse3Backend, "carryOnSecret", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		c := g.GP64()
		g.XORQ(c, c)
		g.ADDQ(k, k)
		g.INCQ(c)
		g.JCS(operand.LabelRef("skip"))
		storeOut(g, c)
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `"JCS skip": conditional branch on secret flags (carry)`)
}

func TestSecretIndexFails(t *testing.T) {
	_, err := gen(t, ssse3Backend, "secretIndex", "func(key *uint64, table *[256]byte, out *uint64)", []Option{Secret("key"), Public("table"), Output("out"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		tab, v := g.GP64(), g.GP64()
		g.Load(g.Param("table"), tab)
		g.ANDQ(operand.U32(255), k)
		g.MOVBQZX(operand.Mem{Base: tab, Index: k, Scale: 1}, v)
		storeOut(g, v)
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `secretIndexSSSE3: instruction 4 "MOVBQZX (CX)(AX*1), AX": memory address (CX)(AX*1) uses secret AX; secret because:`)
	assert.Contains(t, err.Error(), `"ANDQ $0x000000ff, AX" (instruction 3) reads AX`)
}

func TestFullTableScanPasses(t *testing.T) {
	// The constant-time lookup: read every entry at a public index and keep
	// the wanted one with a mask.
	mustBuild(t, ssse3Backend, "tableScan", "func(key *uint64, table *[256]byte, out *uint64)", []Option{Secret("key"), Public("table"), Output("out"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		tab, i, v, acc, m := g.GP64(), g.GP64(), g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("table"), tab)
		g.ANDQ(operand.U32(255), k)
		g.XORQ(i, i)
		g.XORQ(acc, acc)
		g.Label("scan")
		g.MOVBQZX(operand.Mem{Base: tab, Index: i, Scale: 1}, v)
		g.XORQ(m, m)
		g.CMPQ(i, k)
		g.CMOVQEQ(v, m)
		g.ORQ(m, acc)
		g.INCQ(i)
		g.CMPQ(i, operand.U32(256))
		g.JB(operand.LabelRef("scan"))
		storeOut(g, acc)
		fn.Ret()
	})
}

func TestDivideSecretFails(t *testing.T) {
	_, err := gen(t, ssse3Backend, "divideSecret", "func(key *uint64, out *uint64, d uint64)", []Option{Secret("key"), Output("out"), Public("d"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		d := g.GP64()
		g.Load(g.Param("d"), d)
		g.MOVQ(k, reg.RAX)
		g.XORQ(reg.RDX, reg.RDX)
		g.DIVQ(d)
		storeOut(g, reg.RAX)
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `divideSecretSSSE3: instruction 4 "DIVQ CX": variable-time instruction DIVQ on a secret; secret because:`)
	assert.Contains(t, err.Error(), `reads AX`)
}

func TestDividePublicPasses(t *testing.T) {
	mustBuild(t, ssse3Backend, "dividePublic", "func(key *uint64, out *uint64, n uint64, d uint64)", []Option{Secret("key"), Output("out"), Public("n", "d"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		d := g.GP64()
		g.Load(g.Param("d"), d)
		g.Load(g.Param("n"), reg.RAX)
		g.XORQ(reg.RDX, reg.RDX)
		g.DIVQ(d)
		g.ADDQ(k, reg.RAX)
		storeOut(g, reg.RAX)
		fn.Ret()
	})
}

func TestSecretScalarArgument(t *testing.T) {
	// A scalar declared Secret is secret itself.
	_, err := gen(t, ssse3Backend, "scalarSecret", "func(k uint64, out *uint64)", []Option{Secret("k"), Output("out"), Len("out", "1")}, func(g *Generator, fn *Func) {
		k := g.GP64()
		g.Load(g.Param("k"), k)
		g.TESTQ(k, k)
		g.JNZ(operand.LabelRef("skip"))
		storeOut(g, k)
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `loads argument k, which declared Secret`)
}

func TestStackSlotTaint(t *testing.T) {
	// A secret stored to scratch and loaded back is still secret...
	_, err := gen(t, ssse3Backend, "stackSecret", keyOutSig, append([]Option{Scratch(32)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		g.MOVQ(k, fn.Scratch().Offset(8))
		v := g.GP64()
		g.MOVQ(fn.Scratch().Offset(8), v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		storeOut(g, v)
		g.Label("skip")
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `loads stack 8(SP)`)
	assert.Contains(t, err.Error(), `stores it to 8(SP)`)

	// ...while a public pointer spilled next to it is not, and a slot
	// overwritten with public data is public again.
	mustBuild(t, ssse3Backend, "stackPublic", keyOutSig, append([]Option{Scratch(32)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		g.MOVQ(k, fn.Scratch())
		o := g.GP64()
		g.Load(g.Param("out"), o)
		g.MOVQ(o, fn.Scratch().Offset(8))
		g.MOVQ(k, fn.Scratch().Offset(16))
		g.MOVQ(o, fn.Scratch().Offset(16))
		p, q := g.GP64(), g.GP64()
		g.MOVQ(fn.Scratch().Offset(8), p)
		g.MOVQ(fn.Scratch().Offset(16), q)
		g.CMPQ(p, q)
		g.JNE(operand.LabelRef("skip"))
		g.MOVQ(k, operand.Mem{Base: p})
		g.Label("skip")
		fn.Ret()
	})
}

func TestSecretSlicesDescriptors(t *testing.T) {
	// The gather: descriptors and lengths are public (the loop branches on
	// them); the bytes they point to are secret.
	mustBuild(t, ssse3Backend, "gather", "func(dst []byte, srcs [][]byte)", []Option{SecretSlices("srcs"), Secret("dst")}, func(g *Generator, fn *Func) {
		d, descs, n := g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("dst").Base(), d)
		g.Load(g.Param("srcs").Base(), descs)
		g.Load(g.Param("srcs").Len(), n)
		fn.GatherCopy(d, descs, n)
		fn.Ret()
	})
	_, err := gen(t, ssse3Backend, "gatherBranch", "func(dst []byte, srcs [][]byte)", []Option{SecretSlices("srcs"), Secret("dst")}, func(g *Generator, fn *Func) {
		descs, p, v := g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("srcs").Base(), descs)
		g.MOVQ(operand.Mem{Base: descs}, p)
		g.MOVBQZX(operand.Mem{Base: p}, v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"MOVBQZX (AX), AX" (instruction 2) loads through AX, which points to secret memory`)
	assert.Contains(t, err.Error(), `"MOVQ (AX), AX" (instruction 1) loads a pointer through AX, which points to slice headers of secret memory`)
	assert.Contains(t, err.Error(), `loads argument srcs, which points to slice headers of secret memory (declared SecretSlices)`)
}

func TestAVX512RegisterInAVX2BackendFails(t *testing.T) {
	_, err := gen(t, avx2Backend, "highRegister", "func(key *[32]byte, out *[32]byte)", []Option{Secret("key"), Output("out")}, func(g *Generator, fn *Func) {
		p, o := g.GP64(), g.GP64()
		g.Load(g.Param("key"), p)
		g.Load(g.Param("out"), o)
		g.VMOVDQU(operand.Mem{Base: p}, reg.Y1)
		g.VAESENC(reg.Y1, reg.Y1, reg.Y16) // avo reports only [VAES]
		g.VMOVDQU(reg.Y16, operand.Mem{Base: o})
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `highRegisterVAESAVX2: instruction 3 "VAESENC Y1, Y1, Y16" uses register Y16, which needs AVX512F+AVX512VL, not in backend aesgcm/vaes-avx2`)

	// The same with Y2 passes.
	mustBuild(t, avx2Backend, "lowRegister", "func(key *[32]byte, out *[32]byte)", []Option{Secret("key"), Output("out")}, func(g *Generator, fn *Func) {
		p, o := g.GP64(), g.GP64()
		g.Load(g.Param("key"), p)
		g.Load(g.Param("out"), o)
		g.VMOVDQU(operand.Mem{Base: p}, reg.Y1)
		g.VAESENC(reg.Y1, reg.Y1, reg.Y2)
		g.VMOVDQU(reg.Y2, operand.Mem{Base: o})
		fn.Ret()
	})
}

func TestISAOutsideBackendFails(t *testing.T) {
	_, err := gen(t, ssse3Backend, "avxInSSSE3", "func(key *[16]byte, out *[16]byte)", []Option{Secret("key"), Output("out")}, func(g *Generator, fn *Func) {
		p, o := g.GP64(), g.GP64()
		g.Load(g.Param("key"), p)
		g.Load(g.Param("out"), o)
		x := g.XMM()
		g.MOVOU(operand.Mem{Base: p}, x)
		g.VPXOR(x, x, x)
		g.MOVOU(x, operand.Mem{Base: o})
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `avxInSSSE3SSSE3: instruction 3 "VPXOR X0, X0, X0" needs ISA AVX, not in backend chacha20poly1305/ssse3 (ssse3)`)

	// MULX and ADCX in the adx backend are fine; in ssse3 they are not.
	body := func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		lo, hi := g.GP64(), g.GP64()
		g.MOVQ(k, reg.RDX)
		g.MULXQ(k, lo, hi)
		g.ADCXQ(lo, hi)
		g.ADOXQ(lo, hi)
		storeOut(g, hi)
		fn.Ret()
	}
	mustBuild(t, adxBackend, "mulx", keyOutSig, keyOutOpts, body)
	_, err = gen(t, ssse3Backend, "mulx", keyOutSig, keyOutOpts, body)
	require.ErrorContains(t, err, "needs ISA BMI2")
	require.ErrorContains(t, err, "needs ISA ADX")
}

func TestReturnWithoutWipeFails(t *testing.T) {
	_, err := gen(t, ssse3Backend, "noWipe", "func(key *[16]byte, out *[16]byte, n int)", []Option{Secret("key"), Output("out"), Public("n"), Scratch(16)}, func(g *Generator, fn *Func) {
		p, o, n := g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("key"), p)
		g.Load(g.Param("out"), o)
		g.Load(g.Param("n"), n)
		x := g.XMM()
		g.MOVOU(operand.Mem{Base: p}, x)
		g.MOVOU(x, fn.Scratch())
		g.TESTQ(n, n)
		g.JZ(operand.LabelRef("early"))
		g.MOVOU(x, operand.Mem{Base: o})
		fn.Ret()
		g.Label("early")
		g.RET() // a bare RET skips the wipe
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `noWipeSSSE3: instruction 11 "RET" returns without wiping: vector registers X0 still hold written values; stack bytes 0-15(SP) not wiped`)
	assert.Equal(t, 1, strings.Count(err.Error(), "returns without wiping"), "the path through Func.Ret is wiped")
}

func TestWipeEmitted(t *testing.T) {
	body := func(g *Generator, fn *Func) {
		p := g.GP64()
		g.Load(g.Param("key"), p)
		x := g.XMM()
		g.MOVOU(operand.Mem{Base: p}, x)
		for off := 0; off < 96; off += 16 {
			g.MOVOU(x, fn.Scratch().Offset(off))
		}
		fn.Ret()
	}
	opts := []Option{Secret("key"), Scratch(96)}
	asm := mustBuild(t, ssse3Backend, "wipe16", "func(key *[16]byte)", opts, body)
	assert.Equal(t, 6+6, strings.Count(asm, "MOVOU X0, "), "16-byte stores without AVX")
	assert.Contains(t, asm, "PXOR  X0, X0\n")
	assert.NotContains(t, asm, "VZEROUPPER")

	asm = mustBuild(t, avx2Backend, "wipe32", "func(key *[16]byte)", opts, body)
	assert.Contains(t, asm, "VPXOR   X0, X0, X0\n\tVMOVDQU Y0, (SP)\n\tVMOVDQU Y0, 32(SP)\n\tVMOVDQU Y0, 64(SP)\n\tVZEROUPPER\n\tRET")

	asm = mustBuild(t, avx512Backend, "wipe64", "func(key *[16]byte)", opts, func(g *Generator, fn *Func) {
		body(g, fn)
	})
	assert.Contains(t, asm, "VMOVDQU64 Z0, (SP)\n\tVMOVDQU   Y0, 64(SP)\n")

	// On AVX-512: zmm16-31 and the opmask registers written are zeroed too.
	asm = mustBuild(t, avx512Backend, "wipeHigh", "func(key *[64]byte, out *[64]byte)", []Option{Secret("key"), Output("out")}, func(g *Generator, fn *Func) {
		p, o := g.GP64(), g.GP64()
		g.Load(g.Param("key"), p)
		g.Load(g.Param("out"), o)
		g.VMOVDQU64(operand.Mem{Base: p}, reg.Z17)
		g.KXNORW(reg.K1, reg.K1, reg.K2)
		g.VMOVDQU64(reg.Z17, reg.K2, operand.Mem{Base: o})
		fn.Ret()
	})
	assert.Contains(t, asm, "VPXORQ Z17, Z17, Z17")
	assert.Contains(t, asm, "KXORW  K2, K2, K2")
}

func TestNoSecretsOptsOut(t *testing.T) {
	asm := mustBuild(t, ssse3Backend, "public", "func(dst *[16]byte, src *[16]byte)", []Option{NoSecrets()}, func(g *Generator, fn *Func) {
		d, s := g.GP64(), g.GP64()
		g.Load(g.Param("dst"), d)
		g.Load(g.Param("src"), s)
		x := g.XMM()
		g.MOVOU(operand.Mem{Base: s}, x)
		g.MOVOU(x, operand.Mem{Base: d})
		fn.Ret()
	})
	assert.NotContains(t, asm, "PXOR")
	assert.NotContains(t, asm, wipeMarker)
}

func TestDeclarationErrors(t *testing.T) {
	nop := func(g *Generator, fn *Func) { fn.Ret() }
	_, err := gen(t, ssse3Backend, "unclassified", "func(a *byte, b *byte)", []Option{Secret("a"), Len("a", "1"), Len("b", "1")}, nop)
	require.ErrorContains(t, err, "pointer argument b is neither Secret, SecretSlices, Output nor Public")
	_, err = gen(t, ssse3Backend, "noSecret", "func(a *byte)", []Option{Public("a"), Len("a", "1")}, nop)
	require.ErrorContains(t, err, "declare them, or NoSecrets")
	_, err = gen(t, ssse3Backend, "twice", "func(a *byte)", []Option{Public("a"), Secret("a"), Len("a", "1")}, nop)
	require.ErrorContains(t, err, "declared both")
	_, err = gen(t, ssse3Backend, "unknownName", "func(a *byte)", []Option{Secret("b"), Len("a", "1")}, nop)
	require.ErrorContains(t, err, "b names no argument")

	g := New(ssse3Backend)
	fn := g.Func("noDocSSSE3", "func(a *byte)", Secret("a"), Len("a", "1"))
	fn.Ret()
	_, _, err = g.Build()
	require.ErrorContains(t, err, "noDocSSSE3: missing Doc")
}

func TestUnknownOpcodeFails(t *testing.T) {
	_, err := gen(t, ssse3Backend, "popcnt", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		g.POPCNTQ(k, k)
		storeOut(g, k)
		fn.Ret()
	})
	require.ErrorContains(t, err, `popcntSSSE3: opcode not in asmgen's constant-time table (add it to optable.go with its flags and timing): instruction 2 "POPCNTQ AX, AX"`)
}

func TestDeterministic(t *testing.T) {
	gen := func() (string, string) {
		g := New(avx2Backend)
		g.Package("example")
		fn := g.Func("gatherVAESAVX2", "func(dst []byte, srcs [][]byte)", SecretSlices("srcs"), Secret("dst"), Scratch(64), Doc("gather copies."))
		d, descs, n := g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("dst").Base(), d)
		g.Load(g.Param("srcs").Base(), descs)
		g.Load(g.Param("srcs").Len(), n)
		fn.GatherCopy(d, descs, n)
		fn.Ret()
		asm, stubs, err := g.Build()
		require.NoError(t, err)
		return string(asm), string(stubs)
	}
	a1, s1 := gen()
	for range 5 {
		a2, s2 := gen()
		require.Equal(t, a1, a2)
		require.Equal(t, s1, s2)
	}
}

func TestAllowedISAs(t *testing.T) {
	m := AllowedISAs(cpufeat.MustLookup(cpufeat.AESGCM, "aesni").Requires)
	for _, isa := range []string{"SSE", "SSE2", "CMOV", "SSE3", "SSSE3", "AES", "PCLMULQDQ"} {
		assert.True(t, m[isa], isa)
	}
	for _, isa := range []string{"AVX", "AVX2", "VAES", "AVX512F", "SSE4.1", "BMI2"} {
		assert.False(t, m[isa], isa)
	}
	for _, f := range cpufeat.AllFeatures() {
		if f.AMD64() {
			assert.NotEmpty(t, FeatureISAs(f), "feature %s has no avo ISA", f)
		} else {
			assert.Empty(t, FeatureISAs(f), "feature %s is not amd64's", f)
		}
	}
	assert.Equal(t, 16, WipeStoreWidth(ssse3Backend.Requires))
	assert.Equal(t, 32, WipeStoreWidth(avx2Backend.Requires))
	assert.Equal(t, 64, WipeStoreWidth(avx512Backend.Requires))
}

func TestTableIsPublic(t *testing.T) {
	// A public table indexed by a public counter is fine; its entries may
	// steer branches.
	asm := mustBuild(t, ssse3Backend, "table", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		tab := g.Table("masks", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
		k := loadSecretWord(g)
		b, v := g.GP64(), g.GP64()
		g.LEAQ(tab, b)
		g.MOVQ(operand.Mem{Base: b}, v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.XORQ(v, k)
		storeOut(g, k)
		g.Label("skip")
		fn.Ret()
	})
	assert.Contains(t, asm, "DATA masks<>+0(SB)/8, $0x0807060504030201\nDATA masks<>+8(SB)/1, $0x09\nGLOBL masks<>(SB), RODATA|NOPTR, $9")
}

func TestStackPointerRegisterTaint(t *testing.T) {
	// A secret stored into the scratch through a register holding its
	// address, then loaded from the scratch, is secret.
	_, err := gen(t, ssse3Backend, "viaStackPtr", keyOutSig, append([]Option{Scratch(16)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		p, v := g.GP64(), g.GP64()
		g.LEAQ(fn.Scratch(), p)
		g.MOVQ(k, operand.Mem{Base: p, Disp: 8})
		g.MOVQ(fn.Scratch().Offset(8), v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		storeOut(g, v)
		g.Label("skip")
		fn.Ret()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"JZ skip": conditional branch on secret flags`)
	assert.Contains(t, err.Error(), `"MOVQ AX, 8(CX)" (instruction 3) stores it to 8(CX)`)
}

func TestWipeCheckSeesStoresThroughRegisters(t *testing.T) {
	// Written through a register holding a stack address, and returned with
	// a bare RET: the wipe check must flag the stack.
	_, err := gen(t, ssse3Backend, "dirtyViaReg", keyOutSig, append([]Option{Scratch(16)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k := loadSecretWord(g)
		p := g.GP64()
		g.LEAQ(fn.Scratch(), p)
		g.ADDQ(operand.U8(8), p)
		g.MOVQ(k, operand.Mem{Base: p})
		g.RET()
	})
	require.ErrorContains(t, err, `returns without wiping: stack bytes 0-15(SP) not wiped`)
}

func TestEveryPathWipedPasses(t *testing.T) {
	// TestReturnWithoutWipeFails's function, with Func.Ret on both paths,
	// and phase landmarks, each wipe one of them.
	asm := mustBuild(t, ssse3Backend, "wipedTwice", "func(key *[16]byte, out *[16]byte, n int)", []Option{Secret("key"), Output("out"), Public("n"), Scratch(16)}, func(g *Generator, fn *Func) {
		p, o, n := g.GP64(), g.GP64(), g.GP64()
		fn.Phase("key setup")
		g.Load(g.Param("key"), p)
		g.Load(g.Param("out"), o)
		g.Load(g.Param("n"), n)
		x := g.XMM()
		g.MOVOU(operand.Mem{Base: p}, x)
		g.MOVOU(x, fn.Scratch())
		fn.Phase("main loop: %d bytes a pass", 16)
		g.TESTQ(n, n)
		g.JZ(operand.LabelRef("early"))
		g.MOVOU(x, operand.Mem{Base: o})
		fn.Ret()
		g.Label("early")
		fn.Ret()
	})
	assert.Equal(t, 2, strings.Count(asm, wipeMarker))
	var phases []string
	for _, l := range strings.Split(asm, "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), "// phase: "); ok {
			phases = append(phases, s)
		}
	}
	assert.Equal(t, []string{"key setup", "main loop: 16 bytes a pass", "wipe (stack scratch and vector registers)", "wipe (stack scratch and vector registers)"}, phases)
}

func TestRunTargets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "alg")
	require.NoError(t, os.Mkdir(dir, 0o755))
	declare := func(g *Generator) {
		fn := g.Func("nop"+g.Suffix(), "func(k *byte)", Secret("k"), Len("k", "1"), Doc("nop does nothing."))
		fn.Ret()
	}
	backends := cpufeat.Backends(cpufeat.ChaCha20Poly1305)
	targets := []Target{
		{Backend: "ssse3", Dir: dir, Declare: declare},
		{Backend: "avx2", Dir: dir, Declare: declare},
	}
	require.NoError(t, runTargets(backends, targets, "", "", "", ""))
	for _, f := range []string{"asm_ssse3_amd64.s", "asm_ssse3_amd64.go", "asm_ssse3_vgsim_amd64.go", "asm_avx2_amd64.s", "asm_avx2_amd64.go"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		assert.Contains(t, string(b), "nop")
	}
	stubs, err := os.ReadFile(filepath.Join(dir, "asm_avx2_amd64.go"))
	require.NoError(t, err)
	assert.Contains(t, string(stubs), "package alg\n")
	assert.Contains(t, string(stubs), "func nopAVX2(")

	require.NoError(t, runTargets(backends, targets, "ssse3", dir+"/other.s", dir+"/other.go", "p"))
	_, err = os.Stat(filepath.Join(dir, "other.s"))
	require.NoError(t, err)

	var usage usageError
	require.ErrorAs(t, runTargets(backends, targets, "nope", "", "", ""), &usage)
	require.ErrorAs(t, runTargets(backends, targets, "", "x.s", "", ""), &usage)
	bad := []Target{{Backend: "ifma", Dir: dir, Declare: declare}}
	require.ErrorAs(t, runTargets(backends, bad, "", "", "", ""), &usage)

	// A function whose name lacks the backend's suffix is refused.
	unnamed := []Target{{Backend: "ssse3", Dir: dir, Declare: func(g *Generator) {
		g.Func("nop", "func(k *byte)", Secret("k"), Len("k", "1"), Doc("nop does nothing.")).Ret()
	}}}
	require.ErrorContains(t, runTargets(backends, unnamed, "", "", "", ""), "nop: the name does not end with the backend's suffix SSSE3")
}

func TestPhaseErrors(t *testing.T) {
	// A phase is one line of the function being generated.
	g := New(ssse3Backend)
	f := g.Func("fSSSE3", "func(k *[16]byte)", Doc("f is a test function."), Secret("k"))
	f.Phase("two\nlines")
	f.Phase("")
	g.Func("gSSSE3", "func(k *[16]byte)", Doc("g is a test function."), Secret("k"))
	f.Phase("late")
	_, _, err := g.Build()
	require.ErrorContains(t, err, `asmgen: fSSSE3: Phase "two\nlines": the text must be one non-empty line`)
	require.ErrorContains(t, err, `asmgen: fSSSE3: Phase "": the text must be one non-empty line`)
	require.ErrorContains(t, err, "asmgen: fSSSE3: Phase called while another function is being generated")
}

// alignScratch returns a register holding fn's scratch address rounded up
// to 32 bytes, as generators align it.
func alignScratch(g *Generator, fn *Func) reg.GPVirtual {
	p := g.GP64()
	g.LEAQ(fn.Scratch(), p)
	g.ADDQ(operand.U8(31), p)
	g.ANDQ(operand.I8(-32), p)
	return p
}

func TestSpillSlots(t *testing.T) {
	sig := "func(key *[32]byte, out *[32]byte, n int)"
	opts := []Option{Secret("key"), Output("out"), Public("n"), Scratch(64), Spills("count", "dst")}
	// Secrets go to the scratch through the aligned pointer; a public count
	// and a pointer parked in spill slots stay what they were: the loop
	// branches on the count, and stores through the pointer.
	asm := mustBuild(t, ssse3Backend, "spillPublic", sig, opts, func(g *Generator, fn *Func) {
		k, o, n, sc := g.GP64(), g.GP64(), g.GP64(), alignScratch(g, fn)
		g.Load(g.Param("key"), k)
		g.Load(g.Param("out"), o)
		g.Load(g.Param("n"), n)
		g.MOVQ(n, fn.Spill("count"))
		g.MOVQ(o, fn.Spill("dst"))
		x := g.XMM()
		g.MOVOU(operand.Mem{Base: k}, x)
		g.MOVOU(x, operand.Mem{Base: sc})
		g.Label("loop")
		g.DECQ(fn.Spill("count"))
		g.JZ(operand.LabelRef("done"))
		c, d := g.GP64(), g.GP64()
		g.MOVQ(fn.Spill("count"), c)
		g.MOVQ(fn.Spill("dst"), d)
		g.MOVOU(operand.Mem{Base: sc}, x)
		g.MOVOU(x, operand.Mem{Base: d, Index: c, Scale: 1})
		g.JMP(operand.LabelRef("loop"))
		g.Label("done")
		fn.Ret()
	})
	// The slots follow the 64 bytes of scratch and are not wiped.
	assert.Contains(t, asm, "MOVQ  DX, 64(SP)\n\tMOVQ  CX, 72(SP)\n")
	assert.Contains(t, asm, "MOVOU X0, 48(SP)\n\tRET")
	assert.NotContains(t, asm, "X0, 64(SP)")
	_, stubs, err := func() ([]byte, []byte, error) {
		g := New(ssse3Backend)
		g.Func("fSSSE3", sig, append([]Option{Doc("f is a test function.")}, opts...)...).Ret()
		return g.Build()
	}()
	require.NoError(t, err)
	assert.Contains(t, string(stubs), "Wipes its 64 bytes of stack scratch and the vector registers it wrote before returning. Parks public values in 2 stack slots, which hold no secret and are not wiped.")

	// A pointer into secret memory parked in a slot still points to
	// secret memory.
	_, err = gen(t, ssse3Backend, "spillSecretPtr", sig, opts, func(g *Generator, fn *Func) {
		k, v := g.GP64(), g.GP64()
		g.Load(g.Param("key"), k)
		g.MOVQ(k, fn.Spill("dst"))
		g.MOVQ(fn.Spill("dst"), k)
		g.MOVQ(operand.Mem{Base: k}, v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `"JZ skip": conditional branch on secret flags`)
	require.ErrorContains(t, err, `loads stack 72(SP)`)

	// A secret may not go into a slot: directly, or through a pointer that
	// may reach it.
	_, err = gen(t, ssse3Backend, "spillSecret", sig, opts, func(g *Generator, fn *Func) {
		k, v := g.GP64(), g.GP64()
		g.Load(g.Param("key"), k)
		g.MOVQ(operand.Mem{Base: k}, v)
		g.MOVQ(v, fn.Spill("count"))
		fn.Ret()
	})
	require.ErrorContains(t, err, `instruction 2 "MOVQ AX, 64(SP)": stores a secret into spill slot count (64(SP)), which is not wiped; secret because:`)
	_, err = gen(t, ssse3Backend, "spillSecretVia", sig, opts, func(g *Generator, fn *Func) {
		k, v, p := g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("key"), k)
		g.MOVQ(operand.Mem{Base: k}, v)
		g.LEAQ(fn.Spill("dst"), p)
		g.MOVQ(v, operand.Mem{Base: p})
		fn.Ret()
	})
	require.ErrorContains(t, err, "stores a secret into spill slot dst (72(SP)), which is not wiped")
	require.ErrorContains(t, err, "stores a secret into spill slot count (64(SP)), which is not wiped")

	// Declaration errors.
	g := New(ssse3Backend)
	fn := g.Func("fSSSE3", sig, Doc("f is a test function."), Secret("key"), Output("out"), Spills("a", "a"))
	assert.PanicsWithValue(t, "asmgen: fSSSE3 has no spill slot b (declare it with Spills)", func() { fn.Spill("b") })
	fn.Ret()
	_, _, err = g.Build()
	require.ErrorContains(t, err, "asmgen: fSSSE3: Spills a declared twice")
}

func TestScratchPointerStaysInScratch(t *testing.T) {
	// Before spill slots, a store through the aligned scratch pointer
	// counted for every byte of the frame; now it counts for the scratch
	// only, while the scratch itself stays secret.
	_, err := gen(t, ssse3Backend, "scratchSecret", keyOutSig, append([]Option{Scratch(64)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k, sc, v := loadSecretWord(g), alignScratch(g, fn), g.GP64()
		g.MOVQ(k, operand.Mem{Base: sc, Disp: 8})
		g.MOVQ(fn.Scratch().Offset(40), v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `loads stack 40(SP)`)
	require.ErrorContains(t, err, `"MOVQ AX, 8(CX)" (instruction 5) stores it to 8(CX)`)
}

// The flows below are the blind spots a mutation campaign found in the
// checks: each is a failing-on-purpose test beside the version
// that must pass.

func TestBelowSPTaint(t *testing.T) {
	// A secret stored 16 bytes below SP, loaded back and branched on.
	_, err := gen(t, ssse3Backend, "belowSP", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		k, v := loadSecretWord(g), g.GP64()
		g.MOVQ(k, operand.Mem{Base: reg.StackPointer, Disp: -16})
		g.MOVQ(operand.Mem{Base: reg.StackPointer, Disp: -16}, v)
		g.MOVQ(operand.U32(0), operand.Mem{Base: reg.StackPointer, Disp: -16})
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `"JZ skip": conditional branch on secret flags; secret because:`)
	require.ErrorContains(t, err, `loads stack -16(SP)`)
	require.ErrorContains(t, err, `"MOVQ AX, -16(SP)" (instruction 2) stores it to -16(SP)`)

	// The same round trip of a public count, zeroed after use, passes.
	mustBuild(t, ssse3Backend, "belowSPPublic", "func(key *uint64, out *uint64, n int)", []Option{Secret("key"), Output("out"), Public("n"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		n, v := g.GP64(), g.GP64()
		g.Load(g.Param("n"), n)
		g.MOVQ(n, operand.Mem{Base: reg.StackPointer, Disp: -16})
		g.MOVQ(operand.Mem{Base: reg.StackPointer, Disp: -16}, v)
		g.MOVQ(operand.U32(0), operand.Mem{Base: reg.StackPointer, Disp: -16})
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})

	// A secret left below SP is not wiped by Func.Ret: the wipe check
	// sees it.
	_, err = gen(t, ssse3Backend, "belowSPLeft", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		g.MOVQ(loadSecretWord(g), operand.Mem{Base: reg.StackPointer, Disp: -16})
		fn.Ret()
	})
	require.ErrorContains(t, err, `returns without wiping: stack bytes -16..-9(SP) not wiped`)
}

func TestSPCopyTaint(t *testing.T) {
	// Through a general-register copy of SP: stored at 8(R), loaded back
	// from 8(SP), branched on.
	_, err := gen(t, ssse3Backend, "spCopy", keyOutSig, append([]Option{Scratch(16)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k, p, v := loadSecretWord(g), g.GP64(), g.GP64()
		g.MOVQ(reg.RSP, p)
		g.MOVQ(k, operand.Mem{Base: p, Disp: 8})
		g.MOVQ(fn.Scratch().Offset(8), v)
		g.CMPQ(v, operand.U8(7))
		g.JB(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `"JB skip": conditional branch on secret flags (carry)`)
	require.ErrorContains(t, err, `"MOVQ 8(SP), AX" (instruction 4) loads stack 8(SP)`)
	require.ErrorContains(t, err, `"MOVQ AX, 8(CX)" (instruction 3) stores it to 8(CX), which points anywhere on the stack (a copy of SP, or an address outside the frame)`)
	// The copy may reach anywhere on the stack: the argument slots too.
	require.ErrorContains(t, err, `instruction 3 "MOVQ AX, 8(CX)": stores a secret into the argument slot of out (8-15(FP)), which is public input`)

	// Left there, the wipe check sees the bytes the copy may reach: the
	// frame and below SP.
	_, err = gen(t, ssse3Backend, "spCopyLeft", keyOutSig, append([]Option{Scratch(16)}, keyOutOpts...), func(g *Generator, fn *Func) {
		k, p := loadSecretWord(g), g.GP64()
		g.MOVQ(reg.RSP, p)
		g.MOVQ(k, operand.Mem{Base: p, Disp: -8})
		fn.Ret()
	})
	require.ErrorContains(t, err, `returns without wiping: stack bytes -256..-1(SP) not wiped`)
	// LEAQ below SP is such a copy too.
	_, err = gen(t, ssse3Backend, "leaBelowSP", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		k, p, v := loadSecretWord(g), g.GP64(), g.GP64()
		g.LEAQ(operand.Mem{Base: reg.StackPointer, Disp: -32}, p)
		g.MOVQ(k, operand.Mem{Base: p})
		g.MOVQ(operand.Mem{Base: reg.StackPointer, Disp: -32}, v)
		g.MOVQ(operand.U32(0), operand.Mem{Base: reg.StackPointer, Disp: -32})
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `"MOVQ AX, (CX)" (instruction 3) stores it to (CX), which points anywhere on the stack`)
	require.ErrorContains(t, err, `"JZ skip": conditional branch on secret flags`)

	// Zeros stored through the copy leave nothing to wipe, and what is
	// loaded back is public.
	mustBuild(t, ssse3Backend, "spCopyZero", keyOutSig, append([]Option{Scratch(16)}, keyOutOpts...), func(g *Generator, fn *Func) {
		p, z, v := g.GP64(), g.GP64(), g.GP64()
		g.MOVQ(reg.RSP, p)
		g.XORQ(z, z)
		g.MOVQ(z, operand.Mem{Base: p, Disp: 8})
		g.MOVQ(fn.Scratch().Offset(8), v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})

	// Moving SP itself is refused.
	_, err = gen(t, ssse3Backend, "moveSP", keyOutSig, keyOutOpts, func(g *Generator, fn *Func) {
		g.SUBQ(operand.U8(16), reg.RSP)
		g.ADDQ(operand.U8(16), reg.RSP)
		fn.Ret()
	})
	require.ErrorContains(t, err, `instruction 0 "SUBQ $0x10, SP": writes SP: the checks address the stack from a fixed SP`)
}

func TestArgumentSlotTaint(t *testing.T) {
	sig := "func(key *uint64, n int) (r uint64)"
	opts := []Option{Secret("key"), Public("n"), Len("key", "1")}
	// A secret parked in the slot of the public argument n is refused
	// (the slots are public input), and what is loaded back is secret.
	_, err := gen(t, ssse3Backend, "argSlot", sig, opts, func(g *Generator, fn *Func) {
		k, v := loadSecretWord(g), g.GP64()
		g.MOVQ(k, operand.Mem{Base: reg.FramePointer, Disp: 8})
		g.MOVQ(operand.Mem{Base: reg.FramePointer, Disp: 8}, v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `instruction 2 "MOVQ AX, 8(FP)": stores a secret into the argument slot of n (8-15(FP)), which is public input; secret because:`)
	require.ErrorContains(t, err, `"JZ skip": conditional branch on secret flags; secret because:`)
	require.ErrorContains(t, err, `loads stack 8(FP)`)

	// A result slot may receive a value computed from secrets...
	mustBuild(t, ssse3Backend, "resultSlot", sig, opts, func(g *Generator, fn *Func) {
		g.Store(loadSecretWord(g), g.ReturnIndex(0))
		fn.Ret()
	})
	// ...and stays secret when loaded back.
	_, err = gen(t, ssse3Backend, "resultSlotBack", sig, opts, func(g *Generator, fn *Func) {
		v := g.GP64()
		g.Store(loadSecretWord(g), g.ReturnIndex(0))
		g.Load(g.ReturnIndex(0), v)
		g.TESTQ(v, v)
		g.JZ(operand.LabelRef("skip"))
		g.Label("skip")
		fn.Ret()
	})
	require.ErrorContains(t, err, `"JZ skip": conditional branch on secret flags`)
	require.ErrorContains(t, err, `"MOVQ AX, r+16(FP)" (instruction 2) stores it to r+16(FP)`)

	// A secret scalar's own slot may hold secrets.
	mustBuild(t, ssse3Backend, "secretScalarSlot", "func(k uint64, out *uint64)", []Option{Secret("k"), Output("out"), Len("out", "1")}, func(g *Generator, fn *Func) {
		v := g.GP64()
		g.Load(g.Param("k"), v)
		g.NOTQ(v)
		g.Store(v, g.Param("k"))
		fn.Ret()
	})
}

func TestSecretIntoPublicMemoryFails(t *testing.T) {
	sig := "func(key *uint64, out *uint64)"
	body := func(g *Generator, fn *Func) {
		k, o := loadSecretWord(g), g.GP64()
		g.Load(g.Param("out"), o)
		g.MOVQ(k, operand.Mem{Base: o, Disp: 8})
		fn.Ret()
	}
	_, err := gen(t, ssse3Backend, "secretIntoPublic", sig, []Option{Secret("key"), Public("out"), Len("key", "1"), Len("out", "2")}, body)
	require.Error(t, err)
	assert.Equal(t, `asmgen: secretIntoPublicSSSE3: instruction 3 "MOVQ AX, 8(CX)": stores a secret through CX, which points to public input memory (declare the argument Output if it receives results); secret because:
	"MOVQ AX, 8(CX)" (instruction 3) reads AX
	"MOVQ (AX), AX" (instruction 1) loads through AX, which points to secret memory
	"MOVQ key+0(FP), AX" (instruction 0) loads argument key, which points to secret memory (declared Secret); the pointer because:
	"MOVQ out+8(FP), CX" (instruction 2) loads argument out, which points to public input memory (declared Public)`, err.Error())
	// Declared Output, it passes.
	mustBuild(t, ssse3Backend, "secretIntoOutput", sig, []Option{Secret("key"), Output("out"), Len("key", "1"), Len("out", "2")}, body)

	// Through a pointer computed from the public one, and into the slice
	// headers of a SecretSlices argument.
	_, err = gen(t, ssse3Backend, "secretIntoPublicOffset", "func(key *uint64, out []uint64)", []Option{Secret("key"), Public("out"), Len("key", "1")}, func(g *Generator, fn *Func) {
		k, o := loadSecretWord(g), g.GP64()
		g.Load(g.Param("out").Base(), o)
		g.ADDQ(operand.U8(16), o)
		g.MOVQ(k, operand.Mem{Base: o})
		fn.Ret()
	})
	require.ErrorContains(t, err, `stores a secret through CX, which points to public input memory`)
	_, err = gen(t, ssse3Backend, "secretIntoHeaders", "func(key *uint64, srcs [][]byte)", []Option{Secret("key"), SecretSlices("srcs"), Len("key", "1")}, func(g *Generator, fn *Func) {
		k, d := loadSecretWord(g), g.GP64()
		g.Load(g.Param("srcs").Base(), d)
		g.MOVQ(k, operand.Mem{Base: d, Disp: 8})
		fn.Ret()
	})
	require.ErrorContains(t, err, `stores a secret through CX, which points to public slice headers (declared SecretSlices)`)
	// Public data stored into public memory passes.
	mustBuild(t, ssse3Backend, "publicIntoPublic", "func(key *uint64, out *uint64, n uint64)", []Option{Secret("key"), Public("out", "n"), Len("key", "1"), Len("out", "1")}, func(g *Generator, fn *Func) {
		o, n := g.GP64(), g.GP64()
		g.Load(g.Param("out"), o)
		g.Load(g.Param("n"), n)
		g.MOVQ(n, operand.Mem{Base: o})
		fn.Ret()
	})
}

func TestBitTestOffsetIsAddress(t *testing.T) {
	sig := "func(key *uint64, table *[32]byte, out *uint64)"
	opts := []Option{Secret("key"), Public("table"), Output("out"), Len("key", "1"), Len("out", "1")}
	// BTQ reg, mem with a secret bit offset selects a secret byte of
	// memory; so do BTS, BTR and BTC.
	for _, op := range []string{"BTQ", "BTSQ", "BTRQ", "BTCQ"} {
		_, err := gen(t, ssse3Backend, "bitOffset"+op, sig, opts, func(g *Generator, fn *Func) {
			k, tab, c := loadSecretWord(g), g.GP64(), g.GP64()
			g.Load(g.Param("table"), tab)
			g.ANDQ(operand.U8(255), k)
			m := operand.Mem{Base: tab}
			switch op {
			case "BTQ":
				g.BTQ(k, m)
			case "BTSQ":
				g.BTSQ(k, m)
			case "BTRQ":
				g.BTRQ(k, m)
			case "BTCQ":
				g.BTCQ(k, m)
			}
			g.SETCS(c.As8())
			storeOut(g, c)
			fn.Ret()
		})
		require.ErrorContains(t, err, `instruction 4 "`+op+` AX, (DX)": bit offset AX, which selects the byte of (DX) accessed, is secret; secret because:`, op)
	}
	// The same bit test on a register, and a public offset into memory,
	// pass.
	mustBuild(t, ssse3Backend, "bitOffsetReg", sig, opts, func(g *Generator, fn *Func) {
		k, tab, w, c := loadSecretWord(g), g.GP64(), g.GP64(), g.GP64()
		g.Load(g.Param("table"), tab)
		g.MOVQ(operand.Mem{Base: tab}, w)
		g.BTQ(k, w)
		g.SETCS(c.As8())
		g.XORQ(k, k)
		g.BTSQ(k, operand.Mem{Base: tab})
		storeOut(g, c)
		fn.Ret()
	})
}
