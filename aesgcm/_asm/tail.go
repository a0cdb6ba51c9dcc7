package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// remainder handles the last n bytes (1 <= n < a batch) of a run: the
// keystream of all of them in one batch of the size class's registers
// (width.remRegs), then whole registers, single blocks and the partial
// block, each times its own key powers, unreduced, and one reduction.
// Decrypting, the partial block is hashed too (the message ends there), and
// so is lens, the lengths block, when not nil; encrypting, the partial
// block is left open in st (its keystream and its zero-padded ciphertext)
// for a later piece or the finish. ctr's low lane is advanced past the
// blocks used; in and out are advanced past the whole blocks and n is left
// at the partial length. rest is the span of n (see gcm.rest).
func (e *gcm) remainder(k keyRegs, ctr, acc reg.VecVirtual, in, out, n reg.GPVirtual, dec bool, st operand.Mem, lens reg.VecVirtual, rest span) {
	e.bySize(n, rest.min, e.remUpTo, e.remRegs, rest.max, func(nk, least, most int) {
		e.remainderN(k, ctr, acc, in, out, n, dec, st, lens, nk, least, most)
	})
}

// remainderN is remainder for least <= n <= most with nk registers of
// keystream: the first least/w registers are whole for every such n and
// are not tested; a register past most is never whole and is not emitted.
func (e *gcm) remainderN(k keyRegs, ctr, acc reg.VecVirtual, in, out, n reg.GPVirtual, dec bool, st operand.Mem, lens reg.VecVirtual, nk, least, most int) {
	w := e.w()
	ks := make([]reg.VecVirtual, nk)
	for i := range ks {
		ks[i] = e.vreg()
	}
	e.ctrBlocks(k, ctr, ks)
	e.rounds(k, ks, nil, false, false)
	e.lastRound(k, ks)
	// ctr += ceil(n/16), low lane
	nb := e.GP64()
	e.LEAQ(mem(n, 15), nb)
	e.SHRQ(operand.U8(4), nb)
	c := e.xmm()
	e.MovQ(nb, c)
	e.AddD(c, lo(ctr), lo(ctr))
	// hp: the first hashed block's power is at hp+pow(0).
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
	s := e.newSum()
	// The ciphertext is hashed: the text read when decrypting, the text
	// written when encrypting.
	hashed := func(read, written reg.VecVirtual) reg.VecVirtual {
		if dec {
			return read
		}
		return written
	}
	singleL := make([]string, nk)
	part := make([]string, nk)
	for p := range singleL {
		singleL[p], part[p] = e.label("rsingle"), e.label("rpart")
	}
	common, red := e.label("rcommon"), e.label("rred")
	whole := true // the last register can be whole: n may be w*nk
	for p := 0; p < nk; p++ {
		if w*(p+1) > most {
			// No n of the class makes this register whole: on to its
			// single blocks (next when it is the last register).
			if p < nk-1 {
				e.JMP(ref(singleL[p]))
			}
			whole = false
			break
		}
		if w*(p+1) > least {
			e.CMPQ(n, operand.U8(w))
			e.JB(ref(singleL[p]))
		}
		x, y := e.vreg(), e.vreg()
		e.Mov(mem(in, 0), x)
		e.Xor(ks[p], x, y)
		e.Mov(y, mem(out, 0))
		h := hashed(x, y)
		e.ShufB(e.c.bswap, h, h)
		if p == 0 {
			e.Xor(acc, h, h)
			e.Zero(acc)
		}
		e.mulAcc(s, false, h, mem(hp, e.pow(0)+w*p), mem(hp, e.kar(0)+w*p))
		e.ADDQ(operand.U8(w), in)
		e.ADDQ(operand.U8(w), out)
		e.SUBQ(operand.U8(w), n)
	}
	if whole && least >= w*nk {
		// Every n of the class is w*nk: no tail.
		e.Label(red)
		e.reduce(s)
		e.addFold(s, acc)
		return
	}
	if whole {
		e.JMP(ref(red)) // n was w*nk: nothing left
	}
	ksP, hpP := e.xmm(), e.GP64()
	if e.lanes == 4 {
		ksP = e.vreg() // the last register's keystream, all lanes
	}
	// single: under a register on ymm, one whole block in the low lane or
	// none, then the partial block in the next lane.
	single := func(p int) {
		if e.lanes != 2 {
			return
		}
		e.CMPQ(n, operand.U8(16))
		e.JB(ref(part[p]))
		x, y := e.zvreg(), e.zvreg()
		e.Mov(mem(in, 0), lo(x))
		e.Xor(lo(ks[p]), lo(x), lo(y))
		e.Mov(lo(y), mem(out, 0))
		h := hashed(x, y)
		e.ShufB(e.c.bswap, lo(h), lo(h))
		if p == 0 {
			e.Xor(acc, h, h)
			e.Zero(acc)
		}
		e.mulAcc1(s, false, h, mem(hp, e.pow(0)+w*p), mem(hp, e.kar(0)+w*p))
		e.ADDQ(operand.U8(16), in)
		e.ADDQ(operand.U8(16), out)
		e.SUBQ(operand.U8(16), n)
		e.Extract128(1, ks[p], ksP)
		e.LEAQ(mem(hp, w*p+16), hpP)
		e.JMP(ref(common))
		e.Label(part[p])
	}
	full := min(least/w, nk-1) // registers always whole: no tail after fewer
	key := func(p int) reg.VecVirtual { return lo(ks[p]) }
	if e.lanes == 4 {
		key = func(p int) reg.VecVirtual { return ks[p] }
	}
	e.partialEntries(ksP, hpP, full, nk-1, func(p int) string { return singleL[p] }, single, key, hp, w, n, red, common)
	if e.lanes == 4 {
		e.maskedTail(s, ksP, acc, in, out, n, hpP, dec, st)
		e.Label(red)
		e.reduce(s)
		e.addFold(s, acc)
		return
	}
	x, y := e.zvreg(), e.zvreg()
	e.loadPartial(in, n, lo(x))
	e.Xor(ksP, lo(x), lo(y))
	if dec {
		e.storePartial(out, n, lo(y))
		e.ShufB(e.c.bswap, lo(x), lo(x))
		e.Xor(acc, x, x)
		e.Zero(acc)
		e.mulAcc1(s, false, x, mem(hpP, e.pow(0)), mem(hpP, e.kar(0)))
	} else {
		e.AndU(e.keepMask(n), lo(y), lo(y))
		e.storePartial(out, n, lo(y))
		e.Mov(lo(y), st.Offset(stOpen))
		e.Mov(ksP, st.Offset(stKS))
	}
	e.Label(red)
	if lens != nil {
		e.mulAcc1(s, false, e.widen(lens), mem(k.t, e.pow(1)), mem(k.t, e.kar(1)))
	}
	e.reduce(s)
	e.addFold(s, acc)
}

// rest is the span of a remainder's n (1 <= n < a batch) in code whose
// text, or piece, has the lengths s: with batches before it, any n under
// a batch; without, the text itself.
func (e *gcm) rest(s span) span {
	if e.batches(s) {
		return anyLen.below(e.bb())
	}
	return s.below(e.bb())
}

// piece is a piece of text encrypted into a stream (a one-shot seal's text
// is a stream's first and only piece): the key, the stream state st, cb
// (ctrScratch bytes of stack scratch for the bulk loop's counters), the n
// bytes at in to encrypt to out, nopen (the bytes of the stream's open
// block) and len, the span of n. A first piece starts the stream: nopen is
// 0 and the open-block code is not emitted.
type piece struct {
	k                 keyRegs
	st, cb            operand.Mem
	out, in, n, nopen reg.GPVirtual
	len               span
	first             bool
}

// encPiece encrypts the piece p, continuing its stream; nopen is updated.
// in, out and n are consumed.
func (e *gcm) encPiece(p piece) {
	done := e.label("pdone")
	if !p.first {
		bulk := e.label("pbulk")
		e.TESTQ(p.n, p.n)
		e.JZ(ref(done))
		e.TESTQ(p.nopen, p.nopen)
		e.JZ(ref(bulk))
		e.phase("open block")
		e.finishOpen(p, done)
		e.Label(bulk)
		// The open block took up to 15 bytes.
		p.len = span{max(p.len.min-15, 0), p.len.max}
	}
	e.encBulk(p, done)
}

// finishOpen finishes the open block of encPiece with m = min(16-nopen, n)
// bytes, in registers, jumping to done when the piece ends inside it.
func (e *gcm) finishOpen(p piece, done string) {
	k, st, out, in, n, nopen := p.k, p.st, p.out, p.in, p.n, p.nopen
	m := e.GP64()
	e.MOVQ(operand.U32(16), m)
	e.SUBQ(nopen, m)
	e.CMPQ(n, m)
	e.CMOVQLT(n, m)
	x, ks, msk := e.xmm(), e.xmm(), e.xmm()
	e.loadPartial(in, m, x)
	e.Mov(st.Offset(stKS), ks)
	e.slideMask(nopen, 0, false, msk)
	e.ShufB(msk, ks, ks)
	e.Xor(ks, x, x)
	e.AndU(e.keepMask(m), x, x)
	e.storePartial(out, m, x)
	e.slideMask(nopen, 0, true, msk)
	e.ShufB(msk, x, x)
	op := e.xmm()
	e.Mov(st.Offset(stOpen), op)
	e.Or(x, op, op)
	e.ADDQ(m, nopen)
	e.ADDQ(m, in)
	e.ADDQ(m, out)
	e.SUBQ(m, n)
	if p.len.min < 16 {
		// A piece under 16 bytes may end inside the block.
		full := e.label("openfull")
		e.CMPQ(nopen, operand.U8(16))
		e.JE(ref(full))
		e.Mov(op, st.Offset(stOpen))
		e.JMP(ref(done)) // n is 0: the piece ended inside the block
		e.Label(full)
	}
	acc := e.zvreg()
	e.Mov(st.Offset(stY), lo(acc))
	e.ShufB(e.c.bswap, op, op)
	e.mul1(k.t, acc, op)
	e.Mov(lo(acc), st.Offset(stY))
	e.Zero(op)
	e.Mov(op, st.Offset(stOpen))
	e.XORQ(nopen, nopen)
}

// encBulk is encPiece after the open block: whole batches, then the
// remainder, which leaves a partial block open; it ends at done.
func (e *gcm) encBulk(p piece, done string) {
	k, st, out, in, n := p.k, p.st, p.out, p.in, p.n
	e.TESTQ(n, n)
	e.JZ(ref(done))
	acc := e.zvreg()
	e.Mov(st.Offset(stY), lo(acc))
	ctr := e.loadCtr(st)
	rem := e.label("prem")
	if !e.batches(p.len) {
		e.encRest(p, ctr, acc, rem, done)
		return
	}
	e.CMPQ(n, imm(e.bb()))
	e.JB(ref(rem))
	e.phase("main loop")
	// The first batch is only encrypted; each later one encrypts its
	// blocks and hashes the batch before; the last is hashed after the
	// loop.
	c := e.startCounters(k, ctr, p.cb)
	e.batch(k, c, in, out, nil)
	e.ADDQ(imm(e.bb()), in)
	e.ADDQ(imm(e.bb()), out)
	e.SUBQ(imm(e.bb()), n)
	e.bulk(k, c, in, out, n, acc, out, -e.bb())
	e.syncCounters(c, st.Offset(stCtr))
	e.ghashBatch(k.t, acc, out, -e.bb())
	e.encRest(p, ctr, acc, rem, done)
}

// encRest is encBulk from its label rem on: the remainder, the state saved,
// the label done.
func (e *gcm) encRest(p piece, ctr, acc reg.VecVirtual, rem, done string) {
	st, out, in, n, nopen := p.st, p.out, p.in, p.n, p.nopen
	e.Label(rem)
	save := e.label("psave")
	e.TESTQ(n, n)
	e.JZ(ref(save))
	e.phase("remainder")
	e.remainder(p.k, ctr, acc, in, out, n, false, st, nil, e.rest(p.len))
	// remainder left the partial block open: nopen = n mod 16
	e.MOVQ(n, nopen)
	e.ADDQ(n, in)
	e.ADDQ(n, out)
	e.Label(save)
	e.Mov(lo(acc), st.Offset(stY))
	e.Mov(lo(ctr), st.Offset(stCtr))
	e.Label(done)
}

// partialEntries emits the entries of a run's partial block: for p from
// last down to full, at label(p), pre(p) (if not nil), then ksP = key(p)
// (its keystream) and hpP = hp + stride*p (the base of its key power), and
// a jump to common, the code after them (full falls into it), which then
// tests n: no partial block jumps to red.
func (e *gcm) partialEntries(ksP reg.VecVirtual, hpP reg.GPVirtual, full, last int, label func(int) string, pre func(int), key func(int) reg.VecVirtual, hp reg.Register, stride int, n reg.Register, red, common string) {
	for p := last; p >= full; p-- {
		e.Label(label(p))
		if pre != nil {
			pre(p)
		}
		e.Mov(key(p), ksP)
		e.LEAQ(mem(hp, stride*p), hpP)
		if p > full {
			e.JMP(ref(common))
		}
	}
	e.Label(common)
	e.TESTQ(n, n)
	e.JZ(ref(red))
}
