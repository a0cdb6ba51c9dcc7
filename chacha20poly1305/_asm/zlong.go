package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The whole-message seal and open of the avx512 backend above shortMax:
// ChaCha20 in passes of 16 blocks, Poly1305 in a pass of its own over the
// whole text on zmm (vpoly.go). The fusion of avx2 (long.go) hides scalar
// Poly1305 behind the vector rounds because the two use different units;
// on zmm both are vector work competing for the same pipes, and the vector
// Poly1305 costs about a sixth of ChaCha20's instructions per byte, so the
// passes are kept apart: each loop then has its whole register file (the
// 16 state words, the 16 blocks of the transpose; the accumulator, r⁸ and
// the limbs of a group) and nothing is spilled.
//
// Pass 0 starts at block 0, which keys Poly1305; its blocks 1-15 (1-31 in
// a double pass, for texts over 960 bytes) are stored to the scratch, and
// cover the first 960 (1984) bytes of text. Open then
// hashes the additional data and the whole ciphertext before it decrypts a
// byte (out may be src), seal after it encrypts the last. With 2048 bytes
// of text left, contiguous in the current gather slice for seal, a double
// pass (zPasses: 32 blocks, two independent sets of rounds) XORs the
// keystream straight from the registers; with 1024, a single pass does;
// any other pass goes through the scratch and the cursor.

// zLayout is the scratch of the long functions (after alignment): pass 0's
// keystream (2048 bytes when it is a double pass; any later pass's that
// goes through the scratch, and the second pass's words in a later double
// pass, in its first 1024), the power table, the counters of
// the next pass and of the one after, r (r0, r1, s1), s, the
// lengths block and, for open, the accumulator between the hash and the
// tag.
type zLayout struct {
	sc                                       operand.Mem
	ks, pow, ctr, ctr2, r, sv, lens, h, size int
}

func newZLayout() zLayout {
	l := zLayout{ks: 0, pow: 2048}
	l.ctr = l.pow + powTableSize
	l.ctr2 = l.ctr + 64
	l.r = l.ctr2 + 64
	l.sv = l.r + 32
	l.lens = l.sv + 16
	l.h = l.lens + 16
	l.size = l.h + 24 + 64
	return l
}

func (l zLayout) at(off int) operand.Mem { return l.sc.Offset(off) }

// long returns the layout in long.go's terms for xorRegion, which reads
// only the scratch and the keystream offset.
func (l zLayout) long() longLayout { return longLayout{sc: l.sc, ks: l.ks} }

// declareLongZ declares the avx512 sealLong and openLong.
func declareLongZ(g *asmgen.Generator, v *vec, zp zPoly, suffix string) {
	lay := newZLayout()
	declareLongFuncs(g, suffix, lay.size,
		[]string{spillOut, spillRem, spillSlice, spillLeft, spillHeaders},
		[]string{spillOut, spillSrc, spillRem},
		func(fn *asmgen.Func, open bool) { v.longBodyZ(fn, zp, lay, open) })
}

// zPassesFromKey emits len(ctrs) lane passes (see zPasses) of the
// message's key and nonce, loaded from the function's arguments for them.
func (v *vec) zPassesFromKey(fn *asmgen.Func, ctrs []operand.Op, spill operand.Mem, out func(k int, blk [16]reg.VecVirtual)) {
	g := v.g
	key, nonce := g.GP64(), g.GP64()
	g.Load(g.Param("key"), key)
	g.Load(g.Param("nonce"), nonce)
	v.zPasses(fn, func(i int) operand.Mem {
		switch {
		case i < 4:
			return v.sigma.Offset(4 * i)
		case i < 12:
			return operand.Mem{Base: key, Disp: 4 * (i - 4)}
		default:
			return operand.Mem{Base: nonce, Disp: 4 * (i - 13)}
		}
	}, ctrs, spill, out)
}

// zPassFromKey is zPassesFromKey for one pass, whose keystream it returns.
func (v *vec) zPassFromKey(fn *asmgen.Func, ctr operand.Mem) [16]reg.VecVirtual {
	var blk [16]reg.VecVirtual
	v.zPassesFromKey(fn, []operand.Op{ctr}, operand.Mem{}, func(_ int, b [16]reg.VecVirtual) { blk = b })
	return blk
}

// hashADZ starts the hash: h = 0, then the additional data, zero-padded,
// on zmm when it is long enough.
func (v *vec) hashADZ(fn *asmgen.Func, p *poly, zp zPoly, pow operand.Mem) {
	p.hashADWith(fn, func(ad, adLen reg.Register) { v.hashText(fn, p, zp, ad, adLen, pow) })
}

// hashTextParam absorbs the function's n bytes at its argument ptr (src
// or out), zero-padded (see hashText).
func (v *vec) hashTextParam(fn *asmgen.Func, p *poly, zp zPoly, pow operand.Mem, ptr string) {
	g := v.g
	c, cn := g.GP64(), g.GP64()
	g.Load(g.Param(ptr), c)
	g.Load(g.Param("n"), cn)
	v.hashText(fn, p, zp, c, cn, pow)
}

// advance moves the running values past n bytes of text XORed straight
// from the registers: out and the source (srcSlot), the bytes left and,
// for seal, those of the current gather slice.
func (v *vec) advance(fn *asmgen.Func, srcSlot string, n int, open bool) {
	g := v.g
	for _, slot := range []string{spillOut, srcSlot} {
		g.ADDQ(operand.U32(n), fn.Spill(slot))
	}
	g.SUBQ(operand.U32(n), fn.Spill(spillRem))
	if !open {
		g.SUBQ(operand.U32(n), fn.Spill(spillLeft))
	}
}

// zlongGen is the state of the emission of one avx512 sealLong or
// openLong: the function, its Poly1305 on zmm and scratch layout, its
// scalar Poly1305 state, and whether it opens.
type zlongGen struct {
	v    *vec
	fn   *asmgen.Func
	zp   zPoly
	lay  zLayout
	p    *poly
	open bool
}

// pow is the scratch's table of r's powers.
func (e *zlongGen) pow() operand.Mem { return e.lay.at(e.lay.pow) }

// counters are the scratch's two counter rows: the next pass's and, in a
// double pass, the second one's.
func (e *zlongGen) counters() (ctr, ctr2 operand.Mem) {
	return e.lay.at(e.lay.ctr), e.lay.at(e.lay.ctr2)
}

// srcSlot is the spill slot of the text's next byte: src for open, the
// current gather slice's for seal.
func (e *zlongGen) srcSlot() string {
	if e.open {
		return spillSrc
	}
	return spillSlice
}

// longBodyZ emits the avx512 sealLong (open false) or openLong.
func (v *vec) longBodyZ(fn *asmgen.Func, zp zPoly, lay zLayout, open bool) {
	lay.sc = v.alignedScratch(fn)
	e := &zlongGen{v: v, fn: fn, zp: zp, lay: lay, open: open}
	e.setup()
	e.pass0()
	e.passes()
	e.finish()
}

// setup emits the running values, the lengths block and pass 0's counters.
func (e *zlongGen) setup() {
	g, fn, lay, v := e.v.g, e.fn, e.lay, e.v
	fn.Phase("key setup: the running values, the lengths block, the counters of pass 0")
	t := g.GP64()
	if e.open {
		g.Load(g.Param("src"), t)
		g.MOVQ(t, fn.Spill(spillSrc))
	} else {
		g.XORQ(t, t)
		g.MOVQ(t, fn.Spill(spillLeft))
		g.MOVQ(t, fn.Spill(spillSlice))
		g.Load(g.Param("srcs").Base(), t)
		g.MOVQ(t, fn.Spill(spillHeaders))
	}
	g.Load(g.Param("out"), t)
	g.MOVQ(t, fn.Spill(spillOut))
	storeLengths(g, fn, t, lay.at(lay.lens))
	c := g.ZMM()
	v.Mov(v.laneInc, c)
	v.Mov(c, lay.at(lay.ctr))
}

// pass0 emits the first pass (a double one above 960 bytes), whose block 0
// keys Poly1305, the powers of r, for open the whole ciphertext's hash, and
// the XOR of the pass's other blocks.
func (e *zlongGen) pass0() {
	g, fn, lay, v := e.v.g, e.fn, e.lay, e.v
	ctr, ctr2 := e.counters()
	fn.Phase("pass 0: block 0 keys Poly1305, blocks 1-15 the text's first 960 bytes")
	// Above 960 bytes, a double pass: blocks 1-31 cover 1984 bytes in
	// about the time one pass takes alone (see zPasses).
	double, done := fn.Label("zdouble0"), fn.Label("zpass0done")
	g.CMPQ(fn.Spill(spillRem), operand.U32(960))
	g.JA(operand.LabelRef(double))
	for j, b := range v.zPassFromKey(fn, ctr) {
		v.Mov(b, lay.at(lay.ks+64*j))
	}
	v.nextCounters(ctr, ctr)
	g.JMP(operand.LabelRef(done))
	g.Label(double)
	v.nextCounters(ctr, ctr2)
	v.zPassesFromKey(fn, []operand.Op{ctr, ctr2}, lay.at(lay.ks+1024), func(k int, blk [16]reg.VecVirtual) {
		for j, b := range blk {
			v.Mov(b, lay.at(lay.ks+1024*k+64*j))
		}
	})
	v.nextCounters(ctr2, ctr)
	g.Label(done)
	v.polyKey(lay.at(lay.ks), lay.at(lay.r), lay.at(lay.sv))
	e.p = newPoly(g, lay.at(lay.r), lay.at(lay.r+8), lay.at(lay.r+16))
	fn.Phase("key powers: r¹..r⁸ in 26-bit limbs")
	v.polyPowers(fn, e.p, e.pow())
	if e.open {
		v.hashADZ(fn, e.p, e.zp, e.pow())
		fn.Phase("ciphertext hash: Poly1305 over the whole text, before it is decrypted")
		v.hashTextParam(fn, e.p, e.zp, e.pow(), "src")
		e.p.store(lay.at(lay.h))
	}
	fn.Phase("pass 0's text: XOR with blocks 1-15 (1-31)")
	v.xorRegion(fn, lay.long(), 64, 1984, e.open)
}

// passes emits the main loop: double passes while 2048 bytes remain, else
// a single pass, XORed from the registers when a whole pass remains and
// through the scratch otherwise.
func (e *zlongGen) passes() {
	g, fn, v, open, srcSlot := e.v.g, e.fn, e.v, e.open, e.srcSlot()
	ctr, ctr2 := e.counters()
	fn.Phase("main loop: double passes of 32 blocks, the keystream XORed from the registers")
	loop, single, done, general := fn.Label("zpasses"), fn.Label("zsingle"), fn.Label("zpassesdone"), fn.Label("zgeneral")
	g.Label(loop)
	g.CMPQ(fn.Spill(spillRem), operand.U8(0))
	g.JE(operand.LabelRef(done))
	g.CMPQ(fn.Spill(spillRem), operand.U32(2048))
	g.JB(operand.LabelRef(single))
	if !open {
		g.CMPQ(fn.Spill(spillLeft), operand.U32(2048))
		g.JB(operand.LabelRef(single))
	}
	v.nextCounters(ctr, ctr2)
	v.zPassesFromKey(fn, []operand.Op{ctr, ctr2}, e.lay.at(e.lay.ks), func(k int, blk [16]reg.VecVirtual) {
		dst, src := g.GP64(), g.GP64()
		g.MOVQ(fn.Spill(spillOut), dst)
		g.MOVQ(fn.Spill(srcSlot), src)
		for j, b := range blk {
			v.zXor(b, dst, src, 1024*k+64*j)
		}
	})
	v.nextCounters(ctr2, ctr)
	v.advance(fn, srcSlot, 2048, open)
	g.JMP(operand.LabelRef(loop))
	e.singlePass(loop, single, general)
	g.Label(done)
}

// singlePass emits the single pass of 16 blocks at label single: XORed
// from the registers when a whole pass remains, else (at label general)
// through the scratch and the cursor; either jumps back to loop.
func (e *zlongGen) singlePass(loop, single, general string) {
	g, fn, v, open, srcSlot := e.v.g, e.fn, e.v, e.open, e.srcSlot()
	ctr, _ := e.counters()
	fn.Phase("single pass of 16 blocks")
	g.Label(single)
	blk := v.zPassFromKey(fn, ctr)
	v.nextCounters(ctr, ctr)
	g.CMPQ(fn.Spill(spillRem), operand.U32(1024))
	g.JB(operand.LabelRef(general))
	if !open {
		g.CMPQ(fn.Spill(spillLeft), operand.U32(1024))
		g.JB(operand.LabelRef(general))
	}
	fn.Phase("full pass: the keystream XORed from the registers")
	dst, src := g.GP64(), g.GP64()
	g.MOVQ(fn.Spill(spillOut), dst)
	g.MOVQ(fn.Spill(srcSlot), src)
	for j, b := range blk {
		v.zXor(b, dst, src, 64*j)
	}
	v.advance(fn, srcSlot, 1024, open)
	g.JMP(operand.LabelRef(loop))
	fn.Phase("general pass: the keystream through the scratch and the cursor")
	g.Label(general)
	for j, b := range blk {
		v.Mov(b, e.lay.at(e.lay.ks+64*j))
	}
	v.xorRegion(fn, e.lay.long(), 0, 1024, open)
	g.JMP(operand.LabelRef(loop))
}

// finish emits, for seal, the hash of the additional data and the whole
// ciphertext (open reloads the hash its pass 0 stored), then the tag.
func (e *zlongGen) finish() {
	g, fn, lay, p := e.v.g, e.fn, e.lay, e.p
	if e.open {
		p.load(lay.at(lay.h))
	} else {
		e.v.hashADZ(fn, p, e.zp, e.pow())
		fn.Phase("ciphertext hash: Poly1305 over the whole ciphertext in out")
		e.v.hashTextParam(fn, p, e.zp, e.pow(), "out")
	}
	p.tag(fn, lay.at(lay.lens), lay.at(lay.sv), e.open, func() reg.Register {
		out := g.GP64()
		g.MOVQ(fn.Spill(spillOut), out)
		return out
	})
}
