package main

import (
	"encoding/binary"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// Poly1305 on zmm (the base-2^26 vector form of OpenSSL's
// poly1305-x86_64.pl): eight lanes of 64 bits, each an accumulator in five
// 26-bit limbs, multiplied with VPMULUDQ (32×32→64 bits). Lane p hashes
// every eighth block of the text, so each group of eight blocks takes one
// multiplication by r⁸ per lane:
//
//	H ← (H + M_g)·r⁸ for every group g but the last,
//	h  = Σ_p (H_p + M_last,p)·r^(8-b(p)),
//
// where b(p) is the block of the group that lane p holds and the incoming
// accumulator h enters lane 0 (block 0 of the first group). A group's two
// 64-byte loads are interleaved by qword (VPUNPCKL/HQDQ), so lane p holds
// block b(p) = p/2 + 4·(p%2): the last multiplication takes, per lane, the
// power zPows gives.
//
// Limb products are below 2²⁷·5·2²⁷ (the limbs are only partly reduced:
// below 2²⁷ after a carry pass plus a block, and the powers of r come from
// a partly reduced h), so the five products of a limb sum below 2⁶⁰; one
// carry pass after each multiplication brings every limb back under 2²⁶
// (limb 1 just over).

// polyVecMin is the least whole-block text polyVec hashes on zmm: below, the
// powers of r and the final sums cost more than the scalar chain saves
// (the two are about even at 384 bytes on Zen 4; the module README has the
// figures).
const polyVecMin = 384

// zPows is the power of r lane p is multiplied by in the last group:
// r^(8-b(p)).
var zPows = [8]int{8, 4, 7, 3, 6, 2, 5, 1}

// powLane returns the lane of the power table holding r^k.
func powLane(k int) int {
	for p, e := range zPows {
		if e == k {
			return p
		}
	}
	panic("no lane for power")
}

// The power table (64-byte aligned): rows 0-4 hold limb i of r^zPows[p] in
// qword p, rows 5-8 five times limbs 1-4.
const powTableSize = 9 * 64

func powRow(pow operand.Mem, i int) operand.Mem { return pow.Offset(64 * i) }

// zPoly holds the constants of the vector Poly1305 code.
type zPoly struct {
	mask26, pad24, lane0 operand.Mem
}

func newZPoly(g *asmgen.Generator) zPoly {
	q := func(x uint64) []byte { return binary.LittleEndian.AppendUint64(nil, x) }
	lane0 := append(q(^uint64(0)), make([]byte, 56)...)
	return zPoly{mask26: g.Table("mask26", q(1<<26-1)), pad24: g.Table("pad24", q(1<<24)), lane0: g.Table("lane0", lane0)}
}

// limbs splits h = h0 + h1·2⁶⁴ + h2·2¹²⁸ (h2 ≤ 7) into five 26-bit limbs
// (the top one wider by h2's bits), leaving h as it was.
func limbs(g *asmgen.Generator, h0, h1, h2 reg.Register) [5]reg.GPVirtual {
	var l [5]reg.GPVirtual
	for i := range l {
		l[i] = g.GP64()
	}
	const m = 1<<26 - 1
	g.MOVQ(h0, l[0])
	g.ANDQ(operand.U32(m), l[0])
	g.MOVQ(h0, l[1])
	g.SHRQ(operand.U8(26), l[1])
	g.ANDQ(operand.U32(m), l[1])
	t := g.GP64()
	g.MOVQ(h0, l[2])
	g.SHRQ(operand.U8(52), l[2])
	g.MOVQ(h1, t)
	g.SHLQ(operand.U8(12), t)
	g.ORQ(t, l[2])
	g.ANDQ(operand.U32(m), l[2])
	g.MOVQ(h1, l[3])
	g.SHRQ(operand.U8(14), l[3])
	g.ANDQ(operand.U32(m), l[3])
	g.MOVQ(h1, l[4])
	g.SHRQ(operand.U8(40), l[4])
	g.MOVQ(h2, t)
	g.SHLQ(operand.U8(24), t)
	g.ORQ(t, l[4])
	return l
}

// polyPowers fills the power table at pow with r¹..r⁸ for the r of p (its
// r0, r1, s1 operands). It needs no accumulator: call it before p's is
// live. A phase marks each power before its limbs are split off: the proof
// of the table cuts the chain of multiplications there, one power at a
// time.
func (v *vec) polyPowers(fn *asmgen.Func, p *poly, pow operand.Mem) {
	g := v.g
	t := newPoly(g, p.r0, p.r1, p.s1)
	g.MOVQ(p.r0, t.h0)
	g.MOVQ(p.r1, t.h1)
	g.XORQ(t.h2, t.h2)
	for k := 1; k <= 8; k++ {
		fn.Phase("key power %d: r^%d's limbs into the table", k, k)
		l := limbs(g, t.h0, t.h1, t.h2)
		for i, x := range l {
			g.MOVQ(x, powRow(pow, i).Offset(8*powLane(k)))
		}
		if k < 8 {
			t.mul()
		}
	}
	for i := 1; i <= 4; i++ {
		r, s := g.ZMM(), g.ZMM()
		v.Mov(powRow(pow, i), r)
		v.SllQ(2, r, s)
		v.AddQ(r, s, s)
		v.Mov(s, powRow(pow, 4+i))
	}
}

// zMul returns h·r reduced to limbs of about 26 bits, with r's limbs in r
// and five times limbs 1-4 in s[1:] (registers, or power-table rows). The
// loop's chain runs through it, so each limb's five products are summed as
// a tree and the carries go two at a time (0→1 with 3→4, 1→2 with 4→0,
// 2→3 with 0→1, then 3→4): four steps deep instead of seven. From products
// below 2⁶⁰ the limbs come out below 2²⁶ but for limb 1 (2²⁶ + 2¹²) and
// limb 4 (2²⁶ + 2¹⁰).
func (v *vec) zMul(h [5]reg.VecVirtual, r, s [5]operand.Op, mask reg.VecVirtual) [5]reg.VecVirtual {
	g := v.g
	var d [5]reg.VecVirtual
	for k := range d {
		var t [5]reg.VecVirtual
		for i := range h {
			var op operand.Op
			if k >= i {
				op = r[k-i]
			} else {
				op = s[k-i+5]
			}
			t[i] = g.ZMM()
			g.VPMULUDQ(op, h[i], t[i])
		}
		v.AddQ(t[1], t[0], t[0])
		v.AddQ(t[3], t[2], t[2])
		v.AddQ(t[2], t[0], t[0])
		d[k] = g.ZMM()
		v.AddQ(t[4], t[0], d[k])
	}
	carry := func(from, to int) {
		c := g.ZMM()
		v.SrlQ(26, d[from], c)
		v.And(mask, d[from], d[from])
		if to == 0 {
			// 2¹³⁰ ≡ 5: add 5·c.
			v.AddQ(c, d[0], d[0])
			v.SllQ(2, c, c)
		}
		v.AddQ(c, d[to], d[to])
	}
	carry(0, 1)
	carry(3, 4)
	carry(1, 2)
	carry(4, 0)
	carry(2, 3)
	carry(0, 1)
	carry(3, 4)
	return d
}

// polyVec hashes, when n is at least polyVecMin, the whole groups of eight
// blocks of the n bytes at msg into p's accumulator with the table at pow
// (see polyPowers), leaving for the scalar code the last group when the
// text's whole blocks end short of it; it advances msg and lowers n by the
// bytes hashed. Below polyVecMin it does nothing.
func (v *vec) polyVec(fn *asmgen.Func, p *poly, zp zPoly, msg, n reg.Register, pow operand.Mem) {
	g := v.g
	skip := fn.Label("novec")
	g.CMPQ(n, operand.U32(polyVecMin))
	g.JB(operand.LabelRef(skip))
	fn.Phase("Poly1305 on zmm: groups of 8 blocks in 8 lanes")
	mask, pad := g.ZMM(), g.ZMM()
	g.VPBROADCASTQ(zp.mask26, mask)
	g.VPBROADCASTQ(zp.pad24, pad)
	var h [5]reg.VecVirtual
	for i, l := range limbs(g, p.h0, p.h1, p.h2) {
		// Broadcast, then masked to lane 0: avo's allocator takes a write
		// of the low qword alone (or a zeroing XOR, which it reads as a
		// use) for a partial one, and would keep the register live from
		// the function's entry.
		h[i] = g.ZMM()
		g.VPBROADCASTQ(l, h[i])
		v.And(zp.lane0, h[i], h[i])
	}
	var r8, s8, rt, st [5]operand.Op
	for i := range 5 {
		x := g.ZMM()
		g.VPBROADCASTQ(powRow(pow, i), x) // lane 0: r⁸
		r8[i] = x
		rt[i] = powRow(pow, i)
		if i > 0 {
			y := g.ZMM()
			g.VPBROADCASTQ(powRow(pow, 4+i), y)
			s8[i] = y
			st[i] = powRow(pow, 4+i)
		}
	}
	loop, last := fn.Label("vloop"), fn.Label("vlast")
	g.Label(loop)
	v.zAddBlocks(h, zp, msg, mask, pad)
	g.ADDQ(operand.U8(128), msg)
	g.SUBQ(operand.U8(128), n)
	g.CMPQ(n, operand.U8(128))
	g.JB(operand.LabelRef(last))
	for i, d := range v.zMul(h, r8, s8, mask) {
		v.Mov(d, h[i]) // the loop's registers
	}
	g.JMP(operand.LabelRef(loop))
	g.Label(last)
	h = v.zMul(h, rt, st, mask)
	v.zSum(h, p)
	g.Label(skip)
}

// zAddBlocks adds the eight blocks at msg, split into limbs with the 2¹²⁸
// pad bit, to the lanes of h.
func (v *vec) zAddBlocks(h [5]reg.VecVirtual, zp zPoly, msg reg.Register, mask, pad reg.VecVirtual) {
	g := v.g
	a, b, lo, hi, t, u := g.ZMM(), g.ZMM(), g.ZMM(), g.ZMM(), g.ZMM(), g.ZMM()
	v.Mov(operand.Mem{Base: msg}, a)
	v.Mov(operand.Mem{Base: msg, Disp: 64}, b)
	v.UnpackLoQ(b, a, lo)
	v.UnpackHiQ(b, a, hi)
	v.And(mask, lo, t)
	v.AddQ(t, h[0], h[0])
	v.SrlQ(26, lo, t)
	v.And(mask, t, t)
	v.AddQ(t, h[1], h[1])
	v.SrlQ(52, lo, t)
	v.SllQ(12, hi, u)
	v.Or(u, t, t)
	v.And(mask, t, t)
	v.AddQ(t, h[2], h[2])
	v.SrlQ(14, hi, t)
	v.And(mask, t, t)
	v.AddQ(t, h[3], h[3])
	v.SrlQ(40, hi, t)
	v.Or(pad, t, t)
	v.AddQ(t, h[4], h[4])
}

// zSum adds up the lanes of each limb of h (each below 2³⁰ then) and sets
// p's accumulator to the sum of the limbs, folded below 2¹³⁰ + 2⁷.
func (v *vec) zSum(h [5]reg.VecVirtual, p *poly) {
	g := v.g
	limb := func(i int) reg.GPVirtual {
		y, x, t := g.YMM(), g.XMM(), g.XMM()
		v.Extract256(h[i], y)
		v.AddQ(h[i].AsY().(reg.VecVirtual), y, y)
		v.Extract128(1, y, x)
		v.AddQ(xmm(y), x, x)
		v.ShufD(0x4e, x, t)
		v.AddQ(t, x, x)
		l := g.GP64()
		v.MovQ(x, l)
		return l
	}
	t := g.GP64()
	l := limb(2) // bits 52-81
	g.MOVQ(l, p.h1)
	g.SHRQ(operand.U8(12), p.h1)
	g.SHLQ(operand.U8(52), l)
	l0, l1 := limb(0), limb(1)
	g.SHLQ(operand.U8(26), l1)
	g.MOVQ(l0, p.h0)
	g.ADDQ(l, p.h0)
	g.ADCQ(operand.U8(0), p.h1)
	g.ADDQ(l1, p.h0)
	g.ADCQ(operand.U8(0), p.h1)
	l = limb(4) // bits 104-133
	g.MOVQ(l, p.h2)
	g.SHRQ(operand.U8(24), p.h2)
	g.SHLQ(operand.U8(40), l)
	l3 := limb(3)
	g.SHLQ(operand.U8(14), l3)
	g.ADDQ(l, p.h1)
	g.ADCQ(operand.U8(0), p.h2)
	g.ADDQ(l3, p.h1)
	g.ADCQ(operand.U8(0), p.h2)
	// The bits above 2¹³⁰, times 5, back into the low word.
	g.MOVQ(p.h2, t)
	g.SHRQ(operand.U8(2), t)
	g.ANDQ(operand.U8(3), p.h2)
	g.LEAQ(operand.Mem{Base: t, Index: t, Scale: 4}, t)
	g.ADDQ(t, p.h0)
	g.ADCQ(operand.U8(0), p.h1)
	g.ADCQ(operand.U8(0), p.h2)
}

// hashText absorbs the n bytes at msg, zero-padded to a multiple of 16:
// the groups of eight blocks on zmm when there are enough of them, the
// rest with the scalar code. It advances msg and clobbers n.
func (v *vec) hashText(fn *asmgen.Func, p *poly, zp zPoly, msg, n reg.Register, pow operand.Mem) {
	v.polyVec(fn, p, zp, msg, n, pow)
	p.padded(fn, msg, n)
}

// declarePolyBlocksZ declares the avx512 Poly1305 block kernel of the Go
// drivers (polyBlocks in kernels.go, the polyState layout h[3], r[2],
// s[2]): zmm for polyVecMin bytes and more, the scalar chain for the rest.
func declarePolyBlocksZ(g *asmgen.Generator, v *vec, zp zPoly, name string) {
	g.Const("polyVecMin"+g.Suffix(), polyVecMin, "polyVecMin"+g.Suffix()+" is the least text, in bytes, that Poly1305 hashes on zmm ("+
		name+", and the additional data and text of the long functions); shorter texts take the scalar chain.")
	fn := g.Func(name, "func(p *[7]uint64, msg *byte, n int)",
		asmgen.Doc(name+" absorbs the n/16 full blocks at msg into the Poly1305 state p (h, r, s); n is a multiple of 16."),
		asmgen.Secret("p"), asmgen.Public("msg", "n"), asmgen.Len("msg", "n"), asmgen.Scratch(powTableSize+8+64))
	st, msg, n := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("p"), st)
	g.Load(g.Param("msg"), msg)
	g.Load(g.Param("n"), n)
	sc := v.alignedScratch(fn)
	pow, s1 := sc, sc.Offset(powTableSize)
	{
		r1, t := g.GP64(), g.GP64()
		g.MOVQ(operand.Mem{Base: st, Disp: 32}, r1)
		s1Of(g, r1, t)
		g.MOVQ(t, s1)
	}
	h := newPoly(g, operand.Mem{Base: st, Disp: 24}, operand.Mem{Base: st, Disp: 32}, s1)
	small := fn.Label("small")
	g.CMPQ(n, operand.U32(polyVecMin))
	g.JB(operand.LabelRef(small))
	fn.Phase("key powers: r¹..r⁸ in 26-bit limbs")
	v.polyPowers(fn, h, pow)
	g.Label(small)
	h.load(operand.Mem{Base: st})
	v.polyVec(fn, h, zp, msg, n, pow)
	fn.Phase("remainder: one block at a time")
	h.blocks(fn, msg, n)
	h.store(operand.Mem{Base: st})
	fn.Ret()
}
