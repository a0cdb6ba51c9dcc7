package main

import (
	"math"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// gcm emits one backend's functions. Every backend runs the same design;
// what differs is the register width (a register holds lanes blocks), the
// encoding (asmgen.Vec picks SSE, VEX or EVEX from the backend's features)
// and, where the algorithm differs with the width, a few strategies chosen
// by the width's parameters:
//
//   - the counter layout of the bulk loop: on xmm the next 8 counter blocks
//     wait in stack scratch with round key 0 applied, a batch rewriting only
//     each block's last word with scalar instructions (ctrStack); on wider
//     registers the counters stay in a register of lanes consecutive
//     counters (the vector adds are cheap beside 2 or 4 blocks each);
//   - the batch and the key powers: xmm hashes 16 blocks (two batches of
//     8) per reduction, with H^16..H^1; wider registers a batch of 16;
//   - the short path (short.go), whose keystream layout follows the lanes;
//   - lane folding (the lanes of a sum added into one block) on wide
//     registers.
type gcm struct {
	*asmgen.Generator
	*asmgen.Vec
	fn *asmgen.Func
	width
	c consts
}

// span is a range of public lengths, min to max inclusive, known when
// generating: the text lengths a piece of code is emitted for (see
// bySmall), or a stream piece's, or a remainder's, so that paths no such
// length takes are not emitted: the short path under min, the bulk loop
// when no batch fits under max, a remainder's size classes outside it.
type span struct{ min, max int }

// anyLen is the span of every length.
var anyLen = span{0, math.MaxInt}

// below is s cut to the lengths under n.
func (s span) below(n int) span { return span{s.min, min(s.max, n-1)} }

// from is s cut to the lengths of at least n.
func (s span) from(n int) span { return span{max(s.min, n), s.max} }

// width is the shape of one backend's registers and the choices that go
// with it.
type width struct {
	// lanes is the number of blocks per vector register: 1 (xmm), 2 (ymm),
	// 4 (zmm).
	lanes int
	// blocks is the number of blocks of a bulk batch: 8, or 16 on zmm.
	blocks int
	// npow is the number of key powers in the table: the bulk loop hashes
	// npow blocks per reduction.
	npow int
	// remUpTo and remRegs are the size classes of the remainder (n under a
	// batch):
	// remRegs[i] registers of keystream for n <= remUpTo[i], the last for
	// the rest.
	remUpTo, remRegs []int
	// short is the width's short path (short.go).
	short shortPath
	// holdKeys keeps the bulk loop's round keys in registers (loopKey),
	// broadcast once before it, rather than broadcast from the table at
	// each round of each batch.
	holdKeys bool
	// gatherMax is the longest gathered text the general path joins into
	// the output first (asmgen.Func.ForEachSliceGathered); 0: every piece is
	// read where it is.
	gatherMax int
}

var (
	// xmmWidth: batches of 8 blocks, two per reduction. gatherMax: joining
	// a short gathered text first is faster here than sealing its pieces
	// (the module README has the figures). The short path: one keystream
	// batch of 2, 5 or 6 blocks for up to 16, 64 or 80 bytes.
	xmmWidth = width{lanes: 1, blocks: 8, npow: 16, remUpTo: []int{63}, remRegs: []int{4, 8},
		short:     shortPath{layout: shortBlocks, maxText: 80, upTo: []int{16, 64}, regs: []int{1, 4, 5}},
		gatherMax: 128}
	// ymmWidth: two blocks per register, 16 blocks (8 registers) per batch
	// and reduction. Eight independent AES rounds per round key keep the
	// AES units busy where four leave them waiting on VAESENC's latency
	// between rounds (the module README has the figures).
	ymmWidth = width{lanes: 2, blocks: 16, npow: 16, remUpTo: []int{32, 64, 128}, remRegs: []int{1, 2, 4, 8},
		short: shortPath{layout: shortPairs, maxText: 31}}
	// zmmWidth: four blocks per register, 16 blocks per batch
	// and reduction; the last register of a remainder under opmasks. Its
	// messages under a batch, the short ones included, run at zmmSmall.
	zmmWidth = width{lanes: 4, blocks: 16, npow: 16, remUpTo: []int{64, 128, 192}, remRegs: []int{1, 2, 3, 4},
		short: shortPath{layout: shortNarrower, at: &zmmSmall}, holdKeys: true}
	// zmmSmall is the width of zmmWidth's messages under a batch: ymm
	// registers over the zmm table (16 powers, 256-byte remainders). On
	// Zen 4, whose vector units are 256 bits wide, a 512-bit instruction
	// costs two and short messages are a chain of dependent steps, so the
	// zmm path is slower than ymm there (the module README has the
	// figures).
	zmmSmall = ymmWidth.withShort(shortPath{layout: shortNarrower, at: &zmmTiny})
	// zmmTiny is the width of zmmSmall's short path: xmm, which has the
	// shortest chain for a block or two (VEX.128 AESENC needs AES, which
	// vaes-avx512 requires for it). Its short path takes texts up to 32
	// bytes, not 80: zmm's ymm code is faster from there on Zen 4; one
	// keystream batch of 2 or 3 blocks for up to 16 or 32 bytes.
	zmmTiny = width{lanes: 1, blocks: 8, npow: 16,
		short: shortPath{layout: shortBlocks, maxText: 32, upTo: []int{16}, regs: []int{1, 2}}}
)

// withShort returns w with the short path sp.
func (w width) withShort(sp shortPath) width {
	w.short = sp
	return w
}

// small returns the width of the messages under a batch, and whether w has
// one (zmm; the other widths run every length at their own).
func (w width) small() (width, bool) {
	if w.lanes == 4 {
		return zmmSmall, true
	}
	return width{}, false
}

// bySmall emits body for the text length in the parameter n, given the
// emitter and the span of lengths it is emitted for: once at the backend's
// width for every length, or, on a width with a small one, once at the
// small width for the lengths under a batch and once at the full width for
// the rest.
func (e *gcm) bySmall(n string, body func(e *gcm, s span)) {
	small, ok := e.small()
	if !ok {
		body(e, anyLen)
		return
	}
	wide := e.label("wide")
	e.CMPQ(e.gp(n), imm(e.bb()))
	e.JAE(ref(wide))
	body(e.at(small), anyLen.below(e.bb()))
	e.Label(wide)
	body(e, anyLen.from(e.bb()))
}

// batches reports whether a bulk batch fits in the lengths of s.
func (e *gcm) batches(s span) bool { return s.max >= e.bb() }

// at returns the emitter at width w, zmm's small width or its short path's:
// the same function, table layout and constants, with w's counter steps.
// e is not changed.
func (e *gcm) at(w width) *gcm {
	n := *e
	n.width = w
	n.c.incs = e.c.smallIncs
	if w.lanes == 1 {
		n.c.incs = e.c.tinyIncs
	}
	return &n
}

// bb is the size of a bulk batch in bytes.
func (e *gcm) bb() int { return 16 * e.blocks }

// imm returns the immediate n (a length up to a batch), in the shortest
// form avo prints.
func imm(n int) operand.Constant {
	if n < 256 {
		return operand.U8(n)
	}
	return operand.U32(n)
}

// w is the register width in bytes.
func (e *gcm) w() int { return 16 * e.lanes }

// Key table layout (the Go side's asmKey.t, 752 bytes: enough for npow =
// 16; 16-byte aligned: SSE reads it as memory operands): the 15 round keys in the standard byte order, then
// the key powers H^npow, ..., H^1 (each times x^-1, byte-reflected), then
// the XOR of the two halves of each power in the same order, for Karatsuba.
// The powers descend so that a register-wide load at H^m gives the powers
// of lanes consecutive blocks, H^m, H^(m-1), ...
const (
	offRK  = 0
	offPow = 15 * 16
)

// pow and kar return the table offsets of H^m and of its halves' XOR;
// pow(0) and kar(0) are one entry past H^1, the base of a walk that
// subtracts 16 bytes per block to hash.
func (e *gcm) pow(m int) int { return offPow + 16*(e.npow-m) }
func (e *gcm) kar(m int) int { return offPow + 16*e.npow + 16*(e.npow-m) }

// Stream state layout (the Go side's asmStream.st; any alignment).
const (
	stY    = 0  // GHASH accumulator, byte-reflected
	stCtr  = 16 // next counter block, byte-reflected (counter in dword 0)
	stMask = 32 // E(J0)
	stKS   = 48 // keystream of the block left open
	stOpen = 64 // ciphertext of the block left open, zero padded
	stSize = 80
)

// consts are the public constant tables of one backend's file, each as wide
// as its registers.
type consts struct {
	bswap operand.Mem // reverses the 16 bytes of each block
	poly  operand.Mem // 1, 0xc200000000000000 per block: the reduction constant
	x1    operand.Mem // 1, 0xc200000000000001: the carries of H*x^-1
	// incs: a register of lane offsets 0, 1, ..., lanes-1, then registers
	// of lanes*i in every lane, i = 1, 2, ...: the counter steps.
	incs  operand.Mem
	slide operand.Mem // 16 x 0x80, 0..15, 16 x 0x80: byte-shift shuffles
	ones  operand.Mem // 16 x 0xff, 16 x 0x00: masks of the first m bytes
	// laneSel (zmm): for each lane q, the VPERMQ index vector moving lane
	// q to lane 0.
	laneSel operand.Mem
	// smallIncs and tinyIncs (zmm): incs of the small width's layout and of
	// its short path's (xmm).
	smallIncs, tinyIncs operand.Mem
	// beIncs (ymm, zmm): registers of lanes*i, i = 1, 2, ..., in every
	// lane's last byte (big-endian counters' lowest byte): the counter
	// steps of counters stepped big-endian (beCounters).
	beIncs operand.Mem
}

func (e *gcm) declareConsts() {
	rep := func(b []byte) []byte {
		var out []byte
		for range e.lanes {
			out = append(out, b...)
		}
		return out
	}
	bs := make([]byte, 16)
	for i := range bs {
		bs[i] = byte(15 - i)
	}
	e.c.bswap = e.Table("bswapMask", rep(bs))
	e.c.poly = e.Table("gfPoly", rep(le64(1, 0xc200000000000000)))
	e.c.x1 = e.Table("xInvCarry", le64(1, 0xc200000000000001))
	counterSteps := func(lanes, blocks int) []byte {
		var incs []byte
		for l := range lanes {
			incs = append(incs, le64(uint64(l), 0)...)
		}
		for i := 1; i <= blocks/lanes; i++ {
			for range lanes {
				incs = append(incs, le64(uint64(lanes*i), 0)...)
			}
		}
		return incs
	}
	e.c.incs = e.Table("ctrIncs", counterSteps(e.lanes, e.blocks))
	var slide []byte
	for i := 0; i < 48; i++ {
		switch {
		case i < 16 || i >= 32:
			slide = append(slide, 0x80)
		default:
			slide = append(slide, byte(i-16))
		}
	}
	e.c.slide = e.Table("slideShuf", slide)
	ones := make([]byte, 32)
	for i := 0; i < 16; i++ {
		ones[i] = 0xff
	}
	e.c.ones = e.Table("onesMask", ones)
	if e.lanes == 4 {
		var sel []byte
		for q := 0; q < 4; q++ {
			for range 4 {
				sel = append(sel, le64(uint64(2*q), uint64(2*q+1))...)
			}
		}
		e.c.laneSel = e.Table("laneSel", sel)
		s, _ := e.small()
		e.c.smallIncs = e.Table("smallCtrIncs", counterSteps(s.lanes, s.blocks))
		t := s.shortRunner()
		e.c.tinyIncs = e.Table("tinyCtrIncs", counterSteps(t.lanes, t.blocks))
	}
	if e.lanes > 1 {
		var be []byte
		for i := 1; i <= e.blocks/e.lanes; i++ {
			for range e.lanes {
				be = append(be, le64(0, uint64(e.lanes*i)<<56)...)
			}
		}
		e.c.beIncs = e.Table("ctrIncsBE", be)
	}
}

func le64(lo, hi uint64) []byte {
	b := make([]byte, 16)
	for i := 0; i < 8; i++ {
		b[i] = byte(lo >> (8 * i))
		b[8+i] = byte(hi >> (8 * i))
	}
	return b
}

// vreg returns a new register of the backend's width; xmm one of 128 bits.
func (e *gcm) vreg() reg.VecVirtual {
	switch e.lanes {
	case 4:
		return e.ZMM()
	case 2:
		return e.YMM()
	}
	return e.XMM()
}

func (e *gcm) xmm() reg.VecVirtual { return e.XMM() }

// zvreg returns a new register of the backend's width for a value built in
// its low lane: on wide registers it is zeroed first, because a VEX.128
// write clears the lanes above but avo's liveness sees only a partial write
// and would keep them live from the function's entry.
func (e *gcm) zvreg() reg.VecVirtual {
	r := e.vreg()
	if e.lanes > 1 {
		e.Zero(r)
	}
	return r
}

// lo returns the 128-bit view of x (x itself on xmm).
func lo(x reg.VecVirtual) reg.VecVirtual { return x.AsX().(reg.VecVirtual) }

// gp loads the parameter name into a new general register.
func (e *gcm) gp(name string) reg.GPVirtual {
	r := e.GP64()
	e.Load(e.Param(name), r)
	return r
}

// phase marks the start of a phase of the function in the assembly.
func (e *gcm) phase(name string) { e.fn.Phase("%s", name) }

// bySize emits body once per size class of the public length n, whose
// lengths are s: with regs[i] for n <= upTo[i] (upTo ascending), the last
// regs for the rest. The class's span c bounds its n, so that body can
// leave out the tests no n of the class fails; a class under s.min is not
// emitted.
func (e *gcm) bySize(n reg.Register, s span, upTo, regs []int, body func(regs int, c span)) {
	done := e.label("sizedone")
	least := s.min
	for i, limit := range upTo {
		if limit < least {
			continue
		}
		next := e.label("sizenext")
		e.CMPQ(n, operand.U8(limit))
		e.JA(ref(next))
		body(regs[i], span{least, limit})
		e.JMP(ref(done))
		e.Label(next)
		least = limit + 1
	}
	body(regs[len(regs)-1], span{least, s.max})
	e.Label(done)
}

func (e *gcm) label(prefix string) string { return e.fn.Label(prefix) }

func ref(l string) operand.LabelRef { return operand.LabelRef(l) }

func mem(base reg.Register, disp int) operand.Mem { return operand.Mem{Base: base, Disp: disp} }
