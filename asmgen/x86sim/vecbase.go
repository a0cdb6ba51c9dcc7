package x86sim

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// vec is a vector value of up to 64 bytes with a secret bit per byte.
type vec struct {
	b [64]byte
	t uint64
}

func (v *vec) u64(i int) uint64       { return binary.LittleEndian.Uint64(v.b[8*i:]) }
func (v *vec) setU64(i int, x uint64) { binary.LittleEndian.PutUint64(v.b[8*i:], x) }
func (v *vec) u32(i int) uint32       { return binary.LittleEndian.Uint32(v.b[4*i:]) }
func (v *vec) setU32(i int, x uint32) { binary.LittleEndian.PutUint32(v.b[4*i:], x) }
func (v *vec) u16(i int) uint16       { return binary.LittleEndian.Uint16(v.b[2*i:]) }
func (v *vec) setU16(i int, x uint16) { binary.LittleEndian.PutUint16(v.b[2*i:], x) }

// laneT returns the secret bits of bytes [off, off+n) of t.
func laneT(t uint64, off, n int) uint64 { return t >> off & (1<<n - 1) }

func maskBytes(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// vread reads the low n bytes of vector register or memory operand o (an
// immediate is not a vector operand). A memory operand with in.bcst reads one
// element of esize bytes and repeats it.
func (m *Machine) vread(in *inst, o *operand, n int) vec {
	var v vec
	switch o.kind {
	case kReg:
		switch o.cls {
		case cVec:
			copy(v.b[:n], m.vec[o.reg][:n])
			v.t = m.vT[o.reg] & maskBytes(n)
		case cGP:
			binary.LittleEndian.PutUint64(v.b[:], m.gp[o.reg]&wmask(min(n, 8)))
			v.t = uint64(m.gpT[o.reg]) & maskBytes(n)
		default:
			m.failf("opmask register as a vector operand")
		}
	case kMem:
		v.t = m.load(m.addr(o), v.b[:n])
	default:
		m.failf("immediate as a vector operand")
	}
	return v
}

// vreadB reads a memory source that may be an EVEX embedded broadcast of
// esize-byte elements.
func (m *Machine) vreadB(in *inst, o *operand, n, esize int) vec {
	if !in.bcst || o.kind != kMem {
		return m.vread(in, o, n)
	}
	var v vec
	var e [8]byte
	t := m.load(m.addr(o), e[:esize])
	for i := 0; i < n; i += esize {
		copy(v.b[i:], e[:esize])
		v.t |= t << i
	}
	return v
}

// vwrite writes the low n bytes of v to destination o. A register destination
// follows the SDM: a legacy SSE instruction (in.vex false) keeps bytes n..63;
// a VEX or EVEX one zeroes them. A memory destination gets exactly n bytes.
func (m *Machine) vwrite(in *inst, o *operand, v *vec, n int) {
	switch o.kind {
	case kReg:
		if o.cls != cVec {
			m.failf("vector result into a non-vector register")
		}
		r := o.reg
		if in.vex {
			copy(m.vec[r][:n], v.b[:n])
			clear(m.vec[r][n:])
			m.vT[r] = v.t & maskBytes(n)
		} else {
			copy(m.vec[r][:n], v.b[:n])
			m.vT[r] = m.vT[r]&^maskBytes(n) | v.t&maskBytes(n)
		}
	case kMem:
		m.store(m.addr(o), v.b[:n], v.t&maskBytes(n))
	default:
		m.failf("bad vector destination")
	}
}

// vwriteMasked writes v to o under in's EVEX write mask with esize-byte
// elements: an element whose mask bit is clear keeps the destination's (merge)
// or becomes zero (in.zeroing); in memory it is not written at all (and
// not accessed, as the hardware's fault suppression does). Without a mask it
// is vwrite. The mask's secret bits make the elements they select secret.
func (m *Machine) vwriteMasked(in *inst, o *operand, v *vec, n, esize int) {
	if in.kmask == 0 {
		m.vwrite(in, o, v, n)
		return
	}
	k, kt := m.k[in.kmask], m.kT[in.kmask]
	ksecret := kt != 0
	if o.kind == kMem {
		if ksecret {
			m.failf("masked store under a secret mask K%d (the addresses touched depend on it)", in.kmask)
		}
		a := m.addr(o)
		for e := 0; e < n/esize; e++ {
			if k>>e&1 != 0 {
				m.store(a+uint64(e*esize), v.b[e*esize:(e+1)*esize], laneT(v.t, e*esize, esize))
			}
		}
		return
	}
	r := o.reg
	bm := elemMaskBytes(k, n, esize)
	var out vec
	for w := 0; w < n/8; w++ {
		mw := byteBits[bm>>(8*w)&0xff]
		x := binary.LittleEndian.Uint64(v.b[8*w:]) & mw
		if !in.zeroing {
			x |= binary.LittleEndian.Uint64(m.vec[r][8*w:]) &^ mw
		}
		binary.LittleEndian.PutUint64(out.b[8*w:], x)
	}
	out.t = v.t & bm
	if !in.zeroing {
		out.t |= m.vT[r] &^ bm
	}
	if ksecret {
		out.t |= maskBytes(n)
	}
	out.t &= maskBytes(n)
	m.vwrite(in, o, &out, n)
}

// elemMaskBytes returns a bit per byte of the n bytes whose esize-byte
// element the opmask k enables.
func elemMaskBytes(k uint64, n, esize int) uint64 {
	if esize == 1 {
		return k & maskBytes(n)
	}
	var bm uint64
	e := maskBytes(esize)
	for i := 0; i < n/esize; i++ {
		if k>>i&1 != 0 {
			bm |= e << (i * esize)
		}
	}
	return bm
}

// byteBits[b] has byte i all ones where bit i of b is set.
var byteBits = func() (t [256]uint64) {
	for b := range t {
		for i := 0; i < 8; i++ {
			if b>>i&1 != 0 {
				t[b] |= 0xff << (8 * i)
			}
		}
	}
	return
}()

// vlen is the vector length in bytes of an instruction from its register
// operands (the widest vector register named), or 16 for legacy SSE.
func vlen(in *inst) int {
	n := 0
	for _, a := range in.args {
		if a.kind == kReg && a.cls == cVec && a.size > n {
			n = a.size
		}
	}
	if n == 0 {
		n = 16
	}
	return n
}

// prepVec is the common start of every vector binder: it sets in.vex from
// the mnemonic, moves an EVEX write-mask operand (the opmask register just
// before the destination) into in.kmask, checks the operand count, and
// rejects registers 16-31, opmasks, zeroing and broadcast on legacy SSE and
// VEX forms that cannot encode them (an EVEX form is needed for those).
func prepVec(in *inst, nargs int) error {
	in.vex = strings.HasPrefix(in.op, "V")
	if n := len(in.args); n >= 2 {
		if k := in.args[n-2]; k.kind == kReg && k.cls == cK && in.args[n-1].cls != cK {
			if k.reg == 0 {
				return fmt.Errorf("K0 cannot be a write mask")
			}
			in.kmask = k.reg
			in.args = append(in.args[:n-2:n-2], in.args[n-1])
		}
	}
	if (in.zeroing || in.bcst) && !in.vex {
		return fmt.Errorf("zeroing or broadcast on a legacy SSE instruction")
	}
	if in.zeroing && in.kmask == 0 {
		return fmt.Errorf("zeroing without a write mask")
	}
	if !in.vex {
		for _, a := range in.args {
			if a.kind == kReg && a.cls == cVec && (a.reg >= 16 || a.size != 16) {
				return fmt.Errorf("legacy SSE with register %s", a.String())
			}
		}
	}
	if nargs >= 0 && len(in.args) != nargs {
		return fmt.Errorf("want %d operands, have %d", nargs, len(in.args))
	}
	in.w = vlen(in)
	return nil
}

// Vector operand form checks for binders.
func isV(o operand) bool   { return o.kind == kReg && o.cls == cVec }
func isVM(o operand) bool  { return isV(o) || o.kind == kMem }
func isImm(o operand) bool { return o.kind == kImm }

func init() {
	// Plain moves: MOVOU/MOVOA/MOVUPS (SSE) and the VEX/EVEX VMOVDQU/A
	// family, loads, stores and register copies of the full vector.
	for _, op := range []string{"MOVOU", "MOVOA", "MOVUPS", "MOVAPS", "VMOVDQU", "VMOVDQA", "VMOVUPS", "VMOVAPS",
		"VMOVDQU8", "VMOVDQU16", "VMOVDQU32", "VMOVDQU64", "VMOVDQA32", "VMOVDQA64"} {
		esize := 1
		aligned := strings.Contains(op, "MOVOA") || strings.Contains(op, "MOVA") || strings.Contains(op, "MOVDQA")
		switch {
		case strings.HasSuffix(op, "16"):
			esize = 2
		case strings.HasSuffix(op, "32"):
			esize = 4
		case strings.HasSuffix(op, "64"):
			esize = 8
		}
		ops[op] = func(in *inst) error {
			if err := prepVec(in, 2); err != nil {
				return err
			}
			if !isVM(in.args[0]) || !isVM(in.args[1]) || in.args[0].kind == kMem && in.args[1].kind == kMem {
				return fmt.Errorf("operands")
			}
			if in.bcst {
				return fmt.Errorf("no embedded broadcast")
			}
			if in.zeroing && in.args[1].kind == kMem {
				return fmt.Errorf("zeroing into memory")
			}
			if aligned {
				// The aligned moves raise #GP on a misaligned memory
				// operand, masked or not.
				mi := 0
				if in.args[1].kind == kMem {
					mi = 1
				}
				if in.args[mi].kind == kMem {
					in.exec = func(m *Machine, in *inst) {
						m.checkAlign(&in.args[mi], in.w)
						var v vec
						if in.kmask != 0 && mi == 0 {
							m.vmaskedLoad(in, &in.args[0], &v, in.w, esize)
						} else {
							v = m.vread(in, &in.args[0], in.w)
						}
						m.vwriteMasked(in, &in.args[1], &v, in.w, esize)
					}
					return nil
				}
			}
			in.exec = func(m *Machine, in *inst) {
				v := m.vread(in, &in.args[0], in.w)
				if in.kmask != 0 && in.args[0].kind == kMem {
					// Masked load: only the enabled elements are read.
					m.vmaskedLoad(in, &in.args[0], &v, in.w, esize)
				}
				m.vwriteMasked(in, &in.args[1], &v, in.w, esize)
			}
			if in.kmask != 0 && in.args[0].kind == kMem {
				in.exec = func(m *Machine, in *inst) {
					var v vec
					m.vmaskedLoad(in, &in.args[0], &v, in.w, esize)
					m.vwriteMasked(in, &in.args[1], &v, in.w, esize)
				}
			}
			return nil
		}
	}
	// Bitwise ops, byte-precise taint, computed a qword at a time.
	const (
		bXor = iota
		bOr
		bAnd
		bAndn
	)
	for _, b := range []struct {
		kind int
		ops  []string
	}{
		{bXor, []string{"PXOR", "VPXOR", "VPXORD", "VPXORQ"}},
		{bOr, []string{"POR", "VPOR", "VPORD", "VPORQ"}},
		{bAnd, []string{"PAND", "VPAND", "VPANDD", "VPANDQ"}},
		{bAndn, []string{"PANDN", "VPANDN", "VPANDND", "VPANDNQ"}},
	} {
		for i, op := range b.ops {
			kind := b.kind
			esize := []int{16, 16, 4, 8}[i]
			ops[op] = binop(func(m *Machine, in *inst, a, b vec, n int) vec {
				// Intel order: dst = b OP a where b is the first source
				// (Go's second-to-last operand) and a the second (Go's
				// first).
				var r vec
				switch kind {
				case bXor:
					for i := 0; i < n/8; i++ {
						r.setU64(i, b.u64(i)^a.u64(i))
					}
				case bOr:
					for i := 0; i < n/8; i++ {
						r.setU64(i, b.u64(i)|a.u64(i))
					}
				case bAnd:
					for i := 0; i < n/8; i++ {
						r.setU64(i, b.u64(i)&a.u64(i))
					}
				case bAndn:
					for i := 0; i < n/8; i++ {
						r.setU64(i, ^b.u64(i)&a.u64(i))
					}
				}
				r.t = a.t | b.t
				if kind == bXor && sameSrc(in) {
					r.t = 0
				}
				return r
			}, esize)
		}
	}
}

// sameSrc reports whether the two sources of a binary op are the same register
// (the zero idioms: XOR of a register with itself is 0 whatever it holds).
func sameSrc(in *inst) bool {
	n := len(in.args)
	if n < 2 {
		return false
	}
	a, b := in.args[0], in.args[1]
	if !in.vex && n == 2 {
		return isV(a) && isV(b) && a.reg == b.reg
	}
	return isV(a) && isV(b) && a.reg == b.reg
}

// binop binds a two-source vector op: legacy SSE "OP src, dst" (dst = dst OP
// src) and VEX/EVEX "OP src2, src1, dst". f gets a = Go's first operand
// (src/src2, register or memory, possibly broadcast with esize-byte elements)
// and b = the other source; the result is written under the write mask with
// esize-byte elements.
func binop(f func(m *Machine, in *inst, a, b vec, n int) vec, esize int) binder {
	return func(in *inst) error {
		if err := prepVec(in, -1); err != nil {
			return err
		}
		want := 3
		if !in.vex {
			want = 2
		}
		if len(in.args) != want {
			return fmt.Errorf("want %d operands, have %d", want, len(in.args))
		}
		if !isVM(in.args[0]) {
			return fmt.Errorf("first operand")
		}
		for _, o := range in.args[1:] {
			if !isV(o) {
				return fmt.Errorf("operands after the first must be vector registers")
			}
		}
		in.exec = func(m *Machine, in *inst) {
			n := in.w
			a := m.src(in, &in.args[0], n, min(esize, 8), min(esize, 8))
			// Legacy SSE "OP src, dst": the other source is dst.
			b := m.vread(in, &in.args[1], n)
			r := f(m, in, a, b, n)
			m.vwriteMasked(in, &in.args[len(in.args)-1], &r, n, min(esize, 8))
		}
		return nil
	}
}

// vmaskedLoad reads the elements of the memory operand o that in's write mask
// enables; the others are neither accessed nor set.
func (m *Machine) vmaskedLoad(in *inst, o *operand, v *vec, n, esize int) {
	k, kt := m.k[in.kmask], m.kT[in.kmask]
	if kt != 0 {
		m.failf("masked load under a secret mask K%d (the addresses touched depend on it)", in.kmask)
	}
	a := m.addr(o)
	for e := 0; e < n/esize; e++ {
		if k>>e&1 != 0 {
			t := m.load(a+uint64(e*esize), v.b[e*esize:(e+1)*esize])
			v.t |= t << (e * esize)
		}
	}
}
