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
// Pass 0 starts at block 0, which keys Poly1305; its blocks 1-15 are
// stored to the scratch, and cover the first 960 bytes of text. Open then
// hashes the additional data and the whole ciphertext before it decrypts a
// byte (out may be src), seal after it encrypts the last. A pass with 1024
// bytes of text left, contiguous in the current gather slice for seal,
// XORs the keystream straight from its registers; any other goes through
// the scratch and the cursor.

// zLayout is the scratch of the long functions (after alignment): pass 0's
// keystream (and any later pass's that goes through the scratch), the
// power table, the counters of the next pass, r (r0, r1, s1), s, the
// lengths block and, for open, the accumulator between the hash and the
// tag.
type zLayout struct {
	sc                                 operand.Mem
	ks, pow, ctr, r, sv, lens, h, size int
}

func newZLayout() zLayout {
	l := zLayout{ks: 0, pow: 1024}
	l.ctr = l.pow + powTableSize
	l.r = l.ctr + 64
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
	seal := "sealLong" + suffix
	fn := g.Func(seal, "func(out *byte, key *[32]byte, nonce *[12]byte, srcs [][]byte, n int, ad *byte, adLen int)",
		asmgen.Doc(seal+" writes the ChaCha20-Poly1305 encryption of the first n bytes of the concatenation of srcs under key and nonce to out[:n] and its tag over ad[:adLen] and the ciphertext to out[n:n+16]; a slice may alias its own part of out exactly."),
		asmgen.Secret("key"), asmgen.SecretSlices("srcs"), asmgen.Output("out"), asmgen.Public("nonce", "n", "ad", "adLen"),
		asmgen.Len("out", "n+16"), asmgen.Len("ad", "adLen"), asmgen.Scratch(lay.size),
		asmgen.Spills(spillOut, spillRem, spillSlice, spillLeft, spillHeaders))
	v.longBodyZ(fn, zp, lay, false)

	open := "openLong" + suffix
	fn = g.Func(open, "func(out *byte, key *[32]byte, nonce *[12]byte, src *byte, n int, ad *byte, adLen int, tag *[16]byte) int",
		asmgen.Doc(open+" writes the ChaCha20 decryption of src[:n] under key and nonce to out[:n] and returns 1 if tag is the Poly1305 tag of ad[:adLen] and src[:n], 0 otherwise (compared in constant time); out may alias src exactly."),
		asmgen.Secret("key", "src", "out"), asmgen.Public("nonce", "n", "ad", "adLen", "tag"),
		asmgen.Len("out", "n"), asmgen.Len("src", "n"), asmgen.Len("ad", "adLen"), asmgen.Scratch(lay.size),
		asmgen.Spills(spillOut, spillSrc, spillRem))
	v.longBodyZ(fn, zp, lay, true)
}

// zPassFromKey emits a lane pass of the message's key and nonce (loaded
// from the function's arguments for the pass) from the counters at ctr.
func (v *vec) zPassFromKey(fn *asmgen.Func, ctr operand.Mem) [16]reg.VecVirtual {
	g := v.g
	key, nonce := g.GP64(), g.GP64()
	g.Load(g.Param("key"), key)
	g.Load(g.Param("nonce"), nonce)
	c := g.ZMM()
	v.Mov(ctr, c)
	return v.zPass(fn, zState{ctr: c, word: func(i int) operand.Mem {
		switch {
		case i < 4:
			return v.sigma.Offset(4 * i)
		case i < 12:
			return operand.Mem{Base: key, Disp: 4 * (i - 4)}
		default:
			return operand.Mem{Base: nonce, Disp: 4 * (i - 13)}
		}
	}})
}

// hashADZ starts the hash: h = 0, then the additional data, zero-padded.
func (v *vec) hashADZ(fn *asmgen.Func, p *poly, zp zPoly, pow operand.Mem) {
	g := v.g
	fn.Phase("AAD: Poly1305 over the additional data, zero-padded")
	p.clear()
	ad, adLen := g.GP64(), g.GP64()
	g.Load(g.Param("ad"), ad)
	g.Load(g.Param("adLen"), adLen)
	v.hashText(fn, p, zp, ad, adLen, pow)
}

// longBodyZ emits the avx512 sealLong (open false) or openLong.
func (v *vec) longBodyZ(fn *asmgen.Func, zp zPoly, lay zLayout, open bool) {
	g := v.g
	lay.sc = v.alignedScratch(fn)
	pow := lay.at(lay.pow)

	fn.Phase("key setup: the running values, the lengths block, the counters of pass 0")
	{
		t := g.GP64()
		if open {
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
		g.Load(g.Param("n"), t)
		g.MOVQ(t, lay.at(lay.lens+8))
		g.MOVQ(t, fn.Spill(spillRem))
		g.Load(g.Param("adLen"), t)
		g.MOVQ(t, lay.at(lay.lens))
		c := g.ZMM()
		v.Mov(v.laneInc, c)
		v.Mov(c, lay.at(lay.ctr))
	}

	fn.Phase("pass 0: block 0 keys Poly1305, blocks 1-15 the text's first 960 bytes")
	for j, b := range v.zPassFromKey(fn, lay.at(lay.ctr)) {
		v.Mov(b, lay.at(lay.ks+64*j))
	}
	{
		r0, r1, m := g.GP64(), g.GP64(), g.GP64()
		g.MOVQ(lay.at(lay.ks), r0)
		g.MOVQ(lay.at(lay.ks+8), r1)
		g.MOVQ(operand.U64(rMask0), m)
		g.ANDQ(m, r0)
		g.MOVQ(operand.U64(rMask1), m)
		g.ANDQ(m, r1)
		g.MOVQ(r0, lay.at(lay.r))
		g.MOVQ(r1, lay.at(lay.r+8))
		s1Of(g, r1, m)
		g.MOVQ(m, lay.at(lay.r+16))
		x := g.XMM()
		v.Mov(lay.at(lay.ks+16), x)
		v.Mov(x, lay.at(lay.sv))
	}
	p := newPoly(g, lay.at(lay.r), lay.at(lay.r+8), lay.at(lay.r+16))
	fn.Phase("key powers: r¹..r⁸ in 26-bit limbs")
	v.polyPowers(p, pow)
	if open {
		v.hashADZ(fn, p, zp, pow)
		fn.Phase("ciphertext hash: Poly1305 over the whole text, before it is decrypted")
		c, cn := g.GP64(), g.GP64()
		g.Load(g.Param("src"), c)
		g.Load(g.Param("n"), cn)
		v.hashText(fn, p, zp, c, cn, pow)
		p.store(lay.at(lay.h))
	}
	fn.Phase("pass 0's text: XOR with blocks 1-15")
	v.xorRegion(fn, lay.long(), 64, 960, open)

	fn.Phase("main loop: passes of 16 blocks")
	loop, done, general := fn.Label("zpasses"), fn.Label("zpassesdone"), fn.Label("zgeneral")
	g.Label(loop)
	g.CMPQ(fn.Spill(spillRem), operand.U8(0))
	g.JE(operand.LabelRef(done))
	{
		c := g.ZMM()
		v.Mov(lay.at(lay.ctr), c)
		v.AddD(v.laneStep, c, c)
		v.Mov(c, lay.at(lay.ctr))
	}
	blk := v.zPassFromKey(fn, lay.at(lay.ctr))
	g.CMPQ(fn.Spill(spillRem), operand.U32(1024))
	g.JB(operand.LabelRef(general))
	srcSlot := spillSrc
	if !open {
		srcSlot = spillSlice
		g.CMPQ(fn.Spill(spillLeft), operand.U32(1024))
		g.JB(operand.LabelRef(general))
	}
	fn.Phase("full pass: the keystream XORed from the registers")
	{
		dst, src := g.GP64(), g.GP64()
		g.MOVQ(fn.Spill(spillOut), dst)
		g.MOVQ(fn.Spill(srcSlot), src)
		for j, b := range blk {
			v.zXor(b, dst, src, 64*j)
		}
		g.ADDQ(operand.U32(1024), dst)
		g.ADDQ(operand.U32(1024), src)
		g.MOVQ(dst, fn.Spill(spillOut))
		g.MOVQ(src, fn.Spill(srcSlot))
		g.SUBQ(operand.U32(1024), fn.Spill(spillRem))
		if !open {
			g.SUBQ(operand.U32(1024), fn.Spill(spillLeft))
		}
		g.JMP(operand.LabelRef(loop))
	}
	fn.Phase("general pass: the keystream through the scratch and the cursor")
	g.Label(general)
	for j, b := range blk {
		v.Mov(b, lay.at(lay.ks+64*j))
	}
	v.xorRegion(fn, lay.long(), 0, 1024, open)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)

	if open {
		p.load(lay.at(lay.h))
	} else {
		v.hashADZ(fn, p, zp, pow)
		fn.Phase("ciphertext hash: Poly1305 over the whole ciphertext in out")
		c, cn := g.GP64(), g.GP64()
		g.Load(g.Param("out"), c)
		g.Load(g.Param("n"), cn)
		v.hashText(fn, p, zp, c, cn, pow)
	}
	p.tag(fn, lay.at(lay.lens), lay.at(lay.sv), open, func() reg.Register {
		out := g.GP64()
		g.MOVQ(fn.Spill(spillOut), out)
		return out
	})
}
