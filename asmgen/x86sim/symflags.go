package x86sim

import (
	"math/big"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// The symbolic semantics of carry chains, wide products and conditional
// moves (gp.go): Poly1305's scalar and vector arithmetic runs through them.
// A flag computed from variables is a word too: CF of a sum is bit w of the
// sum taken one bit wider, ZF the equality of the result with zero, SF its
// top bit; OF and PF are left unknown (nil), and reading an unknown flag is
// refused. A branch on a flag that is not a constant is refused as before;
// a conditional move on one selects with masks.

// mulWide is the 2w-bit product of two w-bit words, an atom (its arguments
// in canonical order) unless both are constants.
func mulWide(ctx *sym.Ctx, a, b *sym.Word) *sym.Word {
	w := a.Width()
	if x, ok := a.Value(); ok {
		if y, ok := b.Value(); ok {
			return sym.ConstBig(2*w, new(big.Int).Mul(x, y))
		}
	}
	if a.Key() > b.Key() {
		a, b = b, a
	}
	return ctx.Apply("mul", 2*w, func(v []*big.Int) *big.Int { return new(big.Int).Mul(v[0], v[1]) }, a, b)
}

// setArith sets the flags of a w-bit sum taken one bit wider (wide) whose
// low w bits are r: CF is bit w (inverted for a subtraction), ZF and SF from
// r.
func (m *symMachine) setArith(r, wide *sym.Word, sub bool) {
	w := r.Width()
	m.fl = [nFlags]*sym.Word{}
	cf := wide.Extract(w, 1)
	if sub {
		cf = sym.Not(cf)
	}
	m.fl[fCF] = cf
	m.setZS(r)
}

func (m *symMachine) setZS(r *sym.Word) {
	m.fl[fZF] = eq8(m.ctx, r, sym.Zero(r.Width())).Extract(0, 1)
	m.fl[fSF] = r.Extract(r.Width()-1, 1)
}

// knownFlag reports whether flag f is a constant.
func (m *symMachine) knownFlag(f int) bool {
	if m.fl[f] == nil {
		return false
	}
	_, ok := m.fl[f].Uint64()
	return ok
}

// flag returns flag f, refusing an unknown one.
func (m *symMachine) flag(f int) *sym.Word {
	if m.fl[f] == nil {
		m.failf("reads an unknown flag")
	}
	return m.fl[f]
}

// condition is the 1-bit value of a CMOV condition (by its suffix).
func (m *symMachine) condition(cc string) *sym.Word {
	switch cc {
	case "EQ":
		return m.flag(fZF)
	case "NE":
		return sym.Not(m.flag(fZF))
	case "CS", "LO":
		return m.flag(fCF)
	case "CC", "HS":
		return sym.Not(m.flag(fCF))
	case "HI":
		return m.ctx.And(sym.Not(m.flag(fCF)), sym.Not(m.flag(fZF)))
	case "LS":
		return m.ctx.Or(m.flag(fCF), m.flag(fZF))
	case "LT":
		return sym.Xor(m.flag(fSF), m.flag(fOF))
	case "GE":
		return sym.Not(sym.Xor(m.flag(fSF), m.flag(fOF)))
	case "LE":
		return m.ctx.Or(m.flag(fZF), sym.Xor(m.flag(fSF), m.flag(fOF)))
	case "GT":
		return m.ctx.And(sym.Not(m.flag(fZF)), sym.Not(sym.Xor(m.flag(fSF), m.flag(fOF))))
	case "MI":
		return m.flag(fSF)
	case "PL":
		return sym.Not(m.flag(fSF))
	}
	m.failf("condition %s", cc)
	return nil
}

func init() {
	// Sums and differences with the carry in and out: ADD, ADC, SUB, SBB,
	// CMP (flags only). With constant operands the concrete model runs
	// them; the symbolic ADD, SUB, XOR of symops.go leave the flags unknown,
	// these compute CF, ZF and SF.
	for _, a := range []struct {
		op        string
		n         int
		sub, cin  bool
		writeBack bool
	}{
		{"ADDQ", 8, false, false, true}, {"ADDL", 4, false, false, true},
		{"ADCQ", 8, false, true, true}, {"ADCL", 4, false, true, true},
		{"SUBQ", 8, true, false, true}, {"SUBL", 4, true, false, true},
		{"SBBQ", 8, true, true, true}, {"SBBL", 4, true, true, true},
		{"CMPQ", 8, true, false, false},
	} {
		a := a
		symOps[a.op] = func(m *symMachine, in *inst) {
			if m.constGP(in) && (!a.cin || m.knownFlag(fCF)) {
				m.concreteGP(in)
				return
			}
			// Go order: op src, dst (dst = dst op src); CMPQ a, b compares
			// a with b (flags of a - b).
			x, y := m.read(&in.args[1], a.n), m.read(&in.args[0], a.n)
			if a.op == "CMPQ" {
				x, y = y, x
			}
			w := 8 * a.n
			cin := sym.Zero(1)
			if a.cin {
				cin = m.flag(fCF)
			}
			var r, wide *sym.Word
			if a.sub {
				// x - y - b = x + ^y + (1 - b): carry out 1 iff no borrow.
				nb := sym.Not(cin)
				wide = m.ctx.Add(x.ZeroExtend(w+1), sym.Not(y).ZeroExtend(w+1), nb.ZeroExtend(w+1))
				r = m.ctx.Add(x, sym.Not(y), nb.ZeroExtend(w))
			} else {
				wide = m.ctx.Add(x.ZeroExtend(w+1), y.ZeroExtend(w+1), cin.ZeroExtend(w+1))
				r = m.ctx.Add(x, y, cin.ZeroExtend(w))
			}
			if a.writeBack {
				m.writeGP(&in.args[1], r)
			}
			m.setArith(r, wide, a.sub)
		}
	}
	// ADCXQ src, dst and ADOXQ src, dst: dst += src + CF (ADCX) or OF
	// (ADOX), the carry out to that flag alone; every other flag is kept,
	// so the two chains of a multiply row run side by side.
	for _, a := range []struct {
		op   string
		flag int
	}{{"ADCXQ", fCF}, {"ADOXQ", fOF}} {
		a := a
		symOps[a.op] = func(m *symMachine, in *inst) {
			x, y := m.read(&in.args[1], 8), m.read(&in.args[0], 8)
			cin := m.flag(a.flag)
			wide := m.ctx.Add(x.ZeroExtend(65), y.ZeroExtend(65), cin.ZeroExtend(65))
			m.writeGP(&in.args[1], m.ctx.Add(x, y, cin.ZeroExtend(64)))
			m.fl[a.flag] = wide.Extract(64, 1)
		}
	}
	// TESTQ a, b: ZF and SF of a & b, CF and OF clear.
	symOps["TESTQ"] = func(m *symMachine, in *inst) {
		if m.constGP(in) {
			m.concreteGP(in)
			return
		}
		r := m.ctx.And(m.read(&in.args[0], 8), m.read(&in.args[1], 8))
		m.fl = [nFlags]*sym.Word{}
		m.fl[fCF], m.fl[fOF] = sym.Zero(1), sym.Zero(1)
		m.setZS(r)
	}
	// MULQ src: DX:AX = AX * src, unsigned; MULXQ src, lo, hi: hi:lo = DX *
	// src, flags untouched.
	symOps["MULQ"] = func(m *symMachine, in *inst) {
		p := mulWide(m.ctx, m.gp[rAX], m.read(&in.args[0], 8))
		m.gp[rAX], m.gp[rDX] = p.Extract(0, 64), p.Extract(64, 64)
		m.fl = [nFlags]*sym.Word{}
	}
	symOps["MULXQ"] = func(m *symMachine, in *inst) {
		p := mulWide(m.ctx, m.gp[rDX], m.read(&in.args[0], 8))
		lo, hi := p.Extract(0, 64), p.Extract(64, 64)
		m.writeGP(&in.args[1], lo)
		m.writeGP(&in.args[2], hi)
	}
	// IMULQ src, dst: the low 64 bits of the product (the same signed or
	// not).
	symOps["IMULQ"] = func(m *symMachine, in *inst) {
		d := &in.args[1]
		m.writeGP(d, mulWide(m.ctx, m.read(&in.args[0], 8), m.read(d, 8)).Extract(0, 64))
		m.fl = [nFlags]*sym.Word{}
	}
	// CMOVQcc src, dst.
	for _, cc := range []string{"EQ", "NE", "CS", "LO", "CC", "HS", "HI", "LS", "LT", "GE", "LE", "GT", "MI", "PL"} {
		cc := cc
		symOps["CMOVQ"+cc] = func(m *symMachine, in *inst) {
			c := m.condition(cc)
			src, dst := m.read(&in.args[0], 8), m.read(&in.args[1], 8)
			if v, ok := c.Uint64(); ok {
				if v == 1 {
					m.writeGP(&in.args[1], src)
				} else {
					m.writeGP(&in.args[1], dst)
				}
				return
			}
			mask := repeat(c, 64)
			m.writeGP(&in.args[1], sym.Xor(dst, m.ctx.And(mask, sym.Xor(src, dst))))
		}
	}
	// XORB and XORW, symbolic.
	for _, x := range []struct {
		op string
		n  int
	}{{"XORB", 1}, {"XORW", 2}} {
		n := x.n
		symOps[x.op] = func(m *symMachine, in *inst) {
			if m.constGP(in) {
				m.concreteGP(in)
				return
			}
			r := sym.Xor(m.read(&in.args[1], n), m.read(&in.args[0], n))
			m.writeGP(&in.args[1], r)
			m.fl = [nFlags]*sym.Word{}
			m.fl[fCF], m.fl[fOF] = sym.Zero(1), sym.Zero(1)
			m.setZS(r)
		}
	}
	// VPEXTRQ $imm, x, r/m64.
	symOps["VPEXTRQ"] = func(m *symMachine, in *inst) {
		q := m.read(&in.args[1], 16).Lanes(64)[in.args[0].imm&1]
		m.writeGP(&in.args[2], q)
	}
	// VPMADD52LUQ and VPMADD52HUQ: per qword, dst + the low or high 52
	// bits of the 104-bit product of the sources' low 52 bits.
	for _, op := range []string{"VPMADD52LUQ", "VPMADD52HUQ"} {
		lo := 0
		if op == "VPMADD52HUQ" {
			lo = 52
		}
		symOps[op] = func(m *symMachine, in *inst) {
			_, s2, s1, d := vops(in)
			as, bs := m.read(s1, in.w).Lanes(64), m.readB(in, s2, in.w, 8).Lanes(64)
			ds := m.read(d, in.w).Lanes(64)
			for i := range ds {
				p := mulWide(m.ctx, as[i].Extract(0, 52), bs[i].Extract(0, 52))
				ds[i] = m.ctx.Add(ds[i], p.Extract(lo, 52).ZeroExtend(64))
			}
			m.vwrite(in, d, sym.Concat(ds...), 8)
		}
	}
	// VALIGND/VALIGNQ $imm, s2, s1, [K,] dst: elements imm.. of s1:s2 (s1
	// high), imm modulo the element count.
	for _, op := range []string{"VALIGND", "VALIGNQ"} {
		es := 4
		if op == "VALIGNQ" {
			es = 8
		}
		symOps[op] = func(m *symMachine, in *inst) {
			imm, s2, s1, d := vops(in)
			lanes := append(m.readB(in, s2, in.w, es).Lanes(8*es), m.read(s1, in.w).Lanes(8*es)...)
			ne := in.w / es
			k := imm & (ne - 1)
			m.vwrite(in, d, sym.Concat(lanes[k:k+ne]...), es)
		}
	}
	// VPMULUDQ: per qword, the product of the low dwords.
	symOps["VPMULUDQ"] = func(m *symMachine, in *inst) {
		_, s2, s1, d := vops(in)
		r := zipLanes(m.read(s1, in.w), m.readB(in, s2, in.w, 8), 64, func(x, y *sym.Word) *sym.Word {
			return mulWide(m.ctx, x.Extract(0, 32), y.Extract(0, 32))
		})
		m.vwrite(in, d, r, 8)
	}
}
