package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// lanes is the number of blocks of one lane-layout pass: one per 32-bit
// lane of a register (4 on xmm, 8 on ymm).
func (v *vec) lanes() int { return v.size / 4 }

// laneScratch is the stack scratch of the lane layout: S, the input state
// with every word broadcast to a register (the counter word holding one
// counter per lane), and X, the working state's spill slots (the c words
// during the rounds, then every word for the transpose).
type laneScratch struct {
	s, x operand.Mem
	size int // vector width
}

func (l laneScratch) S(i int) operand.Mem { return l.s.Offset(i * l.size) }
func (l laneScratch) X(i int) operand.Mem { return l.x.Offset(i * l.size) }

// alignedScratch returns the function's scratch rounded up to the vector
// width, addressed through a register: Go aligns stack frames to 8 bytes
// only, and a 32-byte access that crosses a cache line costs a second one.
// The scratch must be declared v.size bytes larger than used.
func (v *vec) alignedScratch(fn *asmgen.Func) operand.Mem {
	g := v.g
	p := g.GP64()
	g.LEAQ(fn.Scratch(), p)
	g.ADDQ(operand.U8(v.size-1), p)
	g.ANDQ(operand.I8(int8(-v.size)), p)
	return operand.Mem{Base: p}
}

// laneSetup broadcasts the state at st into S, the counter word with lane
// offsets 0, 1, 2, ...
func (v *vec) laneSetup(l laneScratch, st reg.Register) {
	if v.ymm {
		t := v.reg()
		for i := range 16 {
			v.BroadcastD(operand.Mem{Base: st, Disp: 4 * i}, t)
			if i == 12 {
				v.AddD(v.laneInc, t, t)
			}
			v.Mov(t, l.S(i))
		}
		return
	}
	for row := range 4 {
		r, t := v.reg(), v.reg()
		v.Mov(operand.Mem{Base: st, Disp: 16 * row}, r)
		for w := range 4 {
			v.ShufD(uint8(0x55*w), r, t)
			if row == 3 && w == 0 {
				v.AddD(v.laneInc, t, t)
			}
			v.Mov(t, l.S(4*row+w))
		}
	}
}

// laneRounds emits the 20 rounds on the lane layout: x[i] holds word i of
// every block, except x[8..11], the c words, which live in X with two of
// them in registers at a time (cA, cB), as in OpenSSL's design: the state
// and the rotation temporaries then fit in 16 registers. On entry cA, cB
// hold words 8 and 9 and X(10), X(11) words 10 and 11; on exit the same.
//
// hook, when not nil, is emitted three times in each double round, between
// its quarter-round pairs: the fused AEAD hashes Poly1305 blocks there, on
// the integer units while the vector units run ChaCha20.
func (v *vec) laneRounds(fn *asmgen.Func, l laneScratch, x *[16]reg.VecVirtual, cA, cB reg.VecVirtual, hook func()) {
	g := v.g
	between := func() {
		if hook != nil {
			hook()
		}
	}
	cnt := g.GP64()
	g.MOVQ(operand.U32(10), cnt)
	loop := fn.Label("lanerounds")
	g.Label(loop)
	// round emits the quarter rounds on words (a, b, d) of qs with the c
	// words c: the first two with c[0], c[1] in cA, cB, which then go to
	// X for c[2], c[3].
	round := func(qs [4][3]int, c [4]int) {
		q := func(k int, cr reg.VecVirtual) [4]reg.VecVirtual {
			return [4]reg.VecVirtual{x[qs[k][0]], x[qs[k][1]], cr, x[qs[k][2]]}
		}
		v.quarterRounds([][4]reg.VecVirtual{q(0, cA), q(1, cB)})
		between()
		v.Mov(cA, l.X(c[0]))
		v.Mov(cB, l.X(c[1]))
		v.Mov(l.X(c[2]), cA)
		v.Mov(l.X(c[3]), cB)
		v.quarterRounds([][4]reg.VecVirtual{q(2, cA), q(3, cB)})
	}
	round([4][3]int{{0, 4, 12}, {1, 5, 13}, {2, 6, 14}, {3, 7, 15}}, [4]int{8, 9, 10, 11}) // columns
	between()
	round([4][3]int{{0, 5, 15}, {1, 6, 12}, {2, 7, 13}, {3, 4, 14}}, [4]int{10, 11, 8, 9}) // diagonals
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
}

// lanePass emits one lane-layout pass: lanes() blocks of keystream from S,
// XORed with src into dst (both advanced), and the counters in S advanced.
// hook is laneRounds's, emitted twice more after the rounds.
func (v *vec) lanePass(fn *asmgen.Func, l laneScratch, dst, src reg.Register, hook func()) {
	v.lanePassTo(fn, l, dst, src, nil, hook)
}

// lanePassTo is lanePass; with ks not nil the keystream is stored there
// (stack scratch addressed from SP, so that the checks see exactly which
// bytes are written) and dst and src are unused.
func (v *vec) lanePassTo(fn *asmgen.Func, l laneScratch, dst, src reg.Register, ks *operand.Mem, hook func()) {
	if v.ymm {
		v.lanePassWide(fn, l, func() (reg.Register, reg.Register) { return dst, src }, ks, hook)
		return
	}
	var x [16]reg.VecVirtual
	for i := range 16 {
		if i >= 8 && i < 12 {
			continue
		}
		x[i] = v.reg()
		v.Mov(l.S(i), x[i])
	}
	cA, cB := v.reg(), v.reg()
	v.Mov(l.S(8), cA)
	v.Mov(l.S(9), cB)
	t := v.reg()
	v.Mov(l.S(10), t)
	v.Mov(t, l.X(10))
	v.Mov(l.S(11), t)
	v.Mov(t, l.X(11))

	v.laneRounds(fn, l, &x, cA, cB, hook)
	if hook != nil {
		hook()
		hook()
	}

	// The c words go back to X, where laneFinish reads them.
	v.Mov(cA, l.X(8))
	v.Mov(cB, l.X(9))
	v.laneFinish(l, &x, func() (reg.Register, reg.Register) { return dst, src }, ks)
}

// laneFinish ends a lane-layout pass after its rounds: it adds the input
// state S to each word (x[i], or X(i) where x[i] is nil), stores all 16
// words to X for the transpose, writes the keystream (laneOutput, to ks, or
// XORed from src into dst as returned by io, called only then so that the
// registers it loads are not live across the rounds), and advances the
// counters in S.
func (v *vec) laneFinish(l laneScratch, x *[16]reg.VecVirtual, io func() (dst, src reg.Register), ks *operand.Mem) {
	for i := range 16 {
		if x[i] == nil {
			x[i] = v.reg()
			v.Mov(l.X(i), x[i])
		}
		v.AddD(l.S(i), x[i], x[i]) // S is aligned: SSE takes it in place
		v.Mov(x[i], l.X(i))
	}
	var dst, src reg.Register
	if ks == nil {
		dst, src = io()
	}
	v.laneOutput(l, dst, src, ks)

	// Next counters.
	c := v.reg()
	v.Mov(l.S(12), c)
	v.AddD(v.laneStep, c, c)
	v.Mov(c, l.S(12))
}

// spilled is the one state word of the avx2 lane layout that lives in the
// scratch (X) during the rounds; the other 15 and one temporary fill the 16
// ymm registers.
const spilled = 11

// laneRoundsWide emits the 20 rounds on the lane layout of the avx2
// backend: every word in a register except word 11 (spilled), which is
// read from and written back to X(11) as the quarter rounds that use it add
// to it. All four quarter rounds of a round go step by step together, so
// that four independent chains are in flight in every short window of the
// code: with two at a time the reordering window, not the vector pipes,
// bounds the rate (see the README).
//
// hook, when not nil, is emitted three times in each double round: the
// fused AEAD hashes Poly1305 blocks there, on the integer units while the
// vector units run ChaCha20.
func (v *vec) laneRoundsWide(fn *asmgen.Func, l laneScratch, x *[16]reg.VecVirtual, hook func()) {
	g := v.g
	between := func() {
		if hook != nil {
			hook()
		}
	}
	// step emits, for each quarter round q (word indices a, b, c, d),
	// q[i] += q[j]; q[k] ^= q[i]; q[k] <<<= n.
	step := func(qs [4][4]int, i, j, k, n int) {
		var spill reg.VecVirtual
		for _, q := range qs {
			if q[i] == spilled {
				spill = v.reg()
				v.AddD(l.X(spilled), x[q[j]], spill)
				v.Mov(spill, l.X(spilled))
				continue
			}
			v.AddD(x[q[j]], x[q[i]], x[q[i]])
		}
		for _, q := range qs {
			y := x[q[i]]
			if q[i] == spilled {
				y = spill
			}
			v.Xor(y, x[q[k]], x[q[k]])
		}
		for _, q := range qs {
			v.rotl(x[q[k]], n)
		}
	}
	quarter := func(qs [4][4]int, mid func()) {
		step(qs, 0, 1, 3, 16)
		step(qs, 2, 3, 1, 12)
		mid()
		step(qs, 0, 1, 3, 8)
		step(qs, 2, 3, 1, 7)
	}
	cnt := g.GP64()
	g.MOVQ(operand.U32(10), cnt)
	loop := fn.Label("lanerounds")
	g.Label(loop)
	quarter([4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}, between)
	between()
	quarter([4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}, between)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
}

// lanePassWide is lanePassTo on the avx2 backend (laneRoundsWide's
// layout), with dst and src returned by io, which is called after the
// rounds (so that registers it loads are not live across them).
func (v *vec) lanePassWide(fn *asmgen.Func, l laneScratch, io func() (dst, src reg.Register), ks *operand.Mem, hook func()) {
	var x [16]reg.VecVirtual
	for i := range 16 {
		if i == spilled {
			t := v.reg()
			v.Mov(l.S(i), t)
			v.Mov(t, l.X(i))
			continue
		}
		x[i] = v.reg()
		v.Mov(l.S(i), x[i])
	}
	v.laneRoundsWide(fn, l, &x, hook)
	if hook != nil {
		hook()
		hook()
	}
	x[spilled] = nil // in X: laneFinish reads it there
	v.laneFinish(l, &x, io, ks)
}

// transpose4 transposes the 4×4 matrix of 32-bit words in a, b, c, d
// (within each 128-bit lane): on return the four registers returned hold
// column 0, 1, 2 and 3, that is, for the lane layout, words of block 0, 1,
// 2 and 3 (of 4 and 4+j in the high lane).
func (v *vec) transpose4(a, b, c, d reg.VecVirtual) [4]reg.VecVirtual {
	t0, t2 := v.reg(), v.reg()
	r0, r2 := v.reg(), v.reg()
	v.UnpackLoD(b, a, t0) // a0 b0 a1 b1
	v.UnpackHiD(b, a, a)  // a2 b2 a3 b3
	v.UnpackLoD(d, c, t2) // c0 d0 c1 d1
	v.UnpackHiD(d, c, c)  // c2 d2 c3 d3
	v.UnpackLoQ(t2, t0, r0)
	v.UnpackHiQ(t2, t0, t0)
	v.UnpackLoQ(c, a, r2)
	v.UnpackHiQ(c, a, a)
	return [4]reg.VecVirtual{r0, t0, r2, a}
}

// xorStore sets the v.size bytes at dst+off to the bytes at src+off XOR
// ks.
func (v *vec) xorStore(ks reg.VecVirtual, dst, src reg.Register, off int) {
	v.XorU(operand.Mem{Base: src, Disp: off}, ks, ks)
	v.Mov(ks, operand.Mem{Base: dst, Disp: off})
}

// laneOutput transposes the keystream words in X to blocks, XORs them with
// src and writes them to dst, then advances both by lanes()·64 bytes.
func (v *vec) laneOutput(l laneScratch, dst, src reg.Register, ksOut *operand.Mem) {
	g := v.g
	load := func(q int) [4]reg.VecVirtual {
		var r [4]reg.VecVirtual
		for j := range 4 {
			r[j] = v.reg()
			v.Mov(l.X(4*q+j), r[j])
		}
		return v.transpose4(r[0], r[1], r[2], r[3])
	}
	out := func(x reg.VecVirtual, off int) {
		if ksOut != nil {
			v.Mov(x, ksOut.Offset(off))
		} else {
			v.xorStore(x, dst, src, off)
		}
	}
	if !v.ymm {
		for q := range 4 {
			blk := load(q)
			for j := range 4 {
				out(blk[j], 64*j+16*q)
			}
		}
	} else {
		for q := 0; q < 4; q += 2 {
			lo, hi := load(q), load(q+1)
			for j := range 4 {
				o := g.YMM()
				g.VPERM2I128(operand.U8(0x20), hi[j], lo[j], o)
				out(o, 64*j+16*q)
				g.VPERM2I128(operand.U8(0x31), hi[j], lo[j], o)
				out(o, 64*(j+4)+16*q)
			}
		}
	}
	if ksOut == nil {
		n := 64 * v.lanes()
		g.ADDQ(operand.U32(n), dst)
		g.ADDQ(operand.U32(n), src)
	}
}

// rowInput loads the row-layout input state of st (one block on xmm; on
// ymm the same block in both lanes, then the high lane's counter +1).
func (v *vec) rowInput(st reg.Register) [4]reg.VecVirtual {
	var r [4]reg.VecVirtual
	for i := range 4 {
		r[i] = v.reg()
		v.Broadcast128(operand.Mem{Base: st, Disp: 16 * i}, r[i])
	}
	if v.ymm {
		v.AddD(v.rowInc, r[3], r[3])
	}
	return r
}

// rowBlock emits one row-layout block computation from the state at st
// (two blocks on ymm), with the input added: the keystream rows.
func (v *vec) rowBlock(fn *asmgen.Func, st reg.Register) [4]reg.VecVirtual {
	x := v.rowInput(st)
	v.rowRounds(fn, [][4]reg.VecVirtual{x})
	in := v.rowInput(st)
	for i := range 4 {
		v.AddD(in[i], x[i], x[i])
	}
	return x
}

// xorBlocksFunc declares the ChaCha20 block kernel name (see
// declareXORBlocks) with scratch bytes of stack scratch and loads its
// arguments.
func (v *vec) xorBlocksFunc(name string, scratch int) (fn *asmgen.Func, st, dst, src, n reg.GPVirtual) {
	g := v.g
	fn = g.Func(name, "func(st *[16]uint32, dst, src *byte, n int)",
		asmgen.Doc(name+" sets dst[:n] to src[:n] XOR n/64 keystream blocks starting at block st[12], and advances st[12]; n is a multiple of 64."),
		asmgen.Secret("st", "src", "dst"), asmgen.Public("n"), asmgen.Len("dst", "n"), asmgen.Len("src", "n"),
		asmgen.Scratch(scratch))
	st, dst, src, n = g.GP64(), g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("st"), st)
	g.Load(g.Param("dst"), dst)
	g.Load(g.Param("src"), src)
	g.Load(g.Param("n"), n)
	return fn, st, dst, src, n
}

// declareXORBlocks declares the ChaCha20 block kernel of the Go drivers
// (xorBlocks in kernels.go): lane-layout passes while a whole pass remains,
// then row-layout blocks.
func declareXORBlocks(g *asmgen.Generator, v *vec, name string) {
	lanes := v.lanes()
	fn, st, dst, src, n := v.xorBlocksFunc(name, 32*v.size+v.size)
	sc := v.alignedScratch(fn)
	l := laneScratch{s: sc, x: sc.Offset(16 * v.size), size: v.size}

	rows := fn.Label("rows")
	g.CMPQ(n, operand.U32(64*lanes))
	g.JB(operand.LabelRef(rows))
	fn.Phase("lane setup: the state broadcast to every lane")
	v.laneSetup(l, st)
	fn.Phase("main loop: lane-layout passes of %d blocks", lanes)
	loop := fn.Label("lanes")
	g.Label(loop)
	v.lanePass(fn, l, dst, src, nil)
	g.ADDL(operand.U8(lanes), operand.Mem{Base: st, Disp: 48})
	g.SUBQ(operand.U32(64*lanes), n)
	g.CMPQ(n, operand.U32(64*lanes))
	g.JAE(operand.LabelRef(loop))

	g.Label(rows)
	fn.Phase("remainder: row-layout blocks")
	done := fn.Label("done")
	rowLoop := fn.Label("rowloop")
	g.Label(rowLoop)
	g.CMPQ(n, operand.U8(64))
	g.JB(operand.LabelRef(done))
	x := v.rowBlock(fn, st)
	if !v.ymm {
		for i := range 4 {
			v.xorStore(x[i], dst, src, 16*i)
		}
		g.ADDL(operand.U8(1), operand.Mem{Base: st, Disp: 48})
		g.ADDQ(operand.U8(64), dst)
		g.ADDQ(operand.U8(64), src)
		g.SUBQ(operand.U8(64), n)
		g.JMP(operand.LabelRef(rowLoop))
	} else {
		o := [4]reg.VecVirtual{g.YMM(), g.YMM(), g.YMM(), g.YMM()}
		g.VPERM2I128(operand.U8(0x20), x[1], x[0], o[0])
		g.VPERM2I128(operand.U8(0x20), x[3], x[2], o[1])
		g.VPERM2I128(operand.U8(0x31), x[1], x[0], o[2])
		g.VPERM2I128(operand.U8(0x31), x[3], x[2], o[3])
		v.xorStore(o[0], dst, src, 0)
		v.xorStore(o[1], dst, src, 32)
		one := fn.Label("onerow")
		g.CMPQ(n, operand.U8(128))
		g.JB(operand.LabelRef(one))
		v.xorStore(o[2], dst, src, 64)
		v.xorStore(o[3], dst, src, 96)
		g.ADDL(operand.U8(2), operand.Mem{Base: st, Disp: 48})
		g.ADDQ(operand.U8(128), dst)
		g.ADDQ(operand.U8(128), src)
		g.SUBQ(operand.U8(128), n)
		g.JMP(operand.LabelRef(rowLoop))
		g.Label(one)
		g.ADDL(operand.U8(1), operand.Mem{Base: st, Disp: 48})
	}
	g.Label(done)
	fn.Ret()
}

// declarePolyBlocks declares the Poly1305 block kernel of the Go drivers
// (polyBlocks in kernels.go) on the polyState layout h[3], r[2], s[2].
func declarePolyBlocks(g *asmgen.Generator, name string) {
	fn := g.Func(name, "func(p *[7]uint64, msg *byte, n int)",
		asmgen.Doc(name+" absorbs the n/16 full blocks at msg into the Poly1305 state p (h, r, s); n is a multiple of 16."),
		asmgen.Secret("p"), asmgen.Public("msg", "n"), asmgen.Len("msg", "n"))
	p, msg, n := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("p"), p)
	g.Load(g.Param("msg"), msg)
	g.Load(g.Param("n"), n)
	r0, r1, s1 := g.GP64(), g.GP64(), g.GP64()
	g.MOVQ(operand.Mem{Base: p, Disp: 24}, r0)
	g.MOVQ(operand.Mem{Base: p, Disp: 32}, r1)
	s1Of(g, r1, s1)
	h := newPoly(g, r0, r1, s1)
	h.load(operand.Mem{Base: p})
	fn.Phase("main loop: one block at a time")
	h.blocks(fn, msg, n)
	h.store(operand.Mem{Base: p})
	fn.Ret()
}
