package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The lane layout of the avx512 backend (ALGORITHMS.md §2.1, the 16-block
// design): one pass computes 16 blocks, word i of block j in lane j of
// x[i], the whole state in 16 zmm registers and every rotation one VPROLD.
// The input state is not held in registers: every word but the counter is
// the same in all 16 blocks, so it is broadcast from its 32-bit word in
// memory, both to start the rounds (VPBROADCASTD) and to add it after them
// (VPADDD with an embedded broadcast). Only the counter row, one counter
// per lane, is a register. Nothing is spilled, and the other 15 registers
// are free for the transpose.

// zState is the input of a lane pass: word i (i ≠ 12) at word(i), the
// counters in ctr.
type zState struct {
	word func(i int) operand.Mem
	ctr  reg.VecVirtual
}

// zPass emits one pass of 16 blocks from st and returns the keystream,
// block j in the j-th register.
func (v *vec) zPass(fn *asmgen.Func, st zState) [16]reg.VecVirtual {
	g := v.g
	var x [16]reg.VecVirtual
	for i := range x {
		x[i] = g.ZMM()
		if i == 12 {
			v.Mov(st.ctr, x[i])
			continue
		}
		v.BroadcastD(st.word(i), x[i])
	}
	q := func(a, b, c, d int) [4]reg.VecVirtual { return [4]reg.VecVirtual{x[a], x[b], x[c], x[d]} }
	cnt := g.GP64()
	g.MOVQ(operand.U32(10), cnt)
	loop := fn.Label("zrounds")
	g.Label(loop)
	v.quarterRounds([][4]reg.VecVirtual{q(0, 4, 8, 12), q(1, 5, 9, 13), q(2, 6, 10, 14), q(3, 7, 11, 15)})
	v.quarterRounds([][4]reg.VecVirtual{q(0, 5, 10, 15), q(1, 6, 11, 12), q(2, 7, 8, 13), q(3, 4, 9, 14)})
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
	for i := range x {
		if i == 12 {
			v.AddD(st.ctr, x[i], x[i])
			continue
		}
		g.VPADDD_BCST(st.word(i), x[i], x[i])
	}
	// Words 4q..4q+3 of blocks 4L+k in lane L of y[4q+k] (a 4×4 word
	// transpose in each lane), then for each k the 4×4 transpose of the
	// lanes of y[k], y[4+k], y[8+k], y[12+k].
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
// drivers: 16-block passes; the last one, of fewer blocks, writes only
// those.
func declareXORBlocksZ(g *asmgen.Generator, v *vec, name string) {
	fn := g.Func(name, "func(st *[16]uint32, dst, src *byte, n int)",
		asmgen.Doc(name+" sets dst[:n] to src[:n] XOR n/64 keystream blocks starting at block st[12], and advances st[12]; n is a multiple of 64."),
		asmgen.Secret("st", "src", "dst"), asmgen.Public("n"), asmgen.Len("dst", "n"), asmgen.Len("src", "n"))
	st, dst, src, n := g.GP64(), g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("st"), st)
	g.Load(g.Param("dst"), dst)
	g.Load(g.Param("src"), src)
	g.Load(g.Param("n"), n)
	fn.Phase("lane setup: the counters of the first pass")
	ctr := g.ZMM()
	v.BroadcastD(operand.Mem{Base: st, Disp: 48}, ctr)
	v.AddD(v.laneInc, ctr, ctr)
	in := zState{word: func(i int) operand.Mem { return operand.Mem{Base: st, Disp: 4 * i} }, ctr: ctr}

	fn.Phase("main loop: lane-layout passes of 16 blocks")
	loop, last, done := fn.Label("zpasses"), fn.Label("zlast"), fn.Label("zdone")
	g.Label(loop)
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	blk := v.zPass(fn, in)
	g.CMPQ(n, operand.U32(1024))
	g.JB(operand.LabelRef(last))
	for j, b := range blk {
		v.zXor(b, dst, src, 64*j)
	}
	g.ADDQ(operand.U32(1024), dst)
	g.ADDQ(operand.U32(1024), src)
	g.SUBQ(operand.U32(1024), n)
	g.ADDL(operand.U8(16), operand.Mem{Base: st, Disp: 48})
	v.AddD(v.laneStep, ctr, ctr)
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
