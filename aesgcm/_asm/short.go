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

// shortMsg is a short message to seal (dec false: out gets the text's
// ciphertext, the tag is over out) or open (dec true: out gets the
// plaintext, the tag is over the text): the key, out, src (where the text
// is read), n (the text's length), the AAD and its length, the
// pre-counter block at j0, and tagOut (tagStore or tagCheck), which is
// handed the full tag.
type shortMsg struct {
	k                  keyRegs
	out                reg.GPVirtual
	src                shortSource
	n, aad, aadLen, j0 reg.GPVirtual
	tagOut             func(reg.VecVirtual)
	dec                bool
}

// shortMessage seals or opens the short message m at the emitter's short
// path.
func (e *gcm) shortMessage(m shortMsg) {
	e.phase("short message")
	if e.short.layout == shortPairs {
		e.shortYMM(m)
		return
	}
	// One keystream batch of E(J0) and the size class's text blocks.
	e.bySize(m.n, span{0, e.shortMax()}, e.short.upTo, e.short.regs, func(nks int, c span) {
		e.shortXMM(m, nks, c)
	})
}

// shortClass is a size class of the xmm short path being emitted: the
// message, c (the span of its n), ks (E(J0), then the keystream of the
// text blocks), s (the sum of the products), hp (text block j is times the
// power at hp+pow(1)+16*j, H^(b+1-j), the AAD block times the one before),
// in and end (where the text is read; see shortSource), and its labels:
// part[j], the entry of a partial block j; red, the reduction.
type shortClass struct {
	shortMsg
	c       span
	ks      []reg.VecVirtual
	s       sum
	hp      reg.GPVirtual
	in, end reg.GPVirtual
	part    []string
	red     string
}

// shortXMM is shortMessage on xmm for the n of c (c.max <= 16*nks): the
// first c.min/16 blocks are whole for every such n, and are not tested.
func (e *gcm) shortXMM(m shortMsg, nks int, c span) {
	sc := shortClass{shortMsg: m, c: c, ks: e.shortKeystream(m, nks)}
	sc.s = e.shortLengths(m)
	sc.hp = e.shortPowerBase(m)
	e.shortAAD(sc)
	sc.in, sc.end = m.src(e, 16*nks)
	sc.part = make([]string, nks)
	for j := range sc.part {
		sc.part[j] = e.label("spart")
	}
	sc.red = e.label("sred")
	e.shortWhole(sc)
	// 16*nks bytes were whole blocks: nothing is left.
	e.JMP(ref(sc.red))
	sel := partialSel{ks: e.xmm(), hp: e.GP64(), entries: sc.part, keys: sc.ks[1:], base: sc.hp, stride: 16,
		full: min(c.min/16, nks-1)} // blocks always whole: no partial after fewer
	e.partialEntries(sel, m.n, sc.red, e.label("scommon"))
	e.shortPartial(sc, sel.ks, sel.hp)
	e.Label(sc.red)
	e.reduce(sc.s)
	e.ShufB(e.c.bswap, sc.s.hi, sc.s.hi)
	e.Xor(sc.ks[0], sc.s.hi, sc.s.hi)
	m.tagOut(sc.s.hi)
}

// shortKeystream returns ks, ks[0] = E(J0), ks[i] = E(J0 + i) for i up to
// nks: all encrypted in one batch.
func (e *gcm) shortKeystream(m shortMsg, nks int) []reg.VecVirtual {
	ks := make([]reg.VecVirtual, nks+1)
	for i := range ks {
		ks[i] = e.xmm()
	}
	e.loadJ0(m.j0, ks[0])
	ctr := e.xmm()
	e.ShufB(e.c.bswap, ks[0], ctr)
	for i := 1; i <= nks; i++ {
		e.AddD(e.c.incs.Offset(16*i), ctr, ks[i])
		e.ShufB(e.c.bswap, ks[i], ks[i])
	}
	e.encrypt(m.k, ks)
	return ks
}

// shortLengths returns the sum started with the lengths block times H.
func (e *gcm) shortLengths(m shortMsg) sum {
	s := sum{e.xmm(), e.xmm(), e.xmm()}
	l := e.lengthsBlock(m.aadLen, m.n)
	e.mulAcc(s, true, l, mem(m.k.t, e.pow(1)), mem(m.k.t, e.kar(1)))
	return s
}

// shortPowerBase returns hp = t - 16*ceil(n/16) (see shortClass).
func (e *gcm) shortPowerBase(m shortMsg) reg.GPVirtual {
	hp := e.GP64()
	e.LEAQ(mem(m.n, 15), hp)
	e.SHRQ(operand.U8(4), hp)
	e.SHLQ(operand.U8(4), hp)
	e.NEGQ(hp)
	e.ADDQ(m.k.t, hp)
	return hp
}

// shortAAD adds the AAD block (at most one, zero padded), if any, times its
// power to the sum.
func (e *gcm) shortAAD(sc shortClass) {
	noAAD, fullAAD, aadLoaded := e.label("snoaad"), e.label("sfullaad"), e.label("saad")
	x := e.xmm()
	e.TESTQ(sc.aadLen, sc.aadLen)
	e.JZ(ref(noAAD))
	e.CMPQ(sc.aadLen, operand.U8(16))
	e.JE(ref(fullAAD))
	e.loadPartial(sc.aad, sc.aadLen, x)
	e.JMP(ref(aadLoaded))
	e.Label(fullAAD)
	e.Mov(mem(sc.aad, 0), x)
	e.Label(aadLoaded)
	e.ShufB(e.c.bswap, x, x)
	e.mulAcc(sc.s, false, x, mem(sc.hp, e.pow(2)), mem(sc.hp, e.kar(2)))
	e.Label(noAAD)
}

// shortRead points in at out from end on (when not nil): the text at the
// same offset is read from there.
func (e *gcm) shortRead(sc shortClass) {
	if sc.end != nil {
		e.CMPQ(sc.in, sc.end)
		e.CMOVQCC(sc.out, sc.in)
	}
}

// shortWhole emits the whole text blocks of sc, each XOR its keystream,
// its ciphertext times its power, in and out advanced and n lessened by a
// block; a block that may not be whole goes to its partial entry when it
// is not.
func (e *gcm) shortWhole(sc shortClass) {
	for j := 0; j < len(sc.part); j++ {
		if 16*(j+1) > sc.c.min {
			e.CMPQ(sc.n, operand.U8(16))
			e.JB(ref(sc.part[j]))
		}
		x, c := e.xmm(), e.xmm()
		e.shortRead(sc)
		e.Mov(mem(sc.in, 0), x)
		e.Xor(sc.ks[j+1], x, c)
		e.Mov(c, mem(sc.out, 0))
		h := ciphertext(sc.dec, x, c)
		e.ShufB(e.c.bswap, h, h)
		e.mulAcc(sc.s, false, h, mem(sc.hp, e.pow(1)+16*j), mem(sc.hp, e.kar(1)+16*j))
		e.ADDQ(operand.U8(16), sc.in)
		e.ADDQ(operand.U8(16), sc.out)
		e.SUBQ(operand.U8(16), sc.n)
	}
}

// shortPartial emits the partial block of sc, of keystream ks and key
// power at hp+pow(1): en- or decrypted and hashed.
func (e *gcm) shortPartial(sc shortClass, ks reg.VecVirtual, hp reg.GPVirtual) {
	x, c := e.xmm(), e.xmm()
	e.shortRead(sc)
	e.loadPartial(sc.in, sc.n, x)
	e.Xor(ks, x, c)
	if !sc.dec {
		// The ciphertext hashed is zero padded.
		e.AndU(e.keepMask(sc.n), c, c)
	}
	e.storePartial(sc.out, sc.n, c)
	h := ciphertext(sc.dec, x, c)
	e.ShufB(e.c.bswap, h, h)
	e.mulAcc(sc.s, false, h, mem(hp, e.pow(1)), mem(hp, e.kar(1)))
}

// shortYMM is shortMessage on ymm for n < 32: E(J0) and the keystream of
// both text blocks in one AES pass of two registers ([J0, J0+1], [J0+2,
// J0+3]), the AAD hashed meanwhile, then the text blocks and the lengths
// block each times its own power (H^m..H^1) and one reduction.
func (e *gcm) shortYMM(m shortMsg) {
	k, out, n, aad, aadLen := m.k, m.out, m.n, m.aad, m.aadLen
	ctr := e.vreg()
	e.loadJ0(m.j0, lo(ctr))
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
	// hp: the power of the first block (of ceil(n/16) + 1) is at
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
		h := ciphertext(m.dec, x, y)
		e.ShufB(e.c.bswap, lo(h), lo(h))
		e.Xor(acc, h, h)
		e.Zero(acc)
		e.mulAcc1(s, false, h, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
		e.ADDQ(operand.U8(16), hp)
	}
	in, _ := m.src(e, 31)
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
		if !m.dec {
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
	m.tagOut(lo(acc))
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

// gathered returns the short path's text source for count pieces at the
// parameter "pieces": shortGather's on a shortBlocks path, joinGather's on
// a shortPairs one.
func gathered(count reg.GPVirtual) shortSource {
	return func(e *gcm, max int) (reg.GPVirtual, reg.GPVirtual) {
		if e.short.layout == shortBlocks {
			return shortGather(count)(e, max)
		}
		return joinGather(count)(e, max)
	}
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
