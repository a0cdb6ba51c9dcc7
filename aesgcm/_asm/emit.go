package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// emitter writes one backend's instructions. The two backends share every
// line of the design; they differ only in encoding: aesni uses the legacy
// SSE two-operand forms (copying a source first where the destination must
// differ), aesni-avx the VEX three-operand forms. A memory operand of an
// SSE arithmetic instruction must be 16-byte aligned: the generator passes
// only the key table (aligned by the Go side) and the constant tables there,
// and loads text and state with MOVOU first.
type emitter struct {
	*asmgen.Generator
	fn  *asmgen.Func
	avx bool
	c   consts
}

// consts are the public constant tables of one backend's file.
type consts struct {
	bswap  operand.Mem // reverses the 16 bytes of a block
	gfpoly operand.Mem // 1, 0xc200000000000000: the reduction constant
	x1     operand.Mem // 1, 0xc200000000000001: the carries of H*x^-1
	incs   operand.Mem // 16 bytes each: dword 0 = 0, 1, ..., 8
	slide  operand.Mem // 16 x 0x80, 0..15, 16 x 0x80: byte-shift shuffles
	ones   operand.Mem // 16 x 0xff, 16 x 0x00: masks of the first m bytes
}

func newConsts(g *asmgen.Generator) consts {
	var c consts
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(15 - i)
	}
	c.bswap = g.Table("bswapMask", b)
	c.gfpoly = g.Table("gfPoly", le64(1, 0xc200000000000000))
	c.x1 = g.Table("xInvCarry", le64(1, 0xc200000000000001))
	var incs []byte
	for i := 0; i <= 8; i++ {
		incs = append(incs, le64(uint64(i), 0)...)
	}
	c.incs = g.Table("ctrIncs", incs)
	var slide []byte
	for i := 0; i < 48; i++ {
		switch {
		case i < 16 || i >= 32:
			slide = append(slide, 0x80)
		default:
			slide = append(slide, byte(i-16))
		}
	}
	c.slide = g.Table("slideShuf", slide)
	ones := make([]byte, 32)
	for i := 0; i < 16; i++ {
		ones[i] = 0xff
	}
	c.ones = g.Table("onesMask", ones)
	return c
}

func le64(lo, hi uint64) []byte {
	b := make([]byte, 16)
	for i := 0; i < 8; i++ {
		b[i] = byte(lo >> (8 * i))
		b[8+i] = byte(hi >> (8 * i))
	}
	return b
}

func (e *emitter) xmm() reg.VecVirtual { return e.XMM() }

// load and store move 16 unaligned bytes.
func (e *emitter) load(m operand.Op, x reg.VecVirtual) {
	if e.avx {
		e.VMOVDQU(m, x)
	} else {
		e.MOVOU(m, x)
	}
}

// bySize emits body once per size class of the public length n: with
// nks[i] for n <= upTo[i] (upTo ascending), the last nks for the rest.
// least is the smallest n of the class above the ones before it (0 for the
// first), so that body can leave out the tests no n of the class fails.
func (e *emitter) bySize(n reg.Register, upTo, nks []int, body func(nks, least int)) {
	done := e.label("sizedone")
	least := 0
	for i, limit := range upTo {
		next := e.label("sizenext")
		e.CMPQ(n, operand.U8(limit))
		e.JA(ref(next))
		body(nks[i], least)
		e.JMP(ref(done))
		e.Label(next)
		least = limit + 1
	}
	body(nks[len(nks)-1], least)
	e.Label(done)
}

// tagStore returns the tag output of a seal: the 16 bytes stored at the
// parameter "tag".
func (e *emitter) tagStore() func(x reg.VecVirtual) {
	return func(x reg.VecVirtual) { e.store(x, mem(e.gp("tag"), 0)) }
}

// tagCheck returns the tag output of an open: the function returns 1 if the
// first tagLen bytes of x (the parameter "tagLen", 12 to 16, public) equal
// the tagLen bytes at the parameter "tag", else 0. The comparison is in
// registers and constant time: the expected tag is loaded (a partial load
// of 12 to 15 bytes below 16, which zero-pads), x masked to tagLen bytes, the two XORed,
// the 16 byte comparisons with zero gathered by PMOVMSKB and compared with
// 0xffff by SETEQ. Comparing here rather than in Go keeps the computed tag
// out of memory: a 16-byte store read back by smaller loads is forwarded
// or not depending on where the stack slot falls (Open of 16 bytes measured
// 57 and 85 ns in two builds that differed only elsewhere).
func (e *emitter) tagCheck() func(x reg.VecVirtual) {
	return func(x reg.VecVirtual) {
		tag, tagLen := e.gp("tag"), e.gp("tagLen")
		want := e.xmm()
		full, loaded := e.label("tagfull"), e.label("tagloaded")
		e.CMPQ(tagLen, operand.U8(16))
		e.JE(ref(full))
		e.loadPartialFrom(tag, tagLen, want, 12)
		o, m := e.GP64(), e.xmm()
		e.LEAQ(e.c.ones, o)
		e.SUBQ(tagLen, o)
		e.load(mem(o, 16), m)
		e.and(m, x, x)
		e.JMP(ref(loaded))
		e.Label(full)
		e.load(mem(tag, 0), want)
		e.Label(loaded)
		e.xor(want, x, x)
		z, bits, ok := e.xmm(), e.GP32(), e.GP64()
		e.zero(z)
		if e.avx {
			e.VPCMPEQB(z, x, x)
			e.VPMOVMSKB(x, bits)
		} else {
			e.PCMPEQB(z, x)
			e.PMOVMSKB(x, bits)
		}
		e.XORQ(ok, ok)
		e.CMPL(bits, operand.U32(0xffff))
		e.SETEQ(ok.As8())
		e.Store(ok, e.ReturnIndex(0))
	}
}

// loadJ0 loads the 16-byte pre-counter block at j0 as two 8-byte loads:
// the Go side writes it as two words (aesgcm's counter type), and a
// 16-byte load of two 8-byte stores would wait for them to reach the cache
// instead of being forwarded from them.
func (e *emitter) loadJ0(j0 reg.Register, x reg.VecVirtual) {
	if e.avx {
		e.VMOVQ(mem(j0, 0), x)
		e.VPINSRQ(operand.U8(1), mem(j0, 8), x, x)
	} else {
		e.MOVQ(mem(j0, 0), x)
		e.MOVHPS(mem(j0, 8), x)
	}
}

func (e *emitter) store(x reg.VecVirtual, m operand.Op) {
	if e.avx {
		e.VMOVDQU(x, m)
	} else {
		e.MOVOU(x, m)
	}
}

// mov copies register src to dst.
func (e *emitter) mov(src, dst reg.VecVirtual) {
	if e.avx {
		e.VMOVDQA(src, dst)
	} else {
		e.MOVOU(src, dst)
	}
}

func (e *emitter) zero(x reg.VecVirtual) {
	if e.avx {
		e.VPXOR(x, x, x)
	} else {
		e.PXOR(x, x)
	}
}

// commutative emits dst = a op b for an operation whose SSE form is
// "dst op= src".
func (e *emitter) commutative(sse func(operand.Op, operand.Op), avx func(operand.Op, operand.Op, operand.Op), a operand.Op, b, dst reg.VecVirtual) {
	if e.avx {
		avx(a, b, dst)
		return
	}
	switch {
	case dst == b:
		sse(a, dst)
	case a == operand.Op(dst):
		sse(b, dst)
	default:
		e.MOVOU(b, dst)
		sse(a, dst)
	}
}

func (e *emitter) xor(a operand.Op, b, dst reg.VecVirtual) {
	e.commutative(func(x, y operand.Op) { e.PXOR(x, y) }, func(x, y, z operand.Op) { e.VPXOR(x, y, z) }, a, b, dst)
}

func (e *emitter) and(a operand.Op, b, dst reg.VecVirtual) {
	e.commutative(func(x, y operand.Op) { e.PAND(x, y) }, func(x, y, z operand.Op) { e.VPAND(x, y, z) }, a, b, dst)
}

func (e *emitter) or(a operand.Op, b, dst reg.VecVirtual) {
	e.commutative(func(x, y operand.Op) { e.POR(x, y) }, func(x, y, z operand.Op) { e.VPOR(x, y, z) }, a, b, dst)
}

func (e *emitter) paddd(a operand.Op, b, dst reg.VecVirtual) {
	e.commutative(func(x, y operand.Op) { e.PADDL(x, y) }, func(x, y, z operand.Op) { e.VPADDD(x, y, z) }, a, b, dst)
}

func (e *emitter) paddq(a operand.Op, b, dst reg.VecVirtual) {
	e.commutative(func(x, y operand.Op) { e.PADDQ(x, y) }, func(x, y, z operand.Op) { e.VPADDQ(x, y, z) }, a, b, dst)
}

// pshufb sets dst to src shuffled by mask.
func (e *emitter) pshufb(mask operand.Op, src, dst reg.VecVirtual) {
	if e.avx {
		e.VPSHUFB(mask, src, dst)
		return
	}
	if src != dst {
		e.MOVOU(src, dst)
	}
	e.PSHUFB(mask, dst)
}

func (e *emitter) pshufd(imm uint8, src operand.Op, dst reg.VecVirtual) {
	if e.avx {
		e.VPSHUFD(operand.U8(imm), src, dst)
	} else {
		e.PSHUFD(operand.U8(imm), src, dst)
	}
}

func (e *emitter) psrad(imm uint8, src, dst reg.VecVirtual) {
	if e.avx {
		e.VPSRAD(operand.U8(imm), src, dst)
		return
	}
	if src != dst {
		e.MOVOU(src, dst)
	}
	e.PSRAL(operand.U8(imm), dst)
}

// clmul sets dst to the carry-less product of a qword of b (imm bit 0) and
// a qword of a (imm bit 4).
func (e *emitter) clmul(imm uint8, a operand.Op, b, dst reg.VecVirtual) {
	if e.avx {
		e.VPCLMULQDQ(operand.U8(imm), a, b, dst)
		return
	}
	if a == operand.Op(dst) && b != dst {
		panic("clmul: dst aliases a")
	}
	if b != dst {
		e.MOVOU(b, dst)
	}
	e.PCLMULQDQ(operand.U8(imm), a, dst)
}

// punpcklqdq sets dst to (lo: b's low qword, hi: a's low qword).
func (e *emitter) punpcklqdq(a operand.Op, b, dst reg.VecVirtual) {
	if e.avx {
		e.VPUNPCKLQDQ(a, b, dst)
		return
	}
	if a == operand.Op(dst) && b != dst {
		panic("punpcklqdq: dst aliases a")
	}
	if b != dst {
		e.MOVOU(b, dst)
	}
	e.PUNPCKLQDQ(a, dst)
}

func (e *emitter) aesenc(k operand.Op, x reg.VecVirtual) {
	if e.avx {
		e.VAESENC(k, x, x)
	} else {
		e.AESENC(k, x)
	}
}

func (e *emitter) aesenclast(k operand.Op, x reg.VecVirtual) {
	if e.avx {
		e.VAESENCLAST(k, x, x)
	} else {
		e.AESENCLAST(k, x)
	}
}

// movq moves 64 bits: general register or memory to the low qword of x
// (zeroing the rest), or x's low qword to a general register or memory.
func (e *emitter) movqIn(src operand.Op, x reg.VecVirtual) {
	if e.avx {
		e.VMOVQ(src, x)
	} else {
		e.MOVQ(src, x)
	}
}

func (e *emitter) movqOut(x reg.VecVirtual, dst operand.Op) {
	if e.avx {
		e.VMOVQ(x, dst)
	} else {
		e.MOVQ(x, dst)
	}
}

// label, jump helpers.
func (e *emitter) label(prefix string) string { return e.fn.Label(prefix) }

func ref(l string) operand.LabelRef { return operand.LabelRef(l) }

func mem(base reg.Register, disp int) operand.Mem { return operand.Mem{Base: base, Disp: disp} }
