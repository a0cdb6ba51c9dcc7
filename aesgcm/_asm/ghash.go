package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// GHASH in the formulation of Linux's aes-gcm-aesni-x86_64.S: blocks
// are only byte-reflected (PSHUFB with bswapMask), the hash key is
// pre-multiplied by x^-1 once at key setup, so that the carry-less product
// of two byte-reflected operands followed by the two folds below is the
// GF(2^128) product with no bit reflection or shift. Products are Karatsuba
// (LO = aL*bL, HI = aH*bH, MI = (aL^aH)*(bL^bH)) with the (bL^bH) of each
// key power precomputed; several products are summed unreduced and reduced
// once. On wide registers every lane is a block of its own: a sum holds
// lanes partial sums, which fold adds together after the reduction.

// sum is an unreduced sum of Karatsuba products, lane by lane.
type sum struct{ lo, mi, hi reg.VecVirtual }

// newSum returns a zeroed sum.
func (e *gcm) newSum() sum {
	s := sum{e.vreg(), e.vreg(), e.vreg()}
	e.Zero(s.lo)
	e.Zero(s.mi)
	e.Zero(s.hi)
	return s
}

// sumInto returns a sum whose reduction is to replace acc: on xmm acc is
// its hi (the reduction leaves the product there), on wide registers the
// lanes are folded into acc after it (setFold).
func (e *gcm) sumInto(acc reg.VecVirtual) sum {
	if e.lanes == 1 {
		return sum{e.vreg(), e.vreg(), acc}
	}
	return sum{e.vreg(), e.vreg(), e.vreg()}
}

// mulAcc adds x times the key powers at pw (whose halves' XOR is at kw),
// lane by lane, to s; with first it sets s instead. x is preserved.
func (e *gcm) mulAcc(s sum, first bool, x reg.VecVirtual, pw, kw operand.Op) {
	if x == s.lo || x == s.mi || x == s.hi {
		panic("mulAcc: x aliases the sum")
	}
	if first {
		e.ClMul(0x00, pw, x, s.lo)
		e.ClMul(0x11, pw, x, s.hi)
		e.ShufD(0x4e, x, s.mi)
		e.Xor(x, s.mi, s.mi)
		e.ClMul(0x00, kw, s.mi, s.mi)
		return
	}
	t := e.vreg()
	e.ClMul(0x00, pw, x, t)
	e.Xor(t, s.lo, s.lo)
	e.ClMul(0x11, pw, x, t)
	e.Xor(t, s.hi, s.hi)
	e.ShufD(0x4e, x, t)
	e.Xor(x, t, t)
	e.ClMul(0x00, kw, t, t)
	e.Xor(t, s.mi, s.mi)
}

// mulAcc1 is mulAcc of the block in x's low lane (the lanes above zero)
// times the one power at pw (halves at kw): on wide registers the power is
// broadcast, so the other lanes' products are zero.
func (e *gcm) mulAcc1(s sum, first bool, x reg.VecVirtual, pw, kw operand.Mem) {
	if e.lanes == 1 {
		e.mulAcc(s, first, x, pw, kw)
		return
	}
	p, q := e.vreg(), e.vreg()
	e.Broadcast128(pw, p)
	e.Broadcast128(kw, q)
	e.mulAcc(s, first, x, p, q)
}

// reduce0 finishes the Karatsuba middle term and folds LO into MI.
func (e *gcm) reduce0(s sum) {
	e.Xor3(s.lo, s.hi, s.mi)
	e.foldInto(s.lo, s.mi)
}

// reduce1 folds MI into HI, which then holds the reduced product of each
// lane.
func (e *gcm) reduce1(s sum) { e.foldInto(s.mi, s.hi) }

// foldInto folds the low qword of each lane of x (the part of the product
// to be reduced) into the next 128 bits, held by into's lanes: the qword
// times the reduction constant, and x with its qwords swapped, XORed into
// into. x is clobbered.
func (e *gcm) foldInto(x, into reg.VecVirtual) {
	t := e.vreg()
	e.ClMul(0x10, e.c.poly, x, t)
	e.ShufD(0x4e, x, x)
	e.Xor3(x, t, into)
}

func (e *gcm) reduce(s sum) {
	e.reduce0(s)
	e.reduce1(s)
}

// setFold sets acc (its low lane; the lanes above zero) to the sum of the
// lanes of the reduced s.hi. On xmm, for a sum from sumInto, acc is s.hi:
// nothing to do.
func (e *gcm) setFold(s sum, acc reg.VecVirtual) {
	if s.hi == acc {
		return
	}
	if e.lanes == 1 {
		e.Mov(s.hi, acc)
		return
	}
	h := e.halve(s.hi)
	t := e.xmm()
	e.Extract128(1, h, t)
	e.Xor(t, lo(h), lo(acc))
}

// halve returns the ymm register of x's lanes (zmm: the sum of its two
// halves, in a new register).
func (e *gcm) halve(x reg.VecVirtual) reg.VecVirtual {
	if e.lanes < 4 {
		return x
	}
	y := e.YMM()
	e.Extract256(x, y)
	e.Xor(x.AsY().(reg.VecVirtual), y, y)
	return y
}

// addFold adds the lanes of the reduced s.hi to acc's low lane.
func (e *gcm) addFold(s sum, acc reg.VecVirtual) {
	if e.lanes == 1 {
		e.Xor(s.hi, acc, acc)
		return
	}
	h := e.halve(s.hi)
	t := e.xmm()
	e.Extract128(1, h, t)
	if e.lanes == 4 {
		e.Xor3(lo(h), t, lo(acc))
		return
	}
	e.Xor(lo(h), t, t)
	e.Xor(t, lo(acc), lo(acc))
}

// widen returns x (an xmm register) as the low lane of a register of the
// backend's width whose lanes above are zero: x itself on xmm.
func (e *gcm) widen(x reg.VecVirtual) reg.VecVirtual {
	if e.lanes == 1 {
		return x
	}
	y := e.zvreg()
	e.Mov(x, lo(y))
	return y
}

// mul1 sets acc to (acc ^ x) * H, x a block in an xmm register (which it
// may overwrite).
func (e *gcm) mul1(t reg.Register, acc, x reg.VecVirtual) {
	y := x
	if e.lanes > 1 {
		y = e.zvreg()
	}
	e.Xor(x, lo(acc), lo(y))
	s := sum{e.vreg(), e.vreg(), acc}
	e.mulAcc1(s, true, y, mem(t, e.pow(1)), mem(t, e.kar(1)))
	e.reduce(s)
}

// ghashBatch hashes a batch's blocks at src+disp into acc with
// H^blocks..H^1 and one reduction.
func (e *gcm) ghashBatch(t reg.Register, acc reg.VecVirtual, src reg.Register, disp int) {
	s := e.sumInto(acc)
	for i := 0; i < e.blocks/e.lanes; i++ {
		x := e.vreg()
		e.Mov(mem(src, disp+e.w()*i), x)
		e.ShufB(e.c.bswap, x, x)
		if i == 0 {
			e.Xor(acc, x, x)
		}
		m := e.blocks - e.lanes*i
		e.mulAcc(s, i == 0, x, mem(t, e.pow(m)), mem(t, e.kar(m)))
	}
	e.reduce(s)
	e.setFold(s, acc)
}

// ghashBytes hashes the n bytes at src into acc: a batch at a time with
// one reduction each, then the rest (whole registers, single blocks, a
// zero-padded partial block, each times its own power) with one
// reduction. src and n are consumed.
func (e *gcm) ghashBytes(t reg.Register, acc reg.VecVirtual, src, n reg.GPVirtual) {
	loop, rest, done := e.label("gh8"), e.label("ghrest"), e.label("ghdone")
	e.Label(loop)
	e.CMPQ(n, imm(e.bb()))
	e.JB(ref(rest))
	e.ghashBatch(t, acc, src, 0)
	e.ADDQ(imm(e.bb()), src)
	e.SUBQ(imm(e.bb()), n)
	e.JMP(ref(loop))

	e.Label(rest)
	e.TESTQ(n, n)
	e.JZ(ref(done))
	// hp = t - 16*ceil(n/16): the first block's power is at hp+pow(0).
	hp := e.GP64()
	e.LEAQ(mem(n, 15), hp)
	e.SHRQ(operand.U8(4), hp)
	e.SHLQ(operand.U8(4), hp)
	e.NEGQ(hp)
	e.ADDQ(t, hp)
	s := e.newSum()
	x := e.zvreg()
	// take hashes the block(s) in x: acc joins the first of them.
	take := func(size int, single bool) {
		e.Xor(acc, x, x)
		e.Zero(acc)
		if single {
			e.mulAcc1(s, false, x, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
		} else {
			e.mulAcc(s, false, x, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
		}
		e.ADDQ(operand.U8(size), src)
		e.ADDQ(operand.U8(size), hp)
		e.SUBQ(operand.U8(size), n)
	}
	regs, part, red := e.label("ghregs"), e.label("ghpart"), e.label("ghred")
	e.Label(regs)
	e.CMPQ(n, operand.U8(e.w()))
	e.JB(ref(part))
	e.Mov(mem(src, 0), x)
	e.ShufB(e.c.bswap, x, x)
	take(e.w(), false)
	e.JMP(ref(regs))

	e.Label(part)
	if e.lanes == 4 {
		e.TESTQ(n, n)
		e.JZ(ref(red))
		e.maskedHash(s, acc, src, n, hp)
		e.Label(red)
		e.reduce(s)
		e.addFold(s, acc)
		e.Label(done)
		return
	}
	if e.lanes > 1 {
		// Under a register's width: at most one whole block (lanes = 2).
		single := e.label("ghpart1")
		e.CMPQ(n, operand.U8(16))
		e.JB(ref(single))
		e.Mov(mem(src, 0), lo(x))
		e.ShufB(e.c.bswap, lo(x), lo(x))
		take(16, true)
		e.Label(single)
	}
	e.TESTQ(n, n)
	e.JZ(ref(red))
	e.loadPartial(src, n, lo(x))
	e.ShufB(e.c.bswap, lo(x), lo(x))
	e.Xor(acc, x, x)
	e.Zero(acc)
	e.mulAcc1(s, false, x, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
	e.Label(red)
	e.reduce(s)
	e.addFold(s, acc)
	e.Label(done)
}

// lengthsBlock returns the byte-reflected block of the two bit lengths:
// aadBits in the high qword, textBits in the low one.
func (e *gcm) lengthsBlock(aadLen, textLen reg.Register) reg.VecVirtual {
	a, b := e.GP64(), e.GP64()
	e.MOVQ(aadLen, a)
	e.SHLQ(operand.U8(3), a)
	e.MOVQ(textLen, b)
	e.SHLQ(operand.U8(3), b)
	x, y := e.xmm(), e.xmm()
	e.MovQ(b, x)
	e.MovQ(a, y)
	e.UnpackLoQ(y, x, x)
	return x
}
