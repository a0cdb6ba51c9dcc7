package x86sim

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// The symbolic semantics of AES rounds, carry-less products, the byte and
// lane moves around them, and the general-register instructions that
// prepare counters, tails and lengths. Each mirrors the concrete one in the
// file named beside it; CheckSymbolic compares the two.

// AESRound is one AES encryption round without its round key (ShiftRows,
// SubBytes, MixColumns) of a 128-bit word, an atom of ctx: AESENC computes
// it XORed with the key. Specifications build their rounds with it, so that
// equal states give the same atom in the code and in the specification.
func AESRound(ctx *sym.Ctx, state *sym.Word) *sym.Word {
	return ctx.Apply("aes.round", 128, func(a []*big.Int) *big.Int {
		return aesOnBig(a[0], func(st [16]byte) [16]byte { return mixColumns(subBytes(shiftRows(st), &sbox)) })
	}, state)
}

// AESFinalRound is the last AES round without its key (ShiftRows,
// SubBytes), as AESENCLAST computes it before the XOR.
func AESFinalRound(ctx *sym.Ctx, state *sym.Word) *sym.Word {
	return ctx.Apply("aes.final", 128, func(a []*big.Int) *big.Int {
		return aesOnBig(a[0], func(st [16]byte) [16]byte { return subBytes(shiftRows(st), &sbox) })
	}, state)
}

func aesOnBig(x *big.Int, f func([16]byte) [16]byte) *big.Int {
	var st [16]byte
	b := x.FillBytes(make([]byte, 16))
	for i := range st {
		st[i] = b[15-i]
	}
	st = f(st)
	return leBig(st[:])
}

// clmulWord is the carry-less product of two 64-bit words, 128 bits wide:
// exact (an XOR of shifted copies) when either is a constant, else an atom.
func clmulWord(ctx *sym.Ctx, a, b *sym.Word) *sym.Word {
	if _, ok := a.Value(); ok {
		a, b = b, a
	}
	if c, ok := b.Uint64(); ok {
		r := sym.Zero(128)
		wide := a.ZeroExtend(128)
		for c != 0 {
			i := bits.TrailingZeros64(c)
			r = sym.Xor(r, wide.Shl(i))
			c &= c - 1
		}
		return r
	}
	return ctx.Apply("clmul", 128, func(v []*big.Int) *big.Int {
		hi, lo := clmul64(v[0].Uint64(), v[1].Uint64())
		return new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64), new(big.Int).SetUint64(lo))
	}, a, b)
}

func init() {
	// aes.go: per 128-bit lane, round(s1 lane) ^ s2 lane.
	for op, round := range map[string]func(*sym.Ctx, *sym.Word) *sym.Word{"AESENC": AESRound, "AESENCLAST": AESFinalRound} {
		f := func(m *symMachine, in *inst) {
			_, s2, s1, d := vops(in)
			r := zipLanes(m.read(s1, in.w), m.read(s2, in.w), 128, func(x, k *sym.Word) *sym.Word { return sym.Xor(round(m.ctx, x), k) })
			m.vwrite(in, d, r, 1)
		}
		symOps[op], symOps["V"+op] = f, f
	}
	// clmul.go: per lane, the qword of s1 imm bit 0 selects times the
	// qword of s2 imm bit 4 selects.
	clmul := func(m *symMachine, in *inst) {
		imm, s2, s1, d := vops(in)
		a, b := m.read(s1, in.w).Lanes(64), m.read(s2, in.w).Lanes(64)
		r := make([]*sym.Word, 0, len(a)/2)
		for l := 0; l < len(a); l += 2 {
			r = append(r, clmulWord(m.ctx, a[l+imm&1], b[l+imm>>4&1]))
		}
		m.vwrite(in, d, sym.Concat(r...), 1)
	}
	symOps["PCLMULQDQ"], symOps["VPCLMULQDQ"] = clmul, clmul
	// vec_shift.go: whole-lane byte shifts.
	for _, op := range []string{"PSLLDQ", "PSRLDQ", "VPSLLDQ", "VPSRLDQ"} {
		left := strings.Contains(op, "LL")
		symOps[op] = func(m *symMachine, in *inst) {
			k := 8 * min(int(uint8(in.args[0].imm)), 16)
			src, d := &in.args[1], &in.args[len(in.args)-1]
			r := mapLanes(m.read(src, in.w), 128, func(_ int, l *sym.Word) *sym.Word {
				if left {
					return l.Shl(k)
				}
				return l.Shr(k)
			})
			m.vwrite(in, d, r, 1)
		}
	}
	// vec_logic.go: VPTERNLOGD $imm, s2, s1, dst: bit = imm[dst<<2 | s1<<1 | s2].
	ternlog := func(m *symMachine, in *inst) {
		imm, s2, s1, d := vops(in)
		es := esizeOf(in.op)
		m.vwrite(in, d, ternary(m.ctx, uint8(imm), m.read(d, in.w), m.read(s1, in.w), m.readB(in, s2, in.w, es)), es)
	}
	symOps["VPTERNLOGD"], symOps["VPTERNLOGQ"] = ternlog, ternlog
	// vec_shuf.go: VPERMQ $imm, src, dst within each 256-bit half; VPERMQ
	// table, idx, dst with a constant index.
	symOps["VPERMQ"] = func(m *symMachine, in *inst) {
		if in.args[0].kind == kImm {
			imm := int(uint8(in.args[0].imm))
			x := m.read(&in.args[1], in.w).Lanes(64)
			r := make([]*sym.Word, len(x))
			for h := 0; h < len(x); h += 4 {
				for i := 0; i < 4; i++ {
					r[h+i] = x[h+imm>>(2*i)&3]
				}
			}
			m.vwrite(in, &in.args[2], sym.Concat(r...), 8)
			return
		}
		_, tbl, idx, d := vops(in)
		iv, ok := m.read(idx, in.w).Value()
		if !ok {
			m.failf("permute index is not a constant")
		}
		t := m.readB(in, tbl, in.w, 8).Lanes(64)
		r := make([]*sym.Word, len(t))
		for i := range r {
			r[i] = t[int(new(big.Int).Rsh(iv, uint(64*i)).Uint64())&(len(t)-1)]
		}
		m.vwrite(in, d, sym.Concat(r...), 8)
	}
	// VPINSRQ $imm, r/m64, s1, dst.
	symOps["VPINSRQ"] = func(m *symMachine, in *inst) {
		q := m.read(&in.args[1], 8)
		x := m.read(&in.args[2], 16).Lanes(64)
		x[in.args[0].imm&1] = q
		m.vwrite(in, &in.args[3], sym.Concat(x...), 8)
	}
	// Extracts and inserts of 128- and 256-bit blocks.
	for _, b := range []struct {
		op  string
		blk int
	}{{"VEXTRACTI128", 16}, {"VEXTRACTI32X4", 16}, {"VEXTRACTI64X2", 16}, {"VEXTRACTI32X8", 32}, {"VEXTRACTI64X4", 32}} {
		blk := b.blk
		symOps[b.op] = func(m *symMachine, in *inst) {
			src := m.read(&in.args[1], in.args[1].size)
			n := src.Width() / (8 * blk)
			k := int(in.args[0].imm) & (n - 1)
			m.vwrite(in, &in.args[2], src.Extract(8*blk*k, 8*blk), 1)
		}
	}
	for _, b := range []struct {
		op  string
		blk int
	}{{"VINSERTI128", 16}, {"VINSERTI32X4", 16}, {"VINSERTI64X2", 16}, {"VINSERTI32X8", 32}, {"VINSERTI64X4", 32}} {
		blk := b.blk
		symOps[b.op] = func(m *symMachine, in *inst) {
			n := in.args[3].size
			x := m.read(&in.args[2], n).Lanes(8 * blk)
			x[int(in.args[0].imm)&(len(x)-1)] = m.read(&in.args[1], blk)
			m.vwrite(in, &in.args[3], sym.Concat(x...), 1)
		}
	}
	// Block broadcasts (VEX VBROADCASTI128, and the EVEX forms that take a
	// write mask of their element size).
	for op, es := range map[string]int{"VBROADCASTI128": 1, "VBROADCASTI32X4": 4, "VBROADCASTI64X2": 8} {
		symOps[op] = func(m *symMachine, in *inst) {
			m.vwrite(in, &in.args[1], repeat(m.read(&in.args[0], 16), in.args[1].size/16), es)
		}
	}
	// vec_mov.go: MOVHPS m64, x loads the high qword; MOVHPS x, m64 stores
	// it.
	symOps["MOVHPS"] = func(m *symMachine, in *inst) {
		if in.args[1].kind == kMem {
			m.store(m.addr(&in.args[1]), m.read(&in.args[0], 16).Extract(64, 64))
			return
		}
		x := m.read(&in.args[1], 16)
		m.vwrite(in, &in.args[1], sym.Concat(x.Extract(0, 64), m.read(&in.args[0], 8)), 1)
	}
	// MOVQ and VMOVQ between general registers, memory and the low qword of
	// an xmm register (zeroing the rest of the lane; VMOVQ also above it).
	movq := func(m *symMachine, in *inst) {
		src, dst := &in.args[0], &in.args[1]
		if dst.kind == kReg && dst.cls == cVec {
			m.vwrite(in, dst, m.read(src, 8).ZeroExtend(128), 1)
			return
		}
		m.writeGP(dst, m.read(src, 8))
	}
	symOps["MOVQ"], symOps["VMOVQ"] = movq, movq
	for _, mv := range []struct {
		op   string
		n    int
		zext bool
	}{{"MOVL", 4, false}, {"MOVW", 2, false}, {"MOVB", 1, false}, {"MOVBQZX", 1, true}, {"MOVWQZX", 2, true}, {"MOVBLZX", 1, true}, {"MOVWLZX", 2, true}} {
		mv := mv
		symOps[mv.op] = func(m *symMachine, in *inst) {
			v := m.read(&in.args[0], mv.n)
			if mv.zext {
				v = v.ZeroExtend(64)
			}
			m.writeGP(&in.args[1], v)
		}
	}
	// gp.go, symbolic where an operand is: logic, which clears CF and OF
	// and sets ZF and SF from its result (PF is left unknown), as XORQ r, r
	// starts a pair of ADCX/ADOX chains; with constant register operands the
	// concrete model runs it, flags and all.
	for _, a := range []struct {
		op string
		n  int
		f  func(m *symMachine, a, b *sym.Word) *sym.Word
	}{
		{"XORL", 4, func(_ *symMachine, a, b *sym.Word) *sym.Word { return sym.Xor(a, b) }},
		{"XORQ", 8, func(_ *symMachine, a, b *sym.Word) *sym.Word { return sym.Xor(a, b) }},
		{"ANDL", 4, func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.And(a, b) }},
		{"ANDQ", 8, func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.And(a, b) }},
		{"ORL", 4, func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.Or(a, b) }},
		{"ORQ", 8, func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.Or(a, b) }},
	} {
		a := a
		symOps[a.op] = func(m *symMachine, in *inst) {
			if m.constGP(in) {
				m.concreteGP(in)
				return
			}
			r := a.f(m, m.read(&in.args[1], a.n), m.read(&in.args[0], a.n))
			m.writeGP(&in.args[1], r)
			m.fl = [nFlags]*sym.Word{}
			m.fl[fCF], m.fl[fOF] = sym.Zero(1), sym.Zero(1)
			m.setZS(r)
		}
	}
	// NEG and BSWAP: NEG leaves the flags unknown, BSWAP untouched.
	for _, u := range []struct {
		op      string
		n       int
		f       func(m *symMachine, x *sym.Word) *sym.Word
		noFlags bool
	}{
		{"NEGQ", 8, func(m *symMachine, x *sym.Word) *sym.Word { return m.ctx.Neg(x) }, false},
		{"NEGL", 4, func(m *symMachine, x *sym.Word) *sym.Word { return m.ctx.Neg(x) }, false},
		{"BSWAPQ", 8, func(_ *symMachine, x *sym.Word) *sym.Word { return reverseBytes(x) }, true},
		{"BSWAPL", 4, func(_ *symMachine, x *sym.Word) *sym.Word { return reverseBytes(x) }, true},
	} {
		u := u
		symOps[u.op] = func(m *symMachine, in *inst) {
			if m.constGP(in) {
				m.concreteGP(in)
				return
			}
			m.writeGP(&in.args[0], u.f(m, m.read(&in.args[0], u.n)))
			if !u.noFlags {
				m.fl = [nFlags]*sym.Word{}
			}
		}
	}
	// Shifts by an immediate: CF is the last bit shifted out, ZF and SF the
	// result's; OF is defined for a count of 1 only; a zero count changes
	// no flag.
	for _, sh := range []struct {
		op   string
		n    int
		left bool
	}{{"SHLQ", 8, true}, {"SHRQ", 8, false}, {"SHLL", 4, true}, {"SHRL", 4, false}} {
		sh := sh
		symOps[sh.op] = func(m *symMachine, in *inst) {
			if m.constGP(in) {
				m.concreteGP(in)
				return
			}
			if in.args[0].kind != kImm {
				m.failf("shift count not an immediate")
			}
			w := 8 * sh.n
			k := int(in.args[0].imm) & (w - 1)
			x := m.read(&in.args[1], sh.n)
			r, out := x.Shr(k), x.Extract(max(k-1, 0), 1)
			if sh.left {
				r, out = x.Shl(k), x.Extract(w-max(k, 1), 1)
			}
			m.writeGP(&in.args[1], r)
			if k == 0 {
				return
			}
			m.fl = [nFlags]*sym.Word{}
			m.fl[fCF] = out
			m.setZS(r)
		}
	}
	// Rotates by an immediate change CF and OF only (left unknown here: no
	// generated code reads them after a rotate).
	for _, ro := range []struct {
		op   string
		n    int
		left bool
	}{{"ROLQ", 8, true}, {"RORQ", 8, false}, {"ROLL", 4, true}, {"RORL", 4, false}} {
		ro := ro
		symOps[ro.op] = func(m *symMachine, in *inst) {
			if m.constGP(in) {
				m.concreteGP(in)
				return
			}
			if in.args[0].kind != kImm {
				m.failf("rotate count not an immediate")
			}
			w := 8 * ro.n
			k := int(in.args[0].imm) & (w - 1)
			if !ro.left {
				k = (w - k) % w
			}
			m.writeGP(&in.args[1], m.read(&in.args[1], ro.n).RotateLeft(k))
			if int(in.args[0].imm)&(w-1) != 0 {
				m.fl[fCF], m.fl[fOF] = nil, nil
			}
		}
	}
	// LEAQ and LEAL: the address as a sum, symbolic when a register is.
	for _, op := range []string{"LEAQ", "LEAL"} {
		n := 8
		if op == "LEAL" {
			n = 4
		}
		symOps[op] = func(m *symMachine, in *inst) {
			o := &in.args[0]
			if o.sym != nil || o.fp {
				m.writeGP(&in.args[1], sym.Const(64, m.addr(o)).Extract(0, 8*n))
				return
			}
			terms := []*sym.Word{sym.Const(64, uint64(o.disp))}
			if o.base >= 0 {
				terms = append(terms, m.gp[o.base])
			}
			if o.index >= 0 {
				terms = append(terms, m.gp[o.index].Shl(bits.TrailingZeros8(o.scale)))
			}
			m.writeGP(&in.args[1], m.ctx.Low(m.ctx.Add(terms...), 8*n))
		}
	}
	// Opmask registers (vec_mask.go): moves from general registers, XOR.
	for _, k := range []struct {
		op string
		n  int
	}{{"KMOVQ", 8}, {"KMOVD", 4}, {"KMOVW", 2}, {"KMOVB", 1}} {
		n := k.n
		symOps[k.op] = func(m *symMachine, in *inst) {
			v := m.read(&in.args[0], n)
			switch d := &in.args[1]; {
			case d.kind == kReg && d.cls == cK:
				m.k[d.reg] = v.ZeroExtend(64)
			case d.kind == kReg && d.cls == cGP:
				m.gp[d.reg] = v.ZeroExtend(64)
			default:
				m.store(m.addr(d), v)
			}
		}
	}
	for _, k := range []struct {
		op string
		n  int
	}{{"KXORQ", 8}, {"KXORD", 4}, {"KXORW", 2}, {"KXORB", 1}} {
		n := k.n
		symOps[k.op] = func(m *symMachine, in *inst) {
			m.k[in.args[2].reg] = sym.Xor(m.read(&in.args[0], n), m.read(&in.args[1], n)).ZeroExtend(64)
		}
	}
	for _, op := range []string{"BZHIQ", "BZHIL", "CMPB", "CMPW", "TESTL", "TESTB"} {
		gpConcreteOps[op] = true
	}
	// The tag comparison (vec_int.go, vec_mask.go, gp.go): byte equality as
	// atoms, PMOVMSKB's sign bits, CMPL's zero flag, SETEQ and SETNE.
	eqBytes := func(m *symMachine, a, b *sym.Word) []*sym.Word {
		as, bs := a.Bytes(), b.Bytes()
		for i := range as {
			as[i] = eq8(m.ctx, as[i], bs[i])
		}
		return as
	}
	pcmpeqb := func(m *symMachine, in *inst) {
		_, s2, s1, d := vops(in)
		eq := eqBytes(m, m.read(s1, in.w), m.read(s2, in.w))
		if d.kind == kReg && d.cls == cK {
			for i := range eq {
				eq[i] = eq[i].Extract(0, 1)
			}
			m.k[d.reg] = sym.Concat(eq...).ZeroExtend(64)
			return
		}
		m.vwrite(in, d, sym.Concat(eq...), 1)
	}
	symOps["PCMPEQB"], symOps["VPCMPEQB"] = pcmpeqb, pcmpeqb
	// VPCMPEQD and VPCMPEQQ (gatherDual's masks): per lane, the
	// equality's byte, copied across the lane or its bit 0 into an opmask.
	for _, c := range []struct {
		op    string
		esize int
	}{{"VPCMPEQD", 4}, {"VPCMPEQQ", 8}} {
		symOps[c.op] = func(m *symMachine, in *inst) {
			_, s2, s1, d := vops(in)
			a, b := m.read(s1, in.w).Lanes(8*c.esize), m.read(s2, in.w).Lanes(8*c.esize)
			for i := range a {
				e := eq8(m.ctx, a[i], b[i])
				if d.kind == kReg && d.cls == cK {
					a[i] = e.Extract(0, 1)
					continue
				}
				es := make([]*sym.Word, c.esize)
				for j := range es {
					es[j] = e
				}
				a[i] = sym.Concat(es...)
			}
			if d.kind == kReg && d.cls == cK {
				m.k[d.reg] = sym.Concat(a...).ZeroExtend(64)
				return
			}
			m.vwrite(in, d, sym.Concat(a...), c.esize)
		}
	}
	// PCMPEQL (SSE2, gather5ADX's masks): a dword lane all ones where the
	// lanes are equal, as four copies of the equality's byte.
	symOps["PCMPEQL"] = func(m *symMachine, in *inst) {
		a, b := m.read(&in.args[0], 16).Lanes(32), m.read(&in.args[1], 16).Lanes(32)
		for i := range a {
			e := eq8(m.ctx, a[i], b[i])
			a[i] = sym.Concat(e, e, e, e)
		}
		m.vwrite(in, &in.args[1], sym.Concat(a...), 4)
	}
	pmovmskb := func(m *symMachine, in *inst) {
		x := m.read(&in.args[0], in.args[0].size).Bytes()
		for i := range x {
			x[i] = x[i].Extract(7, 1)
		}
		m.gp[in.args[1].reg] = sym.Concat(x...).ZeroExtend(64)
	}
	symOps["PMOVMSKB"], symOps["VPMOVMSKB"] = pmovmskb, pmovmskb
	symOps["CMPL"] = func(m *symMachine, in *inst) {
		if m.constGP(in) {
			m.concreteGP(in)
			return
		}
		// CMPL a, b compares a with b: ZF is their equality; the other
		// flags are left unknown.
		m.fl = [nFlags]*sym.Word{}
		m.fl[fZF] = eq8(m.ctx, m.read(&in.args[0], 4), m.read(&in.args[1], 4)).Extract(0, 1)
	}
	for _, op := range []string{"SETEQ", "SETNE"} {
		ne := op == "SETNE"
		symOps[op] = func(m *symMachine, in *inst) {
			z := m.fl[fZF]
			if z == nil {
				m.failf("%s of an unknown zero flag", op)
			}
			if ne {
				z = sym.Not(z)
			}
			m.writeGP(&in.args[0], z.ZeroExtend(8))
		}
	}
}

// eq8 is 0xff when a == b, else 0: a constant when both are, an atom (its
// arguments in canonical order) otherwise.
func eq8(ctx *sym.Ctx, a, b *sym.Word) *sym.Word {
	if x, ok := a.Value(); ok {
		if y, ok := b.Value(); ok {
			if x.Cmp(y) == 0 {
				return sym.Const(8, 0xff)
			}
			return sym.Zero(8)
		}
	}
	if a.Key() > b.Key() {
		a, b = b, a
	}
	return ctx.Apply("eq", 8, func(v []*big.Int) *big.Int {
		if v[0].Cmp(v[1]) == 0 {
			return big.NewInt(0xff)
		}
		return new(big.Int)
	}, a, b)
}

// constGP reports whether every general register an instruction names is a
// constant and it has no memory operand, so the concrete model can run it.
func (m *symMachine) constGP(in *inst) bool {
	for _, o := range in.args {
		switch {
		case o.kind == kMem:
			return false
		case o.kind == kReg && o.cls == cGP:
			if _, ok := m.gp[o.reg].Uint64(); !ok {
				return false
			}
		case o.kind == kReg:
			return false
		}
	}
	return true
}

func reverseBytes(x *sym.Word) *sym.Word {
	b := x.Bytes()
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return sym.Concat(b...)
}

// ternary is VPTERNLOG's function imm of (a, b, c), bit = imm[a<<2 | b<<1 |
// c]: an XOR of the inputs and a constant when imm is affine, else a sum of
// products.
func ternary(ctx *sym.Ctx, imm uint8, a, b, c *sym.Word) *sym.Word {
	f := func(i int) int { return int(imm>>i) & 1 }
	// Affine: f(x) = f(0) ^ (f(4)^f(0))·a ^ (f(2)^f(0))·b ^ (f(1)^f(0))·c
	// for every x.
	affine := true
	for x := 0; x < 8; x++ {
		v := f(0)
		for i, bit := range []int{4, 2, 1} {
			_ = i
			if x&bit != 0 {
				v ^= f(bit) ^ f(0)
			}
		}
		if v != f(x) {
			affine = false
		}
	}
	w := a.Width()
	ones := sym.Not(sym.Zero(w))
	if affine {
		r := sym.Zero(w)
		if f(0) == 1 {
			r = ones
		}
		for _, t := range []struct {
			bit int
			x   *sym.Word
		}{{4, a}, {2, b}, {1, c}} {
			if f(t.bit) != f(0) {
				r = sym.Xor(r, t.x)
			}
		}
		return r
	}
	r := sym.Zero(w)
	for x := 0; x < 8; x++ {
		if f(x) == 0 {
			continue
		}
		term := ones
		for _, t := range []struct {
			bit int
			v   *sym.Word
		}{{4, a}, {2, b}, {1, c}} {
			lit := t.v
			if x&t.bit == 0 {
				lit = sym.Not(lit)
			}
			term = ctx.And(term, lit)
		}
		r = ctx.Or(r, term)
	}
	return r
}

// SymCompare is the 1-bit result of VPCMP's predicate pred (its immediate's
// low three bits: 0 eq, 1 lt, 2 le, 3 false, 4 ne, 5 nlt, 6 nle, 7 true) on
// the elements a and b (signed or unsigned): a constant when both are, or
// when the predicate or equal arguments decide it, else an atom. A proof
// that rebuilds a compare the code made gets the same atom.
func SymCompare(ctx *sym.Ctx, pred uint8, signed bool, a, b *sym.Word) *sym.Word {
	pred &= 7
	w := a.Width()
	value := func(x *big.Int) *big.Int {
		if signed && x.Bit(w-1) == 1 {
			return new(big.Int).Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(w)))
		}
		return x
	}
	holds := func(x, y *big.Int) bool {
		c := value(x).Cmp(value(y))
		switch pred {
		case 0:
			return c == 0
		case 1:
			return c < 0
		case 2:
			return c <= 0
		case 3:
			return false
		case 4:
			return c != 0
		case 5:
			return c >= 0
		case 6:
			return c > 0
		}
		return true
	}
	bit := func(b bool) *sym.Word {
		if b {
			return sym.Const(1, 1)
		}
		return sym.Zero(1)
	}
	switch {
	case pred == 3 || pred == 7:
		return bit(pred == 7)
	case sym.Equal(a, b):
		return bit(pred == 0 || pred == 2 || pred == 5)
	}
	if x, ok := a.Value(); ok {
		if y, ok := b.Value(); ok {
			return bit(holds(x, y))
		}
	}
	op := fmt.Sprintf("cmp%d", pred)
	if !signed {
		op = fmt.Sprintf("cmpu%d", pred)
	}
	return ctx.Apply(op, 1, func(v []*big.Int) *big.Int {
		if holds(v[0], v[1]) {
			return big.NewInt(1)
		}
		return new(big.Int)
	}, a, b)
}

// SymSelect is x where the 1-bit word bit is 1, y where it is 0 (an element
// under a write mask whose bit is not a constant): x or y when bit is a
// constant or x and y are equal, else a "select" atom of (bit, x, y).
func SymSelect(ctx *sym.Ctx, bit, x, y *sym.Word) *sym.Word {
	if v, ok := bit.Uint64(); ok {
		if v&1 != 0 {
			return x
		}
		return y
	}
	if sym.Equal(x, y) {
		return x
	}
	return ctx.Apply("select", x.Width(), func(v []*big.Int) *big.Int {
		if v[0].Sign() != 0 {
			return v[1]
		}
		return v[2]
	}, bit, x, y)
}

func init() {
	// VPCMP[U]{B,W,D,Q} $pred, s2, s1, [K,] k: bit i of k is pred(s1_i, s2_i),
	// ANDed with the write mask's bit i; the bits above the elements zero.
	for _, c := range []struct {
		sf string
		es int
	}{{"B", 1}, {"W", 2}, {"D", 4}, {"Q", 8}} {
		for _, signed := range []bool{true, false} {
			op := "VPCMP" + c.sf
			if !signed {
				op = "VPCMPU" + c.sf
			}
			es := c.es
			symOps[op] = func(m *symMachine, in *inst) {
				imm, s2, s1, d := vops(in)
				a, b := m.read(s1, in.w).Lanes(8*es), m.readB(in, s2, in.w, es).Lanes(8*es)
				for i := range a {
					a[i] = SymCompare(m.ctx, uint8(imm), signed, a[i], b[i])
					if in.kmask != 0 {
						a[i] = m.ctx.And(a[i], m.k[in.kmask].Extract(i, 1))
					}
				}
				m.k[d.reg] = sym.Concat(a...).ZeroExtend(64)
			}
		}
	}
}
