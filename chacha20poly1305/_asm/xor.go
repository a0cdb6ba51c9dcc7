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

// xorCursor emits the XOR of m bytes of keystream at ks with the text at
// the cursor, written to dst: contiguous, one run; gathered, a run per
// slice, moving to the next header whenever the current slice is used up.
// dst, ks and the cursor advance; m is left zero.
func (v *vec) xorCursor(fn *asmgen.Func, dst, ks, m reg.Register, cur *cursor) {
	g := v.g
	if !cur.gather {
		fn.XORBytes(dst, cur.sp, ks, m)
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
	fn.XORBytes(dst, cur.sp, ks, c)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
}
