package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The clamp of Poly1305's r (RFC 8439, section 2.5), as the masks of its
// two 64-bit halves.
const (
	rMask0 = 0x0ffffffc0fffffff
	rMask1 = 0x0ffffffc0ffffffc
)

// poly emits scalar Poly1305 with 64-bit limbs: the accumulator h = h0 +
// h1·2⁶⁴ + h2·2¹²⁸ in three registers, the clamped r = r0 + r1·2⁶⁴ in
// memory (operands of MULQ), and MULQ (no BMI2: MULX is not in either
// backend's declaration). The arithmetic and its bounds are those of
// polyBlocksGeneric in poly1305_generic.go: r0, r1 < 2⁶⁰, h2 ≤ 7 after a
// block is added, so every column sum fits.
type poly struct {
	g          *asmgen.Generator
	h0, h1, h2 reg.GPVirtual
	r0, r1     operand.Op
}

// newPoly returns a Poly1305 emitter with fresh accumulator registers and r
// at r0, r1 (memory or registers).
func newPoly(g *asmgen.Generator, r0, r1 operand.Op) *poly {
	return &poly{g: g, h0: g.GP64(), h1: g.GP64(), h2: g.GP64(), r0: r0, r1: r1}
}

// clear sets h to zero.
func (p *poly) clear() {
	p.g.XORQ(p.h0, p.h0)
	p.g.XORQ(p.h1, p.h1)
	p.g.XORQ(p.h2, p.h2)
}

// load and store move h from and to three words of memory.
func (p *poly) load(m operand.Mem) {
	p.g.MOVQ(m, p.h0)
	p.g.MOVQ(m.Offset(8), p.h1)
	p.g.MOVQ(m.Offset(16), p.h2)
}

func (p *poly) store(m operand.Mem) {
	p.g.MOVQ(p.h0, m)
	p.g.MOVQ(p.h1, m.Offset(8))
	p.g.MOVQ(p.h2, m.Offset(16))
}

// block absorbs one full 16-byte block m = lo + hi·2⁶⁴:
// h = (h + m + 2¹²⁸)·r mod 2¹³⁰-5, partially reduced.
func (p *poly) block(lo, hi operand.Op) {
	g := p.g
	g.ADDQ(lo, p.h0)
	g.ADCQ(hi, p.h1)
	g.ADCQ(operand.U8(1), p.h2)
	p.mulReduce()
}

// mulReduce sets h = h·r mod 2¹³⁰-5, partially reduced (h < 2¹³⁰ + 2¹²⁸
// after it).
func (p *poly) mulReduce() {
	g := p.g
	t0, t1, t2, t3 := g.GP64(), g.GP64(), g.GP64(), g.GP64()
	ax, dx := reg.RAX, reg.RDX

	// t = h·r in four words: t0 + t1·2⁶⁴ + t2·2¹²⁸ + t3·2¹⁹².
	g.MOVQ(p.r0, ax)
	g.MULQ(p.h0)
	g.MOVQ(ax, t0)
	g.MOVQ(dx, t1)

	g.MOVQ(p.r1, ax)
	g.MULQ(p.h0)
	g.ADDQ(ax, t1)
	g.ADCQ(operand.U8(0), dx)
	g.MOVQ(dx, t2)

	// hi(h0·r1) + hi(h1·r0) + carry < 2⁶¹: no carry out of t2 here.
	g.MOVQ(p.r0, ax)
	g.MULQ(p.h1)
	g.ADDQ(ax, t1)
	g.ADCQ(dx, t2)

	g.MOVQ(p.r1, ax)
	g.MULQ(p.h1)
	g.ADDQ(ax, t2)
	g.ADCQ(operand.U8(0), dx)
	g.MOVQ(dx, t3)

	// h2·r0 and h2·r1 are below 2⁶³ (h2 ≤ 7).
	g.MOVQ(p.r0, ax)
	g.IMULQ(p.h2, ax)
	g.ADDQ(ax, t2)
	g.ADCQ(operand.U8(0), t3)
	g.MOVQ(p.r1, ax)
	g.IMULQ(p.h2, ax)
	g.ADDQ(ax, t3)

	// Reduce: with t = l + k·2¹³⁰, t ≡ l + 4k + k. (t2 &^ 3, t3) is 4k.
	g.MOVQ(t0, p.h0)
	g.MOVQ(t1, p.h1)
	g.MOVQ(t2, p.h2)
	g.ANDQ(operand.U8(3), p.h2)
	g.ANDQ(operand.I8(-4), t2)
	g.ADDQ(t2, p.h0)
	g.ADCQ(t3, p.h1)
	g.ADCQ(operand.U8(0), p.h2)
	g.SHRQ(operand.U8(2), t3, t2)
	g.SHRQ(operand.U8(2), t3)
	g.ADDQ(t2, p.h0)
	g.ADCQ(t3, p.h1)
	g.ADCQ(operand.U8(0), p.h2)
}

// blocks emits the loop absorbing n/16 full blocks at msg (n a multiple of
// 16, public). It advances msg and leaves n below 16.
func (p *poly) blocks(fn *asmgen.Func, msg, n reg.Register) {
	g := p.g
	loop, done := fn.Label("polyloop"), fn.Label("polydone")
	g.Label(loop)
	g.CMPQ(n, operand.U8(16))
	g.JB(operand.LabelRef(done))
	p.block(operand.Mem{Base: msg}, operand.Mem{Base: msg, Disp: 8})
	g.ADDQ(operand.U8(16), msg)
	g.SUBQ(operand.U8(16), n)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
}

// padded absorbs the n bytes at msg (public length) followed by zeros up to
// a multiple of 16: the whole blocks from memory, the last partial block
// through general registers (reading nothing past msg+n). It advances msg and
// clobbers n.
func (p *poly) padded(fn *asmgen.Func, msg, n reg.Register) {
	g := p.g
	p.blocks(fn, msg, n)
	done := fn.Label("paddone")
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	lo, hi := loadPartialGP(fn, g, msg, n)
	p.block(lo, hi)
	g.Label(done)
}

// finish writes the tag (h mod 2¹³⁰-5) + s mod 2¹²⁸ to tag, with s the
// words s0, s1: h is below 2·(2¹³⁰-5), so h - p replaces h exactly when h+5
// reaches 2¹³⁰, chosen with CMOV. The tag words are left in the returned
// registers as well.
func (p *poly) finish(s0, s1 operand.Op) (reg.GPVirtual, reg.GPVirtual) {
	g := p.g
	g0, g1, g2 := g.GP64(), g.GP64(), g.GP64()
	g.MOVQ(p.h0, g0)
	g.MOVQ(p.h1, g1)
	g.MOVQ(p.h2, g2)
	g.ADDQ(operand.U8(5), g0)
	g.ADCQ(operand.U8(0), g1)
	g.ADCQ(operand.U8(0), g2)
	g.SHRQ(operand.U8(2), g2)
	g.CMOVQNE(g0, p.h0)
	g.CMOVQNE(g1, p.h1)
	g.ADDQ(s0, p.h0)
	g.ADCQ(s1, p.h1)
	return p.h0, p.h1
}
