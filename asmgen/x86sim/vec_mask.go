package x86sim

import "fmt"

// Opmask instructions (KMOV, the K logic ops, KORTEST/KTEST, shifts,
// unpacks) and the EVEX instructions that write an opmask: the compares and
// VPTESTM/VPTESTNM; and VPBLENDM, which selects by one.
//
// An opmask's taint (m.kT) has a bit per byte of the 64-bit register: byte j
// covers mask bits 8j..8j+7.

// kwidth is the width in bytes of a K instruction from its last letter.
func kwidth(op string) int {
	if op[len(op)-1] == 'D' {
		return 4
	}
	return gpWidth(op)
}

func init() {
	for _, sf := range []string{"B", "W", "D", "Q"} {
		w := kwidth(sf)
		mk := wmask(w)
		tm := tmask(w)
		ops["KMOV"+sf] = func(in *inst) error {
			if err := wantArgs(in, 2); err != nil {
				return err
			}
			s, d := in.args[0], in.args[1]
			for _, a := range in.args {
				if isGP(a) && a.size != 0 {
					return fmt.Errorf("general register by its 64-bit name")
				}
			}
			switch {
			case isK(d) && (isK(s) || isGP(s) || isMem(s)):
				in.exec = func(m *Machine, in *inst) {
					o := &in.args[0]
					var v uint64
					var t uint8
					switch {
					case o.kind == kMem:
						v, t = m.loadN(m.addr(o), w)
					case o.cls == cK:
						v, t = m.k[o.reg], m.kT[o.reg]
					default:
						v, t = m.gp[o.reg], m.gpT[o.reg]
					}
					d := in.args[1].reg
					m.k[d], m.kT[d] = v&mk, t&tm
				}
			case isK(s) && (isGP(d) || isMem(d)):
				in.exec = func(m *Machine, in *inst) {
					r := in.args[0].reg
					m.wr(&in.args[1], w, m.k[r]&mk, m.kT[r]&tm)
					if w < 4 && isGP(in.args[1]) {
						// KMOVB/KMOVW into a general register zero-extend.
						g := in.args[1].reg
						m.gp[g] &= mk
						m.gpT[g] &= tm
					}
				}
			default:
				return fmt.Errorf("operands")
			}
			return nil
		}

		// Two-source logic: "k(s2), k(s1), k(dst)".
		for _, l := range []struct {
			op   string
			f    func(a, b uint64) uint64 // a = s1, b = s2
			same bool                     // constant when s1 == s2
		}{
			{"KAND", func(a, b uint64) uint64 { return a & b }, false},
			{"KANDN", func(a, b uint64) uint64 { return ^a & b }, true},
			{"KOR", func(a, b uint64) uint64 { return a | b }, false},
			{"KXOR", func(a, b uint64) uint64 { return a ^ b }, true},
			{"KXNOR", func(a, b uint64) uint64 { return ^(a ^ b) }, true},
			{"KADD", func(a, b uint64) uint64 { return a + b }, false},
		} {
			f := l.f
			isAdd := l.op == "KADD"
			same := l.same
			ops[l.op+sf] = func(in *inst) error {
				if err := wantArgs(in, 3); err != nil {
					return err
				}
				for _, a := range in.args {
					if !isK(a) {
						return fmt.Errorf("operands must be opmask registers")
					}
				}
				zero := same && in.args[0].reg == in.args[1].reg
				in.exec = func(m *Machine, in *inst) {
					s2, s1, d := in.args[0].reg, in.args[1].reg, in.args[2].reg
					t := (m.kT[s1] | m.kT[s2]) & tm
					if isAdd {
						t = upward(t, w)
					}
					if zero {
						t = 0
					}
					m.k[d], m.kT[d] = f(m.k[s1], m.k[s2])&mk, t
				}
				return nil
			}
		}
		ops["KNOT"+sf] = func(in *inst) error {
			if err := wantArgs(in, 2); err != nil {
				return err
			}
			if !isK(in.args[0]) || !isK(in.args[1]) {
				return fmt.Errorf("operands must be opmask registers")
			}
			in.exec = func(m *Machine, in *inst) {
				s, d := in.args[0].reg, in.args[1].reg
				m.k[d], m.kT[d] = ^m.k[s]&mk, m.kT[s]&tm
			}
			return nil
		}
		// KORTEST k, k: ZF = (OR == 0), CF = (OR all ones); KTEST k2, k1
		// (Intel k1, k2): ZF = (k1 AND k2 == 0), CF = (k2 AND NOT k1 == 0).
		// The other flags are cleared.
		for _, op := range []string{"KORTEST", "KTEST"} {
			or := op == "KORTEST"
			ops[op+sf] = func(in *inst) error {
				if err := wantArgs(in, 2); err != nil {
					return err
				}
				if !isK(in.args[0]) || !isK(in.args[1]) {
					return fmt.Errorf("operands must be opmask registers")
				}
				in.exec = func(m *Machine, in *inst) {
					a, b := in.args[1].reg, in.args[0].reg // Intel k1, k2
					x, y := m.k[a]&mk, m.k[b]&mk
					t := (m.kT[a]|m.kT[b])&tm != 0
					if or {
						m.fl[fZF] = x|y == 0
						m.fl[fCF] = x|y == mk
					} else {
						m.fl[fZF] = x&y == 0
						m.fl[fCF] = y&^x == 0
					}
					m.flT[fZF], m.flT[fCF] = t, t
					m.fl[fOF], m.fl[fSF], m.fl[fPF] = false, false, false
					m.flT[fOF], m.flT[fSF], m.flT[fPF] = false, false, false
				}
				return nil
			}
		}
		// KSHIFTL/KSHIFTR $imm, k(src), k(dst).
		for _, left := range []bool{true, false} {
			op := "KSHIFTR" + sf
			if left {
				op = "KSHIFTL" + sf
			}
			kind := shSRL
			if left {
				kind = shSLL
			}
			ops[op] = func(in *inst) error {
				if err := wantArgs(in, 3); err != nil {
					return err
				}
				if !isImm(in.args[0]) || !isK(in.args[1]) || !isK(in.args[2]) {
					return fmt.Errorf("operands")
				}
				cnt := uint64(imm8(in.args[0]))
				in.exec = func(m *Machine, in *inst) {
					s, d := in.args[1].reg, in.args[2].reg
					v := shiftElem(kind, m.k[s]&mk, cnt, uint(8*w))
					t := shiftT(kind, uint64(m.kT[s]&tm), cnt, w)
					m.k[d], m.kT[d] = v, uint8(t)
				}
				return nil
			}
		}
	}
	// KUNPCKBW/WD/DQ k(s2), k(s1), k(dst): dst = s1 low half : s2 low half
	// (s2 in the low bits).
	for _, u := range []struct {
		op string
		h  int // half width in bytes
	}{{"KUNPCKBW", 1}, {"KUNPCKWD", 2}, {"KUNPCKDQ", 4}} {
		h := u.h
		ops[u.op] = func(in *inst) error {
			if err := wantArgs(in, 3); err != nil {
				return err
			}
			for _, a := range in.args {
				if !isK(a) {
					return fmt.Errorf("operands must be opmask registers")
				}
			}
			in.exec = func(m *Machine, in *inst) {
				s2, s1, d := in.args[0].reg, in.args[1].reg, in.args[2].reg
				v := m.k[s2]&wmask(h) | (m.k[s1]&wmask(h))<<(8*h)
				t := m.kT[s2]&tmask(h) | (m.kT[s1]&tmask(h))<<h
				m.k[d], m.kT[d] = v, t
			}
			return nil
		}
	}

	// Compares into an opmask.
	eq := func(x, y uint64, _ uint) bool { return x == y }
	gt := func(x, y uint64, w uint) bool { return int64(x<<(64-w)) > int64(y<<(64-w)) }
	for _, c := range []struct {
		op string
		es int
		f  func(x, y uint64, w uint) bool
	}{
		{"VPCMPEQB", 1, eq}, {"VPCMPEQW", 2, eq}, {"VPCMPEQD", 4, eq}, {"VPCMPEQQ", 8, eq},
		{"VPCMPGTB", 1, gt}, {"VPCMPGTW", 2, gt}, {"VPCMPGTD", 4, gt}, {"VPCMPGTQ", 8, gt},
	} {
		kb := kcmpBinder(c.es, false, true, func(uint8) func(x, y uint64, w uint) bool { return c.f })
		op := c.op
		ops[op] = func(in *inst) error {
			if n := len(in.args); n > 0 && isK(in.args[n-1]) {
				return kb(in)
			}
			return vecCmp[op](in)
		}
	}
	for _, c := range []struct {
		sf string
		es int
	}{{"B", 1}, {"W", 2}, {"D", 4}, {"Q", 8}} {
		for _, unsigned := range []bool{false, true} {
			op := "VPCMP" + c.sf
			if unsigned {
				op = "VPCMPU" + c.sf
			}
			u := unsigned
			ops[op] = kcmpBinder(c.es, true, true, func(imm uint8) func(x, y uint64, w uint) bool {
				return cmpPred(imm&7, u)
			})
		}
		ops["VPTESTM"+c.sf] = kcmpBinder(c.es, false, false, func(uint8) func(x, y uint64, w uint) bool {
			return func(x, y uint64, _ uint) bool { return x&y != 0 }
		})
		ops["VPTESTNM"+c.sf] = kcmpBinder(c.es, false, false, func(uint8) func(x, y uint64, w uint) bool {
			return func(x, y uint64, _ uint) bool { return x&y == 0 }
		})

		// VPBLENDM s2, s1, [K,] dst: element i = mask bit i ? s2 : s1 (zero
		// with .Z); s2 everywhere without a mask.
		es := c.es
		vi := vinfo{evex: true, esize: es}
		if es >= 4 {
			vi.bcst = es
		}
		ops["VPBLENDM"+c.sf] = func(in *inst) error {
			if err := prep(in, 3, vi); err != nil {
				return err
			}
			if !isVM(in.args[0]) || !isV(in.args[1]) || !isV(in.args[2]) {
				return fmt.Errorf("operands")
			}
			in.exec = func(m *Machine, in *inst) {
				n := in.w
				s2 := m.src(in, &in.args[0], n, es, es)
				s1 := m.vread(in, &in.args[1], n)
				k, kt := ^uint64(0), uint8(0)
				if in.kmask != 0 {
					k, kt = m.k[in.kmask], m.kT[in.kmask]
				}
				var r vec
				for i := 0; i < n/es; i++ {
					switch {
					case k>>i&1 != 0:
						copyElem(&r, i, &s2, i, es)
					case !in.zeroing:
						copyElem(&r, i, &s1, i, es)
					}
				}
				r.t |= maskElemT(kt, es) & maskBytes(n)
				m.vwrite(in, &in.args[2], &r, n)
			}
			return nil
		}
	}
}

// cmpPred returns the VPCMP predicate imm (0 EQ, 1 LT, 2 LE, 3 FALSE, 4 NE,
// 5 NLT, 6 NLE, 7 TRUE) on w-bit elements, signed or unsigned.
func cmpPred(p uint8, unsigned bool) func(x, y uint64, w uint) bool {
	lt := func(x, y uint64, w uint) bool {
		if unsigned {
			return x < y
		}
		return int64(x<<(64-w)) < int64(y<<(64-w))
	}
	switch p {
	case 0:
		return func(x, y uint64, _ uint) bool { return x == y }
	case 1:
		return lt
	case 2:
		return func(x, y uint64, w uint) bool { return x == y || lt(x, y, w) }
	case 3:
		return func(x, y uint64, _ uint) bool { return false }
	case 4:
		return func(x, y uint64, _ uint) bool { return x != y }
	case 5:
		return func(x, y uint64, w uint) bool { return !lt(x, y, w) }
	case 6:
		return func(x, y uint64, w uint) bool { return x != y && !lt(x, y, w) }
	}
	return func(x, y uint64, _ uint) bool { return true }
}

// kcmpBinder binds an EVEX compare into an opmask: "[imm,] s2, s1, [K,]
// kdst": bit i = (mask bit i) AND f(s1[i], s2[i]); bits above the element
// count are zero. sameConst: the result does not depend on the values when
// s1 and s2 are the same register (and with a TRUE/FALSE predicate).
func kcmpBinder(es int, hasImm, sameConst bool, mk func(imm uint8) func(x, y uint64, w uint) bool) binder {
	return func(in *inst) error {
		in.vex = true
		want := 3
		if hasImm {
			want = 4
		}
		n := len(in.args)
		if n == want+1 && isK(in.args[n-2]) && isK(in.args[n-1]) {
			if in.args[n-2].reg == 0 {
				return fmt.Errorf("K0 cannot be a write mask")
			}
			in.kmask = in.args[n-2].reg
			in.args = append(in.args[:n-2:n-2], in.args[n-1])
		}
		if len(in.args) != want {
			return fmt.Errorf("want %d operands", want)
		}
		if in.zeroing {
			return fmt.Errorf("zeroing into an opmask")
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
		if !isVM(a[0]) || !isV(a[1]) || !isK(a[2]) {
			return fmt.Errorf("operands: want vector or memory, vector, opmask")
		}
		in.w = vlen(in)
		bc := 0
		if es >= 4 {
			bc = es
		}
		if in.bcst && bc == 0 {
			return fmt.Errorf("no embedded broadcast")
		}
		f := mk(imm)
		constant := sameConst && isV(a[0]) && a[0].reg == a[1].reg || hasImm && imm&3 == 3
		s2i := len(in.args) - 3
		w := uint(8 * es)
		in.exec = func(m *Machine, in *inst) {
			n := in.w
			s2 := m.src(in, &in.args[s2i], n, es, bc)
			s1 := m.vread(in, &in.args[s2i+1], n)
			ne := n / es
			k, kt := ^uint64(0), uint8(0)
			if in.kmask != 0 {
				k, kt = m.k[in.kmask], m.kT[in.kmask]
			}
			var r uint64
			for i := 0; i < ne; i++ {
				if k>>i&1 != 0 && f(s1.elemGet(i, es), s2.elemGet(i, es), w) {
					r |= 1 << i
				}
			}
			var tb uint64
			if !constant {
				tb = elemAny(s1.t|s2.t, es)
			}
			tb |= bitsOfByteMask(kt)
			if ne < 64 {
				tb &= 1<<ne - 1
			}
			d := in.args[s2i+2].reg
			m.k[d], m.kT[d] = r, byteMaskOfBits(tb)
		}
		return nil
	}
}
