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
// h1·2⁶⁴ + h2·2¹²⁸ in three registers; the clamped r = r0 + r1·2⁶⁴ and
// s1 = r1 + r1/4 as operands of MULQ (no BMI2: MULX is not in either
// backend's declaration).
//
// The product is reduced as it is formed, as in OpenSSL's
// poly1305-x86_64: r1 is a multiple of 4 (clamped), so
// h1·r1·2¹²⁸ = h1·(r1/4)·2¹³⁰ ≡ h1·5(r1/4) = h1·s1 and likewise
// h2·r1·2¹⁹² ≡ h2·s1·2⁶⁴, and h·r ≡ d0 + d1·2⁶⁴ + d2·2¹²⁸ with
//
//	d0 = h0·r0 + h1·s1,  d1 = h0·r1 + h1·r0 + h2·s1,  d2 = h2·r0.
//
// Bounds: r0, r1 < 2⁶⁰, s1 < 2⁶¹, h2 ≤ 7 after a block is added, so d0,
// d1 < 2¹²⁶ and the top word stays below 1.5·2⁶³; its bits above 2¹³⁰
// fold back times 5 (as (t &^ 3) + t>>2, below 2⁶⁴), leaving h2 ≤ 4. The
// serial chain per block is shorter than a full product then a reduction.
type poly struct {
	g          *asmgen.Generator
	h0, h1, h2 reg.GPVirtual
	r0, r1, s1 operand.Op
}

// newPoly returns a Poly1305 emitter with fresh accumulator registers and
// r0, r1, s1 at the given operands (memory or registers).
func newPoly(g *asmgen.Generator, r0, r1, s1 operand.Op) *poly {
	return &poly{g: g, h0: g.GP64(), h1: g.GP64(), h2: g.GP64(), r0: r0, r1: r1, s1: s1}
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
// h = (h + m + 2¹²⁸)·r mod 2¹³⁰-5, partially reduced. With d = h·r as
// two-word columns d0 (h0·r0 + h1·s1), d1 (h0·r1 + h1·r0 + h2·s1) and d2
// (h2·r0, one word: h2 ≤ 7), where s1 = r1 + r1/4 stands for r1·2¹²⁸ ≡
// 5·r1/4 (r1 is a multiple of 4 after clamping): h = d0 + d1·2⁶⁴ + d2·2¹²⁸
// with the bits above 2¹³⁰ folded back in times 5.
//
// The products are taken in the order that needs the fewest instructions
// (no register moves after them, 5·(d3>>2) by one LEA): in the fused long
// pass the vector and integer work share the dispatch width, so
// instructions, not the chain's latency, set the rate, and serial hashing
// is bound by the multiplier, not the chain (see the README).
func (p *poly) block(lo, hi operand.Op) {
	g := p.g
	g.ADDQ(lo, p.h0)
	g.ADCQ(hi, p.h1)
	g.ADCQ(operand.U8(1), p.h2)
	p.mul()
}

// mul sets h = h·r mod 2¹³⁰-5, partially reduced (h2 ≤ 4 after; h2 ≤ 7
// before), as block does after adding its block.
func (p *poly) mul() {
	g := p.g
	d2, d3, t0 := g.GP64(), g.GP64(), g.GP64()
	ax, dx := reg.RAX, reg.RDX
	// mul sets (lo, hi) to, or with add adds to it, the product a·b.
	mul := func(a operand.Op, b, lo, hi reg.Register, add bool) {
		g.MOVQ(a, ax)
		g.MULQ(b)
		if add {
			g.ADDQ(ax, lo)
			g.ADCQ(dx, hi)
		} else {
			g.MOVQ(ax, lo)
			g.MOVQ(dx, hi)
		}
	}
	mul(p.r0, p.h1, d2, d3, false)   // (d2, d3) = h1·r0
	mul(p.s1, p.h1, t0, p.h1, false) // (t0, h1) = h1·s1
	mul(p.r1, p.h0, d2, d3, true)    // (d2, d3) += h0·r1
	mul(p.r0, p.h0, t0, p.h1, true)  // (t0, h1) += h0·r0
	// (d2, d3) += h2·s1 (h0 is free); h2 = h2·r0.
	g.MOVQ(p.s1, p.h0)
	g.IMULQ(p.h2, p.h0)
	g.ADDQ(p.h0, d2)
	g.ADCQ(operand.U8(0), d3)
	g.IMULQ(p.r0, p.h2)
	// h1 += d2, its carry and h2·r0 into the top word d3.
	g.ADDQ(d2, p.h1)
	g.ADCQ(p.h2, d3)
	// Fold the bits above 2¹³⁰ back in, times 5, then the low word.
	// 5·(d3>>2) (below 2⁶⁴, see poly) by one LEA.
	g.MOVQ(d3, p.h2)
	g.ANDQ(operand.U8(3), p.h2)
	g.SHRQ(operand.U8(2), d3)
	g.LEAQ(operand.Mem{Base: d3, Index: d3, Scale: 4}, p.h0)
	g.ADDQ(t0, p.h0)
	g.ADCQ(operand.U8(0), p.h1)
	g.ADCQ(operand.U8(0), p.h2)
}

// s1Of sets s1 = r1 + r1/4 from r1.
func s1Of(g *asmgen.Generator, r1, s1 reg.GPVirtual) {
	g.MOVQ(r1, s1)
	g.SHRQ(operand.U8(2), s1)
	g.ADDQ(r1, s1)
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
	lo, hi := fn.LoadPartialGP(msg, n)
	p.block(lo, hi)
	g.Label(done)
}

// tag emits the end of a seal or an open once the text is hashed: the
// lengths block at lens, the tag (h mod 2¹³⁰-5) + s with s at s, then for
// a seal its store to the register out returns (called only then), for an
// open its constant-time comparison with the function's tag argument,
// returning 1 if they are equal and 0 otherwise; then the function's
// return.
func (p *poly) tag(fn *asmgen.Func, lens, s operand.Mem, open bool, out func() reg.Register) {
	g := p.g
	fn.Phase("tag: the lengths block, the final reduction plus s")
	p.block(lens, lens.Offset(8))
	t0, t1 := p.finish(s, s.Offset(8))
	if !open {
		o := out()
		g.MOVQ(t0, operand.Mem{Base: o})
		g.MOVQ(t1, operand.Mem{Base: o, Disp: 8})
		fn.Ret()
		return
	}
	tag := g.GP64()
	g.Load(g.Param("tag"), tag)
	g.XORQ(operand.Mem{Base: tag}, t0)
	g.XORQ(operand.Mem{Base: tag, Disp: 8}, t1)
	g.ORQ(t1, t0)
	ok, one := g.GP64(), g.GP64()
	g.MOVQ(operand.U32(0), ok)
	g.MOVQ(operand.U32(1), one)
	g.TESTQ(t0, t0)
	g.CMOVQEQ(one, ok)
	g.Store(ok, g.ReturnIndex(0))
	fn.Ret()
}

// hashAD starts the hash: h = 0, then the function's additional data (its
// ad and adLen arguments), zero-padded to a multiple of 16 bytes.
func (p *poly) hashAD(fn *asmgen.Func) {
	p.hashADWith(fn, func(ad, adLen reg.Register) { p.padded(fn, ad, adLen) })
}

// hashADWith is hashAD with the additional data absorbed by hash (given
// its pointer and length).
func (p *poly) hashADWith(fn *asmgen.Func, hash func(ad, adLen reg.Register)) {
	g := p.g
	fn.Phase("AAD: Poly1305 over the additional data, zero-padded")
	p.clear()
	ad, adLen := g.GP64(), g.GP64()
	g.Load(g.Param("ad"), ad)
	g.Load(g.Param("adLen"), adLen)
	hash(ad, adLen)
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
