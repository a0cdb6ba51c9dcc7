package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// keyRegs are the registers every function keeps for the key: the table,
// the number of rounds (10, 12 or 14: public, the key size) and rkm, which
// points 16*(rounds-10) bytes into the table so that the last nine middle
// rounds are at rkm+16..rkm+144 and the last round key at rkm+160 for every
// key size.
type keyRegs struct {
	t, rounds, rkm reg.GPVirtual
}

func (e *emitter) loadKey(tName, roundsName string) keyRegs {
	k := keyRegs{e.GP64(), e.GP64(), e.GP64()}
	e.Load(e.Param(tName), k.t)
	e.Load(e.Param(roundsName), k.rounds)
	e.MOVQ(k.rounds, k.rkm)
	e.SHLQ(operand.U8(4), k.rkm)
	e.ADDQ(k.t, k.rkm)
	e.SUBQ(operand.U32(160), k.rkm)
	return k
}

// ctrBlocks sets s[i] to the counter block ctr+i (ctr byte-reflected, its
// 32-bit counter in dword 0) XOR round key 0.
func (e *emitter) ctrBlocks(k keyRegs, ctr reg.VecVirtual, s []reg.VecVirtual) {
	for i, x := range s {
		if i == 0 {
			e.pshufb(e.c.bswap, ctr, x)
		} else {
			e.paddd(e.c.incs.Offset(16*i), ctr, x)
			e.pshufb(e.c.bswap, x, x)
		}
		e.xor(mem(k.t, offRK), x, x)
	}
}

// aesRounds runs rounds 1..rounds-1 on s: the extra rounds of AES-192 and
// AES-256 first, then the nine rounds every key size has, emitting hook(j)
// after the j-th of those (j = 1..9).
func (e *emitter) aesRounds(k keyRegs, s []reg.VecVirtual, hook func(j int)) {
	mid := e.label("aesmid")
	e.CMPQ(k.rounds, operand.U8(10))
	e.JE(ref(mid))
	for r := 1; r <= 2; r++ {
		for _, x := range s {
			e.aesenc(mem(k.t, offRK+16*r), x)
		}
	}
	e.CMPQ(k.rounds, operand.U8(12))
	e.JE(ref(mid))
	for r := 3; r <= 4; r++ {
		for _, x := range s {
			e.aesenc(mem(k.t, offRK+16*r), x)
		}
	}
	e.Label(mid)
	for j := 1; j <= 9; j++ {
		for _, x := range s {
			e.aesenc(mem(k.rkm, 16*j), x)
		}
		if hook != nil {
			hook(j)
		}
	}
}

// encryptBlocks encrypts the blocks in s in place (round key 0 included).
func (e *emitter) encryptBlocks(k keyRegs, s []reg.VecVirtual) {
	for _, x := range s {
		e.xor(mem(k.t, offRK), x, x)
	}
	e.aesRounds(k, s, nil)
	for _, x := range s {
		e.aesenclast(mem(k.rkm, 160), x)
	}
}

// slideAddr returns a register pointing into the slide table, so that the
// 16 bytes at +16-k shift a block up by k bytes (PSHUFB) and those at
// +16+k shift it down by k.
func (e *emitter) slideAddr() reg.GPVirtual {
	p := e.GP64()
	e.LEAQ(e.c.slide, p)
	return p
}

// shiftBy loads into m the shuffle moving bytes up by n+bias bytes
// (up=true: the mask at 16-(n+bias)) or down by n+bias bytes.
func (e *emitter) slideMask(n reg.Register, bias int, up bool, m reg.VecVirtual) {
	p := e.slideAddr()
	if up {
		e.NEGQ(p) // p = -slide
		e.ADDQ(n, p)
		e.NEGQ(p) // p = slide - n
		e.load(mem(p, 16-bias), m)
	} else {
		e.ADDQ(n, p)
		e.load(mem(p, 16+bias), m)
	}
}

// loadPartial sets x to the n bytes at src (1 <= n <= 15) followed by zeros,
// reading exactly [src, src+n): two overlapping loads of the widest size
// that fits (8, 4, 2 or 1 bytes), the second shifted into place.
func (e *emitter) loadPartial(src, n reg.Register, x reg.VecVirtual) {
	e.loadPartialFrom(src, n, x, 1)
}

// loadPartialFrom is loadPartial for least <= n <= 15 (least public and
// known when generating): the size classes narrower than least, which no n
// reaches, are not emitted, nor the branch to them.
func (e *emitter) loadPartialFrom(src, n reg.Register, x reg.VecVirtual, least int) {
	done := e.label("lddone")
	y, m := e.xmm(), e.xmm()
	p, g := e.GP64(), e.GP64()
	tail := func(width int, ld func(operand.Mem, reg.GPVirtual)) {
		e.LEAQ(operand.Mem{Base: src, Index: n, Scale: 1, Disp: -width}, p)
		ld(mem(p, 0), g)
		e.movqIn(g, y)
		e.slideMask(n, -width, true, m) // up by n-width
		e.pshufb(m, y, y)
		e.or(y, x, x)
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
			e.movqIn(g, x)
			tail(c.width, c.ld)
			e.Label(done)
			return
		}
		next := e.label(fmt.Sprintf("ld%d", c.width/2))
		e.CMPQ(n, operand.U8(c.width))
		e.JB(ref(next))
		c.head()
		e.movqIn(g, x)
		tail(c.width, c.ld)
		e.JMP(ref(done))
		e.Label(next)
	}
	e.MOVBQZX(mem(src, 0), g)
	e.movqIn(g, x)
	e.Label(done)
}

// storePartial writes the low n bytes of x to dst (1 <= n <= 15), writing
// exactly [dst, dst+n): two overlapping stores of the widest size that fits.
// x is preserved.
func (e *emitter) storePartial(dst, n reg.Register, x reg.VecVirtual) {
	w4, w2, w1, done := e.label("st4"), e.label("st2"), e.label("st1"), e.label("stdone")
	y, m := e.xmm(), e.xmm()
	p, g := e.GP64(), e.GP64()
	tail := func(width int, st func(reg.GPVirtual, operand.Mem)) {
		e.slideMask(n, -width, false, m) // down by n-width
		e.pshufb(m, x, y)
		e.movqOut(y, g)
		e.LEAQ(operand.Mem{Base: dst, Index: n, Scale: 1, Disp: -width}, p)
		st(g, mem(p, 0))
		e.JMP(ref(done))
	}
	e.movqOut(x, g)
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
