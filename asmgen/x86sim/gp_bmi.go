package x86sim

import (
	"fmt"
	"math/bits"
)

// BMI1/BMI2 and other general-register instructions: BZHI, SHLX/SHRX/SARX,
// RORX, ANDN, ROL/ROR, BT, POPCNT, LZCNT/TZCNT, and the double-precision
// shifts (SHLQ/SHRQ with three operands: SHLD/SHRD).

// gpRM reports whether o is a general register or memory.
func gpRM(o operand) bool { return isGP(o) || isMem(o) }

func init() {
	for _, w := range []int{4, 8} {
		sf := "L"
		if w == 8 {
			sf = "Q"
		}
		w := w
		nb := uint64(8 * w)
		mk := wmask(w)
		tm := tmask(w)

		// BZHI idx, src(r/m), dst: src with the bits from idx[7:0] up
		// cleared; CF = idx[7:0] > width-1, ZF and SF from the result,
		// OF = 0.
		ops["BZHI"+sf] = func(in *inst) error {
			if err := wantArgs(in, 3); err != nil {
				return err
			}
			if !isGP(in.args[0]) || !gpRM(in.args[1]) || !isGP(in.args[2]) {
				return fmt.Errorf("operands")
			}
			in.exec = func(m *Machine, in *inst) {
				nx, nt := m.rd(&in.args[0], w)
				x, xt := m.rd(&in.args[1], w)
				n := nx & 0xff
				r, rt := x, xt
				if n < nb {
					r = x & (1<<n - 1)
					rt = xt & uint8(maskBytes(int((n+7)/8)))
				}
				if nt&1 != 0 {
					rt = tm
				}
				ft := rt != 0 || nt&1 != 0
				m.setSZP(r, w, ft)
				m.setCO(n > nb-1, false, nt&1 != 0)
				m.flT[fOF] = false
				m.wr(&in.args[2], w, r, rt)
			}
			return nil
		}

		// SHLX/SHRX/SARX cnt, src(r/m), dst: no flags; the count is
		// cnt mod width.
		for _, s := range []struct {
			op   string
			kind int
		}{{"SHLX", shSLL}, {"SHRX", shSRL}, {"SARX", shSRA}} {
			kind := s.kind
			ops[s.op+sf] = func(in *inst) error {
				if err := wantArgs(in, 3); err != nil {
					return err
				}
				if !isGP(in.args[0]) || !gpRM(in.args[1]) || !isGP(in.args[2]) {
					return fmt.Errorf("operands")
				}
				in.exec = func(m *Machine, in *inst) {
					c, ct := m.rd(&in.args[0], w)
					x, xt := m.rd(&in.args[1], w)
					c &= nb - 1
					r := shiftElem(kind, x, c, uint(nb))
					rt := uint8(shiftT(kind, uint64(xt), c, w))
					if ct&1 != 0 {
						rt = tm
					}
					m.wr(&in.args[2], w, r, rt)
				}
				return nil
			}
		}
		// RORX $imm, src(r/m), dst: no flags.
		ops["RORX"+sf] = func(in *inst) error {
			if err := wantArgs(in, 3); err != nil {
				return err
			}
			if !isImm(in.args[0]) || !gpRM(in.args[1]) || !isGP(in.args[2]) {
				return fmt.Errorf("operands")
			}
			c := uint64(in.args[0].imm) & (nb - 1)
			in.exec = func(m *Machine, in *inst) {
				x, xt := m.rd(&in.args[1], w)
				m.wr(&in.args[2], w, shiftElem(shROR, x, c, uint(nb)), uint8(shiftT(shROR, uint64(xt), c, w)))
			}
			return nil
		}
		// ANDN src2(r/m), src1, dst: dst = ^src1 & src2; SF, ZF from the
		// result, CF = OF = 0.
		ops["ANDN"+sf] = func(in *inst) error {
			if err := wantArgs(in, 3); err != nil {
				return err
			}
			if !gpRM(in.args[0]) || !isGP(in.args[1]) || !isGP(in.args[2]) {
				return fmt.Errorf("operands")
			}
			in.exec = func(m *Machine, in *inst) {
				b, bt := m.rd(&in.args[0], w)
				a, at := m.rd(&in.args[1], w)
				r, rt := ^a&b&mk, at|bt
				m.setSZP(r, w, rt != 0)
				m.setCO(false, false, false)
				m.wr(&in.args[2], w, r, rt)
			}
			return nil
		}
		// POPCNT, LZCNT, TZCNT src(r/m), dst. The result is at most 64, so
		// only its low byte can be secret.
		for _, c := range []string{"POPCNT", "LZCNT", "TZCNT"} {
			c := c
			ops[c+sf] = func(in *inst) error {
				if err := wantArgs(in, 2); err != nil {
					return err
				}
				if !gpRM(in.args[0]) || !isGP(in.args[1]) {
					return fmt.Errorf("operands")
				}
				in.exec = func(m *Machine, in *inst) {
					x, xt := m.rd(&in.args[0], w)
					ft := xt != 0
					var r uint64
					switch c {
					case "POPCNT":
						r = uint64(bits.OnesCount64(x))
						m.setCO(false, false, ft)
						m.fl[fZF], m.fl[fSF], m.fl[fPF] = x == 0, false, false
						m.flT[fZF], m.flT[fSF], m.flT[fPF] = ft, ft, ft
					case "LZCNT", "TZCNT":
						if c == "LZCNT" {
							r = uint64(bits.LeadingZeros64(x)) - (64 - nb)
						} else {
							r = uint64(min(bits.TrailingZeros64(x), int(nb)))
						}
						m.fl[fCF], m.flT[fCF] = x == 0, ft
						m.fl[fZF], m.flT[fZF] = r == 0, ft
					}
					m.wr(&in.args[1], w, r, boolT(ft, 1))
				}
				return nil
			}
		}
		// SHLQ/SHRQ/SHLL/SHRL cnt, src, dst(r/m): the double-precision
		// shifts SHLD/SHRD (the two-operand forms stay with gp.go).
		for _, left := range []bool{true, false} {
			op := "SHR" + sf
			if left {
				op = "SHL" + sf
			}
			prev := ops[op]
			left := left
			ops[op] = func(in *inst) error {
				if len(in.args) != 3 {
					return prev(in)
				}
				c := in.args[0]
				if !(isImm(c) || isGP(c) && c.reg == rCX) || !isGP(in.args[1]) || !gpRM(in.args[2]) {
					return fmt.Errorf("operands: want imm or CX, register, register or memory")
				}
				in.w = w
				in.exec = func(m *Machine, in *inst) {
					cnt, ct := m.rd(&in.args[0], 1)
					cnt &= nb - 1
					s, st := m.rd(&in.args[1], w)
					d, dt := m.rd(&in.args[2], w)
					if cnt == 0 && ct == 0 {
						if w == 4 && isGP(in.args[2]) {
							m.wr(&in.args[2], w, d, dt)
						}
						return
					}
					rt := st | dt
					if rt != 0 || ct != 0 {
						rt = tm
					}
					ft := rt != 0
					if cnt == 0 {
						for i := range m.flT {
							m.flT[i] = true
						}
						m.wr(&in.args[2], w, d, rt)
						return
					}
					var r uint64
					var cf bool
					if left {
						r = (d<<cnt | s>>(nb-cnt)) & mk
						cf = d>>(nb-cnt)&1 != 0
					} else {
						r = (d>>cnt | s<<(nb-cnt)) & mk
						cf = d>>(cnt-1)&1 != 0
					}
					of := (r^d)>>(nb-1)&1 != 0
					m.setSZP(r, w, ft)
					m.setCO(cf, of, ft)
					m.wr(&in.args[2], w, r, rt)
				}
				return nil
			}
		}
	}

	// ROL/ROR $imm or CL, r/m: CF = the bit rotated into the low (ROL) or
	// high (ROR) end, OF = (ROL) MSB ^ CF, (ROR) the top two bits' XOR;
	// nothing changes for a zero count.
	for _, w := range []int{1, 2, 4, 8} {
		sf := string("BWLQ"[map[int]int{1: 0, 2: 1, 4: 2, 8: 3}[w]])
		for _, left := range []bool{true, false} {
			op := "ROR" + sf
			kind := shROR
			if left {
				op, kind = "ROL"+sf, shROL
			}
			w, left, kind := w, left, kind
			nb := uint64(8 * w)
			cmask := uint64(31)
			if w == 8 {
				cmask = 63
			}
			ops[op] = func(in *inst) error {
				if err := wantArgs(in, 2); err != nil {
					return err
				}
				c := in.args[0]
				if !(isImm(c) || isGP(c) && c.reg == rCX) || !gpRM(in.args[1]) {
					return fmt.Errorf("count must be an immediate or CX")
				}
				in.w = w
				in.exec = func(m *Machine, in *inst) {
					cnt, ct := m.rd(&in.args[0], 1)
					cnt &= cmask
					x, xt := m.rd(&in.args[1], w)
					if cnt == 0 && ct == 0 {
						if w == 4 && isGP(in.args[1]) {
							// A 32-bit register destination is written
							// (zero-extended) even for a zero count.
							m.wr(&in.args[1], w, x, xt)
						}
						return
					}
					r := shiftElem(kind, x, cnt%nb, uint(nb))
					rt := uint8(shiftT(kind, uint64(xt), cnt%nb, w))
					if ct != 0 {
						rt = tmask(w)
					}
					ft := rt != 0
					if cnt == 0 {
						// A secret zero count: CF and OF unchanged but
						// secret.
						m.flT[fCF], m.flT[fOF] = true, true
						m.wr(&in.args[1], w, x, rt)
						return
					}
					msb := r>>(nb-1)&1 != 0
					var cf, of bool
					if left {
						cf = r&1 != 0
						of = msb != cf
					} else {
						cf = msb
						of = msb != (r>>(nb-2)&1 != 0)
					}
					m.fl[fCF], m.fl[fOF] = cf, of
					m.flT[fCF], m.flT[fOF] = ft, ft
					m.wr(&in.args[1], w, r, rt)
				}
				return nil
			}
		}
	}

	// BT off, base: CF = bit off of base. With a register offset and a
	// memory base the offset also selects the word (signed, in units of the
	// operand size): an address, so a secret offset is an error. ZF is
	// unchanged; the other flags are undefined (the model leaves them).
	for _, w := range []int{2, 4, 8} {
		sf := string("WLQ"[map[int]int{2: 0, 4: 1, 8: 2}[w]])
		w := w
		nb := int64(8 * w)
		ops["BT"+sf] = func(in *inst) error {
			if err := wantArgs(in, 2); err != nil {
				return err
			}
			off, base := in.args[0], in.args[1]
			if !(isImm(off) || isGP(off)) || !gpRM(base) {
				return fmt.Errorf("operands")
			}
			in.w = w
			in.exec = func(m *Machine, in *inst) {
				o, b := &in.args[0], &in.args[1]
				var bit int64
				var ot uint8
				if o.kind == kImm {
					bit = o.imm & (nb - 1)
				} else {
					v, t := m.rd(o, w)
					ot = t
					// The offset as a signed w-byte value.
					bit = int64(v<<(64-uint(nb))) >> (64 - uint(nb))
				}
				var x uint64
				var xt uint8
				if b.kind == kMem {
					a := m.addr(b)
					if o.kind != kImm {
						if ot != 0 {
							m.failf("BT with a secret bit offset selects a secret address")
						}
						a += uint64(bit>>uint(bits.TrailingZeros64(uint64(nb)))) * uint64(w)
					}
					bit &= nb - 1
					x, xt = m.loadN(a, w)
				} else {
					bit &= nb - 1
					x, xt = m.rd(b, w)
				}
				cf := x>>uint(bit)&1 != 0
				t := xt>>(bit/8)&1 != 0 || ot != 0
				m.fl[fCF], m.flT[fCF] = cf, t
			}
			return nil
		}
	}
}
