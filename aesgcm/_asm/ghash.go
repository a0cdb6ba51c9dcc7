package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// GHASH in the formulation of Biggers (ALGORITHMS.md section 1.1): blocks
// are only byte-reflected (PSHUFB with bswapMask), the hash key is
// pre-multiplied by x^-1 once at key setup, so that the carry-less product
// of two byte-reflected operands followed by the two folds below is the GF(2^128)
// product with no bit reflection or shift. Products are Karatsuba
// (LO = aL*bL, HI = aH*bH, MI = (aL^aH)*(bL^bH)) with the (bL^bH) of each key
// power precomputed; several products are summed unreduced and reduced once.

// Key table layout (16-byte aligned; the Go side's aesniTable). The powers
// H^16..H^1 are contiguous, and so are their halves, so that a run of
// consecutive powers can be walked with one pointer.
const (
	offRK    = 0               // 15 round keys, standard byte order
	offPow16 = 15 * 16         // H^16, ..., H^9 (each times x^-1), byte-reflected
	offPow   = offPow16 + 8*16 // H^8, H^7, ..., H^1
	offKar16 = offPow + 8*16   // for each power, hL^hH in both qwords
	offKar   = offKar16 + 8*16
	tabSize  = offKar + 8*16
)

// Stream state layout (the Go side's aesniStream; unaligned).
const (
	stY    = 0  // GHASH accumulator, byte-reflected
	stCtr  = 16 // next counter block, byte-reflected (counter in dword 0)
	stMask = 32 // E(J0)
	stKS   = 48 // keystream of the block left open
	stOpen = 64 // ciphertext of the block left open, zero padded
	stSize = 80
)

// ghSum is an unreduced sum of Karatsuba products.
type ghSum struct{ lo, mi, hi reg.VecVirtual }

// mulAcc adds x times the key power at pw (whose halves XOR is at kw) to s;
// with first it sets s instead. x is preserved.
func (e *emitter) mulAcc(s ghSum, first bool, x reg.VecVirtual, pw, kw operand.Op) {
	if x == s.lo || x == s.mi || x == s.hi {
		panic("mulAcc: x aliases the sum")
	}
	if first {
		e.clmul(0x00, pw, x, s.lo)
		e.clmul(0x11, pw, x, s.hi)
		e.pshufd(0x4e, x, s.mi)
		e.xor(x, s.mi, s.mi)
		e.clmul(0x00, kw, s.mi, s.mi)
		return
	}
	t := e.xmm()
	e.clmul(0x00, pw, x, t)
	e.xor(t, s.lo, s.lo)
	e.clmul(0x11, pw, x, t)
	e.xor(t, s.hi, s.hi)
	e.pshufd(0x4e, x, t)
	e.xor(x, t, t)
	e.clmul(0x00, kw, t, t)
	e.xor(t, s.mi, s.mi)
}

// reduce0 finishes the Karatsuba middle term and folds LO into MI.
func (e *emitter) reduce0(s ghSum) {
	e.xor(s.lo, s.mi, s.mi)
	e.xor(s.hi, s.mi, s.mi)
	t := e.xmm()
	e.clmul(0x10, e.c.gfpoly, s.lo, t)
	e.pshufd(0x4e, s.lo, s.lo)
	e.xor(s.lo, s.mi, s.mi)
	e.xor(t, s.mi, s.mi)
}

// reduce1 folds MI into HI, which then holds the reduced product.
func (e *emitter) reduce1(s ghSum) {
	t := e.xmm()
	e.clmul(0x10, e.c.gfpoly, s.mi, t)
	e.pshufd(0x4e, s.mi, s.mi)
	e.xor(s.mi, s.hi, s.hi)
	e.xor(t, s.hi, s.hi)
}

func (e *emitter) reduce(s ghSum) {
	e.reduce0(s)
	e.reduce1(s)
}

// powMem returns the table entries of H^(8-i): the power and its halves.
func powMem(t reg.Register, i int) (operand.Mem, operand.Mem) {
	return mem(t, offPow+16*i), mem(t, offKar+16*i)
}

// ghash8 hashes the 8 blocks at src into acc (aggregated with H^8..H^1,
// one reduction); hook(i), if not nil, is emitted after block i and after
// the first fold (i = 8).
func (e *emitter) ghash8(t reg.Register, acc reg.VecVirtual, src reg.Register, disp int, hook func(i int)) {
	s := ghSum{e.xmm(), e.xmm(), acc}
	for i := 0; i < 8; i++ {
		x := e.xmm()
		e.load(mem(src, disp+16*i), x)
		e.pshufb(e.c.bswap, x, x)
		if i == 0 {
			e.xor(acc, x, x)
		}
		pw, kw := powMem(t, i)
		e.mulAcc(s, i == 0, x, pw, kw)
		if hook != nil {
			hook(i)
		}
	}
	e.reduce0(s)
	if hook != nil {
		hook(8)
	}
	e.reduce1(s)
}

// ghashBytes hashes n bytes at src into acc: 8 blocks at a time, then the
// rest (a partial block zero padded) aggregated with one reduction. src and
// n are consumed.
func (e *emitter) ghashBytes(t reg.Register, acc reg.VecVirtual, src, n reg.GPVirtual) {
	loop, rest, done := e.label("gh8"), e.label("ghrest"), e.label("ghdone")
	e.Label(loop)
	e.CMPQ(n, operand.U8(128))
	e.JB(ref(rest))
	e.ghash8(t, acc, src, 0, nil)
	e.ADDQ(operand.U8(128), src)
	e.SUBQ(operand.U8(128), n)
	e.JMP(ref(loop))

	e.Label(rest)
	e.TESTQ(n, n)
	e.JZ(ref(done))
	// hp = &pow[8 - ceil(n/16)]
	hp := e.GP64()
	e.LEAQ(mem(n, 15), hp)
	e.SHRQ(operand.U8(4), hp)
	e.SHLQ(operand.U8(4), hp)
	e.NEGQ(hp)
	e.ADDQ(t, hp)
	s := ghSum{e.xmm(), e.xmm(), e.xmm()}
	e.zero(s.lo)
	e.zero(s.mi)
	e.zero(s.hi)
	blocks, part := e.label("ghblk"), e.label("ghpart")
	e.Label(blocks)
	e.CMPQ(n, operand.U8(16))
	e.JB(ref(part))
	x := e.xmm()
	e.load(mem(src, 0), x)
	e.pshufb(e.c.bswap, x, x)
	e.xor(acc, x, x)
	e.zero(acc)
	e.mulAcc(s, false, x, mem(hp, offPow+128), mem(hp, offKar+128))
	e.ADDQ(operand.U8(16), src)
	e.ADDQ(operand.U8(16), hp)
	e.SUBQ(operand.U8(16), n)
	e.JMP(ref(blocks))

	e.Label(part)
	red := e.label("ghred")
	e.TESTQ(n, n)
	e.JZ(ref(red))
	e.loadPartial(src, n, x)
	e.pshufb(e.c.bswap, x, x)
	e.xor(acc, x, x)
	e.zero(acc)
	e.mulAcc(s, false, x, mem(hp, offPow+128), mem(hp, offKar+128))
	e.Label(red)
	e.reduce(s)
	e.xor(s.hi, acc, acc)
	e.Label(done)
}

// lengthsBlock returns the byte-reflected block of the two bit lengths:
// aadBits in the high qword, textBits in the low one.
func (e *emitter) lengthsBlock(aadLen, textLen reg.Register) reg.VecVirtual {
	a, b := e.GP64(), e.GP64()
	e.MOVQ(aadLen, a)
	e.SHLQ(operand.U8(3), a)
	e.MOVQ(textLen, b)
	e.SHLQ(operand.U8(3), b)
	x, y := e.xmm(), e.xmm()
	e.movqIn(b, x)
	e.movqIn(a, y)
	e.punpcklqdq(y, x, x)
	return x
}
