package x86sim

import "fmt"

// This file holds the helpers shared by the vector instruction files: the
// encodings an instruction has, operand form checks, source reads with EVEX
// broadcast and fault suppression, and taint arithmetic on the per-byte
// secret masks.

// A vinfo says which encodings and operand features an instruction has.
type vinfo struct {
	sse  bool  // legacy SSE form (mnemonic without V)
	vex  bool  // VEX form (xmm/ymm, registers 0-15, no masks)
	evex bool  // EVEX form (registers 0-31, masks)
	lens uint8 // allowed vector lengths: lenX | lenY | lenZ
	// esize is the element size of the EVEX write mask (0: no masking).
	esize int
	// bcst is the element size of EVEX embedded broadcast (0: none).
	bcst int
	// sameConst: the result does not depend on the sources when both are
	// the same register (PSUB/PCMPEQ/PXOR of a register with itself), so
	// it is public.
	sameConst bool
	// nofs: no memory fault suppression under a write mask (shuffles and
	// permutes, whose result elements do not correspond to the memory
	// operand's): the whole operand is read.
	nofs bool
}

const (
	lenX = 1 << iota
	lenY
	lenZ
	lenXY  = lenX | lenY
	lenAll = lenX | lenY | lenZ
)

func lenBit(n int) uint8 {
	switch n {
	case 16:
		return lenX
	case 32:
		return lenY
	case 64:
		return lenZ
	}
	return 0
}

// needsEVEX reports whether in uses a feature only EVEX encodes: registers
// 16-31, zmm, a write mask, zeroing or broadcast.
func needsEVEX(in *inst) bool {
	if in.kmask != 0 || in.zeroing || in.bcst {
		return true
	}
	for _, a := range in.args {
		if a.kind == kReg && a.cls == cVec && (a.reg >= 16 || a.size == 64) {
			return true
		}
	}
	return false
}

// check validates in (after prepVec) against the encodings vi describes.
func (vi vinfo) check(in *inst) error {
	if !in.vex {
		if !vi.sse {
			return fmt.Errorf("no legacy SSE form")
		}
		return nil
	}
	if !vi.vex && !vi.evex {
		return fmt.Errorf("no VEX or EVEX form")
	}
	if needsEVEX(in) && !vi.evex {
		return fmt.Errorf("no EVEX form (registers 16-31, zmm, masks, broadcast)")
	}
	if in.kmask != 0 && vi.esize == 0 {
		return fmt.Errorf("no write mask")
	}
	if in.bcst {
		if vi.bcst == 0 {
			return fmt.Errorf("no embedded broadcast")
		}
		hasMem := false
		for _, a := range in.args {
			hasMem = hasMem || a.kind == kMem
		}
		if !hasMem {
			return fmt.Errorf("broadcast without a memory operand")
		}
	}
	lens := vi.lens
	if lens == 0 {
		lens = lenAll
	}
	if !vi.evex {
		lens &= lenXY
	}
	if lenBit(in.w)&lens == 0 {
		return fmt.Errorf("no %d-bit form", 8*in.w)
	}
	return nil
}

// prep is prepVec plus vi.check, for nargs operands.
func prep(in *inst, nargs int, vi vinfo) error {
	if err := prepVec(in, nargs); err != nil {
		return err
	}
	return vi.check(in)
}

// isMem reports whether o is a memory operand.
func isMem(o operand) bool { return o.kind == kMem }

// isGP reports whether o is a general register.
func isGP(o operand) bool { return o.kind == kReg && o.cls == cGP }

// isK reports whether o is an opmask register.
func isK(o operand) bool { return o.kind == kReg && o.cls == cK }

// isVsz reports whether o is a vector register of n bytes.
func isVsz(o operand, n int) bool { return isV(o) && o.size == n }

// isVMsz reports whether o is a vector register of n bytes or memory.
func isVMsz(o operand, n int) bool { return isVsz(o, n) || isMem(o) }

// inRegion reports whether [addr, addr+n) lies in one region of the call,
// without faulting.
func (m *Machine) inRegion(addr uint64, n int) bool {
	for _, r := range m.regions {
		if addr >= r.base && addr+uint64(n) <= r.end && addr+uint64(n) >= addr {
			return true
		}
	}
	return false
}

// checkAlign faults when the memory operand o is not aligned to n bytes: the
// #GP of the aligned moves and of legacy SSE 128-bit memory operands.
func (m *Machine) checkAlign(o *operand, n int) {
	if a := m.addr(o); a%uint64(n) != 0 {
		m.failf("misaligned %d-byte memory operand at %#x (the CPU raises #GP)", n, a)
	}
}

// src reads a vector source operand of n bytes: a register, memory, or with
// in.bcst an embedded broadcast of one bcst-byte element. A legacy SSE
// 16-byte memory operand must be aligned. Under an EVEX write mask an
// element-wise instruction (esize > 0, its mask element size) reads memory
// as the hardware's fault suppression does: bytes of masked-off elements
// outside every region are not accessed (and are zero).
func (m *Machine) src(in *inst, o *operand, n, esize, bcst int) vec {
	if o.kind != kMem {
		return m.vread(in, o, n)
	}
	if !in.vex && n == 16 {
		m.checkAlign(o, 16)
	}
	if in.bcst && bcst > 0 {
		return m.vreadB(in, o, n, bcst)
	}
	if in.kmask != 0 && esize > 0 {
		if a := m.addr(o); !m.inRegion(a, n) {
			var v vec
			m.vmaskedLoad(in, o, &v, n, esize)
			return v
		}
	}
	return m.vread(in, o, n)
}

// srcInto is src reading into *v (which must be zero): the fast path of the
// binders' exec functions, which read register operands without copying
// whole vec values around.
func (m *Machine) srcInto(v *vec, in *inst, o *operand, n, esize, bcst int) {
	if o.kind == kReg && o.cls == cVec {
		copy(v.b[:n], m.vec[o.reg][:n])
		v.t = m.vT[o.reg] & maskBytes(n)
		return
	}
	if o.kind == kMem && !(in.bcst && bcst > 0) && (in.kmask == 0 || esize == 0) {
		// src's plain memory read, into v.
		if !in.vex && n == 16 {
			m.checkAlign(o, 16)
		}
		v.t = m.load(m.addr(o), v.b[:n])
		return
	}
	*v = m.src(in, o, n, esize, bcst)
}

// regInto reads the low n bytes of vector register r into *v (which must
// be zero).
func (m *Machine) regInto(v *vec, r int8, n int) {
	copy(v.b[:n], m.vec[r][:n])
	v.t = m.vT[r] & maskBytes(n)
}

// elemSpread makes every byte of an esize-byte element secret when any byte
// of it is: the taint of element-wise arithmetic.
func elemSpread(t uint64, esize int) uint64 {
	switch esize {
	case 1:
		return t
	case 2:
		x := (t | t>>1) & 0x5555555555555555
		return x * 3
	case 4:
		x := t | t>>1
		x = (x | x>>2) & 0x1111111111111111
		return x * 0xf
	case 8:
		x := t | t>>1
		x |= x >> 2
		x = (x | x>>4) & 0x0101010101010101
		return x * 0xff
	case 16:
		x := t | t>>1
		x |= x >> 2
		x |= x >> 4
		x = (x | x>>8) & 0x0001000100010001
		return x * 0xffff
	case 32:
		x := t | t>>1
		x |= x >> 2
		x |= x >> 4
		x |= x >> 8
		x = (x | x>>16) & 0x0000000100000001
		return x * 0xffffffff
	}
	if t != 0 {
		return ^uint64(0)
	}
	return 0
}

// elemAny returns bit e set when any byte of esize-byte element e of t is
// secret.
func elemAny(t uint64, esize int) uint64 {
	s := elemSpread(t, esize)
	var r uint64
	for e := 0; e < 64/esize; e++ {
		r |= (s >> (e * esize) & 1) << e
	}
	return r
}

// byteMaskOfBits returns the opmask taint (a bit per byte of the 64-bit
// opmask) of mask bits b: byte j is secret when any of bits 8j..8j+7 is.
func byteMaskOfBits(b uint64) uint8 {
	var t uint8
	for j := 0; j < 8; j++ {
		if b>>(8*j)&0xff != 0 {
			t |= 1 << j
		}
	}
	return t
}

// bitsOfByteMask returns the mask bits an opmask taint covers: bits 8j..8j+7
// for each secret byte j.
func bitsOfByteMask(t uint8) uint64 {
	var b uint64
	for j := 0; j < 8; j++ {
		if t>>j&1 != 0 {
			b |= 0xff << (8 * j)
		}
	}
	return b
}

// maskElemT returns the secret bits of the elements of an esize-byte element
// vector whose opmask bits are secret: they select between two values.
func maskElemT(kt uint8, esize int) uint64 {
	if kt == 0 {
		return 0
	}
	kb := bitsOfByteMask(kt)
	var t uint64
	for e := 0; e < 64/esize; e++ {
		if kb>>e&1 != 0 {
			t |= maskBytes(esize) << (e * esize)
		}
	}
	return t
}

// elemGet and elemSet read and write element i of an esize-byte element
// vector.
func (v *vec) elemGet(i, esize int) uint64 {
	switch esize {
	case 8:
		return v.u64(i)
	case 4:
		return uint64(v.u32(i))
	case 2:
		return uint64(v.u16(i))
	case 1:
		return uint64(v.b[i])
	}
	panic("element size")
}

func (v *vec) elemSet(i, esize int, x uint64) {
	switch esize {
	case 8:
		v.setU64(i, x)
	case 4:
		v.setU32(i, uint32(x))
	case 2:
		v.setU16(i, uint16(x))
	case 1:
		v.b[i] = byte(x)
	default:
		panic("element size")
	}
}

// copyBytes copies n bytes with their secret bits from s at so to d at do.
func (d *vec) copyBytes(do int, s *vec, so, n int) {
	copy(d.b[do:do+n], s.b[so:so+n])
	d.t = d.t&^(maskBytes(n)<<do) | (s.t>>so&maskBytes(n))<<do
}

// rotBytes rotates the n-bit taint t left by k bits (k < n).
func rotBytes(t uint64, k, n int) uint64 {
	k %= n
	if k == 0 {
		return t
	}
	m := maskBytes(n)
	return (t<<k | t>>(n-k)) & m
}

// imm8 returns the operand's immediate as an unsigned byte.
func imm8(o operand) uint8 { return uint8(o.imm) }

// vunary binds "[imm,] src, [K,] dst" with src a vector register or memory
// (an EVEX broadcast of vi.bcst-byte elements where allowed). f computes the
// result from the source; imm is the immediate (0 without one). Legacy SSE
// forms are "[imm,] src, dst" with the same meaning.
func vunary(vi vinfo, hasImm bool, f func(s vec, n int, imm uint8) vec) binder {
	return func(in *inst) error {
		nargs := 2
		if hasImm {
			nargs = 3
		}
		if err := prep(in, nargs, vi); err != nil {
			return err
		}
		var imm uint8
		a := in.args
		if hasImm {
			if !isImm(a[0]) {
				return fmt.Errorf("first operand must be an immediate")
			}
			imm = imm8(a[0])
			a = a[1:]
		}
		if !isVM(a[0]) || !isV(a[1]) {
			return fmt.Errorf("operands")
		}
		si := len(in.args) - 2
		esize, bc := vi.esize, vi.bcst
		fs := esize
		if vi.nofs {
			fs = 0
		}
		in.exec = func(m *Machine, in *inst) {
			n := in.w
			var s vec
			m.srcInto(&s, in, &in.args[si], n, fs, bc)
			r := f(s, n, imm)
			m.vwriteMasked(in, &in.args[si+1], &r, n, max(esize, 1))
		}
		return nil
	}
}

// vbinary binds "[imm,] s2, s1, [K,] dst" (VEX and EVEX: Intel "dst, s1, s2")
// and the legacy SSE "[imm,] s2, dst" (s1 is dst). s2 may be memory (an EVEX
// broadcast of vi.bcst-byte elements where allowed); f computes the result
// from s1 and s2 in Intel order (its operands are values: pointers passed to
// a function value escape, and each call would allocate). With dstIn, f also gets the destination's
// old value (d) as an input, as VPTERNLOG, VPMADD52 and VPERMT2 use it.
func vbinary(vi vinfo, hasImm, dstIn bool, f func(d, s1, s2 vec, n int, imm uint8) vec) binder {
	return func(in *inst) error {
		if err := prepVec(in, -1); err != nil {
			return err
		}
		want := 3
		if !in.vex {
			want = 2
		}
		if hasImm {
			want++
		}
		if len(in.args) != want {
			return fmt.Errorf("want %d operands, have %d", want, len(in.args))
		}
		if err := vi.check(in); err != nil {
			return err
		}
		var imm uint8
		a := in.args
		if hasImm {
			if !isImm(a[0]) {
				return fmt.Errorf("first operand must be an immediate")
			}
			imm = imm8(a[0])
			a = a[1:]
		}
		if !isVM(a[0]) {
			return fmt.Errorf("second source must be a vector register or memory")
		}
		for _, o := range a[1:] {
			if !isV(o) {
				return fmt.Errorf("operands after the first source must be vector registers")
			}
		}
		s2i := len(in.args) - len(a)
		s1i, di := len(in.args)-2, len(in.args)-1
		if !in.vex {
			s1i = di
		}
		esize, bc := vi.esize, vi.bcst
		fs := esize
		if vi.nofs {
			fs = 0
		}
		same := vi.sameConst && sameSrcRegs(in)
		in.exec = func(m *Machine, in *inst) {
			n := in.w
			var s1, s2, d vec
			m.srcInto(&s2, in, &in.args[s2i], n, fs, bc)
			m.regInto(&s1, in.args[s1i].reg, n)
			if dstIn {
				m.regInto(&d, in.args[di].reg, n)
			}
			r := f(d, s1, s2, n, imm)
			if same {
				r.t = 0
			}
			m.vwriteMasked(in, &in.args[di], &r, n, max(esize, 1))
		}
		return nil
	}
}

// sameSrcRegs reports whether the two sources s1 and s2 of a vbinary
// instruction are the same register (zero and all-ones idioms).
func sameSrcRegs(in *inst) bool {
	a := in.args
	if len(a) > 0 && isImm(a[0]) {
		a = a[1:]
	}
	if len(a) < 2 {
		return false
	}
	return isV(a[0]) && isV(a[1]) && a[0].reg == a[1].reg
}
