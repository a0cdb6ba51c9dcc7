package asmgen

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/cpufeat"
)

// Encoding is the instruction encoding a vector operation is emitted in.
type Encoding uint8

const (
	// SSE is the legacy two-operand encoding (dst op= src) on xmm
	// registers 0-15: a backend without AVX.
	SSE Encoding = iota
	// VEX is the three-operand encoding on xmm and ymm registers 0-15.
	VEX
	// EVEX is the AVX-512 encoding: zmm registers, registers 16-31,
	// opmasks, embedded broadcast.
	EVEX
)

func (e Encoding) String() string {
	return [...]string{"SSE", "VEX", "EVEX"}[e]
}

// Vec emits the vector operations every generator shares, each written
// once: the operation picks the encoding from the backend's features and
// the operands' width. Without AVX it is SSE, copying a source first where
// the two-operand form needs the destination to hold it; with AVX it is VEX
// on xmm and ymm; a zmm operand takes the EVEX form (VPXORD for VPXOR,
// VMOVDQU64 for VMOVDQU, ...), which needs AVX512F (and the checker
// refuses it otherwise). In the SSE encoding a memory source of an
// arithmetic operation must be 16-byte aligned; Mov loads and stores
// unaligned in every encoding.
//
// Operations take their sources first and the destination last, like
// avo's operand order: Xor(a, b, dst) sets dst = a ^ b. Every source may be
// dst unless the operation says otherwise.
type Vec struct {
	g   *Generator
	enc Encoding
}

// Vec returns the vector-operation emitter of g's backend.
func (g *Generator) Vec() *Vec {
	if g.vec == nil {
		enc := SSE
		switch {
		case g.Has(cpufeat.AVX512F):
			enc = EVEX
		case g.Has(cpufeat.AVX):
			enc = VEX
		}
		g.vec = &Vec{g: g, enc: enc}
	}
	return g.vec
}

// Encoding returns the widest encoding the backend allows.
func (v *Vec) Encoding() Encoding { return v.enc }

// evex reports whether the operation takes its EVEX form: with zmm
// operands, and on an EVEX backend for every width, since avo may allocate
// an xmm or ymm value to registers 16-31, which only EVEX encodes.
func (v *Vec) evex(ops ...operand.Op) bool { return v.enc == EVEX || wide(ops...) }

// wide reports whether o is a 512-bit register: the EVEX-only forms.
func wide(ops ...operand.Op) bool {
	for _, o := range ops {
		if r, ok := o.(reg.Register); ok && r.Size() == 64 {
			return true
		}
	}
	return false
}

// Mov copies src to dst: register to register (an aligned move, which
// needs no alignment between registers), or an unaligned load or store.
func (v *Vec) Mov(src, dst operand.Op) {
	_, srcMem := src.(operand.Mem)
	_, dstMem := dst.(operand.Mem)
	regs := !srcMem && !dstMem
	switch {
	case v.evex(src, dst) && regs:
		v.g.VMOVDQA64(src, dst)
	case v.evex(src, dst):
		v.g.VMOVDQU64(src, dst)
	case v.enc == SSE:
		v.g.MOVOU(src, dst)
	case regs:
		v.g.VMOVDQA(src, dst)
	default:
		v.g.VMOVDQU(src, dst)
	}
}

// unaligned emits dst = m op b for an unaligned memory operand m: the VEX
// and EVEX forms read it in place; SSE, whose memory operands must be
// aligned, loads it first (into dst when dst is not b).
func (v *Vec) unaligned(op func(operand.Op, reg.VecVirtual, reg.VecVirtual), m operand.Mem, b, dst reg.VecVirtual) {
	if v.enc != SSE || wide(b, dst) {
		op(m, b, dst)
		return
	}
	if dst == b {
		t := v.g.XMM()
		v.g.MOVOU(m, t)
		op(t, b, dst)
		return
	}
	v.g.MOVOU(m, dst)
	op(b, dst, dst)
}

// XorU sets dst = m ^ b for an unaligned memory operand m.
func (v *Vec) XorU(m operand.Mem, b, dst reg.VecVirtual) { v.unaligned(v.Xor, m, b, dst) }

// AndU sets dst = m & b for an unaligned memory operand m.
func (v *Vec) AndU(m operand.Mem, b, dst reg.VecVirtual) { v.unaligned(v.And, m, b, dst) }

// Broadcast128 sets every 128-bit lane of dst to the 16 bytes at m
// (VBROADCASTI128, or VBROADCASTI32X4 on zmm); an xmm dst is a plain load.
func (v *Vec) Broadcast128(m operand.Mem, dst reg.VecVirtual) {
	switch {
	case dst.Size() == 64 || dst.Size() == 32 && v.enc == EVEX:
		v.g.VBROADCASTI32X4(m, dst)
	case dst.Size() == 32:
		v.g.VBROADCASTI128(m, dst)
	default:
		v.Mov(m, dst)
	}
}

// Zero sets x to zero.
func (v *Vec) Zero(x reg.VecVirtual) { v.Xor(x, x, x) }

// commutative emits dst = a op b through the two-operand form op(src, dst) (dst
// op= src) of a commutative operation.
func (v *Vec) commutative(op func(operand.Op, operand.Op), a operand.Op, b, dst reg.VecVirtual) {
	switch {
	case dst == b:
		op(a, dst)
	case a == operand.Op(dst):
		op(b, dst)
	default:
		v.g.MOVOU(b, dst)
		op(a, dst)
	}
}

// ordered emits dst = op(a, b) for a two-operand form op(a, dst) that reads
// b from dst: dst must not be a unless it is also b.
func (v *Vec) ordered(name string, op func(operand.Op, operand.Op), a operand.Op, b, dst reg.VecVirtual) {
	if a == operand.Op(dst) && b != dst {
		v.g.errorf("vector %s: the destination is the first source", name)
		return
	}
	if b != dst {
		v.g.MOVOU(b, dst)
	}
	op(a, dst)
}

// vecForms are the encodings of a three-operand vector operation: sse the
// two-operand form (nil: none, the operation needs AVX), vex the VEX form,
// evex the form for zmm operands (nil: none); commut says a and b may
// swap.
type vecForms struct {
	name      string
	commut    bool
	sse       func(operand.Op, operand.Op)
	vex, evex func(...operand.Op)
}

// binary emits the three-operand operation f: dst = a op b.
func (v *Vec) binary(f vecForms, a operand.Op, b, dst reg.VecVirtual) {
	name, commut, sse, vex, evex := f.name, f.commut, f.sse, f.vex, f.evex
	switch {
	case wide(a, b, dst) && evex == nil:
		v.g.errorf("vector %s has no zmm form", name)
	case v.evex(a, b, dst) && evex != nil:
		evex(a, b, dst)
	case v.enc != SSE:
		vex(a, b, dst)
	case sse == nil:
		v.g.errorf("vector %s needs AVX", name)
	case commut:
		v.commutative(sse, a, b, dst)
	default:
		v.ordered(name, sse, a, b, dst)
	}
}

// Xor sets dst = a ^ b.
func (v *Vec) Xor(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"xor", true, v.g.PXOR, fixed3(v.g.VPXOR), v.g.VPXORD}, a, b, dst)
}

// And sets dst = a & b.
func (v *Vec) And(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"and", true, v.g.PAND, fixed3(v.g.VPAND), v.g.VPANDD}, a, b, dst)
}

// AndNot sets dst = ^b & a (PANDN's operand order: the destination's
// old value, b, is the one inverted).
func (v *Vec) AndNot(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"andnot", false, v.g.PANDN, fixed3(v.g.VPANDN), v.g.VPANDND}, a, b, dst)
}

// Or sets dst = a | b.
func (v *Vec) Or(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"or", true, v.g.POR, fixed3(v.g.VPOR), v.g.VPORD}, a, b, dst)
}

// AddD sets each 32-bit word of dst to the sum of those of a and b.
func (v *Vec) AddD(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"addd", true, v.g.PADDL, v.g.VPADDD, v.g.VPADDD}, a, b, dst)
}

// AddQ sets each 64-bit word of dst to the sum of those of a and b.
func (v *Vec) AddQ(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"addq", true, v.g.PADDQ, v.g.VPADDQ, v.g.VPADDQ}, a, b, dst)
}

// Xor3 sets dst = a ^ b ^ dst: one VPTERNLOGD where EVEX is allowed, two
// XORs otherwise.
func (v *Vec) Xor3(a operand.Op, b, dst reg.VecVirtual) {
	if v.enc == EVEX {
		v.g.VPTERNLOGD(operand.U8(0x96), a, b, dst)
		return
	}
	v.Xor(a, dst, dst)
	v.Xor(b, dst, dst)
}

// ShufB sets dst to the bytes of src shuffled by mask within each 128-bit
// lane (PSHUFB). In the SSE encoding mask must not be dst.
func (v *Vec) ShufB(mask operand.Op, src, dst reg.VecVirtual) {
	v.binary(vecForms{"shufb", false, v.g.PSHUFB, v.g.VPSHUFB, v.g.VPSHUFB}, mask, src, dst)
}

// UnpackLoQ sets dst to (b's low qword, a's low qword) in each 128-bit
// lane (PUNPCKLQDQ). In the SSE encoding a must not be dst.
func (v *Vec) UnpackLoQ(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"punpcklqdq", false, v.g.PUNPCKLQDQ, v.g.VPUNPCKLQDQ, v.g.VPUNPCKLQDQ}, a, b, dst)
}

// UnpackHiQ sets dst to (b's high qword, a's high qword) in each 128-bit
// lane (PUNPCKHQDQ). In the SSE encoding a must not be dst.
func (v *Vec) UnpackHiQ(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"punpckhqdq", false, v.g.PUNPCKHQDQ, v.g.VPUNPCKHQDQ, v.g.VPUNPCKHQDQ}, a, b, dst)
}

// UnpackLoD sets dst to the low two dwords of b and a interleaved (b0, a0,
// b1, a1) in each 128-bit lane (PUNPCKLDQ). In the SSE encoding a must not
// be dst.
func (v *Vec) UnpackLoD(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"punpckldq", false, v.g.PUNPCKLLQ, v.g.VPUNPCKLDQ, v.g.VPUNPCKLDQ}, a, b, dst)
}

// UnpackHiD sets dst to the high two dwords of b and a interleaved (b2,
// a2, b3, a3) in each 128-bit lane (PUNPCKHDQ). In the SSE encoding a must
// not be dst.
func (v *Vec) UnpackHiD(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"punpckhdq", false, v.g.PUNPCKHLQ, v.g.VPUNPCKHDQ, v.g.VPUNPCKHDQ}, a, b, dst)
}

// ClMul sets each 128-bit lane of dst to the carry-less product of a qword
// of b (imm bit 0) and a qword of a (imm bit 4) of that lane. In the SSE
// encoding a must not be dst.
func (v *Vec) ClMul(imm uint8, a operand.Op, b, dst reg.VecVirtual) {
	i := operand.U8(imm)
	v.binary(vecForms{"clmul", false,
		func(x, y operand.Op) { v.g.PCLMULQDQ(i, x, y) },
		func(o ...operand.Op) { v.g.VPCLMULQDQ(i, o[0], o[1], o[2]) },
		func(o ...operand.Op) { v.g.VPCLMULQDQ(i, o[0], o[1], o[2]) }}, a, b, dst)
}

// AESEnc runs one AES round on each 128-bit lane of x with the round key
// k (AESENC).
func (v *Vec) AESEnc(k operand.Op, x reg.VecVirtual) {
	v.binary(vecForms{"aesenc", false, v.g.AESENC, fixed3(v.g.VAESENC), fixed3(v.g.VAESENC)}, k, x, x)
}

// AESEncLast runs the last AES round on each 128-bit lane of x with the
// round key k (AESENCLAST).
func (v *Vec) AESEncLast(k operand.Op, x reg.VecVirtual) {
	v.binary(vecForms{"aesenclast", false, v.g.AESENCLAST, fixed3(v.g.VAESENCLAST), fixed3(v.g.VAESENCLAST)}, k, x, x)
}

// shift emits dst = src shifted by the immediate imm: sse is the
// two-operand form on dst.
func (v *Vec) shift(imm uint8, sse func(operand.Op, operand.Op), avx func(...operand.Op), src, dst reg.VecVirtual) {
	i := operand.U8(imm)
	if v.enc != SSE || wide(src, dst) {
		avx(i, src, dst)
		return
	}
	if src != dst {
		v.g.MOVOU(src, dst)
	}
	sse(i, dst)
}

// SllD, SrlD and SraD shift each 32-bit word of src by imm bits (left,
// right, right arithmetic) into dst.
func (v *Vec) SllD(imm uint8, src, dst reg.VecVirtual) { v.shift(imm, v.g.PSLLL, v.g.VPSLLD, src, dst) }
func (v *Vec) SrlD(imm uint8, src, dst reg.VecVirtual) { v.shift(imm, v.g.PSRLL, v.g.VPSRLD, src, dst) }
func (v *Vec) SraD(imm uint8, src, dst reg.VecVirtual) { v.shift(imm, v.g.PSRAL, v.g.VPSRAD, src, dst) }

// SllQ and SrlQ shift each 64-bit word of src by imm bits into dst.
func (v *Vec) SllQ(imm uint8, src, dst reg.VecVirtual) { v.shift(imm, v.g.PSLLQ, v.g.VPSLLQ, src, dst) }
func (v *Vec) SrlQ(imm uint8, src, dst reg.VecVirtual) { v.shift(imm, v.g.PSRLQ, v.g.VPSRLQ, src, dst) }

// SllB and SrlB shift each 128-bit lane of src by imm bytes (PSLLDQ,
// PSRLDQ) into dst.
func (v *Vec) SllB(imm uint8, src, dst reg.VecVirtual) {
	v.shift(imm, v.g.PSLLDQ, fixed3(v.g.VPSLLDQ), src, dst)
}
func (v *Vec) SrlB(imm uint8, src, dst reg.VecVirtual) {
	v.shift(imm, v.g.PSRLDQ, fixed3(v.g.VPSRLDQ), src, dst)
}

// RotlD rotates each 32-bit word of x left by n bits: VPROLD where EVEX is
// allowed, two shifts and an OR otherwise (the byte shuffles that rotate
// by multiples of 8 are the caller's: they need a table).
func (v *Vec) RotlD(n uint8, x reg.VecVirtual) {
	if v.enc == EVEX {
		v.g.VPROLD(operand.U8(n), x, x)
		return
	}
	t := v.newLike(x)
	v.SllD(n, x, t)
	v.SrlD(32-n, x, x)
	v.Or(t, x, x)
}

// ShufD sets dst to the 32-bit words of src permuted by imm within each
// 128-bit lane (PSHUFD); src may be memory.
func (v *Vec) ShufD(imm uint8, src operand.Op, dst reg.VecVirtual) {
	if v.enc == SSE && !wide(src, dst) {
		v.g.PSHUFD(operand.U8(imm), src, dst)
		return
	}
	v.g.VPSHUFD(operand.U8(imm), src, dst)
}

// MovQ moves 64 bits: from a general register or memory to the low qword
// of an xmm register (zeroing the rest), or from an xmm register's low
// qword to a general register or memory.
func (v *Vec) MovQ(src, dst operand.Op) {
	if v.enc == SSE {
		v.g.MOVQ(src, dst)
	} else {
		v.g.VMOVQ(src, dst)
	}
}

// InsertQ1 sets x's high qword to the 64 bits at src (a general register
// or memory), keeping its low qword: PINSRQ needs SSE4.1, so the SSE form
// loads memory with MOVHPS and a register through a copy and PUNPCKLQDQ.
func (v *Vec) InsertQ1(src operand.Op, x reg.VecVirtual) {
	if v.enc == EVEX {
		// The EVEX VPINSRQ needs AVX512DQ: a move and an unpack instead.
		t := v.g.XMM()
		v.g.VMOVQ(src, t)
		v.g.VPUNPCKLQDQ(t, x, x)
		return
	}
	if v.enc != SSE {
		v.g.VPINSRQ(operand.U8(1), src, x, x)
		return
	}
	if _, isMem := src.(operand.Mem); isMem {
		v.g.MOVHPS(src, x)
		return
	}
	t := v.g.XMM()
	v.g.MOVQ(src, t)
	v.g.PUNPCKLQDQ(t, x)
}

// ExtractQ1 sets dst (a general register or memory) to x's high qword,
// keeping x: PEXTRQ needs SSE4.1, so the SSE form shuffles the qword down
// into a new register (PSHUFD) and moves it from there.
func (v *Vec) ExtractQ1(x reg.VecVirtual, dst operand.Op) {
	if v.enc == EVEX {
		// The EVEX VPEXTRQ needs AVX512DQ: a shuffle and a move instead.
		t := v.g.XMM()
		v.g.VPSHUFD(operand.U8(0xee), x, t)
		v.g.VMOVQ(t, dst)
		return
	}
	if v.enc != SSE {
		v.g.VPEXTRQ(operand.U8(1), x, dst)
		return
	}
	t := v.g.XMM()
	v.g.PSHUFD(operand.U8(0xee), x, t)
	v.g.MOVQ(t, dst)
}

// BroadcastD sets every 32-bit word of dst to the 32 bits at src (memory,
// or the low word of an xmm register): VPBROADCASTD, which needs AVX2.
func (v *Vec) BroadcastD(src operand.Op, dst reg.VecVirtual) {
	if v.enc == SSE {
		v.g.errorf("vector broadcastd needs AVX2")
		return
	}
	v.g.VPBROADCASTD(src, dst)
}

// Insert128 sets dst to b with its 128-bit lane i replaced by src (an xmm
// register or memory): VINSERTI128 for ymm (AVX2), VINSERTI32X4 for zmm;
// an xmm dst has no lane to insert into.
func (v *Vec) Insert128(i uint8, src operand.Op, b, dst reg.VecVirtual) {
	switch {
	case dst.Size() == 64 || dst.Size() == 32 && v.enc == EVEX:
		v.g.VINSERTI32X4(operand.U8(i), src, b, dst)
	case dst.Size() == 32:
		v.g.VINSERTI128(operand.U8(i), src, b, dst)
	default:
		v.g.errorf("vector insert128 into an xmm register")
	}
}

// Extract128 sets the xmm register dst to the 128-bit lane i of x (a ymm
// or zmm register): VEXTRACTI128 (AVX2) or, for zmm and on EVEX backends,
// VEXTRACTI32X4.
func (v *Vec) Extract128(i uint8, x, dst reg.VecVirtual) {
	switch {
	case x.Size() == 64 || x.Size() == 32 && v.enc == EVEX:
		v.g.VEXTRACTI32X4(operand.U8(i), x, dst)
	case x.Size() == 32:
		v.g.VEXTRACTI128(operand.U8(i), x, dst)
	default:
		v.g.errorf("vector extract128 from an xmm register")
	}
}

// Extract256 sets the ymm register dst to the high 256 bits of the zmm
// register x (VEXTRACTI64X4).
func (v *Vec) Extract256(x, dst reg.VecVirtual) {
	if x.Size() != 64 {
		v.g.errorf("vector extract256 from a register under 512 bits")
		return
	}
	v.g.VEXTRACTI64X4(operand.U8(1), x, dst)
}

// CmpEqB sets each byte of dst to 0xff where the bytes of a and b are
// equal, 0 elsewhere (PCMPEQB; not for zmm, whose comparisons set
// opmasks).
func (v *Vec) CmpEqB(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"pcmpeqb", true, v.g.PCMPEQB, v.g.VPCMPEQB, nil}, a, b, dst)
}

// CmpEqD sets each 32-bit word of dst to all ones where the words of a
// and b are equal, 0 elsewhere (PCMPEQD; not for zmm, whose comparisons
// set opmasks).
func (v *Vec) CmpEqD(a operand.Op, b, dst reg.VecVirtual) {
	v.binary(vecForms{"pcmpeqd", true, v.g.PCMPEQL, v.g.VPCMPEQD, nil}, a, b, dst)
}

// MovMskB sets the general register dst to the top bits of the bytes of x
// (PMOVMSKB).
func (v *Vec) MovMskB(x reg.VecVirtual, dst reg.Register) {
	if v.enc == SSE {
		v.g.PMOVMSKB(x, dst)
	} else {
		v.g.VPMOVMSKB(x, dst)
	}
}

// newLike returns a new virtual register of x's width.
func (v *Vec) newLike(x reg.VecVirtual) reg.VecVirtual {
	switch x.Size() {
	case 64:
		return v.g.ZMM()
	case 32:
		return v.g.YMM()
	}
	return v.g.XMM()
}

// fixed3 adapts a three-operand VEX form to the variadic shape of avo's
// EVEX-capable forms.
func fixed3(f func(a, b, c operand.Op)) func(...operand.Op) {
	return func(o ...operand.Op) { f(o[0], o[1], o[2]) }
}
