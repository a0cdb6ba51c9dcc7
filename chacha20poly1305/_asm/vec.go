package main

import (
	"bytes"
	"encoding/binary"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

// vec emits the ChaCha20 code of one backend on asmgen's vector-op layer
// (the embedded asmgen.Vec, which picks SSE, VEX or EVEX): xmm for ssse3,
// ymm for avx2, zmm for avx512. What is ChaCha20's own is here: the
// register width and the layouts that depend on it, the constant tables,
// the rotations (by 16 and 8 bits as byte shuffles where there is no
// VPROLD), and the round structure.
type vec struct {
	*asmgen.Vec
	g *asmgen.Generator
	// ymm: 256-bit registers (avx2), two blocks per row-layout register
	// set and eight lane-layout blocks; zmm: 512-bit registers (avx512),
	// four blocks per row-layout set and sixteen lane-layout blocks; else
	// xmm.
	ymm, zmm bool
	// half: the ymm view of the avx512 backend (halfWidth), for the
	// short functions' smallest texts.
	half bool
	// size is the register width in bytes (16, 32 or 64).
	size int
	// The constant tables (see declareTables).
	rot16, rot8, sigma, sigmaW, laneInc, laneStep, rowInc, rowStep operand.Mem
}

// newVec returns the vector emitter for g's backend and declares its
// constant tables.
func newVec(g *asmgen.Generator) *vec {
	v := &vec{Vec: g.Vec(), g: g, size: 16}
	switch {
	case g.Has(cpufeat.AVX512F):
		v.zmm, v.size = true, 64
	case g.Has(cpufeat.AVX2):
		v.ymm, v.size = true, 32
	}
	v.declareTables()
	return v
}

// words returns the little-endian bytes of the 32-bit words w.
func words(w ...uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// declareTables declares the public constants: the PSHUFB masks rotating
// every 32-bit word left by 16 and by 8 bits (not on zmm, which rotates with
// VPROLD), the ChaCha20 constant row (once, and in every 128-bit lane of a
// register), the per-lane block offsets of the lane layout and their step,
// and the counter offsets of the row layout (per block on xmm; per lane,
// and the step of a register set, on ymm and zmm).
func (v *vec) declareTables() {
	sigma := words(0x61707865, 0x3320646e, 0x79622d32, 0x6b206574)
	if v.zmm {
		v.sigma = v.g.Table("sigma", sigma)
		v.sigmaW = v.g.Table("sigmaw", bytes.Repeat(sigma, 4))
		var inc, step []uint32
		for i := range uint32(16) {
			inc = append(inc, i)
			step = append(step, 16)
		}
		v.laneInc = v.g.Table("laneinc", words(inc...))
		v.laneStep = v.g.Table("lanestep", words(step...))
		v.rowInc = v.g.Table("rowinc", words(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0))
		v.rowStep = v.g.Table("rowstep", words(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0))
		return
	}
	var r16, r8 []byte
	for i := 0; i < 32; i += 4 {
		b := byte(i)
		r16 = append(r16, b+2, b+3, b+0, b+1)
		r8 = append(r8, b+3, b+0, b+1, b+2)
	}
	v.rot16 = v.g.Table("rot16", r16)
	v.rot8 = v.g.Table("rot8", r8)
	v.sigma = v.g.Table("sigma", sigma)
	if v.ymm {
		v.sigmaW = v.g.Table("sigma2", bytes.Repeat(sigma, 2))
	}
	v.laneInc = v.g.Table("laneinc", words(0, 1, 2, 3, 4, 5, 6, 7))
	n := uint32(v.size / 4)
	v.laneStep = v.g.Table("lanestep", words(n, n, n, n, n, n, n, n))
	if v.ymm {
		v.rowInc = v.g.Table("rowinc", words(0, 0, 0, 0, 1, 0, 0, 0))
		v.rowStep = v.g.Table("rowstep", words(2, 0, 0, 0, 2, 0, 0, 0))
	} else {
		v.rowInc = v.g.Table("rowinc", words(1, 0, 0, 0))
	}
}

// halfWidth returns the ymm emitter of the zmm backend v: its tables are
// v's, read at 32 bytes (their first two lanes are the ymm ones, but for
// rowStep, which one set does not use), and its short functions' layout is
// v's.
func (v *vec) halfWidth() *vec {
	h := *v
	h.zmm, h.ymm, h.half, h.size = false, true, true, 32
	return &h
}

// reg returns a new vector register of the backend's width.
func (v *vec) reg() reg.VecVirtual {
	if v.zmm {
		return v.g.ZMM()
	}
	if v.ymm {
		return v.g.YMM()
	}
	return v.g.XMM()
}

// xmm returns the 128-bit view of x.
func xmm(x reg.VecVirtual) reg.VecVirtual {
	return x.AsX().(reg.VecVirtual)
}

// rotl rotates every 32-bit word of x left by n bits: a byte shuffle for 16
// and 8 (where the encoding has no rotate), else asmgen's RotlD.
func (v *vec) rotl(x reg.VecVirtual, n int) {
	if (n == 16 || n == 8) && v.Encoding() != asmgen.EVEX {
		tab := v.rot16
		if n == 8 {
			tab = v.rot8
		}
		v.ShufB(tab, x, x)
		return
	}
	v.RotlD(uint8(n), x)
}

// quarterRounds emits the ChaCha quarter round (RFC 8439, section 2.1) on
// each (a, b, c, d) of qs, the steps of all of them interleaved so that the
// independent chains overlap.
func (v *vec) quarterRounds(qs [][4]reg.VecVirtual) {
	step := func(x, y, z int, n int) {
		for _, q := range qs {
			v.AddD(q[y], q[x], q[x])
		}
		for _, q := range qs {
			v.Xor(q[x], q[z], q[z])
		}
		for _, q := range qs {
			v.rotl(q[z], n)
		}
	}
	step(0, 1, 3, 16)
	step(2, 3, 1, 12)
	step(0, 1, 3, 8)
	step(2, 3, 1, 7)
}

// rowDoubleRound emits one ChaCha double round on blocks in the row layout:
// each set holds the four rows of one block (of two blocks on ymm, one per
// lane). For the diagonal round, rows a, c and d are rotated (diagonal j is
// a[j-1], b[j], c[j+1], d[j+2]) rather than b, c and d: b comes last out of
// a quarter round and first into the next, so leaving it in place keeps the
// word shuffles off the critical path.
func (v *vec) rowDoubleRound(sets [][4]reg.VecVirtual) {
	v.quarterRounds(sets)
	for _, s := range sets {
		v.ShufD(0x93, s[0], s[0])
		v.ShufD(0x39, s[2], s[2])
		v.ShufD(0x4e, s[3], s[3])
	}
	v.quarterRounds(sets)
	for _, s := range sets {
		v.ShufD(0x39, s[0], s[0])
		v.ShufD(0x93, s[2], s[2])
		v.ShufD(0x4e, s[3], s[3])
	}
}

// rowRounds emits the 20 rounds (a loop of 10 double rounds, counted in a
// public register) on sets in the row layout.
func (v *vec) rowRounds(fn *asmgen.Func, sets [][4]reg.VecVirtual) {
	g := v.g
	cnt := g.GP64()
	g.MOVQ(operand.U32(10), cnt)
	loop := fn.Label("rowrounds")
	g.Label(loop)
	v.rowDoubleRound(sets)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
}
