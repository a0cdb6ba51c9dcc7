package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// keyRegs are the registers every function keeps for the key: the table,
// the number of rounds (10, 12 or 14: public, the key size) and rkm, which
// points 16*(rounds-10) bytes into the table so that the last nine middle
// rounds are at rkm+16..rkm+144 and the last round key at rkm+160 for every
// key size.
type keyRegs struct {
	t, rounds, rkm reg.GPVirtual
	// held is where a loop keeps the round keys in registers (see
	// loopKey); nil: each is loaded (broadcast) where a round needs it.
	held *heldKeys
}

// heldKeys are the round keys of a loop that keeps them in registers, each
// broadcast to every lane once before it: round key 0, the nine middle
// rounds (at rkm) and the last one. The extra rounds of AES-192 and AES-256
// are still broadcast where they run: four more registers do not fit.
type heldKeys struct {
	k0, last reg.VecVirtual
	mid      [9]reg.VecVirtual
}

// loopKey returns k for a bulk loop: on a width that holds its round keys
// in registers (width.holdKeys), a copy of k whose keys are broadcast into
// registers here, once; else k itself.
func (e *gcm) loopKey(k keyRegs) keyRegs {
	if !e.holdKeys {
		return k
	}
	h := &heldKeys{k0: e.rkReg(mem(k.t, offRK))}
	for j := range h.mid[:9] {
		h.mid[j] = e.rkReg(mem(k.rkm, 16*(j+1)))
	}
	h.last = e.rkReg(mem(k.rkm, 160))
	k.held = h
	return k
}

// key returns the round key of k at m (in k's table: offRK+16*i from t,
// or 16*j from rkm) for every lane: the register holding it when k holds
// its keys, else as rk does.
func (e *gcm) key(k keyRegs, m operand.Mem, inReg bool) operand.Op {
	if r, ok := k.held.at(k, m); ok {
		return r
	}
	return e.rk(m, inReg)
}

// keyReg is key in a register.
func (e *gcm) keyReg(k keyRegs, m operand.Mem) reg.VecVirtual {
	if r, ok := k.held.at(k, m); ok {
		return r
	}
	return e.rkReg(m)
}

// at returns the register holding the round key at m, if h holds it (h
// may be nil: none).
func (h *heldKeys) at(k keyRegs, m operand.Mem) (reg.VecVirtual, bool) {
	switch {
	case h == nil:
		return nil, false
	case m.Base == reg.Register(k.t) && m.Disp == offRK:
		return h.k0, true
	case m.Base == reg.Register(k.rkm) && m.Disp == 160:
		return h.last, true
	case m.Base == reg.Register(k.rkm) && m.Disp >= 16 && m.Disp <= 144 && m.Disp%16 == 0 && h.mid[m.Disp/16-1] != nil:
		return h.mid[m.Disp/16-1], true
	}
	return nil, false
}

func (e *gcm) loadKey(tName, roundsName string) keyRegs {
	k := keyRegs{t: e.GP64(), rounds: e.GP64(), rkm: e.GP64()}
	e.Load(e.Param(tName), k.t)
	e.Load(e.Param(roundsName), k.rounds)
	e.MOVQ(k.rounds, k.rkm)
	e.SHLQ(operand.U8(4), k.rkm)
	e.ADDQ(k.t, k.rkm)
	e.SUBQ(operand.U32(160), k.rkm)
	return k
}

// rk returns the round key at m as an operand for every lane: broadcast
// into a register on wide registers; on xmm the memory operand itself, or
// (inReg) a register it is loaded into.
func (e *gcm) rk(m operand.Mem, inReg bool) operand.Op {
	if e.lanes == 1 && !inReg {
		return m
	}
	return e.rkReg(m)
}

// rkReg returns the round key at m in every lane of a new register.
func (e *gcm) rkReg(m operand.Mem) reg.VecVirtual {
	r := e.vreg()
	e.Broadcast128(m, r)
	return r
}

// rounds runs AES rounds 1..rounds-1 on s: the extra rounds of AES-192 and
// AES-256 first, then the nine rounds every key size has, emitting hook(j)
// (j = 1..9) after the j-th of those. Round keys come from rk (inReg: each
// in a register, loaded once per round). With split (an xmm batch), hook(j)
// is emitted between the two halves of round j+1 instead, so that the AES
// and carry-less multiply instructions arrive mixed.
func (e *gcm) rounds(k keyRegs, s []reg.VecVirtual, hook func(j int), inReg, split bool) {
	round := func(m operand.Mem) {
		key := e.key(k, m, inReg)
		for _, x := range s {
			e.AESEnc(key, x)
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
	for j := 1; j <= 9; j++ {
		key := e.key(k, mem(k.rkm, 16*j), inReg)
		if !split {
			for _, x := range s {
				e.AESEnc(key, x)
			}
			if hook != nil {
				hook(j)
			}
			continue
		}
		h := len(s) / 2
		for _, x := range s[:h] {
			e.AESEnc(key, x)
		}
		if hook != nil && j > 1 {
			hook(j - 1)
		}
		for _, x := range s[h:] {
			e.AESEnc(key, x)
		}
	}
	if split && hook != nil {
		hook(9)
	}
}

// encrypt encrypts the blocks of s in place (every lane; round key 0
// included).
func (e *gcm) encrypt(k keyRegs, s []reg.VecVirtual) {
	k0 := e.key(k, mem(k.t, offRK), false)
	for _, x := range s {
		e.Xor(k0, x, x)
	}
	e.rounds(k, s, nil, false, false)
	e.lastRound(k, s)
}

// lastRound runs the last AES round on s.
func (e *gcm) lastRound(k keyRegs, s []reg.VecVirtual) {
	kl := e.key(k, mem(k.rkm, 160), false)
	for _, x := range s {
		e.AESEncLast(kl, x)
	}
}

// ctrBlocks sets s[i] to the counter blocks of register i XOR round key 0:
// ctr holds lanes consecutive counters c, c+1, ... (byte-reflected, each
// counter in dword 0 of its lane), register i those from c+lanes*i.
func (e *gcm) ctrBlocks(k keyRegs, ctr reg.VecVirtual, s []reg.VecVirtual) {
	e.ctrBlocksSwap(k, ctr, s, e.c.bswap)
}

// ctrBlocksSwap is ctrBlocks with the byte-swap mask at bswap (a register
// holding it, in a loop that holds one).
func (e *gcm) ctrBlocksSwap(k keyRegs, ctr reg.VecVirtual, s []reg.VecVirtual, bswap operand.Op) {
	k0 := e.key(k, mem(k.t, offRK), false)
	for i, x := range s {
		if i == 0 {
			e.ShufB(bswap, ctr, x)
		} else {
			e.AddD(e.c.incs.Offset(e.w()*i), ctr, x)
			e.ShufB(bswap, x, x)
		}
		e.Xor(k0, x, x)
	}
}

// loadCtr loads the stream's next counter from st into a register of
// lanes consecutive counters.
func (e *gcm) loadCtr(st operand.Mem) reg.VecVirtual {
	ctr := e.vreg()
	e.Broadcast128(st.Offset(stCtr), ctr)
	if e.lanes > 1 {
		e.AddD(e.c.incs, ctr, ctr)
	}
	return ctr
}

// counters is the counter state of a bulk loop (see width): the counter
// register, and the stack layout when the width keeps them there
// (ctrOnStack), or the big-endian counters when the loop steps them so
// (stepsBE).
type counters struct {
	ctr reg.VecVirtual
	*ctrStack
	be *beCtr
}

// ctrStack is the xmm counter layout: the next
// 8 counter blocks XOR round key 0 in stack scratch at cb, the 32-bit
// counter of the first of them in n (native order), and the last word of
// round key 0 in k3. A batch loads its blocks with one load each, round 0
// included, and rewrites only each block's last word with scalar
// instructions (add, byte swap, XOR, 4-byte store): no vector work.
type ctrStack struct {
	cb    operand.Mem
	n, k3 reg.GPVirtual
}

// ctrOnStack reports whether the bulk loop keeps its counters in stack
// scratch (ctrStack, on xmm) rather than in the counter register.
func (w width) ctrOnStack() bool { return w.lanes == 1 }

// stepsBE reports whether the bulk loop keeps big-endian counters in its
// counters (beCounters) when its counter is public: on ymm, where that
// saves a VPSHUFB per register and batch (1.4-2.2% at 16 KiB on the Zen 3).
// A loop that holds its keys (zmm) keeps them in its heldHash instead.
func (w width) stepsBE() bool { return w.lanes > 1 && !w.holdKeys }

// ctrScratch is the stack scratch the bulk loop's counters need.
func (e *gcm) ctrScratch() int {
	if e.ctrOnStack() {
		return 128
	}
	return 0
}

// startCounters sets up the bulk loop's counters from ctr; cb is
// ctrScratch bytes of stack scratch. With public (the counter is not
// secret: a one-shot message's, not a stream state's), a width that steps
// them big-endian does (stepsBE): its loop then branches on the counter.
func (e *gcm) startCounters(k keyRegs, ctr reg.VecVirtual, cb operand.Mem, public bool) counters {
	if e.stepsBE() && public {
		h := e.startBE(ctr, e.c.bswap)
		return counters{ctr: ctr, be: &h}
	}
	if !e.ctrOnStack() {
		return counters{ctr: ctr}
	}
	rk0 := e.xmm()
	e.Mov(mem(k.t, offRK), rk0)
	for i := 0; i < 8; i++ {
		x := e.xmm()
		e.AddD(e.c.incs.Offset(16*i), ctr, x)
		e.ShufB(e.c.bswap, x, x)
		e.Xor(rk0, x, x)
		e.Mov(x, cb.Offset(16*i))
	}
	c := &ctrStack{cb: cb, n: e.GP64(), k3: e.GP64()}
	e.MovQ(ctr, c.n)
	e.MOVL(mem(k.t, offRK+12), c.k3.As32())
	return counters{ctr: ctr, ctrStack: c}
}

// nextCounters sets s to the next 8 counter blocks XOR round key 0 and
// advances the counters by 8; bswap is the byte-swap mask (in a register
// in a loop that holds it).
func (e *gcm) nextCounters(k keyRegs, c counters, s []reg.VecVirtual, bswap operand.Op) {
	if c.be != nil {
		e.beCounters(k, *c.be, s, bswap)
		return
	}
	if !e.ctrOnStack() {
		e.ctrBlocksSwap(k, c.ctr, s, bswap)
		e.AddD(e.c.incs.Offset(e.w()*len(s)), c.ctr, c.ctr)
		return
	}
	for i, x := range s {
		e.Mov(c.cb.Offset(16*i), x)
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

// syncCounters sets c.ctr to the first counter the loop did not use: from
// the big-endian counters when the loop steps them so. On xmm it is the
// counter block saved at saved (byte-reflected, counter in dword 0) with
// its counter replaced by n: reloading it, rather than keeping it in a
// register through the loop, leaves the loop one more vector register.
func (e *gcm) syncCounters(c counters, saved operand.Mem) {
	if c.be != nil {
		e.ShufB(e.c.bswap, c.be.be, c.ctr)
		return
	}
	if !e.ctrOnStack() {
		return
	}
	t := e.xmm()
	e.MOVL(c.n.As32(), c.n.As32())
	e.MovQ(c.n, t)
	e.Mov(saved, c.ctr)
	e.SrlB(4, c.ctr, c.ctr)
	e.SllB(4, c.ctr, c.ctr)
	e.Or(t, c.ctr, c.ctr)
}
