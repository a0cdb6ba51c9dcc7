package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// cursor is where the text comes from: one contiguous buffer (sp), or, for
// the gather seal, a walk over slice headers: sp and sn the current slice's
// next byte and bytes left, dp the next header. The Go side guarantees that
// the slices hold at least as many bytes as are read, so the walk needs no
// count.
type cursor struct {
	gather     bool
	sp, sn, dp reg.GPVirtual
}

// xorRun emits dst[i] = src[i] ^ ks[i] for i < c: 128 then 32 bytes at a
// time on the avx2 backend, then 16, then the partial block through general
// registers. It advances dst, src and ks by c and leaves c zero. ks may be unaligned.
func (v *vec) xorRun(fn *asmgen.Func, dst, src, ks, c reg.Register) {
	g := v.g
	l16, tail := fn.Label("xr16"), fn.Label("xrtail")
	if v.avx {
		// 128 bytes an iteration while they last: the loop's own
		// instructions (pointer steps, count, branch) once per four
		// vectors.
		l128, l32 := fn.Label("xr128"), fn.Label("xr32")
		g.Label(l128)
		g.CMPQ(c, operand.U8(128))
		g.JB(operand.LabelRef(l32))
		for i := range 4 {
			y := g.YMM()
			g.VMOVDQU(operand.Mem{Base: src, Disp: 32 * i}, y)
			g.VPXOR(operand.Mem{Base: ks, Disp: 32 * i}, y, y)
			g.VMOVDQU(y, operand.Mem{Base: dst, Disp: 32 * i})
		}
		g.ADDQ(operand.U32(128), src)
		g.ADDQ(operand.U32(128), dst)
		g.ADDQ(operand.U32(128), ks)
		g.SUBQ(operand.U32(128), c)
		g.JMP(operand.LabelRef(l128))
		g.Label(l32)
		g.CMPQ(c, operand.U8(32))
		g.JB(operand.LabelRef(l16))
		y := g.YMM()
		g.VMOVDQU(operand.Mem{Base: src}, y)
		g.VPXOR(operand.Mem{Base: ks}, y, y)
		g.VMOVDQU(y, operand.Mem{Base: dst})
		g.ADDQ(operand.U8(32), src)
		g.ADDQ(operand.U8(32), dst)
		g.ADDQ(operand.U8(32), ks)
		g.SUBQ(operand.U8(32), c)
		g.JMP(operand.LabelRef(l32))
	}
	g.Label(l16)
	g.CMPQ(c, operand.U8(16))
	g.JB(operand.LabelRef(tail))
	x, k := g.XMM(), g.XMM()
	v.movX(operand.Mem{Base: src}, x)
	v.movX(operand.Mem{Base: ks}, k)
	v.xorX(x, k)
	v.movX(x, operand.Mem{Base: dst})
	g.ADDQ(operand.U8(16), src)
	g.ADDQ(operand.U8(16), dst)
	g.ADDQ(operand.U8(16), ks)
	g.SUBQ(operand.U8(16), c)
	if !v.avx {
		g.JMP(operand.LabelRef(l16))
	}
	// The last c < 16 bytes: 8, 4, 2 and 1 at a time by the bits of c,
	// through one general register, touching nothing past the buffers.
	g.Label(tail)
	t := g.GP64()
	for _, w := range []int{8, 4, 2, 1} {
		skip := fn.Label("xrno")
		g.TESTQ(operand.U32(w), c)
		g.JZ(operand.LabelRef(skip))
		src0, ks0, dst0 := operand.Mem{Base: src}, operand.Mem{Base: ks}, operand.Mem{Base: dst}
		switch w {
		case 8:
			g.MOVQ(src0, t)
			g.XORQ(ks0, t)
			g.MOVQ(t, dst0)
		case 4:
			g.MOVL(src0, t.As32())
			g.XORL(ks0, t.As32())
			g.MOVL(t.As32(), dst0)
		case 2:
			g.MOVW(src0, t.As16())
			g.XORW(ks0, t.As16())
			g.MOVW(t.As16(), dst0)
		case 1:
			g.MOVB(src0, t.As8())
			g.XORB(ks0, t.As8())
			g.MOVB(t.As8(), dst0)
		}
		g.ADDQ(operand.U8(w), src)
		g.ADDQ(operand.U8(w), ks)
		g.ADDQ(operand.U8(w), dst)
		g.Label(skip)
	}
	g.XORQ(c, c)
}

// xorCursor emits the XOR of m bytes of keystream at ks with the text at
// the cursor, written to dst: contiguous, one run; gathered, a run per
// slice, moving to the next header whenever the current slice is used up.
// dst, ks and the cursor advance; m is left zero.
func (v *vec) xorCursor(fn *asmgen.Func, dst, ks, m reg.Register, cur *cursor) {
	g := v.g
	if !cur.gather {
		v.xorRun(fn, dst, cur.sp, ks, m)
		return
	}
	loop, fill, have, done := fn.Label("gloop"), fn.Label("gfill"), fn.Label("ghave"), fn.Label("gdone")
	g.Label(loop)
	g.TESTQ(m, m)
	g.JZ(operand.LabelRef(done))
	g.Label(fill)
	g.TESTQ(cur.sn, cur.sn)
	g.JNZ(operand.LabelRef(have))
	g.MOVQ(operand.Mem{Base: cur.dp}, cur.sp)
	g.MOVQ(operand.Mem{Base: cur.dp, Disp: 8}, cur.sn)
	g.ADDQ(operand.U8(asmgen.SliceHeaderSize), cur.dp)
	g.JMP(operand.LabelRef(fill))
	g.Label(have)
	c := g.GP64()
	g.MOVQ(m, c)
	g.CMPQ(c, cur.sn)
	g.CMOVQHI(cur.sn, c)
	g.SUBQ(c, m)
	g.SUBQ(c, cur.sn)
	v.xorRun(fn, dst, cur.sp, ks, c)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
}
