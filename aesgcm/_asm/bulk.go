package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The bulk loop: CTR batches of 8 blocks (16 on zmm), each carrying the
// GHASH of as many blocks, spread over the AES rounds of the next batch.

// ghPass is the GHASH work one batch carries: the batch's blocks at src+disp
// times the key powers from H^top down, added to sum (whose hi is the
// accumulator on xmm). With first, the first block takes the accumulator in
// and the batch starts the sum; with reduce, the batch ends with the sum
// reduced into the accumulator.
type ghPass struct {
	sum           sum
	acc           reg.VecVirtual
	src           reg.Register
	disp          int
	top           int
	first, reduce bool
	// held, if not nil, holds the batch's GHASH operands in registers
	// (heldHash).
	held *heldHash
}

// heldHash is what a bulk loop that holds its round keys (width.holdKeys,
// zmm) also holds in registers through the loop for its GHASH: the key
// powers of each register of a batch (H^16..H^13, ..., H^4..H^1), the
// reduction constant and the byte-swap mask, and, when encrypting, the
// previous batch's output, kept from its last round rather than reloaded
// from memory (the powers' halves' XORs stay in the table, as memory
// operands: four more registers do not fit). The products are Karatsuba as
// in the table-driven batch, the same 14 VPCLMULQDQ, merged three at a
// time (VPTERNLOGD). On Intel, where every zmm instruction runs on the same
// two ports as VAESENC, fewer instructions and memory operands are the
// gain. Schoolbook products (16 VPCLMULQDQ, no shuffle per register) would
// gain a little more there, but on Zen 4 each zmm VPCLMULQDQ costs the AES
// pipes a cycle, so the loop keeps Karatsuba's multiply count (the module
// README's design notes have the figures).
type heldHash struct {
	pow         []reg.VecVirtual
	poly, bswap reg.VecVirtual
	// beCtr is the loop's counters when it steps them big-endian
	// (beCounters).
	beCounters bool
	beCtr
	// data is the previous batch's output when encrypting (the batch's
	// last round writes it); nil when decrypting, where each batch loads
	// its own input.
	data []reg.VecVirtual
}

// keep returns h's data registers (nil for a nil h).
func (h *heldHash) keep() []reg.VecVirtual {
	if h == nil {
		return nil
	}
	return h.data
}

// holdHash returns a heldHash for a bulk loop of k, with data registers for
// the output when encrypting, stepping its counters big-endian with
// beCounters; the loop loads the rest (loadHeld). It is nil when k does not
// hold its round keys (width.holdKeys).
func (e *gcm) holdHash(k keyRegs, encrypting, beCounters bool) *heldHash {
	if k.held == nil {
		return nil
	}
	h := &heldHash{beCounters: beCounters}
	if encrypting {
		h.data = make([]reg.VecVirtual, e.blocks/e.lanes)
		for i := range h.data {
			h.data[i] = e.vreg()
		}
	}
	return h
}

// loadHeld loads h's key powers (from k's table), reduction constant and
// byte-swap mask into registers, and its counters from ctr, right before
// the loop.
func (e *gcm) loadHeld(k keyRegs, h *heldHash, ctr reg.VecVirtual) {
	h.pow = make([]reg.VecVirtual, e.blocks/e.lanes)
	for i := range h.pow {
		h.pow[i] = e.vreg()
		e.Mov(mem(k.t, e.pow(e.blocks-e.lanes*i)), h.pow[i])
	}
	h.poly, h.bswap = e.vreg(), e.vreg()
	e.Mov(e.c.poly, h.poly)
	e.Mov(e.c.bswap, h.bswap)
	if h.beCounters {
		h.beCtr = e.startBE(ctr, h.bswap)
	}
}

// beCtr is the state of counters a bulk loop steps big-endian
// (beCounters): be the lanes' counter blocks byte-swapped (as AES takes
// them), low the first lane's 32-bit counter in a general register.
type beCtr struct {
	be  reg.VecVirtual
	low reg.GPVirtual
}

// startBE returns the big-endian counters of ctr (lanes consecutive
// counters, byte-reflected, each in dword 0 of its lane); bswap is the
// byte-swap mask.
func (e *gcm) startBE(ctr reg.VecVirtual, bswap operand.Op) beCtr {
	h := beCtr{be: e.vreg(), low: e.GP64()}
	e.ShufB(bswap, ctr, h.be)
	e.MovQ(lo(ctr), h.low)
	return h
}

// beCounters sets s to the next batch's counter blocks XOR round key 0
// from the big-endian counters h and advances them; bswap is the byte-swap
// mask. While the lowest byte of every lane's counter stays under 256
// through the batch and the step to the next one (the first lane's at most
// 256 - blocks - lanes: all but one or two batches in 256/blocks), the
// big-endian counters are stepped directly, with no byte swap per
// register; else the batch swaps them to native order and back, as
// ctrBlocks does. The branch is on the counter, which is public (the nonce
// and the block count).
func (e *gcm) beCounters(k keyRegs, h beCtr, s []reg.VecVirtual, bswap operand.Op) {
	wrap, done := e.label("ctrwrap"), e.label("ctrnext")
	k0 := e.key(k, mem(k.t, offRK), false)
	e.CMPB(h.low.As8(), operand.U8(256-e.blocks-e.lanes))
	e.JA(ref(wrap))
	for i, x := range s {
		if i == 0 {
			e.Xor(k0, h.be, x)
			continue
		}
		e.AddD(e.c.beIncs.Offset(e.w()*(i-1)), h.be, x)
		e.Xor(k0, x, x)
	}
	e.AddD(e.c.beIncs.Offset(e.w()*(len(s)-1)), h.be, h.be)
	e.JMP(ref(done))
	e.Label(wrap)
	ctr := e.vreg()
	e.ShufB(bswap, h.be, ctr)
	e.ctrBlocksSwap(k, ctr, s, bswap)
	e.AddD(e.c.incs.Offset(e.w()*len(s)), ctr, ctr)
	e.ShufB(bswap, ctr, h.be)
	e.Label(done)
	e.ADDL(operand.U8(e.blocks), h.low.As32())
}

// batch runs one CTR batch from in to out, with the GHASH work of
// g (if not nil) spread over its rounds, one step per round: a register's
// Karatsuba products, then the two folds of the reduction and, on wide
// registers, the lane fold. On xmm the batch's round keys are loaded into
// registers and the steps go between the two halves of a round.
//
// With keep (a held loop's data registers, when encrypting), the batch's
// output stays in keep as well as at out.
func (e *gcm) batch(k keyRegs, c counters, in, out reg.Register, g *ghPass, keep []reg.VecVirtual) {
	nreg := e.blocks / e.lanes
	s := make([]reg.VecVirtual, nreg)
	for i := range s {
		s[i] = e.vreg()
	}
	switch {
	case g != nil && g.held != nil && g.held.beCounters:
		e.beCounters(k, g.held.beCtr, s, g.held.bswap)
	case g != nil && g.held != nil:
		e.nextCounters(k, c, s, g.held.bswap)
	default:
		e.nextCounters(k, c, s, e.c.bswap)
	}
	var steps []func()
	if g != nil && g.held != nil {
		steps = e.heldSteps(k, g)
	} else if g != nil {
		for i := 0; i < nreg; i++ {
			steps = append(steps, func() { e.ghStep(k, g, i) })
		}
		if g.reduce {
			steps = append(steps, func() { e.reduce0(g.sum) }, func() { e.reduce1(g.sum) })
			if e.lanes > 1 {
				steps = append(steps, func() { e.setFold(g.sum, g.acc) })
			}
		}
	}
	hook := func(j int) {
		if j <= len(steps) {
			steps[j-1]()
		}
	}
	e.rounds(k, s, hook, true, e.lanes == 1)
	for _, step := range steps[min(9, len(steps)):] {
		step()
	}
	last := e.keyReg(k, mem(k.rkm, 160))
	for i, x := range s {
		d := e.vreg()
		e.XorU(mem(in, e.w()*i), last, d)
		if keep != nil {
			e.VAESENCLAST(d, x, keep[i])
			x = keep[i]
		} else {
			e.AESEncLast(d, x)
		}
		e.Mov(x, mem(out, e.w()*i))
	}
}

// ghStep emits the products of register i of g's blocks.
func (e *gcm) ghStep(k keyRegs, g *ghPass, i int) {
	m := g.top - e.lanes*i
	pw, kw := mem(k.t, e.pow(m)), mem(k.t, e.kar(m))
	blk := mem(g.src, g.disp+e.w()*i)
	if e.Encoding() == asmgen.SSE && !(i == 0 && g.first) {
		e.mulAccHalves(g.sum, blk, pw, kw)
		return
	}
	e.mulAccLoop(g.sum, i == 0 && g.first, e.ghBlock(g, i, e.c.bswap), pw, kw)
}

// ghBlock returns register i of g's blocks byte-reflected (with the mask
// bswap), the accumulator added to the first block of a first pass: loaded
// from src+disp, or, in a held loop that encrypts, its data register.
func (e *gcm) ghBlock(g *ghPass, i int, bswap operand.Op) reg.VecVirtual {
	var x reg.VecVirtual
	if g.held != nil && g.held.data != nil {
		x = g.held.data[i]
	} else {
		x = e.vreg()
		e.Mov(mem(g.src, g.disp+e.w()*i), x)
	}
	e.ShufB(bswap, x, x)
	if i == 0 && g.first {
		e.Xor(g.acc, x, x)
	}
	return x
}

// bulkText is the text a bulk loop walks: in and out, advanced a batch at a
// time, and n, the bytes left.
type bulkText struct{ in, out, n reg.GPVirtual }

// next advances t by a batch of e.
func (t bulkText) next(e *gcm) {
	e.ADDQ(imm(e.bb()), t.in)
	e.ADDQ(imm(e.bb()), t.out)
	e.SUBQ(imm(e.bb()), t.n)
}

// bulkHash is what a bulk loop hashes: each batch the blocks at src+disp
// (the previous batch's output when encrypting, disp minus a batch; its
// own input when decrypting, disp 0) into the accumulator acc. held, if
// not nil, is the loop's heldHash, whose data registers hold the batch
// before the loop's first when encrypting.
type bulkHash struct {
	acc  reg.VecVirtual
	src  reg.Register
	disp int
	held *heldHash
}

// bulk runs the batches while t.n is at least a batch (at least one). With
// twice a batch's key powers (xmm), pairs of batches hash 16 blocks with
// H^16..H^1 and one reduction, an odd last batch 8 blocks with H^8..H^1;
// otherwise every batch reduces. t is advanced.
func (e *gcm) bulk(k keyRegs, c counters, t bulkText, h bulkHash) {
	in, out, n, acc, src, disp, held := t.in, t.out, t.n, h.acc, h.src, h.disp, h.held
	var s sum
	if held == nil {
		s = e.sumInto(acc)
	} else {
		e.loadHeld(k, held, c.ctr)
	}
	keep := held.keep()
	pass := func(top int, first, reduce bool) *ghPass {
		return &ghPass{sum: s, acc: acc, src: src, disp: disp, top: top, first: first, reduce: reduce, held: held}
	}
	next := func() { t.next(e) }
	loop, single, done := e.label("loop16"), e.label("loop8"), e.label("loopdone")
	if e.npow >= 2*e.blocks {
		e.Label(loop)
		e.CMPQ(n, operand.U32(2*e.bb()))
		e.JB(ref(single))
		e.batch(k, c, in, out, pass(2*e.blocks, true, false), nil)
		next()
		e.batch(k, c, in, out, pass(e.blocks, false, true), nil)
		next()
		e.JMP(ref(loop))
		e.Label(single)
		e.CMPQ(n, imm(e.bb()))
		e.JB(ref(done))
		e.batch(k, c, in, out, pass(e.blocks, true, true), nil)
		next()
		e.Label(done)
		return
	}
	e.Label(single)
	e.CMPQ(n, imm(e.bb()))
	e.JB(ref(done))
	e.batch(k, c, in, out, pass(e.blocks, true, true), keep)
	next()
	e.JMP(ref(single))
	e.Label(done)
	if held != nil && held.beCounters {
		e.ShufB(held.bswap, held.be, c.ctr)
	}
}

// mulAccLoop is mulAcc for the bulk loop. In the SSE form it loads the key
// power into the product register and multiplies by x from there, so that x
// needs no register copy per product (mulAcc copies x, then multiplies by
// the power in memory).
func (e *gcm) mulAccLoop(s sum, first bool, x reg.VecVirtual, pw, kw operand.Mem) {
	if e.Encoding() != asmgen.SSE {
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
// at pw to s (SSE: each product formed on a fresh load of the power into t,
// which it clobbers).
func (e *gcm) sseLoHi(s sum, x reg.VecVirtual, pw operand.Mem, t reg.VecVirtual) {
	e.MOVOU(pw, t)
	e.PCLMULQDQ(operand.U8(0x00), x, t)
	e.PXOR(t, s.lo)
	e.MOVOU(pw, t)
	e.PCLMULQDQ(operand.U8(0x11), x, t)
	e.PXOR(t, s.hi)
}

// mulAccHalves is the SSE form's product of a block: it adds the
// byte-reflected block at m times the key power at pw (halves XOR at kw) to
// s, forming the Karatsuba middle operand on the integer side (the block's
// two qwords loaded, XORed and byte-swapped in a general register, then
// moved in with MOVQ), where PSHUFD and PXOR would take a register copy
// and the vector pipes AESENC and PCLMULQDQ use. The VEX form takes the
// block whole into a vector register (mulAccLoop): moving three qwords in
// from general registers puts three more micro-ops per block on the port
// PCLMULQDQ runs on (Intel).
func (e *gcm) mulAccHalves(s sum, m operand.Mem, pw, kw operand.Mem) {
	t := e.xmm()
	x := e.xmm()
	e.Mov(m, x)
	e.ShufB(e.c.bswap, x, x)
	g := e.GP64()
	e.MOVQ(m, g)
	e.XORQ(m.Offset(8), g)
	e.BSWAPQ(g)
	e.sseLoHi(s, x, pw, t)
	e.MOVQ(g, t)
	e.PCLMULQDQ(operand.U8(0x00), kw, t)
	e.PXOR(t, s.mi)
}

// heldSteps returns the GHASH work of g, a batch of a held loop (every
// batch takes the accumulator in and reduces), as nine steps for the nine
// common AES rounds: the blocks byte-swapped and the accumulator added,
// the LO, middle and HI Karatsuba products of every register each merged
// as they come, the middle term completed and the two folds of the
// reduction, and the lane fold into the accumulator last.
func (e *gcm) heldSteps(k keyRegs, g *ghPass) []func() {
	h := g.held
	if !g.first || !g.reduce || len(h.pow) != 4 {
		panic("heldSteps: a held batch is four registers, hashed and reduced on their own")
	}
	x := make([]reg.VecVirtual, 4)
	prod := func(imm uint8, i int) reg.VecVirtual {
		t := e.vreg()
		e.ClMul(imm, h.pow[i], x[i], t)
		return t
	}
	mid := func(i int) reg.VecVirtual {
		u := e.vreg()
		e.ShufD(0x4e, x[i], u)
		e.Xor(x[i], u, u)
		e.ClMul(0x00, mem(k.t, e.kar(e.blocks-e.lanes*i)), u, u)
		return u
	}
	var l, mi, hi, flo, fmi reg.VecVirtual
	var t0, t1 reg.VecVirtual
	return []func(){
		func() {
			for i := range x {
				x[i] = e.ghBlock(g, i, h.bswap)
			}
			l, t0, t1 = prod(0x00, 0), prod(0x00, 1), prod(0x00, 2)
		},
		func() {
			e.Xor(t0, l, l)
			e.Xor3(prod(0x00, 3), t1, l)
			mi = mid(0)
		},
		func() {
			t0, t1 = mid(1), mid(2)
			e.Xor3(t1, t0, mi)
		},
		func() {
			e.Xor(mid(3), mi, mi)
			for _, i := range []int{0, 1} {
				e.ClMul(0x11, h.pow[i], x[i], x[i])
			}
		},
		func() {
			for _, i := range []int{2, 3} {
				e.ClMul(0x11, h.pow[i], x[i], x[i])
			}
			e.Xor3(x[2], x[1], x[0])
			hi = e.vreg()
			e.Xor(x[3], x[0], hi)
		},
		func() {
			e.Xor3(l, hi, mi)
			flo = e.vreg()
			e.ClMul(0x10, h.poly, l, flo)
			e.ShufD(0x4e, l, l)
		},
		func() {
			e.Xor3(flo, l, mi)
			fmi = e.vreg()
			e.ClMul(0x10, h.poly, mi, fmi)
		},
		func() {
			e.ShufD(0x4e, mi, mi)
			e.Xor3(fmi, mi, hi)
		},
		func() {
			a, b, c := e.xmm(), e.xmm(), e.xmm()
			e.Extract128(1, hi, a)
			e.Extract128(2, hi, b)
			e.Extract128(3, hi, c)
			e.Xor(a, lo(hi), lo(g.acc))
			e.Xor3(b, c, lo(g.acc))
		},
	}
}
