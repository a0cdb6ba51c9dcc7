package x86sim

import (
	"fmt"
	"math/bits"
	"strings"
)

// A binder checks an instruction's operand form and sets its exec function.
type binder func(in *inst) error

// ops maps each modeled mnemonic to its binder. Files of the package register
// theirs in init.
var ops = map[string]binder{}

func bind(in *inst) error {
	b := ops[in.op]
	if b == nil {
		return fmt.Errorf("opcode %s is not modeled", in.op)
	}
	if err := b(in); err != nil {
		return fmt.Errorf("%s: %v", in.form(), err)
	}
	return nil
}

// form is the instruction's mnemonic with its operand kinds, e.g.
// "ADDQ imm, r64" or "VPXOR m256, y, y".
func (in *inst) form() string {
	var b strings.Builder
	b.WriteString(in.op)
	if in.zeroing {
		b.WriteString(".Z")
	}
	if in.bcst {
		b.WriteString(".BCST")
	}
	if in.target >= 0 || isBranch(in.op) {
		b.WriteString(" label")
		return b.String()
	}
	for i, a := range in.args {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		switch a.kind {
		case kImm:
			b.WriteString("imm")
		case kMem:
			b.WriteString("m")
		case kReg:
			switch a.cls {
			case cGP:
				if a.size == 1 {
					b.WriteString("r8")
				} else {
					b.WriteString("r")
				}
			case cVec:
				b.WriteByte("xyz"[map[int]int{16: 0, 32: 1, 64: 2}[a.size]])
			case cK:
				b.WriteString("k")
			}
		}
	}
	return b.String()
}

// Forms returns every instruction form of p's functions, sorted.
func (p *Program) Forms() []string {
	seen := map[string]bool{}
	for _, fn := range p.funcs {
		for i := range fn.insts {
			seen[fn.insts[i].form()] = true
		}
	}
	var out []string
	for f := range seen {
		out = append(out, f)
	}
	sortStrings(out)
	return out
}

func reg1(o operand, cls regClass) bool { return o.kind == kReg && o.cls == cls }

func wantArgs(in *inst, n int) error {
	if len(in.args) != n {
		return fmt.Errorf("want %d operands, have %d", n, len(in.args))
	}
	return nil
}

// gpWidth is the operand width of a GP mnemonic from its size suffix.
func gpWidth(op string) int {
	switch op[len(op)-1] {
	case 'Q':
		return 8
	case 'L':
		return 4
	case 'W':
		return 2
	case 'B':
		return 1
	}
	return 0
}

func wmask(w int) uint64 {
	if w == 8 {
		return ^uint64(0)
	}
	return 1<<(8*w) - 1
}

func tmask(w int) uint8 { return uint8(1<<w - 1) }

// upward is the taint of a carry chain: every byte at or above the lowest
// secret byte.
func upward(t uint8, w int) uint8 {
	return (t | -t) & tmask(w)
}

// rd reads a GP, immediate or memory operand of width w.
func (m *Machine) rd(o *operand, w int) (uint64, uint8) {
	switch o.kind {
	case kReg:
		return m.gp[o.reg] & wmask(w), m.gpT[o.reg] & tmask(w)
	case kImm:
		return uint64(o.imm) & wmask(w), 0
	case kMem:
		return m.loadN(m.addr(o), w)
	}
	m.failf("bad operand")
	return 0, 0
}

// wr writes a GP or memory operand of width w: 32-bit register writes zero the
// upper half, 8- and 16-bit ones keep it.
func (m *Machine) wr(o *operand, w int, v uint64, t uint8) {
	switch o.kind {
	case kReg:
		r := o.reg
		switch w {
		case 8:
			m.gp[r], m.gpT[r] = v, t
		case 4:
			m.gp[r], m.gpT[r] = v&0xffffffff, t&0xf
		default:
			mk := wmask(w)
			m.gp[r] = m.gp[r]&^mk | v&mk
			m.gpT[r] = m.gpT[r]&^tmask(w) | t&tmask(w)
		}
	case kMem:
		m.storeN(m.addr(o), w, v&wmask(w), t&tmask(w))
	default:
		m.failf("bad destination")
	}
}

func (m *Machine) setSZP(v uint64, w int, t bool) {
	v &= wmask(w)
	m.fl[fZF] = v == 0
	m.fl[fSF] = v>>(8*w-1)&1 != 0
	m.fl[fPF] = bits.OnesCount8(uint8(v))%2 == 0
	m.flT[fZF], m.flT[fSF], m.flT[fPF] = t, t, t
}

func (m *Machine) setCO(cf, of, t bool) {
	m.fl[fCF], m.fl[fOF] = cf, of
	m.flT[fCF], m.flT[fOF] = t, t
}

// Condition codes: index, Go suffixes, the flags each reads.
var condNames = [][]string{
	{"EQ", "E", "Z"}, {"NE", "NZ"}, {"CS", "LO", "B", "C"}, {"CC", "HS", "AE", "NC"},
	{"HI", "A"}, {"LS", "BE"}, {"LT", "L"}, {"GE"}, {"GT", "G"}, {"LE"},
	{"MI", "S"}, {"PL", "NS"}, {"OS", "O"}, {"OC", "NO"}, {"PS", "P"}, {"PC", "NP"},
}

var condFlags = [][]int{
	{fZF}, {fZF}, {fCF}, {fCF}, {fCF, fZF}, {fCF, fZF}, {fSF, fOF}, {fSF, fOF},
	{fZF, fSF, fOF}, {fZF, fSF, fOF}, {fSF}, {fSF}, {fOF}, {fOF}, {fPF}, {fPF},
}

func condOf(s string) int {
	for i, ns := range condNames {
		for _, n := range ns {
			if n == s {
				return i
			}
		}
	}
	return -1
}

// cond evaluates condition c and reports whether any flag it reads is secret.
func (m *Machine) cond(c int) (bool, bool) {
	f := &m.fl
	var v bool
	switch c {
	case 0:
		v = f[fZF]
	case 1:
		v = !f[fZF]
	case 2:
		v = f[fCF]
	case 3:
		v = !f[fCF]
	case 4:
		v = !f[fCF] && !f[fZF]
	case 5:
		v = f[fCF] || f[fZF]
	case 6:
		v = f[fSF] != f[fOF]
	case 7:
		v = f[fSF] == f[fOF]
	case 8:
		v = !f[fZF] && f[fSF] == f[fOF]
	case 9:
		v = f[fZF] || f[fSF] != f[fOF]
	case 10:
		v = f[fSF]
	case 11:
		v = !f[fSF]
	case 12:
		v = f[fOF]
	case 13:
		v = !f[fOF]
	case 14:
		v = f[fPF]
	case 15:
		v = !f[fPF]
	}
	t := false
	for _, fl := range condFlags[c] {
		t = t || m.flT[fl]
	}
	return v, t
}

func init() {
	ops["JMP"] = func(in *inst) error {
		in.exec = func(m *Machine, in *inst) { m.jump() }
		return nil
	}
	for i, ns := range condNames {
		c := i
		for _, n := range ns {
			ops["J"+n] = func(in *inst) error {
				in.cond = c
				in.exec = func(m *Machine, in *inst) {
					v, t := m.cond(in.cond)
					if t {
						m.failf("conditional branch on a secret flag")
					}
					if v {
						m.jump()
					}
				}
				return nil
			}
			ops["SET"+n] = func(in *inst) error {
				if err := wantArgs(in, 1); err != nil {
					return err
				}
				in.cond = c
				in.exec = func(m *Machine, in *inst) {
					v, t := m.cond(in.cond)
					var b uint64
					if v {
						b = 1
					}
					m.wr(&in.args[0], 1, b, boolT(t, 1))
				}
				return nil
			}
			for _, w := range "QLW" {
				op := "CMOV" + string(w) + n
				width := gpWidth(op[:5])
				ops[op] = func(in *inst) error {
					if err := wantArgs(in, 2); err != nil {
						return err
					}
					if !reg1(in.args[1], cGP) {
						return fmt.Errorf("destination must be a register")
					}
					in.cond, in.w = c, width
					in.exec = func(m *Machine, in *inst) {
						v, t := m.cond(in.cond)
						s, st := m.rd(&in.args[0], in.w)
						d, dt := m.rd(&in.args[1], in.w)
						r, rt := d, dt
						if v {
							r = s
						}
						if t {
							rt = tmask(in.w)
						} else if v {
							rt = st
						}
						m.wr(&in.args[1], in.w, r, rt)
					}
					return nil
				}
			}
		}
	}
	ops["RET"] = func(in *inst) error { return wantArgs(in, 0) }

	for _, op := range []string{"MOVQ", "MOVL", "MOVW", "MOVB"} {
		w := gpWidth(op)
		ops[op] = gpMov(w)
	}
	ops["MOVBQZX"] = movzx(1, 8)
	ops["MOVWQZX"] = movzx(2, 8)
	ops["MOVBLZX"] = movzx(1, 4)
	ops["MOVWLZX"] = movzx(2, 4)
	ops["MOVLQZX"] = movzx(4, 8)
	ops["LEAQ"] = lea(8)
	ops["LEAL"] = lea(4)
	for _, w := range "QLWB" {
		s := string(w)
		wd := gpWidth(s)
		ops["ADD"+s] = arith(wd, opAdd)
		ops["ADC"+s] = arith(wd, opAdc)
		ops["SUB"+s] = arith(wd, opSub)
		ops["SBB"+s] = arith(wd, opSbb)
		ops["CMP"+s] = arith(wd, opCmp)
		ops["AND"+s] = arith(wd, opAnd)
		ops["OR"+s] = arith(wd, opOr)
		ops["XOR"+s] = arith(wd, opXor)
		ops["TEST"+s] = arith(wd, opTest)
		ops["NEG"+s] = unary(wd, opNeg)
		ops["NOT"+s] = unary(wd, opNot)
		ops["INC"+s] = unary(wd, opInc)
		ops["DEC"+s] = unary(wd, opDec)
		ops["SHL"+s] = shift(wd, opShl)
		ops["SHR"+s] = shift(wd, opShr)
		ops["SAR"+s] = shift(wd, opSar)
	}
	ops["ADCXQ"] = adx(8, fCF)
	ops["ADOXQ"] = adx(8, fOF)
	ops["ADCXL"] = adx(4, fCF)
	ops["ADOXL"] = adx(4, fOF)
	ops["MULXQ"] = mulx
	ops["MULQ"] = mulq
	ops["IMULQ"] = imul2(8)
	ops["BSWAPQ"] = bswap(8)
	ops["BSWAPL"] = bswap(4)
	ops["DIVQ"] = varTime
	ops["IDIVQ"] = varTime
}

func boolT(t bool, mask uint8) uint8 {
	if t {
		return mask
	}
	return 0
}

func gpMov(w int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		for _, a := range in.args {
			if a.kind == kReg && a.cls != cGP {
				return bindVecMove(in)
			}
		}
		if in.args[1].kind == kImm {
			return fmt.Errorf("immediate destination")
		}
		if in.args[0].kind == kMem && in.args[1].kind == kMem {
			return fmt.Errorf("memory to memory")
		}
		in.w = w
		in.exec = func(m *Machine, in *inst) {
			v, t := m.rd(&in.args[0], in.w)
			m.wr(&in.args[1], in.w, v, t)
		}
		if w == 8 {
			src, dst := in.args[0], in.args[1]
			switch {
			case src.kind == kReg && dst.kind == kReg:
				s, d := src.reg, dst.reg
				in.exec = func(m *Machine, in *inst) { m.gp[d], m.gpT[d] = m.gp[s], m.gpT[s] }
			case src.kind == kMem && dst.kind == kReg:
				d := dst.reg
				in.exec = func(m *Machine, in *inst) { m.gp[d], m.gpT[d] = m.loadN(m.addr(&in.args[0]), 8) }
			case src.kind == kReg && dst.kind == kMem:
				s := src.reg
				in.exec = func(m *Machine, in *inst) { m.storeN(m.addr(&in.args[1]), 8, m.gp[s], m.gpT[s]) }
			}
		}
		return nil
	}
}

// bindVecMove is set by the vector files: MOVQ/MOVL between general and
// vector registers.
var bindVecMove = func(in *inst) error { return fmt.Errorf("vector form not modeled") }

func movzx(from, to int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		if !reg1(in.args[1], cGP) || in.args[0].kind == kImm {
			return fmt.Errorf("operands")
		}
		in.w = from
		in.exec = func(m *Machine, in *inst) {
			v, t := m.rd(&in.args[0], in.w)
			m.wr(&in.args[1], to, v, t)
		}
		return nil
	}
}

func lea(w int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		if in.args[0].kind != kMem || !reg1(in.args[1], cGP) {
			return fmt.Errorf("operands")
		}
		in.w = w
		in.exec = func(m *Machine, in *inst) {
			o := &in.args[0]
			var a uint64
			var t uint8
			switch {
			case o.sym != nil || o.fp:
				a = m.addr(o)
			default:
				a = uint64(o.disp)
				if o.base >= 0 {
					a += m.gp[o.base]
					t |= m.gpT[o.base]
				}
				if o.index >= 0 {
					a += m.gp[o.index] * uint64(o.scale)
					t |= m.gpT[o.index]
				}
			}
			if t != 0 {
				t = 0xff
			}
			m.wr(&in.args[1], in.w, a, t)
		}
		return nil
	}
}

const (
	opAdd = iota
	opAdc
	opSub
	opSbb
	opCmp
	opAnd
	opOr
	opXor
	opTest
	opNeg
	opNot
	opInc
	opDec
	opShl
	opShr
	opSar
)

func arith(w, op int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		a, b := in.args[0], in.args[1]
		if a.kind == kMem && b.kind == kMem {
			return fmt.Errorf("memory to memory")
		}
		if op != opCmp && b.kind == kImm {
			return fmt.Errorf("immediate destination")
		}
		for _, x := range in.args {
			if x.kind == kReg && x.cls != cGP {
				return fmt.Errorf("non-GP register")
			}
		}
		in.w = w
		// Zero idioms: XOR r, r and SUB r, r give 0 whatever r holds.
		zero := (op == opXor || op == opSub) && a.kind == kReg && b.kind == kReg && a.reg == b.reg
		in.exec = func(m *Machine, in *inst) {
			w := in.w
			var x, y uint64
			var xt, yt uint8
			if op == opCmp || op == opTest {
				x, xt = m.rd(&in.args[0], w)
				y, yt = m.rd(&in.args[1], w)
			} else {
				// Go order: OP src, dst computes dst = dst OP src.
				x, xt = m.rd(&in.args[1], w)
				y, yt = m.rd(&in.args[0], w)
			}
			if zero {
				xt, yt = 0, 0
			}
			mk := wmask(w)
			sign := uint64(1) << (8*w - 1)
			var r uint64
			var rt uint8
			var cf, of bool
			var ft bool
			switch op {
			case opAdd, opAdc:
				c := uint64(0)
				ct := false
				if op == opAdc {
					if m.fl[fCF] {
						c = 1
					}
					ct = m.flT[fCF]
				}
				r = (x + y + c) & mk
				if w == 8 {
					_, c1 := bits.Add64(x, y, c)
					cf = c1 != 0
				} else {
					cf = x+y+c > mk
				}
				of = (x^r)&(y^r)&sign != 0
				rt = upward(xt|yt|boolT(ct, 1), w)
				ft = xt|yt != 0 || ct
			case opSub, opSbb, opCmp:
				c := uint64(0)
				ct := false
				if op == opSbb {
					if m.fl[fCF] {
						c = 1
					}
					ct = m.flT[fCF]
				}
				r = (x - y - c) & mk
				if w == 8 {
					_, b1 := bits.Sub64(x, y, c)
					cf = b1 != 0
				} else {
					cf = x < y+c
				}
				of = (x^y)&(x^r)&sign != 0
				rt = upward(xt|yt|boolT(ct, 1), w)
				ft = xt|yt != 0 || ct
			case opAnd, opTest:
				r = x & y
				rt = xt | yt
				ft = rt != 0
			case opOr:
				r = x | y
				rt = xt | yt
				ft = rt != 0
			case opXor:
				r = x ^ y
				rt = xt | yt
				ft = rt != 0
			}
			m.setSZP(r, w, ft)
			m.setCO(cf, of, ft)
			if op != opCmp && op != opTest {
				m.wr(&in.args[1], w, r, rt)
			}
		}
		return nil
	}
}

func unary(w, op int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 1); err != nil {
			return err
		}
		if in.args[0].kind == kImm {
			return fmt.Errorf("immediate operand")
		}
		in.w = w
		in.exec = func(m *Machine, in *inst) {
			w := in.w
			x, xt := m.rd(&in.args[0], w)
			mk := wmask(w)
			sign := uint64(1) << (8*w - 1)
			ft := xt != 0
			var r uint64
			switch op {
			case opNeg:
				r = (-x) & mk
				m.setSZP(r, w, ft)
				m.setCO(x != 0, x == sign, ft)
			case opNot:
				r = ^x & mk
			case opInc:
				r = (x + 1) & mk
				m.setSZP(r, w, ft)
				m.fl[fOF], m.flT[fOF] = r == sign, ft
			case opDec:
				r = (x - 1) & mk
				m.setSZP(r, w, ft)
				m.fl[fOF], m.flT[fOF] = x == sign, ft
			}
			m.wr(&in.args[0], w, r, upward(xt, w))
		}
		return nil
	}
}

func shift(w, op int) binder {
	return func(in *inst) error {
		if len(in.args) != 2 {
			return fmt.Errorf("want 2 operands")
		}
		c := in.args[0]
		if !(c.kind == kImm || reg1(c, cGP) && c.reg == rCX) {
			return fmt.Errorf("count must be an immediate or CX")
		}
		if in.args[1].kind == kImm {
			return fmt.Errorf("immediate destination")
		}
		in.w = w
		in.exec = func(m *Machine, in *inst) {
			w := in.w
			cnt, ct := m.rd(&in.args[0], 1)
			if w == 8 {
				cnt &= 63
			} else {
				cnt &= 31
			}
			x, xt := m.rd(&in.args[1], w)
			if cnt == 0 && ct == 0 {
				if w == 4 && in.args[1].kind == kReg {
					// A 32-bit shift by 0 still writes its register:
					// bits 63:32 become zero.
					m.wr(&in.args[1], w, x, xt)
				}
				return
			}
			mk := wmask(w)
			bitsW := uint64(8 * w)
			var r uint64
			var cf bool
			switch op {
			case opShl:
				r = (x << cnt) & mk
				if cnt <= bitsW && cnt > 0 {
					cf = (x>>(bitsW-cnt))&1 != 0
				}
			case opShr:
				r = x >> cnt
				if cnt > 0 {
					cf = (x>>(cnt-1))&1 != 0
				}
			case opSar:
				sx := int64(x << (64 - bitsW))
				sx >>= 64 - bitsW
				r = uint64(sx>>cnt) & mk
				if cnt > 0 {
					cf = (uint64(sx)>>(cnt-1))&1 != 0
				}
			}
			var of bool
			switch op {
			case opShl:
				of = (r>>(bitsW-1)&1 != 0) != cf
			case opShr:
				of = x>>(bitsW-1)&1 != 0
			}
			rt := xt
			if ct != 0 || xt != 0 {
				rt = tmask(w)
			}
			if cnt == 0 {
				// A secret zero count: flags unchanged but secret.
				for i := range m.flT {
					m.flT[i] = true
				}
				m.wr(&in.args[1], w, x, rt)
				return
			}
			ft := rt != 0
			m.setSZP(r, w, ft)
			m.setCO(cf, of, ft)
			m.wr(&in.args[1], w, r, rt)
		}
		return nil
	}
}

// adx is ADCX (flag CF) and ADOX (flag OF): dst += src + flag, only that
// flag written.
func adx(w, flag int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		if !reg1(in.args[1], cGP) || in.args[0].kind == kImm {
			return fmt.Errorf("operands")
		}
		in.w = w
		if w == 8 {
			d := in.args[1].reg
			src := in.args[0]
			in.exec = func(m *Machine, in *inst) {
				var s uint64
				var st uint8
				if src.kind == kReg {
					s, st = m.gp[src.reg], m.gpT[src.reg]
				} else {
					s, st = m.loadN(m.addr(&in.args[0]), 8)
				}
				c := uint64(0)
				if m.fl[flag] {
					c = 1
				}
				r, cc := bits.Add64(m.gp[d], s, c)
				m.fl[flag] = cc != 0
				t := st | m.gpT[d]
				ct := m.flT[flag]
				m.flT[flag] = t != 0 || ct
				if ct {
					t |= 1
				}
				m.gp[d], m.gpT[d] = r, t|-t
			}
			return nil
		}
		in.exec = func(m *Machine, in *inst) {
			w := in.w
			s, st := m.rd(&in.args[0], w)
			d, dt := m.rd(&in.args[1], w)
			c := uint64(0)
			if m.fl[flag] {
				c = 1
			}
			ct := m.flT[flag]
			var r uint64
			var co bool
			if w == 8 {
				var cc uint64
				r, cc = bits.Add64(d, s, c)
				co = cc != 0
			} else {
				r = d + s + c
				co = r > 0xffffffff
				r &= 0xffffffff
			}
			m.fl[flag] = co
			m.flT[flag] = st|dt != 0 || ct
			m.wr(&in.args[1], w, r, upward(st|dt|boolT(ct, 1), w))
		}
		return nil
	}
}

// mulx is MULXQ src, lo, hi: hi:lo = DX * src, no flags.
func mulx(in *inst) error {
	if err := wantArgs(in, 3); err != nil {
		return err
	}
	if !reg1(in.args[1], cGP) || !reg1(in.args[2], cGP) || in.args[0].kind == kImm {
		return fmt.Errorf("operands")
	}
	src, lo, hi := in.args[0], in.args[1].reg, in.args[2].reg
	in.exec = func(m *Machine, in *inst) {
		var s uint64
		var st uint8
		if src.kind == kReg {
			s, st = m.gp[src.reg], m.gpT[src.reg]
		} else {
			s, st = m.loadN(m.addr(&in.args[0]), 8)
		}
		h, l := bits.Mul64(m.gp[rDX], s)
		t := st | m.gpT[rDX]
		if t != 0 {
			t = 0xff
		}
		// Intel: when both destinations are the same register it gets
		// the high half.
		m.gp[lo], m.gpT[lo] = l, t
		m.gp[hi], m.gpT[hi] = h, t
	}
	return nil
}

// mulq is MULQ src: DX:AX = AX * src; CF = OF = (DX != 0); SF, ZF, PF
// undefined (the model sets them from the low half).
func mulq(in *inst) error {
	if err := wantArgs(in, 1); err != nil {
		return err
	}
	if in.args[0].kind == kImm {
		return fmt.Errorf("immediate operand")
	}
	in.exec = func(m *Machine, in *inst) {
		s, st := m.rd(&in.args[0], 8)
		hi, lo := bits.Mul64(m.gp[rAX], s)
		t := st | m.gpT[rAX]
		if t != 0 {
			t = 0xff
		}
		m.gp[rAX], m.gpT[rAX] = lo, t
		m.gp[rDX], m.gpT[rDX] = hi, t
		m.setCO(hi != 0, hi != 0, t != 0)
		m.setSZP(lo, 8, t != 0)
	}
	return nil
}

// imul2 is IMULQ src, dst: dst = dst * src (low half); CF = OF = signed
// overflow.
func imul2(w int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		if !reg1(in.args[1], cGP) || in.args[0].kind == kImm {
			return fmt.Errorf("operands")
		}
		in.exec = func(m *Machine, in *inst) {
			s, st := m.rd(&in.args[0], 8)
			d, dt := m.rd(&in.args[1], 8)
			hi, lo := bits.Mul64(s, d)
			// Signed high half: correct the unsigned product.
			shi := int64(hi)
			if int64(s) < 0 {
				shi -= int64(d)
			}
			if int64(d) < 0 {
				shi -= int64(s)
			}
			ov := !(shi == 0 && int64(lo) >= 0 || shi == -1 && int64(lo) < 0)
			t := st | dt
			if t != 0 {
				t = 0xff
			}
			m.setCO(ov, ov, t != 0)
			m.setSZP(lo, 8, t != 0)
			m.wr(&in.args[1], 8, lo, t)
		}
		return nil
	}
}

func bswap(w int) binder {
	return func(in *inst) error {
		if err := wantArgs(in, 1); err != nil {
			return err
		}
		if !reg1(in.args[0], cGP) {
			return fmt.Errorf("operand must be a register")
		}
		in.exec = func(m *Machine, in *inst) {
			r := in.args[0].reg
			if w == 8 {
				m.gp[r] = bits.ReverseBytes64(m.gp[r])
				m.gpT[r] = bits.Reverse8(m.gpT[r])
			} else {
				m.gp[r] = uint64(bits.ReverseBytes32(uint32(m.gp[r])))
				m.gpT[r] = bits.Reverse8(m.gpT[r]&0xf) >> 4
			}
		}
		return nil
	}
}

// varTime models instructions whose time depends on their operands: any use
// is an error when an operand is secret, and the model does not compute them.
func varTime(in *inst) error {
	in.exec = func(m *Machine, in *inst) {
		m.failf("%s is variable-time; the model does not run it", in.op)
	}
	return nil
}
