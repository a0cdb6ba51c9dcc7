package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The whole-message seal and open of the avx2 backend above shortMax: the
// fused design (Krasnov's, in x/crypto and BoringSSL), but on the lane
// layout. Each pass computes 8 keystream blocks (512 bytes) into the scratch
// with the c words spilled as in the block kernel, and hashes up to 32
// Poly1305 blocks with scalar MULQ in between its quarter rounds: the vector
// units run ChaCha20 while the integer units run Poly1305, whose serial
// chain (the README's design notes measure it) is the longer of the two, so
// it is hidden except for one pass's worth of blocks.
//
// Pass 0 starts at block 0, which keys Poly1305: it hashes nothing, and its
// blocks 1-7 cover the first 448 bytes of text. Seal hashes during pass k the
// ciphertext that passes before it wrote (at most 32 blocks, so it lags by
// one pass) and the rest at the end. Open hashes during pass k the
// ciphertext pass k is about to decrypt, so that in-place decryption never
// overwrites unhashed ciphertext; pass 0's ciphertext is hashed once r is
// known, before it is decrypted.

// longLayout is the scratch of the long functions (after alignment). The
// public running values are not in it but in spill slots (see the spill*
// constants), which the taint check tracks apart from the scratch, whose
// bytes it cannot tell apart through the aligning register.
type longLayout struct {
	sc                    operand.Mem
	s, x, ks, r, sv, lens int
	size                  int
}

func newLongLayout(v *vec) longLayout {
	l := longLayout{s: 0, x: 16 * v.size, ks: 32 * v.size}
	l.r = l.ks + 64*v.lanes()
	l.sv = l.r + 32
	l.lens = l.sv + 16
	l.size = l.lens + 16 + v.size
	return l
}

func (l longLayout) at(off int) operand.Mem { return l.sc.Offset(off) }

// The spill slots of the running values ([asmgen.Spills]): the next byte
// of out to write, for open the next byte of src to read, the bytes of text
// left, the next ciphertext byte to hash and, for seal, the gather cursor
// (the current slice's next byte and bytes left, the next slice header).
const (
	spillOut     = "out"
	spillSrc     = "src"
	spillRem     = "rem"
	spillHash    = "hash"
	spillSlice   = "slice"
	spillLeft    = "sliceLeft"
	spillHeaders = "headers"
)

// declareLong declares sealLong and openLong for texts longer than
// shortMax (any length works; the Go side calls them above shortMax).
func declareLong(g *asmgen.Generator, v *vec, suffix string) {
	lay := newLongLayout(v)
	declareLongFuncs(g, suffix, lay.size,
		[]string{spillOut, spillRem, spillHash, spillSlice, spillLeft, spillHeaders},
		[]string{spillOut, spillSrc, spillRem, spillHash},
		func(fn *asmgen.Func, open bool) { v.longBody(fn, lay, open) })
}

// declareLongFuncs declares the long functions sealLong and openLong of a
// backend (suffix) with scratch bytes of stack scratch and the spill slots
// of each, and emits each body with body(fn, open).
func declareLongFuncs(g *asmgen.Generator, suffix string, scratch int, sealSpills, openSpills []string, body func(fn *asmgen.Func, open bool)) {
	seal := "sealLong" + suffix
	fn := g.Func(seal, "func(out *byte, key *[32]byte, nonce *[12]byte, srcs [][]byte, n int, ad *byte, adLen int)",
		asmgen.Doc(seal+" writes the ChaCha20-Poly1305 encryption of the first n bytes of the concatenation of srcs under key and nonce to out[:n] and its tag over ad[:adLen] and the ciphertext to out[n:n+16]; a slice may alias its own part of out exactly."),
		asmgen.Secret("key"), asmgen.SecretSlices("srcs"), asmgen.Output("out"), asmgen.Public("nonce", "n", "ad", "adLen"),
		asmgen.Len("out", "n+16"), asmgen.Len("ad", "adLen"), asmgen.Scratch(scratch),
		asmgen.Spills(sealSpills...))
	body(fn, false)

	open := "openLong" + suffix
	fn = g.Func(open, "func(out *byte, key *[32]byte, nonce *[12]byte, src *byte, n int, ad *byte, adLen int, tag *[16]byte) int",
		asmgen.Doc(open+" writes the ChaCha20 decryption of src[:n] under key and nonce to out[:n] and returns 1 if tag is the Poly1305 tag of ad[:adLen] and src[:n], 0 otherwise (compared in constant time); out may alias src exactly."),
		asmgen.Secret("key", "src", "out"), asmgen.Public("nonce", "n", "ad", "adLen", "tag"),
		asmgen.Len("out", "n"), asmgen.Len("src", "n"), asmgen.Len("ad", "adLen"), asmgen.Scratch(scratch),
		asmgen.Spills(openSpills...))
	body(fn, true)
}

// polyKey stores Poly1305's key from block 0's keystream at block0: r
// clamped (r0, r1) and s1 (see poly) at r, and s at sv.
func (v *vec) polyKey(block0, r, sv operand.Mem) {
	g := v.g
	r0, r1, m := g.GP64(), g.GP64(), g.GP64()
	g.MOVQ(block0, r0)
	g.MOVQ(block0.Offset(8), r1)
	g.MOVQ(operand.U64(rMask0), m)
	g.ANDQ(m, r0)
	g.MOVQ(operand.U64(rMask1), m)
	g.ANDQ(m, r1)
	g.MOVQ(r0, r)
	g.MOVQ(r1, r.Offset(8))
	s1Of(g, r1, m)
	g.MOVQ(m, r.Offset(16))
	x := g.XMM()
	v.Mov(block0.Offset(16), x)
	v.Mov(x, sv)
}

// longSetup broadcasts the input state of block 0 for key and nonce into S
// (lane i at block i).
func (v *vec) longSetup(l laneScratch, key, nonce reg.Register) {
	t := v.reg()
	for i := range 16 {
		var m operand.Mem
		switch {
		case i < 4:
			m = v.sigma.Offset(4 * i)
		case i < 12:
			m = operand.Mem{Base: key, Disp: 4 * (i - 4)}
		case i == 12:
			v.Mov(v.laneInc, t)
			v.Mov(t, l.S(i))
			continue
		default:
			m = operand.Mem{Base: nonce, Disp: 4 * (i - 13)}
		}
		v.BroadcastD(m, t)
		v.Mov(t, l.S(i))
	}
}

// storeLengths stores, through t, the text's length n in the second word
// of the lengths block at lens and in the bytes-left spill slot, and adLen
// in the lengths block's first word.
func storeLengths(g *asmgen.Generator, fn *asmgen.Func, t reg.GPVirtual, lens operand.Mem) {
	g.Load(g.Param("n"), t)
	g.MOVQ(t, lens.Offset(8))
	g.MOVQ(t, fn.Spill(spillRem))
	g.Load(g.Param("adLen"), t)
	g.MOVQ(t, lens)
}

// longGen is the state of the emission of one sealLong or openLong: the
// function, its scratch layout and lane scratch, its Poly1305 state, and
// whether it opens.
type longGen struct {
	v    *vec
	fn   *asmgen.Func
	lay  longLayout
	l    laneScratch
	p    *poly
	open bool
	// ksMem is the keystream area of the scratch, which pass 0 and the
	// general pass write.
	ksMem operand.Mem
}

// passBytes is the text of one lane pass.
func (e *longGen) passBytes() int { return 64 * e.v.lanes() }

// longBody emits sealLong (open false) or openLong.
func (v *vec) longBody(fn *asmgen.Func, lay longLayout, open bool) {
	// Aligned: the c-word spills are stored and reloaded within a pass, and
	// a store split across cache lines does not forward, which ties the
	// ChaCha20 chain to the retirement of the Poly1305 code between.
	lay.sc = v.alignedScratch(fn)
	e := &longGen{v: v, fn: fn, lay: lay, open: open,
		l: laneScratch{s: lay.sc.Offset(lay.s), x: lay.sc.Offset(lay.x), size: v.size}}
	e.setup()
	e.pass0()
	e.passes()
	e.finish()
}

// setup emits the key setup: the state broadcast to every lane, the
// pointers and counts in their spill slots, the lengths block.
func (e *longGen) setup() {
	g, fn, lay := e.v.g, e.fn, e.lay
	fn.Phase("key setup: the state broadcast to every lane, the lengths block")
	{
		key, nonce := g.GP64(), g.GP64()
		g.Load(g.Param("key"), key)
		g.Load(g.Param("nonce"), nonce)
		e.v.longSetup(e.l, key, nonce)
	}
	// Open hashes the ciphertext at src, seal at out.
	t := g.GP64()
	if e.open {
		g.Load(g.Param("src"), t)
		g.MOVQ(t, fn.Spill(spillHash))
		g.MOVQ(t, fn.Spill(spillSrc))
		g.Load(g.Param("out"), t)
	} else {
		g.Load(g.Param("out"), t)
		g.MOVQ(t, fn.Spill(spillHash))
	}
	g.MOVQ(t, fn.Spill(spillOut))
	storeLengths(g, fn, t, lay.at(lay.lens))
	e.p = newPoly(g, lay.at(lay.r), lay.at(lay.r+8), lay.at(lay.r+16))
}

// pass0 emits the first lane pass, whose block 0 keys Poly1305, the
// additional data's hash, and the XOR of the pass's other blocks.
func (e *longGen) pass0() {
	g, fn, lay, v := e.v.g, e.fn, e.lay, e.v
	fn.Phase("pass 0: block 0 keys Poly1305, blocks 1-%d the text's first bytes", v.lanes()-1)
	e.ksMem = lay.at(lay.ks)
	v.lanePassTo(fn, e.l, nil, nil, &e.ksMem, nil)
	v.polyKey(lay.at(lay.ks), lay.at(lay.r), lay.at(lay.sv))
	e.p.hashAD(fn)
	if !e.open {
		// The gather cursor: no current slice yet.
		t := g.GP64()
		g.XORQ(t, t)
		g.MOVQ(t, fn.Spill(spillLeft))
		g.MOVQ(t, fn.Spill(spillSlice))
		g.Load(g.Param("srcs").Base(), t)
		g.MOVQ(t, fn.Spill(spillHeaders))
	}
	fn.Phase("pass 0's text: XOR with blocks 1-%d", v.lanes()-1)
	if e.open {
		v.openHashRegion(fn, lay, e.p, e.passBytes()-64, nil)
	}
	v.xorRegion(fn, lay, 64, e.passBytes()-64, e.open)
}

// passes emits the main loop: a full pass where the conditions allow
// (fullPass), else the general pass.
func (e *longGen) passes() {
	g, fn := e.v.g, e.fn
	fn.Phase("main loop: passes of %d blocks, Poly1305 in the rounds", e.v.lanes())
	loop, done := fn.Label("passes"), fn.Label("passesdone")
	g.Label(loop)
	g.CMPQ(fn.Spill(spillRem), operand.U8(0))
	g.JE(operand.LabelRef(done))
	e.fullPass(loop, false)
	if !e.open {
		e.fullPass(loop, true)
	}
	e.generalPass()
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
}

// generalPass emits the pass with counted hashing whose keystream goes
// through the scratch, then the XOR of its region.
func (e *longGen) generalPass() {
	g, fn, v := e.v.g, e.fn, e.v
	fn.Phase("general pass: counted hashing, keystream through the scratch")
	hp, hcnt := g.GP64(), g.GP64()
	g.MOVQ(fn.Spill(spillHash), hp)
	if e.open {
		// This pass's ciphertext, whole 16-byte blocks.
		g.MOVQ(fn.Spill(spillRem), hcnt)
		lim := g.GP64()
		g.MOVQ(operand.U32(e.passBytes()), lim)
		g.CMPQ(hcnt, lim)
		g.CMOVQHI(lim, hcnt)
	} else {
		// The ciphertext written and not hashed, whole blocks.
		g.MOVQ(fn.Spill(spillOut), hcnt)
		g.SUBQ(hp, hcnt)
	}
	g.ANDQ(operand.I8(-16), hcnt)
	hook := countedHash(fn, e.p, hp, hcnt, "nohash")
	if e.open {
		// Open takes this pass only with less than a pass left (see
		// fullPass): at most 31 blocks, so the last hook (the 32nd
		// block) never hashes and is not emitted.
		hook = firstHooks(hook, 4)
	}
	v.lanePassTo(fn, e.l, nil, nil, &e.ksMem, hook)
	g.MOVQ(hp, fn.Spill(spillHash))
	if e.open {
		v.openHashRegion(fn, e.lay, e.p, e.passBytes(), func() {})
	}
	v.xorRegion(fn, e.lay, 0, e.passBytes(), e.open)
}

// finish emits, for seal, the hash of the ciphertext the passes did not
// hash, then the tag.
func (e *longGen) finish() {
	g, fn, lay := e.v.g, e.fn, e.lay
	if !e.open {
		fn.Phase("remainder: Poly1305 over the ciphertext not hashed in the passes, its partial block padded")
		hp, hcnt := g.GP64(), g.GP64()
		g.MOVQ(fn.Spill(spillHash), hp)
		g.MOVQ(fn.Spill(spillOut), hcnt)
		g.SUBQ(hp, hcnt)
		e.p.padded(fn, hp, hcnt)
	}
	e.p.tag(fn, lay.at(lay.lens), lay.at(lay.sv), e.open, func() reg.Register {
		out := g.GP64()
		g.MOVQ(fn.Spill(spillOut), out)
		return out
	})
}

// fullPass emits the steady-state pass, taken when a whole pass of text
// remains, its 32 Poly1305 blocks are ready (seal: 512 bytes written and not
// hashed; open: this pass's ciphertext) and, for seal, the current gather
// slice holds the whole pass: the keystream is XORed with the text straight
// from the registers (no keystream scratch, no cursor), and the hashing has
// neither counts nor branches (the blocks at fixed offsets from one
// pointer, advanced once per double round). It jumps back to loop when
// done, and falls through (to the general pass) when the conditions, all on
// public lengths, do not hold.
//
// With counted, the seal's variant for fewer than 512 bytes waiting to be
// hashed (the second pass, after the 448 bytes of the first, and after a
// gather slice ends): the XOR is the same, the hashing is the general
// pass's, each block behind a check of the count.
func (e *longGen) fullPass(loop string, counted bool) {
	g, fn, v, l, p, open := e.v.g, e.fn, e.v, e.l, e.p, e.open
	passBytes := e.passBytes()
	if counted {
		fn.Phase("full pass, counted: XOR from the registers, fewer than 32 blocks to hash")
	} else {
		fn.Phase("full pass: XOR from the registers, 32 blocks hashed at fixed offsets")
	}
	general := fn.Label("generalpass")
	g.CMPQ(fn.Spill(spillRem), operand.U32(passBytes))
	g.JB(operand.LabelRef(general))
	srcSlot := spillSrc
	if !open {
		srcSlot = spillSlice
		g.CMPQ(fn.Spill(spillLeft), operand.U32(passBytes))
		g.JB(operand.LabelRef(general))
		if !counted {
			t := g.GP64()
			g.MOVQ(fn.Spill(spillOut), t)
			g.SUBQ(fn.Spill(spillHash), t)
			g.CMPQ(t, operand.U32(passBytes))
			g.JB(operand.LabelRef(general))
		}
	}
	hp := g.GP64()
	g.MOVQ(fn.Spill(spillHash), hp)
	var hcnt reg.GPVirtual
	if counted {
		// Whole blocks written and not hashed: fewer than 32 here.
		hcnt = g.GP64()
		g.MOVQ(fn.Spill(spillOut), hcnt)
		g.SUBQ(hp, hcnt)
		g.ANDQ(operand.I8(-16), hcnt)
	}
	k := 0
	flush := func() {
		if k > 0 {
			g.ADDQ(operand.U8(16*k), hp)
			k = 0
		}
	}
	hook := func() {
		p.block(operand.Mem{Base: hp, Disp: 16 * k}, operand.Mem{Base: hp, Disp: 16*k + 8})
		k++
		if k == 3 {
			flush()
		}
	}
	if counted {
		// Only after pass 0, which leaves 448 bytes (28 blocks) waiting:
		// every later pass, whichever, leaves at least a pass waiting.
		// The hashing ends within the rounds' 30 blocks; the two hooks
		// after them never hash and are not emitted.
		hook = firstHooks(countedHash(fn, p, hp, hcnt, "nohashc"), 3)
	}
	var dst, src reg.GPVirtual
	io := func() (reg.Register, reg.Register) {
		flush()
		g.MOVQ(hp, fn.Spill(spillHash))
		dst, src = g.GP64(), g.GP64()
		g.MOVQ(fn.Spill(spillOut), dst)
		g.MOVQ(fn.Spill(srcSlot), src)
		return dst, src
	}
	v.lanePassWide(fn, l, io, nil, hook)
	g.MOVQ(dst, fn.Spill(spillOut))
	g.MOVQ(src, fn.Spill(srcSlot))
	g.SUBQ(operand.U32(passBytes), fn.Spill(spillRem))
	if !open {
		g.SUBQ(operand.U32(passBytes), fn.Spill(spillLeft))
	}
	g.JMP(operand.LabelRef(loop))
	g.Label(general)
}

// openHashRegion emits, for open, the hashing of the ciphertext of the
// region about to be decrypted that the pass did not hash: with fused nil,
// the whole blocks of min(rem, avail) bytes (pass 0); then, in every case,
// when this region is the last (rem ≤ avail) and ends in a partial block,
// that block, padded. Both are read from src before any of it is
// overwritten.
func (v *vec) openHashRegion(fn *asmgen.Func, lay longLayout, p *poly, avail int, fused func()) {
	g := v.g
	hp := g.GP64()
	g.MOVQ(fn.Spill(spillHash), hp)
	if fused == nil {
		hcnt, lim := g.GP64(), g.GP64()
		g.MOVQ(fn.Spill(spillRem), hcnt)
		g.MOVQ(operand.U32(avail), lim)
		g.CMPQ(hcnt, lim)
		g.CMOVQHI(lim, hcnt)
		g.ANDQ(operand.I8(-16), hcnt)
		p.blocks(fn, hp, hcnt)
	}
	done := fn.Label("nopartial")
	rem := g.GP64()
	g.MOVQ(fn.Spill(spillRem), rem)
	g.CMPQ(rem, operand.U32(avail))
	g.JA(operand.LabelRef(done))
	g.ANDQ(operand.U8(15), rem)
	g.JZ(operand.LabelRef(done))
	lo, hi := fn.LoadPartialGP(hp, rem)
	p.block(lo, hi)
	g.ADDQ(rem, hp)
	g.Label(done)
	g.MOVQ(hp, fn.Spill(spillHash))
}

// xorRegion emits the XOR of min(rem, avail) bytes of text with the
// keystream in the scratch from byte from, to out (see xorCursor). The
// running values are reloaded from, and stored back to, their slots.
func (v *vec) xorRegion(fn *asmgen.Func, lay longLayout, from, avail int, open bool) {
	g := v.g
	out, m, ks, lim := g.GP64(), g.GP64(), g.GP64(), g.GP64()
	g.MOVQ(fn.Spill(spillOut), out)
	g.MOVQ(fn.Spill(spillRem), m)
	g.MOVQ(operand.U32(avail), lim)
	g.CMPQ(m, lim)
	g.CMOVQHI(lim, m)
	g.SUBQ(m, fn.Spill(spillRem))
	g.LEAQ(lay.at(lay.ks+from), ks)
	cur := &cursor{gather: !open, sp: g.GP64()}
	if open {
		g.MOVQ(fn.Spill(spillSrc), cur.sp)
	} else {
		cur.sn, cur.dp = g.GP64(), g.GP64()
		g.MOVQ(fn.Spill(spillSlice), cur.sp)
		g.MOVQ(fn.Spill(spillLeft), cur.sn)
		g.MOVQ(fn.Spill(spillHeaders), cur.dp)
	}
	v.xorCursor(fn, out, ks, m, cur)
	g.MOVQ(out, fn.Spill(spillOut))
	if open {
		g.MOVQ(cur.sp, fn.Spill(spillSrc))
	} else {
		g.MOVQ(cur.sp, fn.Spill(spillSlice))
		g.MOVQ(cur.sn, fn.Spill(spillLeft))
		g.MOVQ(cur.dp, fn.Spill(spillHeaders))
	}
}

// firstHooks returns a round hook that emits hook at its first n
// emissions and nothing at the later ones. A lane pass emits its hook three
// times in the double round (run ten times) and twice after: n = 3 keeps
// the first 30 blocks, n = 4 the first 31.
func firstHooks(hook func(), n int) func() {
	return func() {
		if n > 0 {
			n--
			hook()
		}
	}
}

// countedHash returns a round hook that absorbs the block at hp and
// advances hp when hcnt (public, a multiple of 16) holds at least one more,
// and does nothing otherwise; label names its skip target.
func countedHash(fn *asmgen.Func, p *poly, hp, hcnt reg.Register, label string) func() {
	g := p.g
	return func() {
		skip := fn.Label(label)
		g.CMPQ(hcnt, operand.U8(16))
		g.JB(operand.LabelRef(skip))
		p.block(operand.Mem{Base: hp}, operand.Mem{Base: hp, Disp: 8})
		g.ADDQ(operand.U8(16), hp)
		g.SUBQ(operand.U8(16), hcnt)
		g.Label(skip)
	}
}
