package main

import (
	"strconv"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// shortMax is the longest text the whole-message short functions take: the
// keystream of every block (block 0 for Poly1305's key, then the text's) is
// computed at once in the row layout, in up to three register sets: 2 blocks
// of text on xmm (3 blocks), 5 on ymm (6 blocks, two per set), 8 on zmm (9
// of the 12 blocks of three sets of four, where the lane layout takes over).
func (v *vec) shortMax() int {
	if v.zmm || v.half {
		return 8 * 64
	}
	if v.ymm {
		return 5 * 64
	}
	return 2 * 64
}

// The layout of the short functions' scratch (after alignment): the
// keystream of the text, the clamped r, s, and the lengths block.
func (v *vec) shortKS() int   { return 0 }
func (v *vec) shortR() int    { return v.shortMax() }
func (v *vec) shortS() int    { return v.shortMax() + 32 }
func (v *vec) shortLen() int  { return v.shortMax() + 48 }
func (v *vec) shortSize() int { return v.shortMax() + 64 + v.size }

// nonceRow loads the ChaCha20 input row 3 for block 0: the counter 0 and the
// three nonce words, reading exactly the 12 bytes of the nonce. On ymm and
// zmm the row is in every 128-bit lane.
func (v *vec) nonceRow(nonce reg.Register) reg.VecVirtual {
	g := v.g
	d := v.reg()
	x := xmm(d)
	t := g.GP64()
	g.MOVL(operand.Mem{Base: nonce, Disp: 8}, t.As32())
	v.MovQ(operand.Mem{Base: nonce}, x) // n0 n1 0 0
	v.InsertQ1(t, x)                    // n0 n1 n2 0
	v.SllB(4, x, x)                     // 0 n0 n1 n2
	if v.ymm {
		v.Insert128(1, x, d, d)
	}
	if v.zmm {
		g.VSHUFI32X4(operand.U8(0), d, d, d)
	}
	return d
}

// keyRow loads row 1 or 2 (the key) into a new register (both lanes on
// ymm).
func (v *vec) keyRow(key reg.Register, row int) reg.VecVirtual {
	r := v.reg()
	v.Broadcast128(operand.Mem{Base: key, Disp: 16 * (row - 1)}, r)
	return r
}

// sigmaRow loads row 0, the constants.
func (v *vec) sigmaRow() reg.VecVirtual {
	r := v.reg()
	v.Broadcast128(v.sigma, r)
	return r
}

// shortPolyKey stores Poly1305's key from block 0's first two rows, set
// in the scratch: r (clamped, and the multiple of its high limb the
// multiplication uses) from bytes 0-15, s from 16-31.
func (v *vec) shortPolyKey(set [4]reg.VecVirtual, sc operand.Mem) {
	g := v.g
	r0, r1, m := g.GP64(), g.GP64(), g.GP64()
	a, b := xmm(set[0]), xmm(set[1])
	v.MovQ(a, r0)
	v.ExtractQ1(a, r1)
	v.Mov(b, sc.Offset(v.shortS()))
	g.MOVQ(operand.U64(rMask0), m)
	g.ANDQ(m, r0)
	g.MOVQ(operand.U64(rMask1), m)
	g.ANDQ(m, r1)
	g.MOVQ(r0, sc.Offset(v.shortR()))
	g.MOVQ(r1, sc.Offset(v.shortR()+8))
	s1Of(g, r1, m)
	g.MOVQ(m, sc.Offset(v.shortR()+16))
}

// shortKeystream emits the computation of sets register sets of row-layout
// blocks starting at block 0 for key and nonce, then stores Poly1305's r
// (clamped) and s from block 0 to the scratch, and the keystream of the
// following blocks to the scratch's keystream area, in order.
func (v *vec) shortKeystream(fn *asmgen.Func, sets int, sc operand.Mem, key, nonce reg.Register) {
	g := v.g
	d0 := v.nonceRow(nonce)
	if v.size > 16 {
		v.AddD(v.rowInc, d0, d0)
	}
	ss := make([][4]reg.VecVirtual, sets)
	for k := range ss {
		ss[k] = [4]reg.VecVirtual{v.sigmaRow(), v.keyRow(key, 1), v.keyRow(key, 2), v.reg()}
		v.Mov(d0, ss[k][3])
		for range k {
			v.AddD(v.rowStepOp(), ss[k][3], ss[k][3])
		}
	}
	v.rowRounds(fn, ss)
	for k, s := range ss {
		v.AddD(v.sigmaRows(), s[0], s[0])
		for row := 1; row <= 2; row++ {
			t := v.keyRow(key, row)
			v.AddD(t, s[row], s[row])
		}
		t := v.reg()
		v.Mov(d0, t)
		for range k {
			v.AddD(v.rowStepOp(), t, t)
		}
		v.AddD(t, s[3], s[3])
	}
	v.shortPolyKey(ss[0], sc)

	// The text's keystream.
	ks := sc.Offset(v.shortKS())
	if v.size == 16 {
		for k := 1; k < sets; k++ {
			for row := range 4 {
				v.Mov(ss[k][row], ks.Offset(64*(k-1)+16*row))
			}
		}
		return
	}
	if v.zmm {
		// Set k's rows hold blocks 4k..4k+3, one per 128-bit lane; the
		// blocks past shortMax's are not stored.
		for k, s := range ss {
			for j, o := range v.laneTranspose(s) {
				blk := 4*k + j
				if blk > 0 && blk <= v.shortMax()/64 {
					v.Mov(o, ks.Offset(64*(blk-1)))
				}
			}
		}
		return
	}
	off := 0
	for k, s := range ss {
		for _, lane := range []uint8{0, 1} {
			if k == 0 && lane == 0 {
				continue // block 0
			}
			o := g.YMM()
			v.pairLanes(lane, s[1], s[0], o)
			v.Mov(o, ks.Offset(off))
			v.pairLanes(lane, s[3], s[2], o)
			v.Mov(o, ks.Offset(off+32))
			off += 64
		}
	}
}

// pairLanes sets the ymm register o to 128-bit lane l of a, then lane l
// of b: VPERM2I128, or on an EVEX backend (where avo may allocate
// registers 16-31, which VEX cannot encode) VSHUFI32X4.
func (v *vec) pairLanes(l uint8, b, a, o reg.VecVirtual) {
	if v.Encoding() == asmgen.EVEX {
		v.g.VSHUFI32X4(operand.U8(l|l<<1), b, a, o)
		return
	}
	v.g.VPERM2I128(operand.U8(0x20|l|l<<4), b, a, o)
}

// rowStepOp is what advances row 3 of a register set to the next set: one
// block on xmm, two on ymm, four on zmm.
func (v *vec) rowStepOp() operand.Mem {
	if v.size > 16 {
		return v.rowStep
	}
	return v.rowInc
}

// sigmaRows is the constant row in every lane of a register: a table of
// the register's width.
func (v *vec) sigmaRows() operand.Mem {
	if v.size > 16 {
		return v.sigmaW
	}
	return v.sigma
}

// shortSets emits the branch on n to the keystream computation with as few
// register sets as the text needs, each path joining at the end.
func (v *vec) shortSets(fn *asmgen.Func, sc operand.Mem, key, nonce, n reg.Register) {
	g := v.g
	join := fn.Label("ksdone")
	perSet := 64 * (v.size / 16) // text bytes one more set covers
	first := perSet - 64         // text bytes of set 0 (block 0 takes the rest)
	if v.size == 16 {
		first = 0
	}
	maxSets := 3
	if v.zmm {
		// Up to one block of text: the two blocks in one ymm set. Its
		// chain is shorter than a zmm set's on Zen 4
		// (ci/ubench/chacha_variants.c), where every 512-bit
		// operation takes two cycles, and no longer elsewhere.
		next := fn.Label("sets")
		g.CMPQ(n, operand.U8(64))
		g.JA(operand.LabelRef(next))
		v.halfWidth().shortKeystream(fn, 1, sc, key, nonce)
		g.JMP(operand.LabelRef(join))
		g.Label(next)
	}
	for sets := 1; sets <= maxSets; sets++ {
		covered := first + (sets-1)*perSet
		if v.size == 16 && sets == 1 {
			continue // block 0 alone covers no text
		}
		next := fn.Label("sets")
		if sets < maxSets {
			g.CMPQ(n, operand.U32(covered))
			g.JA(operand.LabelRef(next))
		}
		v.shortKeystream(fn, sets, sc, key, nonce)
		if sets < maxSets {
			g.JMP(operand.LabelRef(join))
			g.Label(next)
		}
	}
	g.Label(join)
}

// declareShort declares the whole-message seal and open of texts up to
// shortMax bytes.
func declareShort(g *asmgen.Generator, v *vec, suffix string) {
	seal, open := "sealShort"+suffix, "openShort"+suffix
	g.Const("shortMax"+suffix, v.shortMax(), "shortMax"+suffix+" is the longest text "+seal+" and "+open+
		" take: the keystream of block 0 (Poly1305's key) and of the text is computed at once, "+
		strconv.Itoa(v.shortMax()/64+1)+" blocks in up to three register sets.")
	fn := g.Func(seal, "func(out *byte, key *[32]byte, nonce *[12]byte, srcs [][]byte, n int, ad *byte, adLen int)",
		asmgen.Doc(seal+" writes the ChaCha20-Poly1305 encryption of the first n bytes of the concatenation of srcs under key and nonce to out[:n] and its tag over ad[:adLen] and the ciphertext to out[n:n+16], for n ≤ "+strconv.Itoa(v.shortMax())+"; a slice may alias its own part of out exactly."),
		asmgen.Secret("key"), asmgen.SecretSlices("srcs"), asmgen.Output("out"), asmgen.Public("nonce", "n", "ad", "adLen"),
		asmgen.Len("out", "n+16"), asmgen.Len("ad", "adLen"), asmgen.Scratch(v.shortSize()))
	v.shortBody(fn, false)

	fn = g.Func(open, "func(out *byte, key *[32]byte, nonce *[12]byte, src *byte, n int, ad *byte, adLen int, tag *[16]byte) int",
		asmgen.Doc(open+" writes the ChaCha20 decryption of src[:n] under key and nonce to out[:n] and returns 1 if tag is the Poly1305 tag of ad[:adLen] and src[:n], 0 otherwise (compared in constant time), for n ≤ "+strconv.Itoa(v.shortMax())+"; out may alias src exactly."),
		asmgen.Secret("key", "src", "out"), asmgen.Public("nonce", "n", "ad", "adLen", "tag"),
		asmgen.Len("out", "n"), asmgen.Len("src", "n"), asmgen.Len("ad", "adLen"), asmgen.Scratch(v.shortSize()))
	v.shortBody(fn, true)
}

// shortBody emits the body of sealShort (open false) or openShort.
func (v *vec) shortBody(fn *asmgen.Func, open bool) {
	g := v.g
	key, nonce, n := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("key"), key)
	g.Load(g.Param("nonce"), nonce)
	g.Load(g.Param("n"), n)
	sc := v.alignedScratch(fn)
	fn.Phase("key setup: the keystream of the whole text at once, block 0 keying Poly1305")
	v.shortSets(fn, sc, key, nonce, n)

	{
		ad, adLen := g.GP64(), g.GP64()
		g.Load(g.Param("ad"), ad)
		g.Load(g.Param("adLen"), adLen)
		g.MOVQ(adLen, sc.Offset(v.shortLen()))
		g.MOVQ(n, sc.Offset(v.shortLen()+8))
	}
	p := newPoly(g, sc.Offset(v.shortR()), sc.Offset(v.shortR()+8), sc.Offset(v.shortR()+16))
	p.hashAD(fn)
	if open {
		// Hash the ciphertext before it may be overwritten in place.
		fn.Phase("ciphertext hash: Poly1305 over the text, before it is decrypted")
		c, cn := g.GP64(), g.GP64()
		g.Load(g.Param("src"), c)
		g.MOVQ(n, cn)
		p.padded(fn, c, cn)
	}

	fn.Phase("text: XOR with the keystream in the scratch")
	out, ks := g.GP64(), g.GP64()
	g.Load(g.Param("out"), out)
	g.MOVQ(sc.Base, ks)
	cur := &cursor{gather: !open, sp: g.GP64()}
	if open {
		g.Load(g.Param("src"), cur.sp)
	} else {
		cur.sn, cur.dp = g.GP64(), g.GP64()
		g.Load(g.Param("srcs").Base(), cur.dp)
		g.XORQ(cur.sn, cur.sn)
	}
	v.xorCursor(fn, out, ks, n, cur)
	if !open {
		fn.Phase("ciphertext hash: Poly1305 over the ciphertext in out, where it is contiguous")
		c, cn := g.GP64(), g.GP64()
		g.Load(g.Param("out"), c)
		g.Load(g.Param("n"), cn)
		p.padded(fn, c, cn)
	}

	p.tag(fn, sc.Offset(v.shortLen()), sc.Offset(v.shortS()), open, func() reg.Register { return out })
}
