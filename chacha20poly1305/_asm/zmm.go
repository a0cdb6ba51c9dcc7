package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The lane layout of the avx512 backend (the 16-block design of OpenSSL's
// ChaCha20_16x): one pass computes 16 blocks, word i of block j in lane j of
// x[i], the whole state in 16 zmm registers and every rotation one VPROLD.
// The input state is not held in registers: every word but the counter is
// the same in all 16 blocks, so it is broadcast from its 32-bit word in
// memory, both to start the rounds (VPBROADCASTD) and to add it after them
// (VPADDD with an embedded broadcast). Only the counter row, one counter
// per lane, differs; it is read from the scratch. Nothing is spilled, and
// the other 16 registers are free for the transpose, or for a second pass
// interleaved with the first (zPasses).

// zPass emits one pass of 16 blocks, word i (i ≠ 12) of the input at
// word(i) and the counters in ctr (a register or memory), and returns the
// keystream, block j in the j-th register.
func (v *vec) zPass(fn *asmgen.Func, word func(i int) operand.Mem, ctr operand.Op) [16]reg.VecVirtual {
	var blk [16]reg.VecVirtual
	v.zPasses(fn, word, []operand.Op{ctr}, operand.Mem{}, func(_ int, b [16]reg.VecVirtual) { blk = b })
	return blk
}

// nextCounters sets the counters at to those at from plus 16 per lane.
func (v *vec) nextCounters(from, to operand.Mem) {
	c := v.g.ZMM()
	v.Mov(from, c)
	v.AddD(v.laneStep, c, c)
	v.Mov(c, to)
}

// zPasses emits len(ctrs) passes of 16 blocks (one or two), the rounds of
// all of them interleaved, pass k with the counters ctrs[k] (memory when
// there are two). Where ChaCha20's vector operations take two cycles (Zen
// 5), one pass's four independent quarter rounds fill half of four vector
// pipes; two passes fill them, their 32 words taking every zmm register.
// Pass 1's keystream words then wait in spill (1024 bytes) while pass 0's
// are transposed with the registers freed. out(k, blocks) is called with
// each pass's keystream, block j in the j-th register.
func (v *vec) zPasses(fn *asmgen.Func, word func(int) operand.Mem, ctrs []operand.Op, spill operand.Mem, out func(k int, blk [16]reg.VecVirtual)) {
	g := v.g
	xs := make([][16]reg.VecVirtual, len(ctrs))
	for k := range xs {
		for i := range xs[k] {
			xs[k][i] = g.ZMM()
			if i == 12 {
				v.Mov(ctrs[k], xs[k][i])
				continue
			}
			v.BroadcastD(word(i), xs[k][i])
		}
	}
	var cols, diags [][4]reg.VecVirtual
	for _, x := range xs {
		q := func(a, b, c, d int) [4]reg.VecVirtual { return [4]reg.VecVirtual{x[a], x[b], x[c], x[d]} }
		cols = append(cols, q(0, 4, 8, 12), q(1, 5, 9, 13), q(2, 6, 10, 14), q(3, 7, 11, 15))
		diags = append(diags, q(0, 5, 10, 15), q(1, 6, 11, 12), q(2, 7, 8, 13), q(3, 4, 9, 14))
	}
	cnt := g.GP64()
	g.MOVQ(operand.U32(10), cnt)
	loop := fn.Label("zrounds")
	g.Label(loop)
	v.quarterRounds(cols)
	v.quarterRounds(diags)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
	for k, x := range xs {
		for i := range x {
			if i == 12 {
				v.AddD(ctrs[k], x[i], x[i])
				continue
			}
			g.VPADDD_BCST(word(i), x[i], x[i])
		}
	}
	for i, w := range xs[1:] {
		for j, r := range w {
			v.Mov(r, spill.Offset(1024*i+64*j))
		}
	}
	out(0, v.zTranspose(xs[0]))
	for k := 1; k < len(xs); k++ {
		var x [16]reg.VecVirtual
		for j := range x {
			x[j] = g.ZMM()
			v.Mov(spill.Offset(1024*(k-1)+64*j), x[j])
		}
		out(k, v.zTranspose(x))
	}
}

// zTranspose turns the 16 words of 16 blocks (word i of block j in lane j
// of x[i]) into the blocks (block j in the j-th register returned): words
// 4q..4q+3 of blocks 4L+k in lane L of y[4q+k] (a 4×4 word transpose in
// each lane), then for each k the 4×4 transpose of the lanes of y[k],
// y[4+k], y[8+k], y[12+k].
func (v *vec) zTranspose(x [16]reg.VecVirtual) [16]reg.VecVirtual {
	var y, blk [16]reg.VecVirtual
	for w := 0; w < 16; w += 4 {
		t := v.transpose4(x[w], x[w+1], x[w+2], x[w+3])
		copy(y[w:w+4], t[:])
	}
	for k := range 4 {
		b := v.laneTranspose([4]reg.VecVirtual{y[k], y[4+k], y[8+k], y[12+k]})
		for l := range 4 {
			blk[4*l+k] = b[l]
		}
	}
	return blk
}

// laneTranspose transposes the 4×4 matrix of 128-bit lanes of r: lane l of
// the j-th register returned is lane j of r[l]. (VSHUFI32X4 takes the two
// low lanes of its result from the operand before the destination and the
// two high ones from the operand before that.)
func (v *vec) laneTranspose(r [4]reg.VecVirtual) [4]reg.VecVirtual {
	g := v.g
	lo01, hi01, lo23, hi23 := g.ZMM(), g.ZMM(), g.ZMM(), g.ZMM()
	g.VSHUFI32X4(operand.U8(0x44), r[1], r[0], lo01) // r0.0 r0.1 r1.0 r1.1
	g.VSHUFI32X4(operand.U8(0xee), r[1], r[0], hi01) // r0.2 r0.3 r1.2 r1.3
	g.VSHUFI32X4(operand.U8(0x44), r[3], r[2], lo23)
	g.VSHUFI32X4(operand.U8(0xee), r[3], r[2], hi23)
	var o [4]reg.VecVirtual
	for j := range o {
		a, b, imm := lo01, lo23, uint8(0x88) // lanes 0 and 2 of each
		if j >= 2 {
			a, b = hi01, hi23
		}
		if j%2 == 1 {
			imm = 0xdd // lanes 1 and 3
		}
		o[j] = g.ZMM()
		g.VSHUFI32X4(operand.U8(imm), b, a, o[j])
	}
	return o
}

// zXor sets the 64 bytes at dst+off to those at src+off XOR ks.
func (v *vec) zXor(ks reg.VecVirtual, dst, src reg.Register, off int) {
	v.XorU(operand.Mem{Base: src, Disp: off}, ks, ks)
	v.Mov(ks, operand.Mem{Base: dst, Disp: off})
}

// declareXORBlocksZ declares the avx512 ChaCha20 block kernel of the Go
// drivers: double passes (32 blocks) while they fit, then 16-block passes;
// the last one, of fewer blocks, writes only those.
func declareXORBlocksZ(g *asmgen.Generator, v *vec, name string) {
	fn, st, dst, src, n := v.xorBlocksFunc(name, 1024+128+64)
	sc := v.alignedScratch(fn)
	spill, ctrA, ctrB := sc, sc.Offset(1024), sc.Offset(1088)
	word := func(i int) operand.Mem { return operand.Mem{Base: st, Disp: 4 * i} }
	fn.Phase("lane setup: the counters of the first pass")
	{
		c := g.ZMM()
		v.BroadcastD(operand.Mem{Base: st, Disp: 48}, c)
		v.AddD(v.laneInc, c, c)
		v.Mov(c, ctrA)
	}
	fn.Phase("main loop: double passes of 32 blocks")
	loop2, loop, last, done := fn.Label("zpasses2"), fn.Label("zpasses"), fn.Label("zlast"), fn.Label("zdone")
	g.Label(loop2)
	g.CMPQ(n, operand.U32(2048))
	g.JB(operand.LabelRef(loop))
	v.nextCounters(ctrA, ctrB)
	v.zPasses(fn, word, []operand.Op{ctrA, ctrB}, spill, func(k int, blk [16]reg.VecVirtual) {
		for j, b := range blk {
			v.zXor(b, dst, src, 1024*k+64*j)
		}
	})
	v.nextCounters(ctrB, ctrA)
	g.ADDQ(operand.U32(2048), dst)
	g.ADDQ(operand.U32(2048), src)
	g.SUBQ(operand.U32(2048), n)
	g.ADDL(operand.U8(32), operand.Mem{Base: st, Disp: 48})
	g.JMP(operand.LabelRef(loop2))

	fn.Phase("passes of 16 blocks")
	g.Label(loop)
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	blk := v.zPass(fn, word, ctrA)
	g.CMPQ(n, operand.U32(1024))
	g.JB(operand.LabelRef(last))
	for j, b := range blk {
		v.zXor(b, dst, src, 64*j)
	}
	g.ADDQ(operand.U32(1024), dst)
	g.ADDQ(operand.U32(1024), src)
	g.SUBQ(operand.U32(1024), n)
	g.ADDL(operand.U8(16), operand.Mem{Base: st, Disp: 48})
	v.nextCounters(ctrA, ctrA)
	g.JMP(operand.LabelRef(loop))

	fn.Phase("last pass: the blocks of fewer than 16 left")
	g.Label(last)
	count := fn.Label("zcount")
	for j, b := range blk[:15] { // n < 1024: block 15 is never used
		if j > 0 {
			g.CMPQ(n, operand.U32(64*j))
			g.JBE(operand.LabelRef(count))
		}
		v.zXor(b, dst, src, 64*j)
	}
	g.Label(count)
	g.SHRQ(operand.U8(6), n)
	g.ADDL(n.As32(), operand.Mem{Base: st, Disp: 48})
	g.Label(done)
	fn.Ret()
}
