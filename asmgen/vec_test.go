package asmgen

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

var (
	aesniBackend    = cpufeat.MustLookup(cpufeat.AESGCM, "aesni")
	aesniAVXBackend = cpufeat.MustLookup(cpufeat.AESGCM, "aesni-avx")
)

// vecRegs are the operands of a vector-op test: four vector registers a,
// b, c, d of one width, loaded from the secret key before the operations
// and stored to out after them (so that they are defined and live), the
// general register r (key's first word) and m, 16 bytes of key (the
// pointer p).
type vecRegs struct {
	a, b, c, d reg.VecVirtual
	r          reg.GPVirtual
	m          operand.Mem
}

// vecOps emits body into a function of backend be, on registers of width
// bytes, and returns the instructions body emitted, before register
// allocation, with the registers named a, b, c, d, r and p and the
// temporaries Vec allocated named t0, t1, ... in order of appearance; and
// the error of Build, which runs asmgen's checks (the arch gates among
// them) over the whole function.
func vecOps(t *testing.T, be cpufeat.Backend, width int, body func(v *Vec, x vecRegs)) ([]string, error) {
	t.Helper()
	g := New(be)
	g.Package("alg")
	name := "vec" + g.Suffix()
	fn := g.Func(name, "func(key *[256]byte, out *[256]byte)", Doc(name+" is a test function."), Secret("key"), Output("out"))
	p, o := g.GP64(), g.GP64()
	g.Load(g.Param("key"), p)
	g.Load(g.Param("out"), o)
	v := g.Vec()
	newReg := map[int]func() reg.VecVirtual{16: g.XMM, 32: g.YMM, 64: g.ZMM}[width]
	x := vecRegs{a: newReg(), b: newReg(), c: newReg(), d: newReg(), r: g.GP64(), m: operand.Mem{Base: p, Disp: 16}}
	names := map[string]string{}
	for n, r := range map[string]reg.Register{"a": x.a, "b": x.b, "c": x.c, "d": x.d, "r": x.r, "p": p} {
		names[virtualKey(r)] = n
	}
	regs := []reg.VecVirtual{x.a, x.b, x.c, x.d}
	for k, r := range regs {
		v.Mov(operand.Mem{Base: p, Disp: 64 * k}, r)
	}
	g.MOVQ(operand.Mem{Base: p}, x.r)
	g.Comment("vec: begin")
	body(v, x)
	g.Comment("vec: end")
	for k, r := range regs {
		v.Mov(r, operand.Mem{Base: o, Disp: 64 * k})
	}
	g.MOVQ(x.r, operand.Mem{Base: o, Disp: 8})
	fn.Ret()

	f, err := g.Context.Result()
	require.NoError(t, err)
	fns := f.Functions()
	var ops []string
	in := false
	temps := 0
	for _, n := range fns[len(fns)-1].Nodes {
		switch n := n.(type) {
		case *ir.Comment:
			in = n.Lines[0] == "vec: begin" || in && n.Lines[0] != "vec: end"
		case *ir.Instruction:
			if !in {
				continue
			}
			ops = append(ops, virtualRE.ReplaceAllStringFunc(instText(n), func(s string) string {
				k := virtualRE.FindStringSubmatch(s)[1]
				if _, ok := names[k]; !ok {
					names[k] = fmt.Sprintf("t%d", temps)
					temps++
				}
				return names[k]
			}))
		}
	}
	_, _, err = g.Build()
	return ops, err
}

var virtualRE = regexp.MustCompile(`<virtual:(\d+:\d+):\d+>`)

// virtualKey is a virtual register's index and kind, as virtualRE matches
// them: the same for every width of the register.
func virtualKey(r reg.Register) string {
	return virtualRE.FindStringSubmatch(r.Asm())[1]
}

// mustVecOps is vecOps for operations that must pass the checks.
func mustVecOps(t *testing.T, be cpufeat.Backend, width int, body func(v *Vec, x vecRegs)) []string {
	t.Helper()
	ops, err := vecOps(t, be, width, body)
	require.NoError(t, err)
	return ops
}

func TestVecEncoding(t *testing.T) {
	for _, c := range []struct {
		be   cpufeat.Backend
		want Encoding
	}{{ssse3Backend, SSE}, {aesniBackend, SSE}, {aesniAVXBackend, VEX}, {avx2Backend, VEX}, {avx512Backend, EVEX}} {
		g := New(c.be)
		assert.Equal(t, c.want, g.Vec().Encoding(), c.be.Name)
		assert.Same(t, g.Vec(), g.Vec(), "one Vec per Generator")
	}
	assert.Equal(t, "SSE VEX EVEX", strings.Join([]string{SSE.String(), VEX.String(), EVEX.String()}, " "))
}

// TestVecBinary checks every two-source operation in each encoding: SSE
// copies b into dst for its two-operand form unless dst already holds a
// source (either one, the operation being commutative), VEX and EVEX take
// the three operands as they are, and zmm operands, or any operands on an
// AVX-512 backend, take the EVEX form.
func TestVecBinary(t *testing.T) {
	type binOp func(v *Vec, a operand.Op, b, dst reg.VecVirtual)
	for _, c := range []struct {
		name           string
		op             binOp
		sse, vex, evex string
	}{
		{"Xor", (*Vec).Xor, "PXOR", "VPXOR", "VPXORD"},
		{"And", (*Vec).And, "PAND", "VPAND", "VPANDD"},
		{"Or", (*Vec).Or, "POR", "VPOR", "VPORD"},
		{"AddD", (*Vec).AddD, "PADDL", "VPADDD", "VPADDD"},
		{"AddQ", (*Vec).AddQ, "PADDQ", "VPADDQ", "VPADDQ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ops := mustVecOps(t, ssse3Backend, 16, func(v *Vec, x vecRegs) {
				c.op(v, x.a, x.b, x.d) // a copy of b first
				c.op(v, x.a, x.b, x.b) // in place
				c.op(v, x.a, x.b, x.a) // commutative: dst = b op a
				c.op(v, x.m, x.c, x.c) // an aligned memory source
			})
			assert.Equal(t, []string{
				"MOVOU b, d", c.sse + " a, d",
				c.sse + " a, b",
				c.sse + " b, a",
				c.sse + " 16(p), c",
			}, ops)

			for _, w := range []int{16, 32} {
				ops = mustVecOps(t, avx2Backend, w, func(v *Vec, x vecRegs) {
					c.op(v, x.a, x.b, x.d)
					c.op(v, x.a, x.b, x.a)
					c.op(v, x.m, x.c, x.c)
				})
				assert.Equal(t, []string{c.vex + " a, b, d", c.vex + " a, b, a", c.vex + " 16(p), c, c"}, ops, "width %d", w)
			}

			// On an AVX-512 backend every width is EVEX: avo may allocate
			// xmm and ymm values to registers 16-31, which VEX cannot
			// encode.
			ops = mustVecOps(t, avx512Backend, 32, func(v *Vec, x vecRegs) { c.op(v, x.a, x.b, x.d) })
			assert.Equal(t, []string{c.evex + " a, b, d"}, ops)
			ops = mustVecOps(t, avx512Backend, 64, func(v *Vec, x vecRegs) { c.op(v, x.a, x.b, x.d) })
			assert.Equal(t, []string{c.evex + " a, b, d"}, ops)

			// zmm without AVX-512: the checker refuses the EVEX form.
			_, err := vecOps(t, avx2Backend, 64, func(v *Vec, x vecRegs) { c.op(v, x.a, x.b, x.d) })
			require.ErrorContains(t, err, "AVX512F")
		})
	}
}

// TestVecOrdered checks the operations that are not commutative: SSE
// copies b into dst, and refuses a dst that is the first source a (the
// two-operand form would overwrite it before reading it) unless it is b
// as well; VEX takes any aliasing.
func TestVecOrdered(t *testing.T) {
	type binOp func(v *Vec, a operand.Op, b, dst reg.VecVirtual)
	for _, c := range []struct {
		name     string
		be       cpufeat.Backend
		avx      cpufeat.Backend
		op       binOp
		sse, vex string
	}{
		{"AndNot", ssse3Backend, avx2Backend, (*Vec).AndNot, "PANDN", "VPANDN"},
		{"ShufB", ssse3Backend, avx2Backend, (*Vec).ShufB, "PSHUFB", "VPSHUFB"},
		{"UnpackLoQ", ssse3Backend, avx2Backend, (*Vec).UnpackLoQ, "PUNPCKLQDQ", "VPUNPCKLQDQ"},
		{"UnpackHiQ", ssse3Backend, avx2Backend, (*Vec).UnpackHiQ, "PUNPCKHQDQ", "VPUNPCKHQDQ"},
		{"UnpackLoD", ssse3Backend, avx2Backend, (*Vec).UnpackLoD, "PUNPCKLLQ", "VPUNPCKLDQ"},
		{"UnpackHiD", ssse3Backend, avx2Backend, (*Vec).UnpackHiD, "PUNPCKHLQ", "VPUNPCKHDQ"},
		{"CmpEqB", ssse3Backend, avx2Backend, (*Vec).CmpEqB, "PCMPEQB", "VPCMPEQB"},
		{"CmpEqD", ssse3Backend, avx2Backend, (*Vec).CmpEqD, "PCMPEQL", "VPCMPEQD"},
		{"ClMul", aesniBackend, aesniAVXBackend, func(v *Vec, a operand.Op, b, dst reg.VecVirtual) { v.ClMul(0x11, a, b, dst) }, "PCLMULQDQ $0x11,", "VPCLMULQDQ $0x11,"},
	} {
		t.Run(c.name, func(t *testing.T) {
			commutative := strings.HasPrefix(c.name, "CmpEq")
			ops := mustVecOps(t, c.be, 16, func(v *Vec, x vecRegs) {
				c.op(v, x.a, x.b, x.d)
				c.op(v, x.a, x.b, x.b)
				c.op(v, x.a, x.a, x.a)
			})
			assert.Equal(t, []string{"MOVOU b, d", c.sse + " a, d", c.sse + " a, b", c.sse + " a, a"}, ops)

			ops, err := vecOps(t, c.be, 16, func(v *Vec, x vecRegs) { c.op(v, x.a, x.b, x.a) })
			if commutative {
				require.NoError(t, err)
				assert.Equal(t, []string{c.sse + " b, a"}, ops)
			} else {
				require.EqualError(t, err, "asmgen: vector "+vecOpName(c.name)+": the destination is the first source")
				assert.Empty(t, ops)
			}

			ops = mustVecOps(t, c.avx, 16, func(v *Vec, x vecRegs) {
				c.op(v, x.a, x.b, x.d)
				c.op(v, x.a, x.b, x.a)
			})
			assert.Equal(t, []string{c.vex + " a, b, d", c.vex + " a, b, a"}, ops)
		})
	}
}

// vecOpName is the name Vec's errors give the operation of the method m.
func vecOpName(m string) string {
	return map[string]string{
		"AndNot": "andnot", "ShufB": "shufb", "UnpackLoQ": "punpcklqdq", "UnpackHiQ": "punpckhqdq",
		"UnpackLoD": "punpckldq", "UnpackHiD": "punpckhdq", "ClMul": "clmul",
	}[m]
}

func TestVecNoForm(t *testing.T) {
	// PCMPEQB has no zmm form (zmm comparisons set opmasks).
	_, err := vecOps(t, avx512Backend, 64, func(v *Vec, x vecRegs) { v.CmpEqB(x.a, x.b, x.d) })
	require.EqualError(t, err, "asmgen: vector pcmpeqb has no zmm form")
	_, err = vecOps(t, avx512Backend, 64, func(v *Vec, x vecRegs) { v.CmpEqD(x.a, x.b, x.d) })
	require.EqualError(t, err, "asmgen: vector pcmpeqd has no zmm form")
	_, err = vecOps(t, ssse3Backend, 16, func(v *Vec, x vecRegs) { v.BroadcastD(x.m, x.d) })
	require.EqualError(t, err, "asmgen: vector broadcastd needs AVX2")
	_, err = vecOps(t, avx2Backend, 16, func(v *Vec, x vecRegs) { v.Insert128(1, x.a, x.b, x.d) })
	require.EqualError(t, err, "asmgen: vector insert128 into an xmm register")
}

func TestVecMov(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.Mov(x.a, x.d)
		v.Mov(x.m, x.c)
		v.Mov(x.b, x.m)
	}
	assert.Equal(t, []string{"MOVOU a, d", "MOVOU 16(p), c", "MOVOU b, 16(p)"}, mustVecOps(t, ssse3Backend, 16, body))
	for _, w := range []int{16, 32} {
		assert.Equal(t, []string{"VMOVDQA a, d", "VMOVDQU 16(p), c", "VMOVDQU b, 16(p)"}, mustVecOps(t, avx2Backend, w, body))
	}
	assert.Equal(t, []string{"VMOVDQA64 a, d", "VMOVDQU64 16(p), c", "VMOVDQU64 b, 16(p)"}, mustVecOps(t, avx512Backend, 64, body))

	body = func(v *Vec, x vecRegs) { v.Zero(x.d) }
	assert.Equal(t, []string{"PXOR d, d"}, mustVecOps(t, ssse3Backend, 16, body))
	assert.Equal(t, []string{"VPXOR d, d, d"}, mustVecOps(t, avx2Backend, 32, body))
	assert.Equal(t, []string{"VPXORD d, d, d"}, mustVecOps(t, avx512Backend, 64, body))
}

func TestVecUnaligned(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.XorU(x.m, x.b, x.b)
		v.AndU(x.m, x.a, x.d)
	}
	// SSE loads the memory first: into a temporary when dst is the other
	// source, else into dst.
	assert.Equal(t, []string{"MOVOU 16(p), t0", "PXOR t0, b", "MOVOU 16(p), d", "PAND a, d"}, mustVecOps(t, ssse3Backend, 16, body))
	assert.Equal(t, []string{"VPXOR 16(p), b, b", "VPAND 16(p), a, d"}, mustVecOps(t, avx2Backend, 32, body))
	assert.Equal(t, []string{"VPXORD 16(p), b, b", "VPANDD 16(p), a, d"}, mustVecOps(t, avx512Backend, 64, body))
}

func TestVecShifts(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.SllD(7, x.a, x.d)
		v.SrlD(25, x.a, x.a)
		v.SraD(3, x.b, x.b)
		v.SllQ(1, x.c, x.c)
		v.SrlQ(63, x.c, x.c)
		v.SllB(4, x.b, x.d)
		v.SrlB(8, x.b, x.b)
	}
	assert.Equal(t, []string{
		"MOVOU a, d", "PSLLL $0x07, d",
		"PSRLL $0x19, a",
		"PSRAL $0x03, b",
		"PSLLQ $0x01, c",
		"PSRLQ $0x3f, c",
		"MOVOU b, d", "PSLLDQ $0x04, d",
		"PSRLDQ $0x08, b",
	}, mustVecOps(t, ssse3Backend, 16, body))
	assert.Equal(t, []string{
		"VPSLLD $0x07, a, d", "VPSRLD $0x19, a, a", "VPSRAD $0x03, b, b", "VPSLLQ $0x01, c, c",
		"VPSRLQ $0x3f, c, c", "VPSLLDQ $0x04, b, d", "VPSRLDQ $0x08, b, b",
	}, mustVecOps(t, avx2Backend, 32, body))
}

func TestVecRotlAndXor3(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.RotlD(12, x.a)
		v.Xor3(x.b, x.c, x.d)
	}
	assert.Equal(t, []string{
		"MOVOU a, t0", "PSLLL $0x0c, t0", "PSRLL $0x14, a", "POR t0, a",
		"PXOR b, d", "PXOR c, d",
	}, mustVecOps(t, ssse3Backend, 16, body))
	assert.Equal(t, []string{
		"VPSLLD $0x0c, a, t0", "VPSRLD $0x14, a, a", "VPOR t0, a, a",
		"VPXOR b, d, d", "VPXOR c, d, d",
	}, mustVecOps(t, avx2Backend, 32, body))
	// EVEX: one instruction each, on every width.
	for _, w := range []int{16, 64} {
		assert.Equal(t, []string{"VPROLD $0x0c, a, a", "VPTERNLOGD $0x96, b, c, d"}, mustVecOps(t, avx512Backend, w, body))
	}
}

func TestVecShuffles(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.ShufD(0x4e, x.a, x.d)
		v.ShufD(0x93, x.m, x.c)
	}
	assert.Equal(t, []string{"PSHUFD $0x4e, a, d", "PSHUFD $0x93, 16(p), c"}, mustVecOps(t, ssse3Backend, 16, body))
	assert.Equal(t, []string{"VPSHUFD $0x4e, a, d", "VPSHUFD $0x93, 16(p), c"}, mustVecOps(t, avx2Backend, 32, body))
	assert.Equal(t, []string{"VPSHUFD $0x4e, a, d", "VPSHUFD $0x93, 16(p), c"}, mustVecOps(t, avx512Backend, 64, body))

	body = func(v *Vec, x vecRegs) {
		v.Broadcast128(x.m, x.d)
		v.BroadcastD(x.m, x.c)
	}
	assert.Equal(t, []string{"VMOVDQU 16(p), d", "VPBROADCASTD 16(p), c"}, mustVecOps(t, avx2Backend, 16, body))
	assert.Equal(t, []string{"VBROADCASTI128 16(p), d", "VPBROADCASTD 16(p), c"}, mustVecOps(t, avx2Backend, 32, body))
	assert.Equal(t, []string{"VBROADCASTI32X4 16(p), d", "VPBROADCASTD 16(p), c"}, mustVecOps(t, avx512Backend, 64, body))
	assert.Equal(t, []string{"MOVOU 16(p), d"}, mustVecOps(t, ssse3Backend, 16, func(v *Vec, x vecRegs) { v.Broadcast128(x.m, x.d) }))

	body = func(v *Vec, x vecRegs) {
		v.Insert128(1, x.a.AsX(), x.b, x.d)
		v.Insert128(1, x.m, x.c, x.c)
	}
	assert.Equal(t, []string{"VINSERTI128 $0x01, a, b, d", "VINSERTI128 $0x01, 16(p), c, c"}, mustVecOps(t, avx2Backend, 32, body))
	assert.Equal(t, []string{"VINSERTI32X4 $0x01, a, b, d", "VINSERTI32X4 $0x01, 16(p), c, c"}, mustVecOps(t, avx512Backend, 64, body))
}

func TestVecQwords(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.MovQ(x.r, x.a)
		v.InsertQ1(x.r, x.a)
		v.InsertQ1(x.m, x.b)
		v.ExtractQ1(x.c, x.r)
		v.MovQ(x.c, x.r)
		v.MovMskB(x.d, x.r.As32())
	}
	// SSE2 has no PINSRQ and PEXTRQ (SSE4.1).
	assert.Equal(t, []string{
		"MOVQ r, a",
		"MOVQ r, t0", "PUNPCKLQDQ t0, a",
		"MOVHPS 16(p), b",
		"PSHUFD $0xee, c, t1", "MOVQ t1, r",
		"MOVQ c, r",
		"PMOVMSKB d, r",
	}, mustVecOps(t, ssse3Backend, 16, body))
	assert.Equal(t, []string{
		"VMOVQ r, a",
		"VPINSRQ $0x01, r, a, a",
		"VPINSRQ $0x01, 16(p), b, b",
		"VPEXTRQ $0x01, c, r",
		"VMOVQ c, r",
		"VPMOVMSKB d, r",
	}, mustVecOps(t, avx2Backend, 16, body))
}

func TestVecAES(t *testing.T) {
	body := func(v *Vec, x vecRegs) {
		v.AESEnc(x.a, x.d)
		v.AESEncLast(x.m, x.d)
	}
	assert.Equal(t, []string{"AESENC a, d", "AESENCLAST 16(p), d"}, mustVecOps(t, aesniBackend, 16, body))
	assert.Equal(t, []string{"VAESENC a, d, d", "VAESENCLAST 16(p), d, d"}, mustVecOps(t, aesniAVXBackend, 16, body))
	assert.Equal(t, []string{"VAESENC a, d, d", "VAESENCLAST 16(p), d, d"}, mustVecOps(t, avx2Backend, 32, body))
	// AES rounds need AES-NI (VAES for ymm), which ssse3 does not have.
	_, err := vecOps(t, ssse3Backend, 16, body)
	require.ErrorContains(t, err, "needs ISA AES")
}
