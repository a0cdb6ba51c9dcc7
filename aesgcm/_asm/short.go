package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The one-shot path for short messages (n <= 80 bytes of text, at most one
// block of AAD: every TLS record header, every small RPC, and a 64-byte
// payload with its TLS 1.3 content-type byte). One keystream
// batch computes E(J0) and the text's counter blocks together, and GHASH is
// a single aggregated sum with one reduction: with T = a + b + 1 blocks to
// hash (a = 0 or 1 AAD block, b text blocks, the lengths block),
//
//	S = A*H^T ^ C_1*H^(T-a) ^ ... ^ C_b*H^2 ^ L*H
//
// each product unreduced. The general path reduces three times in series
// (after the AAD, after the text, after the lengths).

// shortMaxText and shortMaxAAD bound the short path.
const (
	shortMaxText = 80
	shortMaxAAD  = 16
)

// short seals (dec false: out gets in's ciphertext, tag is over out) or
// opens (dec true: tag is over in) the n <= 80 bytes at in, with aadLen <= 16
// bytes of AAD at aad, and hands the full tag to tagOut (tagStore or
// tagCheck): one keystream batch of 2, 5 or 6 blocks for up to 16, 64 or
// 80 bytes. in is emitted by inAt (given the size class's largest n) where
// the text is first needed, after
// the keystream and the AAD's GHASH product: a gathered text is joined
// there (shortGather), its copy overlapping the AES rounds instead of
// delaying their start.
func (e *emitter) short(k keyRegs, out reg.GPVirtual, inAt func(max int) (in, end reg.GPVirtual), n, aad, aadLen, j0 reg.GPVirtual, tagOut func(reg.VecVirtual), dec bool) {
	e.bySize(n, []int{16, 64}, []int{1, 4, 5}, func(nks, least int) {
		e.shortN(k, out, inAt, n, aad, aadLen, j0, tagOut, dec, nks, least)
	})
}

// shortN is short for least <= n <= 16*nks: the first least/16 blocks are
// whole for every such n, and are not tested.
func (e *emitter) shortN(k keyRegs, out reg.GPVirtual, inAt func(max int) (in, end reg.GPVirtual), n, aad, aadLen, j0 reg.GPVirtual, tagOut func(reg.VecVirtual), dec bool, nks, least int) {
	// ks[0] = J0, ks[i] = J0 + i: all encrypted in one batch.
	ks := make([]reg.VecVirtual, nks+1)
	for i := range ks {
		ks[i] = e.xmm()
	}
	e.loadJ0(j0, ks[0])
	ctr := e.xmm()
	e.pshufb(e.c.bswap, ks[0], ctr)
	for i := 1; i <= nks; i++ {
		e.paddd(e.c.incs.Offset(16*i), ctr, ks[i])
		e.pshufb(e.c.bswap, ks[i], ks[i])
	}
	e.encryptBlocks(k, ks)

	// The lengths block, times H.
	s := ghSum{e.xmm(), e.xmm(), e.xmm()}
	l := e.lengthsBlock(aadLen, n)
	pw, kw := powMem(k.t, 7)
	e.mulAcc(s, true, l, pw, kw)
	// hp = t - 16*ceil(n/16): text block j is times the power at
	// hp+offPow+112+16*j (H^(b+1-j)), the AAD block times the one before.
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
	e.load(mem(aad, 0), x)
	e.Label(aadLoaded)
	e.pshufb(e.c.bswap, x, x)
	e.mulAcc(s, false, x, mem(hp, offPow+96), mem(hp, offKar+96))
	e.Label(noAAD)
	in, end := inAt(16 * nks)
	// From end on (when not nil) the text is read from out, at the same
	// offset: a gathered text keeps its first piece's whole blocks where
	// they are and has only the rest joined in out (see sealFunc).
	switchIn := func() {
		if end != nil {
			e.CMPQ(in, end)
			e.CMOVQCC(out, in)
		}
	}

	part := make([]string, nks)
	for j := range part {
		part[j] = e.label("spart")
	}
	common, red := e.label("scommon"), e.label("sred")
	for j := 0; j < nks; j++ {
		if 16*(j+1) > least {
			e.CMPQ(n, operand.U8(16))
			e.JB(ref(part[j]))
		}
		x, c := e.xmm(), e.xmm()
		switchIn()
		e.load(mem(in, 0), x)
		e.xor(ks[j+1], x, c)
		e.store(c, mem(out, 0))
		h := c
		if dec {
			h = x
		}
		e.pshufb(e.c.bswap, h, h)
		e.mulAcc(s, false, h, mem(hp, offPow+112+16*j), mem(hp, offKar+112+16*j))
		e.ADDQ(operand.U8(16), in)
		e.ADDQ(operand.U8(16), out)
		e.SUBQ(operand.U8(16), n)
	}
	// 16*nks bytes were whole blocks: nothing is left.
	e.JMP(ref(red))
	ksP, hpP := e.xmm(), e.GP64()
	full := min(least/16, nks-1) // blocks always whole: no partial after fewer
	for j := nks - 1; j >= full; j-- {
		e.Label(part[j])
		e.mov(ks[j+1], ksP)
		e.LEAQ(mem(hp, 16*j), hpP)
		if j > full {
			e.JMP(ref(common))
		}
	}
	e.Label(common)
	e.TESTQ(n, n)
	e.JZ(ref(red))
	{
		x, c := e.xmm(), e.xmm()
		switchIn()
		e.loadPartial(in, n, x)
		e.xor(ksP, x, c)
		if !dec {
			// The ciphertext hashed is zero padded.
			o := e.GP64()
			e.LEAQ(e.c.ones, o)
			e.SUBQ(n, o)
			m := e.xmm()
			e.load(mem(o, 16), m)
			e.and(m, c, c)
		}
		e.storePartial(out, n, c)
		h := c
		if dec {
			h = x
		}
		e.pshufb(e.c.bswap, h, h)
		e.mulAcc(s, false, h, mem(hpP, offPow+112), mem(hpP, offKar+112))
	}
	e.Label(red)
	e.reduce(s)
	e.pshufb(e.c.bswap, s.hi, s.hi)
	e.xor(ks[0], s.hi, s.hi)
	tagOut(s.hi)
}
