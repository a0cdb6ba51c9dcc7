package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// run is a pass over the text: the key, the counter register (its low lane
// the next block's counter), the GHASH accumulator (low lane), the n bytes
// at in to en- or decrypt to out, and the direction. Encrypting, st is the
// stream state, where the remainder leaves the partial block open;
// decrypting, lens is the lengths block when the remainder hashes it in
// its reduction (nil: finish does).
type run struct {
	k          keyRegs
	ctr, acc   reg.VecVirtual
	in, out, n reg.GPVirtual
	dec        bool
	st         operand.Mem
	lens       reg.VecVirtual
}

// ciphertext returns the block hashed: the text read when decrypting, the
// text written when encrypting.
func ciphertext(dec bool, read, written reg.VecVirtual) reg.VecVirtual {
	if dec {
		return read
	}
	return written
}

// remainder handles the last n bytes (1 <= n < a batch) of the run r: the
// keystream of all of them in one batch of the size class's registers
// (width.remRegs), then whole registers, single blocks and the partial
// block, each times its own key powers, unreduced, and one reduction.
// Decrypting, the partial block is hashed too (the message ends there), and
// so is lens, the lengths block, when not nil; encrypting, the partial
// block is left open in st (its keystream and its zero-padded ciphertext)
// for a later piece or the finish. ctr's low lane is advanced past the
// blocks used; in and out are advanced past the whole blocks and n is left
// at the partial length. rest is the span of n (see gcm.rest).
func (e *gcm) remainder(r run, rest span) {
	e.bySize(r.n, rest, e.remUpTo, e.remRegs, func(nk int, c span) { e.remainderN(r, nk, c) })
}

// remClass is a size class of the remainder being emitted: the run, c (the
// span of its n), ks (its nk registers of keystream), hp (the first hashed
// block's key power is at hp+pow(0)), s (the sum of the products), and its
// labels: for each register p, single[p], the entry when it is not whole,
// and part[p] (ymm), the entry of its partial block when no single block
// comes first; common, after the partial block's entries; red, the
// reduction.
type remClass struct {
	run
	c            span
	ks           []reg.VecVirtual
	hp           reg.GPVirtual
	s            sum
	single, part []string
	common, red  string
}

// remainderN is remainder for the n of c with nk registers of keystream:
// the first c.min/w registers are whole for every such n and are not
// tested; a register past c.max is never whole and is not emitted.
func (e *gcm) remainderN(r run, nk int, c span) {
	w := e.w()
	ks := make([]reg.VecVirtual, nk)
	for i := range ks {
		ks[i] = e.vreg()
	}
	e.ctrBlocks(r.k, r.ctr, ks)
	e.rounds(r.k, ks, nil, false, false)
	e.lastRound(r.k, ks)
	nb := e.advanceCtr(r)
	rc := remClass{run: r, c: c, ks: ks, hp: e.remPowerBase(r, nb)}
	rc.s = e.newSum()
	rc.single, rc.part = make([]string, nk), make([]string, nk)
	for p := range ks {
		rc.single[p], rc.part[p] = e.label("rsingle"), e.label("rpart")
	}
	rc.common, rc.red = e.label("rcommon"), e.label("rred")
	whole := e.remWhole(rc)
	if whole && c.min >= w*nk {
		// Every n of the class is w*nk: no tail.
		e.remReduce(rc)
		return
	}
	if whole {
		e.JMP(ref(rc.red)) // n was w*nk: nothing left
	}
	// The partial block's keystream and key power: on zmm the last
	// register's, all lanes, for the masked tail; else the block's.
	ksP, hpP := e.xmm(), e.GP64()
	keys := make([]reg.VecVirtual, nk)
	for p, k := range ks {
		keys[p] = lo(k)
	}
	if e.lanes == 4 {
		ksP, keys = e.vreg(), ks
	}
	sel := partialSel{ks: ksP, hp: hpP, entries: rc.single, keys: keys, base: rc.hp, stride: w,
		full: min(c.min/w, nk-1)} // registers always whole: no tail after fewer
	if e.lanes == 2 {
		sel.pre = func(p int) { e.remSingle(rc, p, ksP, hpP) }
	}
	e.partialEntries(sel, r.n, rc.red, rc.common)
	if e.lanes == 4 {
		e.maskedTail(rc, ksP, hpP)
	} else {
		e.remPartial(rc, ksP, hpP)
	}
	e.remReduce(rc)
}

// advanceCtr advances the low lane of r's counter by ceil(n/16), the
// blocks of the remainder, and returns that count in a new register.
func (e *gcm) advanceCtr(r run) reg.GPVirtual {
	nb := e.GP64()
	e.LEAQ(mem(r.n, 15), nb)
	e.SHRQ(operand.U8(4), nb)
	c := e.xmm()
	e.MovQ(nb, c)
	e.AddD(c, lo(r.ctr), lo(r.ctr))
	return nb
}

// remPowerBase returns hp, the first hashed block's power being at
// hp+pow(0): the nb blocks of the remainder are hashed decrypting (and
// the lengths block after them, if the run has it), its whole blocks
// encrypting. nb is consumed.
func (e *gcm) remPowerBase(r run, nb reg.GPVirtual) reg.GPVirtual {
	hp := e.GP64()
	if r.dec {
		e.SHLQ(operand.U8(4), nb)
		e.MOVQ(nb, hp)
		if r.lens != nil {
			e.ADDQ(operand.U8(16), hp) // the lengths block follows: one power more
		}
	} else {
		e.MOVQ(r.n, hp)
		e.ANDQ(operand.I8(-16), hp)
	}
	e.NEGQ(hp)
	e.ADDQ(r.k.t, hp)
	return hp
}

// remWhole emits the whole registers of rc, each one's text XOR its
// keystream, its ciphertext times its powers, in and out advanced and n
// lessened by a register; a register that may not be whole goes to its
// single entry when it is not. It reports whether the last register can
// be whole (n may be w*nk): no n of the class makes a register past c.max
// whole, and from the first such register on the code is left to the
// single entries (the next when it is the last register).
func (e *gcm) remWhole(rc remClass) bool {
	w, nk := e.w(), len(rc.ks)
	for p := 0; p < nk; p++ {
		if w*(p+1) > rc.c.max {
			if p < nk-1 {
				e.JMP(ref(rc.single[p]))
			}
			return false
		}
		if w*(p+1) > rc.c.min {
			e.CMPQ(rc.n, operand.U8(w))
			e.JB(ref(rc.single[p]))
		}
		x, y := e.vreg(), e.vreg()
		e.Mov(mem(rc.in, 0), x)
		e.Xor(rc.ks[p], x, y)
		e.Mov(y, mem(rc.out, 0))
		h := ciphertext(rc.dec, x, y)
		e.ShufB(e.c.bswap, h, h)
		if p == 0 {
			e.Xor(rc.acc, h, h)
			e.Zero(rc.acc)
		}
		e.mulAcc(rc.s, false, h, mem(rc.hp, e.pow(0)+w*p), mem(rc.hp, e.kar(0)+w*p))
		e.ADDQ(operand.U8(w), rc.in)
		e.ADDQ(operand.U8(w), rc.out)
		e.SUBQ(operand.U8(w), rc.n)
	}
	return true
}

// remSingle is the entry code of register p of rc on ymm when it is not
// whole: one whole block in the low lane or none, then the partial block
// in the next lane, selected into ks and hp before a jump to common; at
// part[p], no whole block.
func (e *gcm) remSingle(rc remClass, p int, ks reg.VecVirtual, hp reg.GPVirtual) {
	w := e.w()
	e.CMPQ(rc.n, operand.U8(16))
	e.JB(ref(rc.part[p]))
	x, y := e.zvreg(), e.zvreg()
	e.Mov(mem(rc.in, 0), lo(x))
	e.Xor(lo(rc.ks[p]), lo(x), lo(y))
	e.Mov(lo(y), mem(rc.out, 0))
	h := ciphertext(rc.dec, x, y)
	e.ShufB(e.c.bswap, lo(h), lo(h))
	if p == 0 {
		e.Xor(rc.acc, h, h)
		e.Zero(rc.acc)
	}
	e.mulAcc1(rc.s, false, h, mem(rc.hp, e.pow(0)+w*p), mem(rc.hp, e.kar(0)+w*p))
	e.ADDQ(operand.U8(16), rc.in)
	e.ADDQ(operand.U8(16), rc.out)
	e.SUBQ(operand.U8(16), rc.n)
	e.Extract128(1, rc.ks[p], ks)
	e.LEAQ(mem(rc.hp, w*p+16), hp)
	e.JMP(ref(rc.common))
	e.Label(rc.part[p])
}

// remPartial is the partial block of rc (xmm and ymm), of keystream ks in
// an xmm register and key power at hp+pow(0): decrypting, hashed;
// encrypting, left open in st, its ciphertext zero padded.
func (e *gcm) remPartial(rc remClass, ks reg.VecVirtual, hp reg.GPVirtual) {
	x, y := e.zvreg(), e.zvreg()
	e.loadPartial(rc.in, rc.n, lo(x))
	e.Xor(ks, lo(x), lo(y))
	if rc.dec {
		e.storePartial(rc.out, rc.n, lo(y))
		e.ShufB(e.c.bswap, lo(x), lo(x))
		e.Xor(rc.acc, x, x)
		e.Zero(rc.acc)
		e.mulAcc1(rc.s, false, x, mem(hp, e.pow(0)), mem(hp, e.kar(0)))
		return
	}
	e.AndU(e.keepMask(rc.n), lo(y), lo(y))
	e.storePartial(rc.out, rc.n, lo(y))
	e.Mov(lo(y), rc.st.Offset(stOpen))
	e.Mov(ks, rc.st.Offset(stKS))
}

// remReduce is the end of rc at its label red: the lengths block times H
// when the run has it, then the reduction, added into acc.
func (e *gcm) remReduce(rc remClass) {
	e.Label(rc.red)
	if rc.lens != nil {
		e.mulAcc1(rc.s, false, e.widen(rc.lens), mem(rc.k.t, e.pow(1)), mem(rc.k.t, e.kar(1)))
	}
	e.reduce(rc.s)
	e.addFold(rc.s, rc.acc)
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
// 0 and the open-block code is not emitted. With scratchState, st is the
// function's own stack scratch, whose counter the taint check sees come from
// the public J0 (a stream's state is memory the check takes as secret, so a
// branch on its counter would fail it): the bulk loop steps its counters
// big-endian (beCounters) on ymm and zmm.
type piece struct {
	k                 keyRegs
	st, cb            operand.Mem
	out, in, n, nopen reg.GPVirtual
	len               span
	first             bool
	scratchState      bool
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
	c := e.startCounters(k, ctr, p.cb, p.scratchState)
	lk := e.loopKey(k)
	held := e.holdHash(lk, true, p.scratchState)
	e.batch(lk, c, in, out, nil, held.keep())
	text := bulkText{in, out, n}
	text.next(e)
	e.bulk(lk, c, text, bulkHash{acc: acc, src: out, disp: -e.bb(), held: held})
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
	e.remainder(run{k: p.k, ctr: ctr, acc: acc, in: in, out: out, n: n, st: st}, e.rest(p.len))
	// remainder left the partial block open: nopen = n mod 16
	e.MOVQ(n, nopen)
	e.ADDQ(n, in)
	e.ADDQ(n, out)
	e.Label(save)
	e.Mov(lo(acc), st.Offset(stY))
	e.Mov(lo(ctr), st.Offset(stCtr))
	e.Label(done)
}

// partialSel selects the keystream and the key power of a run's partial
// block: at entries[p], for each register p it can fall in (a block on
// xmm's short path) from the last down to full, pre(p) (if not nil), then
// ks = keys[p] and hp = base + stride*p (the base of its key power).
type partialSel struct {
	ks      reg.VecVirtual
	hp      reg.GPVirtual
	entries []string
	keys    []reg.VecVirtual
	base    reg.Register
	stride  int
	full    int
	pre     func(p int)
}

// partialEntries emits the entries of sel, each but full's ending in a
// jump to common, the code after them (full falls into it), which then
// tests n: no partial block jumps to red.
func (e *gcm) partialEntries(sel partialSel, n reg.Register, red, common string) {
	for p := len(sel.keys) - 1; p >= sel.full; p-- {
		e.Label(sel.entries[p])
		if sel.pre != nil {
			sel.pre(p)
		}
		e.Mov(sel.keys[p], sel.ks)
		e.LEAQ(mem(sel.base, sel.stride*p), sel.hp)
		if p > sel.full {
			e.JMP(ref(common))
		}
	}
	e.Label(common)
	e.TESTQ(n, n)
	e.JZ(ref(red))
}
