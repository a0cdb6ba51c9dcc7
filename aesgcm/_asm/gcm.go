package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// declareGCM declares every function of one AES-NI backend: suffix is
// "AESNI" or "AESNIAVX", avx selects the VEX encodings.
func declareGCM(g *asmgen.Generator, suffix string, avx bool) {
	g.Package("aesgcm")
	e := &emitter{Generator: g, avx: avx, c: newConsts(g)}
	e.initFunc("gcmInit" + suffix)
	e.nonceFunc("gcmNonce" + suffix)
	e.sealFunc("gcmSeal" + suffix)
	e.openFunc("gcmOpen" + suffix)
	e.streamStartFunc("gcmStreamStart" + suffix)
	e.streamEncryptFunc("gcmStreamEncrypt" + suffix)
	e.streamFinishFunc("gcmStreamFinish" + suffix)
}

func (e *emitter) gp(name string) reg.GPVirtual {
	r := e.GP64()
	e.Load(e.Param(name), r)
	return r
}

// initFunc: the round keys are in the table; compute H = E(0), the powers
// H^1..H^8 times x^-1 and their Karatsuba halves.
func (e *emitter) initFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, rounds int)",
		asmgen.Doc(name+" computes the GHASH key powers of the key table t from its round keys: H^8..H^1 and H^16..H^9, each times x^-1, byte-reflected, and their Karatsuba halves."),
		asmgen.Secret("t"), asmgen.Public("rounds"))
	k := e.loadKey("t", "rounds")
	h := e.xmm()
	e.zero(h)
	e.encryptBlocks(k, []reg.VecVirtual{h})
	e.pshufb(e.c.bswap, h, h)
	// h = h * x^-1: a left shift by one with the carries of each qword and
	// the reduction when bit 127 falls out.
	t := e.xmm()
	e.pshufd(0xd3, h, t)
	e.psrad(31, t, t)
	e.paddq(h, h, h)
	e.and(e.c.x1, t, t)
	e.xor(t, h, h)
	// halves of h
	hk := e.xmm()
	e.pshufd(0x4e, h, hk)
	e.xor(h, hk, hk)
	e.store(h, mem(k.t, offPow+7*16))
	e.store(hk, mem(k.t, offKar+7*16))
	cur := e.xmm()
	e.mov(h, cur)
	// next sets cur to the next power (cur·H) and stores it and its
	// Karatsuba half at slot i of the given regions.
	next := func(pow, kar, i int) {
		s := ghSum{e.xmm(), e.xmm(), e.xmm()}
		e.mulAcc(s, true, cur, h, hk)
		e.reduce(s)
		e.mov(s.hi, cur)
		ck := e.xmm()
		e.pshufd(0x4e, cur, ck)
		e.xor(cur, ck, ck)
		e.store(cur, mem(k.t, pow+16*i))
		e.store(ck, mem(k.t, kar+16*i))
	}
	for i := 6; i >= 0; i-- {
		next(offPow, offKar, i)
	}
	for i := 7; i >= 0; i-- {
		next(offPow16, offKar16, i)
	}
	e.fn.Ret()
}

// nonceFunc: J0 for a nonce that is not 12 bytes.
func (e *emitter) nonceFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, nonce *byte, n int, j0 *[16]byte)",
		asmgen.Doc(name+" sets j0 to GHASH(nonce || zero padding || 0^64 || bitlen(nonce)) for the n > 0 bytes at nonce."),
		asmgen.Secret("t"), asmgen.Public("nonce", "n"), asmgen.Output("j0"), asmgen.Len("nonce", "n"))
	t := e.gp("t")
	p, n := e.gp("nonce"), e.gp("n")
	acc := e.xmm()
	e.zero(acc)
	e.ghashBytes(t, acc, p, n)
	zero := e.GP64()
	e.XORQ(zero, zero)
	l := e.lengthsBlock(zero, e.gp("n"))
	e.xor(acc, l, l)
	s := ghSum{e.xmm(), e.xmm(), acc}
	pw, kw := powMem(t, 7)
	e.mulAcc(s, true, l, pw, kw)
	e.reduce(s)
	e.pshufb(e.c.bswap, acc, acc)
	e.store(acc, mem(e.gp("j0"), 0))
	e.fn.Ret()
}

// start hashes the AAD and sets up the state at st: y, the first counter,
// E(J0).
func (e *emitter) start(k keyRegs, st operand.Mem, aad, aadLen reg.GPVirtual, j0 reg.Register) {
	acc := e.xmm()
	e.zero(acc)
	j, ctr := e.xmm(), e.xmm()
	e.loadJ0(j0, j)
	e.pshufb(e.c.bswap, j, ctr)
	e.paddd(e.c.incs.Offset(16), ctr, ctr)
	e.store(ctr, st.Offset(stCtr))
	e.encryptBlocks(k, []reg.VecVirtual{j})
	e.store(j, st.Offset(stMask))
	// The TLS record header (13 bytes) and any AAD under a block: one
	// partial load and one multiplication.
	long, done := e.label("aadlong"), e.label("aaddone")
	e.TESTQ(aadLen, aadLen)
	e.JZ(ref(done))
	e.CMPQ(aadLen, operand.U8(16))
	e.JAE(ref(long))
	x := e.xmm()
	e.loadPartial(aad, aadLen, x)
	e.pshufb(e.c.bswap, x, x)
	s := ghSum{e.xmm(), e.xmm(), acc}
	pw, kw := powMem(k.t, 7)
	e.mulAcc(s, true, x, pw, kw)
	e.reduce(s)
	e.JMP(ref(done))
	e.Label(long)
	e.ghashBytes(k.t, acc, aad, aadLen)
	e.Label(done)
	e.store(acc, st.Offset(stY))
}

// finish hashes the block left open (nopen bytes at st's open) and the
// lengths, and stores the tag. A nil nopen means no block is ever open
// there (one-shot open): the open-block branch is not emitted.
func (e *emitter) finish(k keyRegs, st operand.Mem, nopen, aadLen, textLen reg.Register, tagOut func(reg.VecVirtual)) {
	acc := e.xmm()
	e.load(st.Offset(stY), acc)
	l := e.lengthsBlock(aadLen, textLen)
	s := ghSum{e.xmm(), e.xmm(), acc}
	pw, kw := powMem(k.t, 7)
	if nopen == nil {
		e.xor(acc, l, l)
		e.mulAcc(s, true, l, pw, kw)
		e.finishTag(k, st, s, acc, tagOut)
		return
	}
	one, done := e.label("fin1"), e.label("findone")
	e.TESTQ(nopen, nopen)
	e.JZ(ref(one))
	o := e.xmm()
	e.load(st.Offset(stOpen), o)
	e.pshufb(e.c.bswap, o, o)
	e.xor(acc, o, o)
	pw6, kw6 := powMem(k.t, 6)
	e.mulAcc(s, true, o, pw6, kw6)
	e.mulAcc(s, false, l, pw, kw)
	e.JMP(ref(done))
	e.Label(one)
	e.xor(acc, l, l)
	e.mulAcc(s, true, l, pw, kw)
	e.Label(done)
	e.finishTag(k, st, s, acc, tagOut)
}

// finishTag reduces s (whose hi is acc) and hands E(J0) ^ the hash to
// tagOut.
func (e *emitter) finishTag(k keyRegs, st operand.Mem, s ghSum, acc reg.VecVirtual, tagOut func(reg.VecVirtual)) {
	e.reduce(s)
	e.pshufb(e.c.bswap, acc, acc)
	m := e.xmm()
	e.load(st.Offset(stMask), m)
	e.xor(m, acc, acc)
	tagOut(acc)
}

// encPiece encrypts the n bytes at in to out, continuing the stream at st
// whose open block has nopen bytes (updated); cb is 128 bytes of stack
// scratch for the counter blocks. in, out and n are consumed.
func (e *emitter) encPiece(k keyRegs, st, cb operand.Mem, out, in, n, nopen reg.GPVirtual) {
	done, bulk := e.label("pdone"), e.label("pbulk")
	e.TESTQ(n, n)
	e.JZ(ref(done))
	e.TESTQ(nopen, nopen)
	e.JZ(ref(bulk))
	{
		// Finish the open block with m = min(16-nopen, n) bytes.
		m := e.GP64()
		e.MOVQ(operand.U32(16), m)
		e.SUBQ(nopen, m)
		e.CMPQ(n, m)
		e.CMOVQLT(n, m)
		x, ks, msk := e.xmm(), e.xmm(), e.xmm()
		e.loadPartial(in, m, x)
		e.load(st.Offset(stKS), ks)
		e.slideMask(nopen, 0, false, msk)
		e.pshufb(msk, ks, ks)
		e.xor(ks, x, x)
		o := e.GP64()
		e.LEAQ(e.c.ones, o)
		e.SUBQ(m, o)
		e.load(mem(o, 16), msk)
		e.and(msk, x, x)
		e.storePartial(out, m, x)
		e.slideMask(nopen, 0, true, msk)
		e.pshufb(msk, x, x)
		op := e.xmm()
		e.load(st.Offset(stOpen), op)
		e.or(x, op, op)
		e.ADDQ(m, nopen)
		e.ADDQ(m, in)
		e.ADDQ(m, out)
		e.SUBQ(m, n)
		full := e.label("openfull")
		e.CMPQ(nopen, operand.U8(16))
		e.JE(ref(full))
		e.store(op, st.Offset(stOpen))
		e.JMP(ref(done)) // n is 0: the piece ended inside the block
		e.Label(full)
		acc := e.xmm()
		e.load(st.Offset(stY), acc)
		e.pshufb(e.c.bswap, op, op)
		e.xor(acc, op, op)
		s := ghSum{e.xmm(), e.xmm(), acc}
		pw, kw := powMem(k.t, 7)
		e.mulAcc(s, true, op, pw, kw)
		e.reduce(s)
		e.store(acc, st.Offset(stY))
		e.zero(op)
		e.store(op, st.Offset(stOpen))
		e.XORQ(nopen, nopen)
	}
	e.Label(bulk)
	e.TESTQ(n, n)
	e.JZ(ref(done))
	acc, ctr := e.xmm(), e.xmm()
	e.load(st.Offset(stY), acc)
	e.load(st.Offset(stCtr), ctr)
	rem := e.label("prem")
	e.CMPQ(n, operand.U8(128))
	e.JB(ref(rem))
	// The first 8 blocks are only encrypted; each later batch encrypts 8
	// and hashes the 8 before; the last 8 are hashed after the loop.
	cs := e.ctrStackInit(k, ctr, cb)
	e.aes8(k, cs, in, out, nil)
	e.ADDQ(operand.U8(128), in)
	e.ADDQ(operand.U8(128), out)
	e.SUBQ(operand.U8(128), n)
	e.bulkLoop(k, cs, in, out, n, acc, out, -128)
	e.ctrStackSync(cs, st.Offset(stCtr), ctr)
	e.ghash8(k.t, acc, out, -128, nil)
	e.Label(rem)
	save := e.label("psave")
	e.TESTQ(n, n)
	e.JZ(ref(save))
	e.remainder(k, ctr, acc, in, out, n, false, st, nil)
	// remainder left the partial block open: nopen = n mod 16
	e.MOVQ(n, nopen)
	e.ADDQ(n, in)
	e.ADDQ(n, out)
	e.Label(save)
	e.store(acc, st.Offset(stY))
	e.store(ctr, st.Offset(stCtr))
	e.Label(done)
}

// ctrStack is the counter state of the 8-block loops (ALGORITHMS.md section
// 1.3): the next 8 counter blocks XOR round key 0 in stack scratch at cb,
// the 32-bit counter of the first of them in n (native order), and the last
// word of round key 0 in k3. A batch loads its blocks with one load each,
// round 0 included, and rewrites only each block's last word with scalar
// instructions (add, byte swap, XOR, 4-byte store): no vector work.
type ctrStack struct {
	cb    operand.Mem
	n, k3 reg.GPVirtual
}

// ctrStackInit fills cb from ctr (byte-reflected, counter in dword 0).
func (e *emitter) ctrStackInit(k keyRegs, ctr reg.VecVirtual, cb operand.Mem) ctrStack {
	rk0 := e.xmm()
	e.load(mem(k.t, offRK), rk0)
	for i := 0; i < 8; i++ {
		x := e.xmm()
		e.paddd(e.c.incs.Offset(16*i), ctr, x)
		e.pshufb(e.c.bswap, x, x)
		e.xor(rk0, x, x)
		e.store(x, cb.Offset(16*i))
	}
	c := ctrStack{cb: cb, n: e.GP64(), k3: e.GP64()}
	e.movqOut(ctr, c.n)
	e.MOVL(mem(k.t, offRK+12), c.k3.As32())
	return c
}

// ctrStackNext loads the 8 blocks into s and advances cb and n by 8.
func (e *emitter) ctrStackNext(c ctrStack, s []reg.VecVirtual) {
	for i, x := range s {
		e.load(c.cb.Offset(16*i), x)
	}
	for i := range s {
		w := e.GP32()
		e.LEAL(mem(c.n, 8+i), w)
		e.BSWAPL(w)
		e.XORL(c.k3.As32(), w)
		e.MOVL(w, c.cb.Offset(16*i+12))
	}
	e.ADDL(operand.U8(8), c.n.As32())
}

// ctrStackSync sets ctr to the first counter block the loop did not use:
// the counter block saved at saved (byte-reflected, counter in dword 0)
// with its counter replaced by n. Reloading it, rather than keeping it in a
// register through the loop, leaves the loop one more vector register.
func (e *emitter) ctrStackSync(c ctrStack, saved operand.Mem, ctr reg.VecVirtual) {
	t := e.xmm()
	e.MOVL(c.n.As32(), c.n.As32())
	e.movqIn(c.n, t)
	e.load(saved, ctr)
	if e.avx {
		e.VPSRLDQ(operand.U8(4), ctr, ctr)
		e.VPSLLDQ(operand.U8(4), ctr, ctr)
	} else {
		e.PSRLDQ(operand.U8(4), ctr)
		e.PSLLDQ(operand.U8(4), ctr)
	}
	e.or(t, ctr, ctr)
}

// ghPass is the GHASH work one 8-block batch carries: the 8 blocks at
// src+disp times the key powers at pow (Karatsuba halves at kar), added to
// sum (whose hi is the accumulator). With first, block 0 takes the
// accumulator in and the batch starts the sum; with reduce, the batch ends
// with the sum reduced into the accumulator.
type ghPass struct {
	sum           ghSum
	src           reg.Register
	disp          int
	pow, kar      int
	first, reduce bool
}

// bulkLoop runs the 8-block batches while n >= 128 (at least one): pairs
// of batches hash 16 blocks with H^16..H^1 and one reduction, an odd last
// batch 8 blocks with H^8..H^1. Each batch hashes the 8 blocks at
// src+disp (the previous batch's output when encrypting, disp -128, or its
// own input when decrypting, disp 0). in, out and n are advanced.
func (e *emitter) bulkLoop(k keyRegs, cs ctrStack, in, out, n reg.GPVirtual, acc reg.VecVirtual, src reg.Register, disp int) {
	sum := ghSum{e.xmm(), e.xmm(), acc}
	next := func() {
		e.ADDQ(operand.U8(128), in)
		e.ADDQ(operand.U8(128), out)
		e.SUBQ(operand.U8(128), n)
	}
	loop, single, done := e.label("loop16"), e.label("loop8"), e.label("loopdone")
	e.Label(loop)
	e.CMPQ(n, operand.U32(256))
	e.JB(ref(single))
	e.aes8(k, cs, in, out, &ghPass{sum: sum, src: src, disp: disp, pow: offPow16, kar: offKar16, first: true})
	next()
	e.aes8(k, cs, in, out, &ghPass{sum: sum, src: src, disp: disp, pow: offPow, kar: offKar, reduce: true})
	next()
	e.JMP(ref(loop))
	e.Label(single)
	e.CMPQ(n, operand.U8(128))
	e.JB(ref(done))
	e.aes8(k, cs, in, out, &ghPass{sum: sum, src: src, disp: disp, pow: offPow, kar: offKar, first: true, reduce: true})
	next()
	e.Label(done)
}

// aes8 runs one 8-block CTR batch from in to out, with the GHASH work of
// g (if not nil) spread over its rounds: one block's Karatsuba products per
// round, the first fold after round 9 and the second before the last round.
func (e *emitter) aes8(k keyRegs, cs ctrStack, in, out reg.Register, g *ghPass) {
	s := make([]reg.VecVirtual, 8)
	for i := range s {
		s[i] = e.xmm()
	}
	e.ctrStackNext(cs, s)
	var hook func(j int)
	if g != nil {
		hook = func(j int) {
			i := j - 1
			switch {
			case j == 1 && g.first:
				// The first block carries the accumulator: vector path.
				x := e.xmm()
				e.load(mem(g.src, g.disp), x)
				e.pshufb(e.c.bswap, x, x)
				e.xor(g.sum.hi, x, x)
				e.mulAccLoop(g.sum, true, x, mem(k.t, g.pow), mem(k.t, g.kar))
			case j <= 8:
				e.mulAccHalves(g.sum, mem(g.src, g.disp+16*i), mem(k.t, g.pow+16*i), mem(k.t, g.kar+16*i))
			case j == 9 && g.reduce:
				e.reduce0(g.sum)
			}
		}
	}
	e.aesRoundsReg(k, s, hook)
	if g != nil && g.reduce {
		e.reduce1(g.sum)
	}
	last := e.xmm()
	e.load(mem(k.rkm, 160), last)
	for i, x := range s {
		d := e.xmm()
		if e.avx {
			e.VPXOR(mem(in, 16*i), last, d)
		} else {
			e.load(mem(in, 16*i), d)
			e.xor(last, d, d)
		}
		e.aesenclast(d, x)
		e.store(x, mem(out, 16*i))
	}
}

// remainder handles the last n bytes (1 <= n < 128) of a run: the keystream
// of all of them in one batch (4 blocks when n < 64, else 8), then block by
// block with each block's own key power, unreduced, and one reduction.
// Decrypting, the partial block is hashed too (the message ends there);
// encrypting, it is left open in st (its keystream and its zero-padded
// ciphertext) for a later piece or the finish. ctr is advanced past the
// blocks used; in and out are advanced past the whole blocks and n is left
// at the partial length.
func (e *emitter) remainder(k keyRegs, ctr, acc reg.VecVirtual, in, out, n reg.GPVirtual, dec bool, st operand.Mem, lens reg.VecVirtual) {
	e.bySize(n, []int{63}, []int{4, 8}, func(nks, least int) {
		e.remainderN(k, ctr, acc, in, out, n, dec, st, lens, nks, least)
	})
}

// remainderN is remainder for least <= n <= 16*nks-1: the first least/16
// blocks are whole for every such n, and are not tested.
func (e *emitter) remainderN(k keyRegs, ctr, acc reg.VecVirtual, in, out, n reg.GPVirtual, dec bool, st operand.Mem, lens reg.VecVirtual, nks, least int) {
	ks := make([]reg.VecVirtual, nks)
	for i := range ks {
		ks[i] = e.xmm()
	}
	e.ctrBlocks(k, ctr, ks)
	// ctr += ceil(n/16)
	nb := e.GP64()
	e.LEAQ(mem(n, 15), nb)
	e.SHRQ(operand.U8(4), nb)
	v := e.xmm()
	e.movqIn(nb, v)
	e.paddd(v, ctr, ctr)
	e.aesRounds(k, ks, nil)
	for _, x := range ks {
		e.aesenclast(mem(k.rkm, 160), x)
	}
	// hp points at the power of the first block: H^(blocks hashed).
	hp := e.GP64()
	if dec {
		e.SHLQ(operand.U8(4), nb)
		e.MOVQ(nb, hp)
		if lens != nil {
			e.ADDQ(operand.U8(16), hp) // the lengths block follows: one power more
		}
	} else {
		e.MOVQ(n, hp)
		e.ANDQ(operand.I8(-16), hp)
	}
	e.NEGQ(hp)
	e.ADDQ(k.t, hp)
	s := ghSum{e.xmm(), e.xmm(), e.xmm()}
	e.zero(s.lo)
	e.zero(s.mi)
	e.zero(s.hi)
	ksP := e.xmm()
	part := make([]string, nks)
	for j := range part {
		part[j] = e.label("rpart")
	}
	common := e.label("rcommon")
	for j := 0; j < nks-1; j++ {
		if 16*(j+1) > least {
			e.CMPQ(n, operand.U8(16))
			e.JB(ref(part[j]))
		}
		x, c := e.xmm(), e.xmm()
		e.load(mem(in, 0), x)
		e.xor(ks[j], x, c)
		e.store(c, mem(out, 0))
		h := c
		if dec {
			h = x
		}
		e.pshufb(e.c.bswap, h, h)
		if j == 0 {
			e.xor(acc, h, h)
			e.zero(acc)
		}
		e.mulAcc(s, false, h, mem(hp, offPow+128+16*j), mem(hp, offKar+128+16*j))
		e.ADDQ(operand.U8(16), in)
		e.ADDQ(operand.U8(16), out)
		e.SUBQ(operand.U8(16), n)
	}
	hpP := e.GP64()
	full := min(least/16, nks-1) // blocks always whole: no partial after fewer
	for j := nks - 1; j >= full; j-- {
		e.Label(part[j])
		e.mov(ks[j], ksP)
		e.LEAQ(mem(hp, 16*j), hpP)
		if j > full {
			e.JMP(ref(common))
		}
	}
	e.Label(common)
	red := e.label("rred")
	e.TESTQ(n, n)
	e.JZ(ref(red))
	x, c := e.xmm(), e.xmm()
	e.loadPartial(in, n, x)
	e.xor(ksP, x, c)
	if dec {
		e.storePartial(out, n, c)
		e.pshufb(e.c.bswap, x, x)
		e.xor(acc, x, x)
		e.zero(acc)
		e.mulAcc(s, false, x, mem(hpP, offPow+128), mem(hpP, offKar+128))
	} else {
		o := e.GP64()
		e.LEAQ(e.c.ones, o)
		e.SUBQ(n, o)
		m := e.xmm()
		e.load(mem(o, 16), m)
		e.and(m, c, c)
		e.storePartial(out, n, c)
		e.store(c, st.Offset(stOpen))
		e.store(ksP, st.Offset(stKS))
	}
	e.Label(red)
	if lens != nil {
		pw, kw := powMem(k.t, 7)
		e.mulAcc(s, false, lens, pw, kw)
	}
	e.reduce(s)
	e.xor(s.hi, acc, acc)
}

// gatherMax is the largest gathered text that the general path copies into
// the output first and seals there as one piece (see
// asmgen.Func.ForEachSliceGathered). Measured on aesni-avx, the TLS shape
// (n, 1) at 65 bytes: two pieces 146 ns, the copy then one piece 130 ns,
// Seal of 65 contiguous bytes 121 ns; from 256 bytes the pieces cost within
// 5% of one piece without it. benchcmp's per-round SealGather/Seal ratio at
// 64 bytes went from 0.80x to 0.87x (aesni-avx) and from 0.83x to 0.88x
// (aesni). vaes-avx2 does not use it: there it measured worse (0.88x to
// 0.83x), its general path handling a second piece for less.
const gatherMax = 128

// shortGather returns the short path's text source for count pieces:
// (in, end) with the text's block at offset o read from in+o while
// in+o < end and from out+o after (see shortN). Two pieces (the TLS
// record: payload and content type) are read in place up to the last
// whole block of the first, and only its remaining bytes (under 16) and
// the second piece are copied into out, behind them: for (16, 1), one
// byte. Any other count is joined by asmgen's JoinSlices (one piece: read
// where it is) and end is past any block.
func (e *emitter) shortGather(count reg.GPVirtual) func(max int) (reg.GPVirtual, reg.GPVirtual) {
	return func(max int) (reg.GPVirtual, reg.GPVirtual) {
		in, end := e.GP64(), e.GP64()
		two, done := e.label("sgtwo"), e.label("sgdone")
		e.CMPQ(count, operand.U8(2))
		e.JE(ref(two))
		e.MOVQ(e.fn.JoinSlicesMax(e.gp("pieces"), count, e.gp("out"), max), in)
		e.LEAQ(mem(in, shortMaxText), end)
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

// sealFunc: one-shot seal of a gathered text, state in stack scratch.
func (e *emitter) sealFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, rounds int, out *byte, pieces *[]byte, count int, aad *byte, aadLen int, j0 *[16]byte, textLen int, tag *[16]byte)",
		asmgen.Doc(name+" encrypts the concatenation of the count slices at pieces (textLen bytes) to out and sets tag to E(J0) ^ GHASH(aad, out), reading each piece in place."),
		asmgen.Secret("t", "aad"), asmgen.SecretSlices("pieces"), asmgen.Output("out", "tag"),
		asmgen.Public("rounds", "count", "aadLen", "j0", "textLen"),
		asmgen.Len("out", "textLen"), asmgen.Len("pieces", "count"), asmgen.Len("aad", "aadLen"), asmgen.Scratch(stSize+128))
	st := e.fn.Scratch()
	k := e.loadKey("t", "rounds")
	{
		long := e.label("long")
		count, textLen, aadLen := e.gp("count"), e.gp("textLen"), e.gp("aadLen")
		e.CMPQ(textLen, operand.U8(shortMaxText))
		e.JA(ref(long))
		e.CMPQ(aadLen, operand.U8(shortMaxAAD))
		e.JA(ref(long))
		// Several pieces are joined in out (shortGather; for two pieces
		// only what follows the first one's whole blocks) and sealed
		// there in place: SealGather admits only pieces that are exactly
		// their own part of out or disjoint from it. For the TLS shape
		// (n+1 bytes in two pieces) at 16 bytes the general path was 0.7x
		// of Seal. The join is emitted after the keystream's AES rounds
		// (see short).
		e.short(k, e.gp("out"), e.shortGather(count), textLen, e.gp("aad"), aadLen, e.gp("j0"), e.tagStore(), false)
		e.fn.Ret()
		e.Label(long)
	}
	e.start(k, st, e.gp("aad"), e.gp("aadLen"), e.gp("j0"))
	out, descs, count := e.gp("out"), e.gp("pieces"), e.gp("count")
	nopen := e.GP64()
	e.XORQ(nopen, nopen)
	zero := e.xmm()
	e.zero(zero)
	e.store(zero, st.Offset(stOpen))
	e.fn.ForEachSliceGathered(descs, count, out, e.gp("textLen"), gatherMax, func(ptr, n reg.GPVirtual) {
		e.encPiece(k, st, st.Offset(stSize), out, ptr, n, nopen)
	})
	e.finish(k, st, nopen, e.gp("aadLen"), e.gp("textLen"), e.tagStore())
	e.fn.Ret()
}

// openFunc: one-shot open; hashes the ciphertext in the same pass.
func (e *emitter) openFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, rounds int, out, in *byte, n int, aad *byte, aadLen int, j0 *[16]byte, tag *byte, tagLen int) int",
		asmgen.Doc(name+" decrypts the n bytes at in to out and returns 1 if the tagLen (12..16) bytes at tag are the first bytes of E(J0) ^ GHASH(aad, in), else 0 (compared in constant time)."),
		asmgen.Secret("t", "out", "in", "aad"),
		asmgen.Public("rounds", "n", "aadLen", "j0", "tag", "tagLen"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"), asmgen.Len("aad", "aadLen"), asmgen.Len("tag", "tagLen"), asmgen.Scratch(stSize+128))
	st := e.fn.Scratch()
	k := e.loadKey("t", "rounds")
	{
		long := e.label("long")
		n, aadLen := e.gp("n"), e.gp("aadLen")
		e.CMPQ(n, operand.U8(shortMaxText))
		e.JA(ref(long))
		e.CMPQ(aadLen, operand.U8(shortMaxAAD))
		e.JA(ref(long))
		in := func(int) (reg.GPVirtual, reg.GPVirtual) { return e.gp("in"), nil }
		e.short(k, e.gp("out"), in, n, e.gp("aad"), aadLen, e.gp("j0"), e.tagCheck(), true)
		e.fn.Ret()
		e.Label(long)
	}
	e.start(k, st, e.gp("aad"), e.gp("aadLen"), e.gp("j0"))
	out, in, n := e.gp("out"), e.gp("in"), e.gp("n")
	acc, ctr := e.xmm(), e.xmm()
	e.load(st.Offset(stY), acc)
	e.load(st.Offset(stCtr), ctr)
	rem, fin := e.label("orem"), e.label("ofin")
	e.CMPQ(n, operand.U8(128))
	e.JB(ref(rem))
	cs := e.ctrStackInit(k, ctr, st.Offset(stSize))
	e.bulkLoop(k, cs, in, out, n, acc, in, 0)
	e.ctrStackSync(cs, st.Offset(stCtr), ctr)
	e.Label(rem)
	e.TESTQ(n, n)
	e.JZ(ref(fin))
	// The remainder hashes the lengths block too, in its one reduction.
	l := e.lengthsBlock(e.gp("aadLen"), e.gp("n"))
	e.remainder(k, ctr, acc, in, out, n, true, st, l)
	e.pshufb(e.c.bswap, acc, acc)
	m := e.xmm()
	e.load(st.Offset(stMask), m)
	e.xor(m, acc, acc)
	e.tagCheck()(acc)
	e.fn.Ret()
	e.Label(fin)
	e.store(acc, st.Offset(stY))
	e.finish(k, st, nil, e.gp("aadLen"), e.gp("n"), e.tagCheck())
	e.fn.Ret()
}

func (e *emitter) streamStartFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, rounds int, st *[80]byte, aad *byte, aadLen int, j0 *[16]byte)",
		asmgen.Doc(name+" starts a stream at st: hashes aad, sets the first counter and E(J0), clears the open block."),
		asmgen.Secret("t", "st", "aad"), asmgen.Public("rounds", "aadLen", "j0"), asmgen.Len("aad", "aadLen"))
	k := e.loadKey("t", "rounds")
	stp := e.gp("st")
	st := mem(stp, 0)
	e.start(k, st, e.gp("aad"), e.gp("aadLen"), e.gp("j0"))
	zero := e.xmm()
	e.zero(zero)
	e.store(zero, st.Offset(stOpen))
	e.store(zero, st.Offset(stKS))
	e.fn.Ret()
}

func (e *emitter) streamEncryptFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, rounds int, st *[80]byte, out, in *byte, n int, nopen int)",
		asmgen.Doc(name+" encrypts the next n bytes of the stream at st from in to out; nopen is the length of the stream so far mod 16."),
		asmgen.Secret("t", "st", "in"), asmgen.Output("out"), asmgen.Public("rounds", "n", "nopen"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"), asmgen.Scratch(128))
	k := e.loadKey("t", "rounds")
	stp := e.gp("st")
	e.encPiece(k, mem(stp, 0), e.fn.Scratch(), e.gp("out"), e.gp("in"), e.gp("n"), e.gp("nopen"))
	e.fn.Ret()
}

func (e *emitter) streamFinishFunc(name string) {
	e.fn = e.Func(name, "func(t *[752]byte, st *[80]byte, nopen int, aadLen int, textLen int, tag *[16]byte)",
		asmgen.Doc(name+" sets tag to the tag of the stream at st (textLen bytes, the last nopen of them in the open block)."),
		asmgen.Secret("t", "st"), asmgen.Output("tag"), asmgen.Public("nopen", "aadLen", "textLen"))
	t := e.gp("t")
	k := keyRegs{t: t}
	stp := e.gp("st")
	e.finish(k, mem(stp, 0), e.gp("nopen"), e.gp("aadLen"), e.gp("textLen"), e.tagStore())
	e.fn.Ret()
}

// aesRoundsReg is aesRounds for a batch of blocks: each round key is loaded
// into a register once and used from there, so the batch costs one load per
// round instead of one per block and round (the loop is close to the load
// ports' limit on Zen 3 otherwise).
func (e *emitter) aesRoundsReg(k keyRegs, s []reg.VecVirtual, hook func(j int)) {
	round := func(m operand.Mem) {
		rk := e.xmm()
		e.load(m, rk)
		for _, x := range s {
			e.aesenc(rk, x)
		}
	}
	mid := e.label("aesmid")
	e.CMPQ(k.rounds, operand.U8(10))
	e.JE(ref(mid))
	round(mem(k.t, offRK+16))
	round(mem(k.t, offRK+32))
	e.CMPQ(k.rounds, operand.U8(12))
	e.JE(ref(mid))
	round(mem(k.t, offRK+48))
	round(mem(k.t, offRK+64))
	e.Label(mid)
	// The hook's multiply goes between the two halves of the next round,
	// so that the AES and PCLMULQDQ instructions arrive mixed.
	for j := 1; j <= 9; j++ {
		rk := e.xmm()
		e.load(mem(k.rkm, 16*j), rk)
		h := len(s) / 2
		for _, x := range s[:h] {
			e.aesenc(rk, x)
		}
		if hook != nil && j > 1 {
			hook(j - 1)
		}
		for _, x := range s[h:] {
			e.aesenc(rk, x)
		}
	}
	if hook != nil {
		hook(9)
	}
}

// mulAccLoop is mulAcc for the 8-block loops. In the SSE form it loads the
// key power into the product register and multiplies by x from there, so
// that x needs no register copy per product (mulAcc copies x, then
// multiplies by the power in memory).
func (e *emitter) mulAccLoop(s ghSum, first bool, x reg.VecVirtual, pw, kw operand.Mem) {
	if e.avx {
		e.mulAcc(s, first, x, pw, kw)
		return
	}
	if first {
		e.MOVOU(pw, s.lo)
		e.PCLMULQDQ(operand.U8(0x00), x, s.lo)
		e.MOVOU(pw, s.hi)
		e.PCLMULQDQ(operand.U8(0x11), x, s.hi)
		e.PSHUFD(operand.U8(0x4e), x, s.mi)
		e.PXOR(x, s.mi)
		e.PCLMULQDQ(operand.U8(0x00), kw, s.mi)
		return
	}
	t := e.xmm()
	e.sseLoHi(s, x, pw, t)
	e.PSHUFD(operand.U8(0x4e), x, t)
	e.PXOR(x, t)
	e.PCLMULQDQ(operand.U8(0x00), kw, t)
	e.PXOR(t, s.mi)
}

// sseLoHi adds the low and high Karatsuba products of x and the key power
// at pw to s (legacy SSE form: each product formed on a fresh load of the
// power into t, which it clobbers).
func (e *emitter) sseLoHi(s ghSum, x reg.VecVirtual, pw operand.Mem, t reg.VecVirtual) {
	e.MOVOU(pw, t)
	e.PCLMULQDQ(operand.U8(0x00), x, t)
	e.PXOR(t, s.lo)
	e.MOVOU(pw, t)
	e.PCLMULQDQ(operand.U8(0x11), x, t)
	e.PXOR(t, s.hi)
}

// mulAccHalves adds the byte-reflected block at m times the key power at
// pw (halves XOR at kw) to s, preparing the operands on the integer side:
// the block's two qwords are loaded, byte-swapped and XORed (the Karatsuba
// middle operand) in general registers and moved into the low qword of a
// vector register for each product. On Zen 3 the vector shuffles this
// replaces (PSHUFB for the byte swap, PSHUFD and PXOR for the halves)
// compete with AESENC and PCLMULQDQ for the same FP pipes; the scalar
// work runs beside them. The aesni-avx form does all three operands this
// way; the aesni form only the middle one (measured: each is the faster of
// the two for its encoding).
func (e *emitter) mulAccHalves(s ghSum, m operand.Mem, pw, kw operand.Mem) {
	t := e.xmm()
	if !e.avx {
		x := e.xmm()
		e.load(m, x)
		e.pshufb(e.c.bswap, x, x)
		g := e.GP64()
		e.MOVQ(m, g)
		e.XORQ(m.Offset(8), g)
		e.BSWAPQ(g)
		e.sseLoHi(s, x, pw, t)
		e.MOVQ(g, t)
		e.PCLMULQDQ(operand.U8(0x00), kw, t)
		e.PXOR(t, s.mi)
		return
	}
	lo, hi, mi := e.GP64(), e.GP64(), e.GP64()
	e.MOVQ(m.Offset(8), lo) // the high qword of the block is the low one of its reflection
	e.MOVQ(m, hi)
	e.BSWAPQ(lo)
	e.BSWAPQ(hi)
	e.MOVQ(lo, mi)
	e.XORQ(hi, mi)
	e.VMOVQ(lo, t)
	e.VPCLMULQDQ(operand.U8(0x00), pw, t, t)
	e.VPXOR(t, s.lo, s.lo)
	e.VMOVQ(hi, t)
	e.VPCLMULQDQ(operand.U8(0x10), pw, t, t) // pw's high qword times hi
	e.VPXOR(t, s.hi, s.hi)
	e.VMOVQ(mi, t)
	e.VPCLMULQDQ(operand.U8(0x00), kw, t, t)
	e.VPXOR(t, s.mi, s.mi)
}
