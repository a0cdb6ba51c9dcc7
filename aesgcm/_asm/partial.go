package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// Partial blocks, the pre-counter block and the tag, in xmm registers for
// every width.

// slideMask loads into m the shuffle moving bytes up by n+bias bytes
// (up: the 16 bytes at slide+16-(n+bias)) or down by n+bias bytes (at
// slide+16+(n+bias)).
func (e *gcm) slideMask(n reg.Register, bias int, up bool, m reg.VecVirtual) {
	p := e.GP64()
	e.LEAQ(e.c.slide, p)
	if up {
		e.NEGQ(p) // p = -slide
		e.ADDQ(n, p)
		e.NEGQ(p) // p = slide - n
		e.Mov(mem(p, 16-bias), m)
	} else {
		e.ADDQ(n, p)
		e.Mov(mem(p, 16+bias), m)
	}
}

// keepMask returns the 16-byte mask keeping the first n bytes (0 < n < 16)
// of a block.
func (e *gcm) keepMask(n reg.Register) operand.Mem {
	o := e.GP64()
	e.LEAQ(e.c.ones, o)
	e.SUBQ(n, o)
	return mem(o, 16)
}

// loadPartial sets x to the n bytes at src (1 <= n <= 15) followed by zeros,
// reading exactly [src, src+n): two overlapping loads of the widest size
// that fits (8, 4, 2 or 1 bytes), the second shifted into place.
func (e *gcm) loadPartial(src, n reg.Register, x reg.VecVirtual) {
	e.loadPartialFrom(src, n, x, 1)
}

// loadPartialFrom is loadPartial for least <= n <= 15 (least public and
// known when generating): the size classes narrower than least, which no n
// reaches, are not emitted, nor the branch to them.
func (e *gcm) loadPartialFrom(src, n reg.Register, x reg.VecVirtual, least int) {
	done := e.label("lddone")
	y, m := e.xmm(), e.xmm()
	p, g := e.GP64(), e.GP64()
	tail := func(width int, ld func(operand.Mem, reg.GPVirtual)) {
		e.LEAQ(operand.Mem{Base: src, Index: n, Scale: 1, Disp: -width}, p)
		ld(mem(p, 0), g)
		e.MovQ(g, y)
		e.slideMask(n, -width, true, m) // up by n-width
		e.ShufB(m, y, y)
		e.Or(y, x, x)
	}
	classes := []struct {
		width int
		head  func()
		ld    func(operand.Mem, reg.GPVirtual)
	}{
		{8, func() { e.MOVQ(mem(src, 0), g) }, func(m operand.Mem, r reg.GPVirtual) { e.MOVQ(m, r) }},
		{4, func() { e.MOVL(mem(src, 0), g.As32()) }, func(m operand.Mem, r reg.GPVirtual) { e.MOVL(m, r.As32()) }},
		{2, func() { e.MOVWQZX(mem(src, 0), g) }, func(m operand.Mem, r reg.GPVirtual) { e.MOVWQZX(m, r) }},
	}
	for _, c := range classes {
		if least >= c.width {
			// Every n reaches this class: no test, no classes after it.
			c.head()
			e.MovQ(g, x)
			tail(c.width, c.ld)
			e.Label(done)
			return
		}
		next := e.label(fmt.Sprintf("ld%d", c.width/2))
		e.CMPQ(n, operand.U8(c.width))
		e.JB(ref(next))
		c.head()
		e.MovQ(g, x)
		tail(c.width, c.ld)
		e.JMP(ref(done))
		e.Label(next)
	}
	e.MOVBQZX(mem(src, 0), g)
	e.MovQ(g, x)
	e.Label(done)
}

// storePartial writes the low n bytes of x to dst (1 <= n <= 15), writing
// exactly [dst, dst+n): two overlapping stores of the widest size that fits.
// x is preserved.
func (e *gcm) storePartial(dst, n reg.Register, x reg.VecVirtual) {
	w4, w2, w1, done := e.label("st4"), e.label("st2"), e.label("st1"), e.label("stdone")
	y, m := e.xmm(), e.xmm()
	p, g := e.GP64(), e.GP64()
	tail := func(width int, st func(reg.GPVirtual, operand.Mem)) {
		e.slideMask(n, -width, false, m) // down by n-width
		e.ShufB(m, x, y)
		e.MovQ(y, g)
		e.LEAQ(operand.Mem{Base: dst, Index: n, Scale: 1, Disp: -width}, p)
		st(g, mem(p, 0))
		e.JMP(ref(done))
	}
	e.MovQ(x, g)
	e.CMPQ(n, operand.U8(8))
	e.JB(ref(w4))
	e.MOVQ(g, mem(dst, 0))
	tail(8, func(r reg.GPVirtual, m operand.Mem) { e.MOVQ(r, m) })

	e.Label(w4)
	e.CMPQ(n, operand.U8(4))
	e.JB(ref(w2))
	e.MOVL(g.As32(), mem(dst, 0))
	tail(4, func(r reg.GPVirtual, m operand.Mem) { e.MOVL(r.As32(), m) })

	e.Label(w2)
	e.CMPQ(n, operand.U8(2))
	e.JB(ref(w1))
	e.MOVW(g.As16(), mem(dst, 0))
	tail(2, func(r reg.GPVirtual, m operand.Mem) { e.MOVW(r.As16(), m) })

	e.Label(w1)
	e.MOVB(g.As8(), mem(dst, 0))
	e.Label(done)
}

// loadJ0 loads the 16-byte pre-counter block at j0 as two 8-byte loads:
// the Go side writes it as two words (aesgcm's counter type), and a
// 16-byte load of two 8-byte stores would wait for them to reach the cache
// instead of being forwarded from them.
func (e *gcm) loadJ0(j0 reg.Register, x reg.VecVirtual) {
	e.MovQ(mem(j0, 0), x)
	e.InsertQ1(mem(j0, 8), x)
}

// tagStore returns the tag output of a seal: the 16 bytes stored at the
// parameter "tag".
func (e *gcm) tagStore() func(x reg.VecVirtual) {
	return func(x reg.VecVirtual) { e.Mov(x, mem(e.gp("tag"), 0)) }
}

// tagCheck returns the tag output of an open: the function returns 1 if the
// first tagLen bytes of x (the parameter "tagLen", 12 to 16, public) equal
// the tagLen bytes at the parameter "tag", else 0. The comparison is in
// registers and constant time: the expected tag is loaded (a partial load
// of 12 to 15 bytes below 16, which zero-pads), x masked to tagLen bytes,
// the two XORed, the 16 byte comparisons with zero gathered by PMOVMSKB and
// compared with 0xffff by SETEQ. Comparing here rather than in Go keeps the
// computed tag out of memory, where a 16-byte store read back by smaller
// loads is forwarded or not depending on where the stack slot falls.
func (e *gcm) tagCheck() func(x reg.VecVirtual) {
	return func(x reg.VecVirtual) {
		tag, tagLen := e.gp("tag"), e.gp("tagLen")
		want := e.xmm()
		full, loaded := e.label("tagfull"), e.label("tagloaded")
		e.CMPQ(tagLen, operand.U8(16))
		e.JE(ref(full))
		e.loadPartialFrom(tag, tagLen, want, 12)
		e.AndU(e.keepMask(tagLen), x, x)
		e.JMP(ref(loaded))
		e.Label(full)
		e.Mov(mem(tag, 0), want)
		e.Label(loaded)
		e.Xor(want, x, x)
		z, bits, ok := e.xmm(), e.GP32(), e.GP64()
		e.Zero(z)
		if e.Encoding() == asmgen.EVEX {
			// PMOVMSKB has no EVEX form: the comparison sets an opmask.
			k := e.K()
			e.VPCMPEQB(z, x, k)
			e.KMOVW(k, bits)
		} else {
			e.CmpEqB(z, x, x)
			e.MovMskB(x, bits)
		}
		e.XORQ(ok, ok)
		e.CMPL(bits, operand.U32(0xffff))
		e.SETEQ(ok.As8())
		e.Store(ok, e.ReturnIndex(0))
	}
}
