package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The partial blocks (fewer than 16 bytes) go through general-purpose
// registers rather than asmgen's LoadPartial and StorePartial: those are
// legacy SSE, and on the avx2 backend a legacy SSE instruction after ymm code
// pays the SSE/AVX transition (measured here: +250 ns on a 16-byte seal).
// Poly1305 wants the block in general registers anyway. Branches are on the
// public length only.

// loadPartialGP returns the n < 16 bytes at src, little-endian, zero-padded,
// in two registers, reading exactly [src, src+n). src and n are kept.
func loadPartialGP(fn *asmgen.Func, g *asmgen.Generator, src, n reg.Register) (lo, hi reg.GPVirtual) {
	lo, hi = g.GP64(), g.GP64()
	p, c := g.GP64(), g.GP64()
	small, part := fn.Label("ldsmall"), fn.Label("ldpart")
	g.XORQ(lo, lo)
	g.XORQ(hi, hi)
	g.MOVQ(src, p)
	g.MOVQ(n, c)
	g.CMPQ(n, operand.U8(8))
	g.JB(operand.LabelRef(small))
	g.MOVQ(operand.Mem{Base: src}, lo)
	g.ADDQ(operand.U8(8), p)
	g.SUBQ(operand.U8(8), c)
	g.Label(small)
	g.Label(part)
	t := loadUpTo7(fn, g, p, c)
	hiDst, end := fn.Label("ldhi"), fn.Label("lddone")
	g.CMPQ(n, operand.U8(8))
	g.JAE(operand.LabelRef(hiDst))
	g.MOVQ(t, lo)
	g.JMP(operand.LabelRef(end))
	g.Label(hiDst)
	g.MOVQ(t, hi)
	g.Label(end)
	return lo, hi
}

// loadUpTo7 returns the c < 8 bytes at p, little-endian, zero-extended:
// the last byte if c is odd, then the 2-byte piece, then the 4-byte piece at
// p, each shifted in below the ones before. p and c are kept.
func loadUpTo7(fn *asmgen.Func, g *asmgen.Generator, p, c reg.Register) reg.GPVirtual {
	t, u, q := g.GP64(), g.GP64(), g.GP64()
	no1, no2, no4 := fn.Label("ldno1"), fn.Label("ldno2"), fn.Label("ldno4")
	g.XORQ(t, t)
	g.TESTQ(operand.U32(1), c)
	g.JZ(operand.LabelRef(no1))
	g.MOVBQZX(operand.Mem{Base: p, Index: c, Scale: 1, Disp: -1}, t)
	g.Label(no1)
	g.TESTQ(operand.U32(2), c)
	g.JZ(operand.LabelRef(no2))
	g.MOVQ(c, q)
	g.ANDQ(operand.U8(4), q)
	g.MOVWQZX(operand.Mem{Base: p, Index: q, Scale: 1}, u)
	g.SHLQ(operand.U8(16), t)
	g.ORQ(u, t)
	g.Label(no2)
	g.TESTQ(operand.U32(4), c)
	g.JZ(operand.LabelRef(no4))
	g.MOVL(operand.Mem{Base: p}, u.As32())
	g.SHLQ(operand.U8(32), t)
	g.ORQ(u, t)
	g.Label(no4)
	return t
}

// storePartialGP writes the low n < 16 bytes of lo, hi (little-endian) to
// dst, writing exactly [dst, dst+n). dst and n are kept; lo and hi are
// clobbered.
func storePartialGP(fn *asmgen.Func, g *asmgen.Generator, dst, n reg.Register, lo, hi reg.GPVirtual) {
	p, c := g.GP64(), g.GP64()
	small := fn.Label("stsmall")
	g.MOVQ(dst, p)
	g.MOVQ(n, c)
	g.CMPQ(n, operand.U8(8))
	g.JB(operand.LabelRef(small))
	g.MOVQ(lo, operand.Mem{Base: p})
	g.ADDQ(operand.U8(8), p)
	g.SUBQ(operand.U8(8), c)
	g.MOVQ(hi, lo)
	g.Label(small)
	no4, no2, no1 := fn.Label("stno4"), fn.Label("stno2"), fn.Label("stno1")
	g.TESTQ(operand.U32(4), c)
	g.JZ(operand.LabelRef(no4))
	g.MOVL(lo.As32(), operand.Mem{Base: p})
	g.SHRQ(operand.U8(32), lo)
	g.ADDQ(operand.U8(4), p)
	g.Label(no4)
	g.TESTQ(operand.U32(2), c)
	g.JZ(operand.LabelRef(no2))
	g.MOVW(lo.As16(), operand.Mem{Base: p})
	g.SHRQ(operand.U8(16), lo)
	g.ADDQ(operand.U8(2), p)
	g.Label(no2)
	g.TESTQ(operand.U32(1), c)
	g.JZ(operand.LabelRef(no1))
	g.MOVB(lo.As8(), operand.Mem{Base: p})
	g.Label(no1)
}
