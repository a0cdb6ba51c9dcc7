package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The one-shot path for short messages. One keystream batch computes E(J0)
// and the text's counter blocks together, and GHASH is a single aggregated
// sum with one reduction: with T = a + b + 1 blocks to hash (a AAD blocks,
// b text blocks, the lengths block),
//
//	S = A_1*H^T ^ ... ^ C_1*H^(T-a) ^ ... ^ C_b*H^2 ^ L*H
//
// each product unreduced. The general path reduces three times in series
// (after the AAD, after the text, after the lengths). The keystream layout
// follows the lanes, so each width has its own:
//
//   - xmm (shortXMM): n <= 80 bytes of text and at most one block of AAD
//     (every TLS record header, every small RPC, a 64-byte payload with
//     its TLS 1.3 content-type byte), one register per block;
//   - ymm (shortYMM): n < 32 and any AAD, two registers [J0, J0+1],
//     [J0+2, J0+3]; zmm runs messages under 256 bytes at ymm width (see
//     gcm.bySmall), this path included.

// shortMaxAAD bounds the AAD of the xmm short path.
const shortMaxAAD = 16

// shortLayout is the keystream layout of a width's short path, which sets
// the messages it takes.
type shortLayout int

const (
	// shortBlocks (xmm, shortXMM): one register per block; up to maxText
	// bytes of text and at most a block of AAD.
	shortBlocks shortLayout = iota
	// shortPairs (ymm, shortYMM): two registers of two blocks; under 32
	// bytes of text and any AAD.
	shortPairs
	// shortNarrower: the short path of a narrower width (at), whose code
	// runs it.
	shortNarrower
)

// shortPath is a width's short path.
type shortPath struct {
	layout shortLayout
	// maxText is the longest text it takes.
	maxText int
	// upTo and regs are the size classes of shortBlocks: regs[i] text
	// blocks of keystream (after E(J0)'s) for n <= upTo[i], the last for
	// the rest.
	upTo, regs []int
	// at is the width that runs a shortNarrower path.
	at *width
}

// shortSource is where the short path reads the text: given the emitter at
// the short path's width and the size class's largest n, the text's
// pointer in and, when not nil, end: the block at offset o is read from
// in+o while in+o < end and from out+o after (see shortGather). It is
// emitted where the text is first needed, after the keystream's AES
// rounds: a gathered text's join overlaps them.
type shortSource func(e *gcm, max int) (in, end reg.GPVirtual)

// shortRunner is the width whose code is w's short path: w itself, or the
// one a shortNarrower path is at.
func (w width) shortRunner() width {
	if w.short.layout == shortNarrower {
		return w.short.at.shortRunner()
	}
	return w
}

// shortMax is the longest text the short path takes.
func (e *gcm) shortMax() int { return e.shortRunner().short.maxText }

// shortAnyAAD reports whether the short path takes any AAD length
// (shortPairs) rather than at most a block (shortBlocks).
func (e *gcm) shortAnyAAD() bool { return e.shortRunner().short.layout == shortPairs }

// shortFits branches to long unless the message of n bytes of text and
// aadLen of AAD takes the short path (the emitter's own).
func (e *gcm) shortFits(n, aadLen reg.GPVirtual, long string) {
	if e.short.layout == shortPairs {
		e.CMPQ(n, operand.U8(e.shortMax()+1))
		e.JAE(ref(long))
		return
	}
	e.CMPQ(n, operand.U8(e.shortMax()))
	e.JA(ref(long))
	e.CMPQ(aadLen, operand.U8(shortMaxAAD))
	e.JA(ref(long))
}

// shortMessage seals (dec false: out gets the text's ciphertext, the tag is over
// out) or opens (dec true: the tag is over the text) a short message and
// hands the full tag to tagOut (tagStore or tagCheck).
func (e *gcm) shortMessage(k keyRegs, out reg.GPVirtual, src shortSource, n, aad, aadLen, j0 reg.GPVirtual, tagOut func(reg.VecVirtual), dec bool) {
	e.phase("short message")
	if e.short.layout == shortPairs {
		e.shortYMM(k, out, src, n, aad, aadLen, j0, tagOut, dec)
		return
	}
	// One keystream batch of E(J0) and the size class's text blocks.
	e.bySize(n, span{0, e.shortMax()}, e.short.upTo, e.short.regs, func(nks int, c span) {
		e.shortXMM(k, out, src, n, aad, aadLen, j0, tagOut, dec, nks, c.min)
	})
}

// shortXMM is shortMessage on xmm for least <= n <= 16*nks: the first least/16
// blocks are whole for every such n, and are not tested.
func (e *gcm) shortXMM(k keyRegs, out reg.GPVirtual, src shortSource, n, aad, aadLen, j0 reg.GPVirtual, tagOut func(reg.VecVirtual), dec bool, nks, least int) {
	// ks[0] = J0, ks[i] = J0 + i: all encrypted in one batch.
	ks := make([]reg.VecVirtual, nks+1)
	for i := range ks {
		ks[i] = e.xmm()
	}
	e.loadJ0(j0, ks[0])
	ctr := e.xmm()
	e.ShufB(e.c.bswap, ks[0], ctr)
	for i := 1; i <= nks; i++ {
		e.AddD(e.c.incs.Offset(16*i), ctr, ks[i])
		e.ShufB(e.c.bswap, ks[i], ks[i])
	}
	e.encrypt(k, ks)

	// The lengths block, times H.
	s := sum{e.xmm(), e.xmm(), e.xmm()}
	l := e.lengthsBlock(aadLen, n)
	e.mulAcc(s, true, l, mem(k.t, e.pow(1)), mem(k.t, e.kar(1)))
	// hp = t - 16*ceil(n/16): text block j is times the power at
	// hp+pow(1)+16*j (H^(b+1-j)), the AAD block times the one before.
	hp := e.GP64()
	e.LEAQ(mem(n, 15), hp)
	e.SHRQ(operand.U8(4), hp)
	e.SHLQ(operand.U8(4), hp)
	e.NEGQ(hp)
	e.ADDQ(k.t, hp)

	noAAD, fullAAD, aadLoaded := e.label("snoaad"), e.label("sfullaad"), e.label("saad")
	x := e.xmm()
	e.TESTQ(aadLen, aadLen)
	e.JZ(ref(noAAD))
	e.CMPQ(aadLen, operand.U8(16))
	e.JE(ref(fullAAD))
	e.loadPartial(aad, aadLen, x)
	e.JMP(ref(aadLoaded))
	e.Label(fullAAD)
	e.Mov(mem(aad, 0), x)
	e.Label(aadLoaded)
	e.ShufB(e.c.bswap, x, x)
	e.mulAcc(s, false, x, mem(hp, e.pow(2)), mem(hp, e.kar(2)))
	e.Label(noAAD)
	in, end := src(e, 16*nks)
	// From end on (when not nil) the text is read from out, at the same
	// offset.
	switchIn := func() {
		if end != nil {
			e.CMPQ(in, end)
			e.CMOVQCC(out, in)
		}
	}
	hashed := func(read, written reg.VecVirtual) reg.VecVirtual {
		if dec {
			return read
		}
		return written
	}

	part := make([]string, nks)
	for j := range part {
		part[j] = e.label("spart")
	}
	red := e.label("sred")
	for j := 0; j < nks; j++ {
		if 16*(j+1) > least {
			e.CMPQ(n, operand.U8(16))
			e.JB(ref(part[j]))
		}
		x, c := e.xmm(), e.xmm()
		switchIn()
		e.Mov(mem(in, 0), x)
		e.Xor(ks[j+1], x, c)
		e.Mov(c, mem(out, 0))
		h := hashed(x, c)
		e.ShufB(e.c.bswap, h, h)
		e.mulAcc(s, false, h, mem(hp, e.pow(1)+16*j), mem(hp, e.kar(1)+16*j))
		e.ADDQ(operand.U8(16), in)
		e.ADDQ(operand.U8(16), out)
		e.SUBQ(operand.U8(16), n)
	}
	// 16*nks bytes were whole blocks: nothing is left.
	e.JMP(ref(red))
	sel := partialSel{ks: e.xmm(), hp: e.GP64(), entries: part, keys: ks[1:], base: hp, stride: 16,
		full: min(least/16, nks-1)} // blocks always whole: no partial after fewer
	e.partialEntries(sel, n, red, e.label("scommon"))
	ksP, hpP := sel.ks, sel.hp
	{
		x, c := e.xmm(), e.xmm()
		switchIn()
		e.loadPartial(in, n, x)
		e.Xor(ksP, x, c)
		if !dec {
			// The ciphertext hashed is zero padded.
			e.AndU(e.keepMask(n), c, c)
		}
		e.storePartial(out, n, c)
		h := hashed(x, c)
		e.ShufB(e.c.bswap, h, h)
		e.mulAcc(s, false, h, mem(hpP, e.pow(1)), mem(hpP, e.kar(1)))
	}
	e.Label(red)
	e.reduce(s)
	e.ShufB(e.c.bswap, s.hi, s.hi)
	e.Xor(ks[0], s.hi, s.hi)
	tagOut(s.hi)
}

// shortYMM is shortMessage on ymm for n < 32: E(J0) and the keystream of both
// text blocks in one AES pass of two registers ([J0, J0+1], [J0+2, J0+3]),
// the AAD hashed meanwhile, then the text blocks and the lengths block each
// times its own power (H^m..H^1) and one reduction.
func (e *gcm) shortYMM(k keyRegs, out reg.GPVirtual, src shortSource, n, aad, aadLen, j0 reg.GPVirtual, tagOut func(reg.VecVirtual), dec bool) {
	ctr := e.vreg()
	e.loadJ0(j0, lo(ctr))
	e.Insert128(1, lo(ctr), ctr, ctr)
	e.ShufB(e.c.bswap, ctr, ctr)
	e.AddD(e.c.incs, ctr, ctr)
	a, b := e.vreg(), e.vreg()
	e.ctrBlocks(k, ctr, []reg.VecVirtual{a, b})
	e.rounds(k, []reg.VecVirtual{a, b}, nil, true, false)
	e.lastRound(k, []reg.VecVirtual{a, b})
	al := e.GP64() // aadHash consumes its length
	e.MOVQ(aadLen, al)
	acc := e.aadHash(k, aad, al)
	// hp: the power of the first block (of m = ceil(n/16) + 1) is at
	// hp+pow(0).
	hp, nr := e.GP64(), e.GP64()
	e.LEAQ(mem(n, 31), hp)
	e.SHRQ(operand.U8(4), hp)
	e.SHLQ(operand.U8(4), hp)
	e.NEGQ(hp)
	e.ADDQ(k.t, hp)
	e.MOVQ(n, nr)
	s := e.newSum()
	ksP := e.xmm()
	lt16, part, lens := e.label("slt16"), e.label("spart"), e.label("slens")
	hash := func(x, y reg.VecVirtual) {
		h := y
		if dec {
			h = x
		}
		e.ShufB(e.c.bswap, lo(h), lo(h))
		e.Xor(acc, h, h)
		e.Zero(acc)
		e.mulAcc1(s, false, h, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
		e.ADDQ(operand.U8(16), hp)
	}
	in, _ := src(e, 31)
	e.CMPQ(nr, operand.U8(16))
	e.JB(ref(lt16))
	{
		x, y := e.zvreg(), e.zvreg()
		e.Extract128(1, a, ksP)
		e.Mov(mem(in, 0), lo(x))
		e.Xor(ksP, lo(x), lo(y))
		e.Mov(lo(y), mem(out, 0))
		hash(x, y)
		e.Mov(lo(b), ksP)
		e.ADDQ(operand.U8(16), in)
		e.ADDQ(operand.U8(16), out)
		e.SUBQ(operand.U8(16), nr)
		e.JMP(ref(part))
	}
	e.Label(lt16)
	e.Extract128(1, a, ksP)
	e.Label(part)
	e.TESTQ(nr, nr)
	e.JZ(ref(lens))
	{
		x, y := e.zvreg(), e.zvreg()
		e.loadPartial(in, nr, lo(x))
		e.Xor(ksP, lo(x), lo(y))
		if !dec {
			e.AndU(e.keepMask(nr), lo(y), lo(y))
		}
		e.storePartial(out, nr, lo(y))
		hash(x, y)
	}
	e.Label(lens)
	l := e.lengthsBlock(aadLen, n)
	y := e.zvreg()
	e.Xor(l, lo(acc), lo(y))
	e.mulAcc1(s, false, y, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
	e.reduce(s)
	e.setFold(s, acc)
	e.ShufB(e.c.bswap, lo(acc), lo(acc))
	e.Xor(lo(a), lo(acc), lo(acc))
	tagOut(lo(acc))
}

// aadHash returns GHASH(aad) in the low lane of a new register: the TLS
// record header (13 bytes) and any AAD under a block with one partial load
// and one multiplication, longer AAD 8 blocks at a time. aadLen is
// consumed.
func (e *gcm) aadHash(k keyRegs, aad, aadLen reg.GPVirtual) reg.VecVirtual {
	e.phase("AAD")
	acc := e.vreg()
	e.Zero(acc)
	long, done := e.label("aadlong"), e.label("aaddone")
	e.TESTQ(aadLen, aadLen)
	e.JZ(ref(done))
	e.CMPQ(aadLen, operand.U8(16))
	e.JAE(ref(long))
	x := e.xmm()
	e.loadPartial(aad, aadLen, x)
	e.ShufB(e.c.bswap, x, x)
	e.mul1(k.t, acc, x)
	e.JMP(ref(done))
	e.Label(long)
	e.ghashBytes(k.t, acc, aad, aadLen)
	e.Label(done)
	return acc
}

// shortGather returns the xmm short path's text source for count pieces
// at the parameter "pieces": two pieces (the TLS record: payload and
// content type) are read in place up to the last whole block of the first,
// and only its remaining bytes (under 16) and the second piece are copied
// into out, behind them: for (16, 1), one byte. Any other count is joined
// by asmgen's JoinSlicesMax (one piece: read where it is) and end is past
// any block. SealGather admits only pieces that are exactly their own part
// of out or disjoint from it, so the text can be sealed in place there.
func shortGather(count reg.GPVirtual) shortSource {
	return func(e *gcm, max int) (reg.GPVirtual, reg.GPVirtual) {
		in, end := e.GP64(), e.GP64()
		two, done := e.label("sgtwo"), e.label("sgdone")
		e.CMPQ(count, operand.U8(2))
		e.JE(ref(two))
		e.MOVQ(e.fn.JoinSlicesMax(e.gp("pieces"), count, e.gp("out"), max), in)
		e.LEAQ(mem(in, e.shortMax()), end)
		e.JMP(ref(done))
		e.Label(two)
		descs := e.gp("pieces")
		n0, d, s, r := e.GP64(), e.GP64(), e.GP64(), e.GP64()
		e.MOVQ(mem(descs, 0), in)
		e.MOVQ(mem(descs, 8), n0)
		e.MOVQ(n0, r)
		e.ANDQ(operand.U8(15), r)
		e.SUBQ(r, n0) // the first piece's whole blocks
		e.LEAQ(operand.Mem{Base: in, Index: n0, Scale: 1}, end)
		e.MOVQ(end, s)
		e.MOVQ(e.gp("out"), d)
		e.ADDQ(n0, d)
		e.fn.CopyBytesMax(d, s, r, 15)
		p1, n1 := e.GP64(), e.GP64()
		e.MOVQ(mem(descs, asmgen.SliceHeaderSize), p1)
		e.MOVQ(mem(descs, asmgen.SliceHeaderSize+8), n1)
		e.fn.CopyBytesMax(d, p1, n1, max)
		e.Label(done)
		return in, end
	}
}

// inPlace is the short path's text source of a contiguous text: the
// parameter "in".
func inPlace(e *gcm, _ int) (in, end reg.GPVirtual) { return e.gp("in"), nil }

// joinGather returns the ymm short path's text source for count pieces:
// joined into out by asmgen's JoinSlicesMax (one piece: read where it is).
func joinGather(count reg.GPVirtual) shortSource {
	return func(e *gcm, max int) (reg.GPVirtual, reg.GPVirtual) {
		return e.fn.JoinSlicesMax(e.gp("pieces"), count, e.gp("out"), max), nil
	}
}
