package prove

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"os/exec"
	"slices"
	"strings"
	"sync"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// ifmaLanes and ifmaLimbs are the ifma kernels' sizes for n 52-bit
// digits: lanes rounded up to whole zmm registers, and the 64-bit limbs
// that hold 52·n bits.
func ifmaLanes(n int) int { return (n + 7) / 8 * 8 }
func ifmaLimbs(n int) int { return (52*n + 63) / 64 }

// ToDigitsIFMA proves toDigits<n>IFMA, func(z, x *uint64): for every x of
// ifmaLimbs(n) limbs, digit i of z is bits [52i, 52i+52) of x for i < n
// and the padding lanes are zero (bits of x from 52n up are not read into
// any digit).
func ToDigitsIFMA(p *x86sim.Program, fn string, n int) error {
	ctx := sym.NewCtx()
	L, N := ifmaLimbs(n), ifmaLanes(n)
	x := &x86sim.SymMem{Name: "x", Bytes: vars(ctx, "x", 8*L), ReadOnly: true}
	z := &x86sim.SymMem{Name: "z", Bytes: vars(ctx, "z", 8*N)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: z}, {Mem: x}}); err != nil {
		return err
	}
	xs := sym.Concat(x.Bytes...)
	var want []*sym.Word
	for i := range N {
		d := sym.Zero(64)
		if i < n {
			d = xs.Extract(52*i, 52).ZeroExtend(64)
		}
		want = append(want, d.Bytes()...)
	}
	if err := sameBytes("z", z.Bytes, want); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// FromDigitsIFMA proves fromDigits<n>IFMA, func(z, x *uint64): for every
// x of n digits below 2^52 (the padding lanes anything), z's ifmaLimbs(n)
// limbs are the digits' bits in order, zero above bit 52n.
func FromDigitsIFMA(p *x86sim.Program, fn string, n int) error {
	ctx := sym.NewCtx()
	L, N := ifmaLimbs(n), ifmaLanes(n)
	var digits, xb []*sym.Word
	for i := range N {
		d := ctx.Var(fmt.Sprintf("d%d", i), 52)
		if i < n {
			digits = append(digits, d)
		}
		xb = append(xb, d.ZeroExtend(64).Bytes()...)
	}
	x := &x86sim.SymMem{Name: "x", Bytes: xb, ReadOnly: true}
	z := &x86sim.SymMem{Name: "z", Bytes: vars(ctx, "z", 8*L)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: z}, {Mem: x}}); err != nil {
		return err
	}
	if err := sameBytes("z", z.Bytes, sym.Concat(digits...).ZeroExtend(64*L).Bytes()); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// GatherDualIFMA proves gatherDual<n>IFMA, func(za, ta *uint64, ka uint64,
// zb, tb *uint64, kb uint64), for one pair of indexes: za = entry ka of ta
// and zb = entry kb of tb (entries of ifmaLanes(n) words), every table.
func GatherDualIFMA(p *x86sim.Program, fn string, n, ka, kb int) error {
	ctx := sym.NewCtx()
	N := ifmaLanes(n)
	table := func(name string) (*x86sim.SymMem, []*sym.Word) {
		t := &x86sim.SymMem{Name: name, ReadOnly: true, Bytes: vars(ctx, name, 8*32*N)}
		return t, t.Bytes
	}
	ta, tab := table("ta")
	tb, tbb := table("tb")
	za := &x86sim.SymMem{Name: "za", Bytes: vars(ctx, "za", 8*N)}
	zb := &x86sim.SymMem{Name: "zb", Bytes: vars(ctx, "zb", 8*N)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: za}, {Mem: ta}, {Word: sym.Const(64, uint64(ka))},
		{Mem: zb}, {Mem: tb}, {Word: sym.Const(64, uint64(kb))}}); err != nil {
		return err
	}
	what := fmt.Sprintf("%s, ka=%d, kb=%d", fn, ka, kb)
	if err := sameBytes("za", za.Bytes, tab[8*N*ka:8*N*(ka+1)]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := sameBytes("zb", zb.Bytes, tbb[8*N*kb:8*N*(kb+1)]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// AmmIFMA proves amm<n>IFMA, func(z, x, y, m *uint64, k0 uint64), or with
// dual ammDual<n>IFMA, func(za, xa, ya, ma *uint64, k0a uint64, zb, xb, yb,
// mb *uint64, k0b uint64), each of its two multiplications alike: for every
// x, y and m of n digits below 2^52 (the padding lanes zero) and every k0
// with k0·m[0] ≡ -1 modulo 2^52, the accumulator the digit loop leaves,
// A = Σ lane_j·2^(52j) over its lanes (not normalized), has
//
//	2^(52n)·A = x·y + Q·m
//
// for the code's Q = Σ q_i·2^(52i), each q_i < 2^52: A ≡ x·y·2^(-52n)
// modulo m; and the normalization stores z with lanes below 2^52 and
// z ≡ A modulo 2^(52N), N the lanes (ammChain.normalized), given the
// lookahead lemma LookaheadLemma checks.
//
// The loop is cut at its label, at its exit and where the normalization
// starts (the generator's phase comment): each time the accumulator's
// lanes are replaced by fresh variables (52 low bits and a high part whose
// range is the one the turn before was shown to leave) once shown to be
// one more turn of the algorithm: 2^52·A' + D = A + x·y_i + q_i·m, less
// the low products of y_i the turn before added ahead and plus those of
// y_(i+1) this turn adds ahead (the code adds lo52(x·y_(i+1)) into the
// registers it splits, all of the single kernel's and the dual kernel's
// first, before the shift, so that the next quotient's lane is ready),
// where D, the part of lane 0 the shift drops, is lane 0's low 52 bits times
// (k0·m[0] + 1) modulo 2^52, zero.
func AmmIFMA(p *x86sim.Program, fn string, n int, dual bool) error {
	ctx := sym.NewCtx()
	N := ifmaLanes(n)
	z := newZReader()
	streams := []string{""}
	split := N / 8
	if dual {
		streams, split = []string{"a", "b"}, 1
	}
	var args []x86sim.SymArg
	var cs []*ammChain
	for _, st := range streams {
		digits := func(name string) ([]*sym.Word, *x86sim.SymMem) {
			ws := make([]*sym.Word, N)
			mem := &x86sim.SymMem{Name: name, ReadOnly: true}
			for j := range ws {
				ws[j] = sym.Zero(64)
				if j < n {
					ws[j] = ctx.Var(fmt.Sprintf("%s%d", name, j), 52).ZeroExtend(64)
				}
				mem.Bytes = append(mem.Bytes, ws[j].Bytes()...)
			}
			return ws, mem
		}
		x, xm := digits("x" + st)
		y, ym := digits("y" + st)
		m, mm := digits("m" + st)
		k0lo := ctx.Var("k0"+st, 52)
		k0 := sym.Concat(k0lo, ctx.Var("k0"+st+".hi", 12))
		zm := &x86sim.SymMem{Name: "z" + st, Bytes: vars(ctx, "z"+st, 8*N)}
		c := &ammChain{ctx: ctx, z: z, name: "x" + st, n: n, lanes: N, split: split, xw: x, zm: zm}
		for j := range N {
			c.x = append(c.x, z.word(x[j]))
			c.y = append(c.y, z.word(y[j]))
			c.m = append(c.m, z.word(m[j]))
		}
		c.k0 = z.word(k0lo)
		cs = append(cs, c)
		args = append(args, x86sim.SymArg{Mem: zm}, x86sim.SymArg{Mem: xm}, x86sim.SymArg{Mem: ym}, x86sim.SymArg{Mem: mm}, x86sim.SymArg{Word: k0})
	}
	label, err := loopLabel(p, fn, "digit")
	if err != nil {
		return err
	}
	each := func(f func(c *ammChain, vec *[32]*sym.Word)) func(int, *[32]*sym.Word, *[8]*sym.Word) {
		return func(_ int, vec *[32]*sym.Word, _ *[8]*sym.Word) {
			for _, c := range cs {
				f(c, vec)
			}
		}
	}
	if _, err := p.RunSymbolic(ctx, fn, args,
		x86sim.SymCut{Label: label, Vec: func(v int, vec *[32]*sym.Word, _ *[8]*sym.Word) {
			for _, c := range cs {
				c.turn(v, vec)
			}
		}},
		x86sim.SymCut{Label: label, Exit: true, Vec: each(func(c *ammChain, vec *[32]*sym.Word) { c.step(vec, n-2, true) })},
		x86sim.SymCut{Label: "phase: normalization", Vec: each(func(c *ammChain, vec *[32]*sym.Word) { c.step(vec, n-1, false) })},
	); err != nil {
		return err
	}
	for _, c := range cs {
		if c.err != nil {
			return fmt.Errorf("%s, the multiplication of %s: %w", fn, c.name, c.err)
		}
		if c.done != n {
			return fmt.Errorf("%s, the multiplication of %s: the cuts saw %d of the %d digits", fn, c.name, c.done, n)
		}
		if err := c.normalized(); err != nil {
			return fmt.Errorf("%s, the multiplication of %s: the normalization: %w", fn, c.name, err)
		}
	}
	return nil
}

// normalized checks what the normalization stores in z against A, the
// accumulator the last cut left: every lane of z is below 2^52 and
//
//	Σ z_j·2^(52j) ≡ A  (mod 2^(52N))
//
// over the N lanes. The code computes L_j, lane j's low 52 bits plus the
// bits above 52 of lane j-1 (read by the integer reading, each below
// 2^53-1 as checked here), the compare masks G_j = [L_j > 2^52-1] and
// P_j = [L_j = 2^52-1], c = ((G|P) + G) ^ P in a 64-bit register, and
// stores z_j = (L_j + c_j) mod 2^52, c_j selecting a masked +1. The check
// finds these in the stored words' terms: z_j's high bits zero and its
// low bits a select of (c_j, L_j + 1, L_j); c_j bit j of the lookahead
// rebuilt from the L_j (the same compare atoms, so the same word). The
// integer reading then has z_j = L_j + c_j - 2^52·f_j, f_j the carry out
// ⌊(L_j + c_j)/2^52⌋, and the lookahead lemma gives c_0 = 0 and
// c_(j+1) = f_j: for N < 64 and every L_j ≤ 2^53-2, G ∧ P = 0, so bit j of
// (G|P) + G is P_j ^ k_j with k_j its carry into bit j, bit j of c is k_j,
// and k_(j+1) = G_j ∨ (P_j ∧ k_j), which is f_j: L_j + k_j ≤ 2^53-1, so
// the carry out is 1 exactly when L_j ≥ 2^52 or L_j = 2^52-1 and k_j = 1.
// LookaheadLemma has z3 check the lemma for the N lanes (the proofs call
// it beside AmmIFMA), and TestLookaheadLemma tests it on every value of
// four narrow lanes; with it substituted, Σ z_j·2^(52j) telescopes to
// Σ L_j·2^(52j) - 2^(52N)·f_(N-1), which the reading shows congruent to A.
func (c *ammChain) normalized() error {
	N := c.lanes
	if N >= 64 {
		return fmt.Errorf("%d lanes: the lookahead needs fewer than 64", N)
	}
	m52 := sym.Const(64, 1<<52-1)
	top := new(big.Int).Sub(pow2(53), big.NewInt(2))
	stored := sym.Concat(c.zm.Bytes...)
	var b, g, p []*sym.Word
	got, lemma := zpoly{}, zpoly{}
	var carry zpoly // f_(j-1), the carry out of the lane below
	for j := range N {
		w := stored.Extract(64*j, 64)
		if v, ok := w.Extract(52, 12).Uint64(); !ok || v != 0 {
			return fmt.Errorf("z[%d]'s bits above 52 are not zero", j)
		}
		pcs := w.Extract(0, 52).Pieces()
		if len(pcs) != 1 || pcs[0].C != nil || len(pcs[0].Slices) != 1 || pcs[0].Slices[0].Bit != 0 || pcs[0].Slices[0].Atom.Op() != "select" {
			return fmt.Errorf("z[%d] is not the low 52 bits of a lane under a masked add", j)
		}
		sel := pcs[0].Slices[0].Atom
		bit, x, y := sel.Args()[0], sel.Args()[1], sel.Args()[2]
		if err := c.z.congruent(c.z.word(x).p, zsum(c.z.word(y).p, zconst(big.NewInt(1))), nil); err != nil {
			return fmt.Errorf("z[%d]: the masked add is not +1: %w", j, err)
		}
		if hi := c.z.word(y).hi; hi.Cmp(top) > 0 {
			return fmt.Errorf("lane %d may reach %v after the carries move up, not below 2^53-1", j, hi)
		}
		b = append(b, bit)
		g = append(g, x86sim.SymCompare(c.ctx, 6, false, y, m52))
		p = append(p, x86sim.SymCompare(c.ctx, 0, false, y, m52))
		got.addScaled(c.z.word(w).p, pow2(52*j))
		// The lemma: c_j = f_(j-1), and c_0 = 0.
		lemma.addScaled(c.z.word(bit).p, new(big.Int).Neg(pow2(52*j)))
		if j > 0 {
			lemma.addScaled(carry, pow2(52*j))
		}
		carry = c.z.floor(c.z.atom(sel), 52)
	}
	G := sym.Concat(append(g, sym.Zero(64-N))...)
	P := sym.Concat(append(p, sym.Zero(64-N))...)
	look := sym.Xor(c.ctx.Add(c.ctx.Or(G, P), G), P)
	for j := range N {
		if !sym.Equal(b[j], look.Extract(j, 1)) {
			return fmt.Errorf("lane %d's +1 is not under bit %d of ((G|P) + G) ^ P, G and P the lanes' compares with 2^52-1", j, j)
		}
	}
	got.addScaled(lemma, nil)
	if err := c.z.congruent(got, c.v, pow2(52*N)); err != nil {
		return fmt.Errorf("z is not the accumulator modulo 2^%d: %w", 52*N, err)
	}
	return nil
}

// An ammChain follows one multiplication of amm's digit loop turn by turn.
type ammChain struct {
	ctx  *sym.Ctx
	z    *zreader
	name string
	// n digits in lanes; split is how many of the accumulator's registers
	// (from the lowest) take the next digit's low products ahead.
	n, lanes, split int
	x, y, m         []zval
	xw              []*sym.Word
	k0              zval
	// zm is z, where the normalization stores the result.
	zm *x86sim.SymMem
	// acc are the accumulator's vector registers, lowest lanes first (-1
	// for one not found yet: a register that is zero where the loop
	// starts is found at the next cut, by the digit of x it then holds),
	// zero the registers that were zero then; v is its value at the last
	// cut and lo0 lane 0's low 52 bits; done counts the digits proven.
	acc  []int
	zero []int
	v    zpoly
	lo0  zval
	done int
	err  error
}

// lo52 is the low 52 bits of the product of two values below 2^52.
func (c *ammChain) lo52(a, b zval) zval {
	return c.z.slice(zval{zmul(a.p, b.p), new(big.Int).Mul(a.hi, b.hi)}, 0, 52)
}

// ahead is the low products of digit i of y that a turn adds ahead of
// time: lo52(x_j·y_i) in every lane of the split registers.
func (c *ammChain) ahead(i int) zpoly {
	r := zpoly{}
	for j := range 8 * c.split {
		r.addScaled(c.lo52(c.x[j], c.y[i]).p, pow2(52*j))
	}
	return r
}

// lanesAre reports whether register w holds want(l) in lane l.
func (c *ammChain) lanesAre(w *sym.Word, want func(l int) zpoly) bool {
	for l := range 8 {
		if c.z.congruent(c.z.word(w.Extract(64*l, 64)).p, want(l), nil) != nil {
			return false
		}
	}
	return true
}

// turn is the cut at the digit loop's label, before digit v.
func (c *ammChain) turn(v int, vec *[32]*sym.Word) {
	if c.err != nil {
		return
	}
	if v > 0 {
		c.step(vec, v-1, true)
		return
	}
	// The split registers hold lo52(x_j·y_0) in lane j, the others zero.
	for k := 0; k < c.lanes/8; k++ {
		found := -1
		if k < c.split {
			for r := range vec {
				if c.lanesAre(vec[r], func(l int) zpoly { return c.lo52(c.x[8*k+l], c.y[0]).p }) {
					found = r
					break
				}
			}
			if found < 0 {
				c.err = fmt.Errorf("no vector register holds lo52(x·y[0]) in lanes %d..%d where the loop starts", 8*k, 8*k+7)
				return
			}
		}
		c.acc = append(c.acc, found)
	}
	for r := range vec {
		if v, ok := vec[r].Value(); ok && v.Sign() == 0 {
			c.zero = append(c.zero, r)
		}
	}
	c.fresh(vec, 0)
}

// find resolves the accumulator's registers that were zero where the loop
// started: register k is the one of them whose lane 0 now reads digit 8k
// of x (its product with y_0's high half).
func (c *ammChain) find(vec *[32]*sym.Word) error {
	for k, r := range c.acc {
		if r >= 0 {
			continue
		}
		for _, cand := range c.zero {
			if readsVar(vec[cand].Extract(0, 64), c.xw[8*k]) && !slices.Contains(c.acc, cand) {
				c.acc[k] = cand
				break
			}
		}
		if c.acc[k] < 0 {
			return fmt.Errorf("no register zero where the loop started holds digit %d of x in lane 0 after a turn", 8*k)
		}
	}
	return nil
}

// readsVar reports whether x is built from v's variable, at any depth.
func readsVar(x, v *sym.Word) bool {
	target := v.Pieces()[0].Slices[0].Atom
	seen := map[*sym.Atom]bool{}
	var walk func(w *sym.Word) bool
	walk = func(w *sym.Word) bool {
		for _, pc := range w.Pieces() {
			for _, s := range pc.Slices {
				a := s.Atom
				if a == target {
					return true
				}
				if seen[a] {
					continue
				}
				seen[a] = true
				for _, arg := range a.Args() {
					if walk(arg) {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(x)
}

// step checks that digit i's turn took the accumulator from the last cut's
// value to the one in the registers now (with ahead the turn added digit
// i+1's low products ahead), then cuts.
func (c *ammChain) step(vec *[32]*sym.Word, i int, ahead bool) {
	if c.err != nil {
		return
	}
	if err := c.find(vec); err != nil {
		c.err = err
		return
	}
	got := zpoly{}
	for k, r := range c.acc {
		for l := range 8 {
			got.addScaled(c.z.word(vec[r].Extract(64*l, 64)).p, pow2(52*(8*k+l)))
		}
	}
	q := c.lo52(c.lo0, c.k0)
	lo := c.lo52(c.m[0], q)
	d := c.z.slice(zval{zsum(c.lo0.p, lo.p), new(big.Int).Add(c.lo0.hi, lo.hi)}, 0, 52)
	one := zconst(big.NewInt(1))
	if err := c.z.congruent(d.p, zmul(c.lo0.p, zsum(zmul(c.k0.p, c.m[0].p), one)), pow2(52)); err != nil {
		c.err = fmt.Errorf("digit %d: the part of lane 0 the shift drops is not its low bits times (k0·m[0] + 1) modulo 2^52: %w", i, err)
		return
	}
	want := c.v.clone()
	want.addScaled(c.ahead(i), big.NewInt(-1))
	for j := range c.lanes {
		want.addScaled(zmul(c.x[j].p, c.y[i].p), pow2(52*j))
		want.addScaled(zmul(c.m[j].p, q.p), pow2(52*j))
	}
	if ahead {
		want.addScaled(c.ahead(i+1), pow2(52))
	}
	lhs := zsum(zmul(got, zconst(pow2(52))), d.p)
	if err := c.z.congruent(lhs, want, nil); err != nil {
		c.err = fmt.Errorf("digit %d: the accumulator is not one more turn of the loop: %w", i, err)
		return
	}
	c.done = i + 1
	c.fresh(vec, i+1)
}

// fresh replaces the accumulator's lanes with fresh variables, each below
// the bound its word was shown to keep, and sets v and lo0. A register not
// found yet is zero (where the loop starts) and stays as it is.
func (c *ammChain) fresh(vec *[32]*sym.Word, v int) {
	c.v = zpoly{}
	for k, r := range c.acc {
		if r < 0 {
			continue
		}
		var lanes []*sym.Word
		for l := range 8 {
			j := 8*k + l
			top := new(big.Int).Rsh(c.z.word(vec[r].Extract(64*l, 64)).hi, 52)
			lo := c.ctx.Var(fmt.Sprintf("%s.A%d.%d", c.name, v, j), 52)
			hi := c.ctx.Var(fmt.Sprintf("%s.A%d.%d.hi", c.name, v, j), 12)
			c.z.limits[hi.Atom()] = top
			w := sym.Concat(lo, hi)
			lanes = append(lanes, w)
			c.v.addScaled(c.z.word(w).p, pow2(52*j))
			if j == 0 {
				c.lo0 = c.z.word(lo)
			}
		}
		vec[r] = sym.Concat(lanes...)
	}
}

// LookaheadLemma has the z3 solver check, for n lanes, the lemma the
// normalization of ifma's kernels rests on (ammChain.normalized): for
// every L_0..L_(n-1) ≤ 2^53-2, with G_j = [L_j > 2^52-1], P_j =
// [L_j = 2^52-1] and c = ((G|P) + G) ^ P modulo 2^64, bit 0 of c is 0 and
// bit j+1 is (L_j + c_j) >> 52. The query is in SMT-LIB2 over 64-bit
// vectors, the lemma's negation: unsatisfiable when the lemma holds. A
// control query, the generate mask taken as L_j ≥ 2^52-1, must be
// satisfiable (z3 finds its counterexample), so that a query that checks
// nothing fails. z3 runs as a child process; each n is checked once.
func LookaheadLemma(n int) error {
	lemmaMu.Lock()
	defer lemmaMu.Unlock()
	if err, ok := lemmaDone[n]; ok {
		return err
	}
	err := func() error {
		if n < 2 || n >= 64 {
			return fmt.Errorf("the lookahead lemma for %d lanes: the lanes' masks must fit one 64-bit word", n)
		}
		if got, err := z3(lookaheadQuery(n, "bvugt")); err != nil {
			return err
		} else if got != "unsat" {
			return fmt.Errorf("z3 answers %q to the lookahead lemma's negation for %d lanes, not unsat", got, n)
		}
		if got, err := z3(lookaheadQuery(n, "bvuge")); err != nil {
			return err
		} else if got != "sat" {
			return fmt.Errorf("z3 answers %q to the lookahead lemma's control for %d lanes, not sat: the query checks nothing", got, n)
		}
		return nil
	}()
	lemmaDone[n] = err
	return err
}

var (
	lemmaMu   sync.Mutex
	lemmaDone = map[int]error{}
)

// lookaheadQuery is the negation of the lookahead lemma for n lanes, with
// gen the bit-vector compare that makes the generate mask.
func lookaheadQuery(n int, gen string) string {
	const m52 = "#x000fffffffffffff"
	var b strings.Builder
	b.WriteString("(set-logic QF_BV)\n")
	for j := range n {
		fmt.Fprintf(&b, "(declare-const L%d (_ BitVec 64))\n(assert (bvule L%d #x001ffffffffffffe))\n", j, j)
	}
	mask := func(name, cmp string) {
		fmt.Fprintf(&b, "(define-fun %s () (_ BitVec 64) (concat (_ bv0 %d)", name, 64-n)
		for j := n - 1; j >= 0; j-- {
			fmt.Fprintf(&b, " (ite (%s L%d %s) #b1 #b0)", cmp, j, m52)
		}
		b.WriteString("))\n")
	}
	mask("G", gen)
	mask("P", "=")
	b.WriteString("(define-fun c () (_ BitVec 64) (bvxor (bvadd (bvor G P) G) P))\n")
	b.WriteString("(assert (or (= ((_ extract 0 0) c) #b1)")
	for j := range n - 1 {
		fmt.Fprintf(&b, "\n  (not (= ((_ zero_extend 63) ((_ extract %d %d) c)) (bvlshr (bvadd L%d ((_ zero_extend 63) ((_ extract %d %d) c))) (_ bv52 64))))", j+1, j+1, j, j, j)
	}
	b.WriteString("))\n(check-sat)\n")
	return b.String()
}

// z3 runs the z3 solver on an SMT-LIB2 query and returns its answer.
func z3(query string) (string, error) {
	cmd := exec.Command("z3", "-smt2", "-in", "-T:120")
	cmd.Stdin = strings.NewReader(query)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("the lookahead lemma needs the z3 solver on PATH (Debian: apt-get install z3): %w", err)
	}
	answer := strings.TrimSpace(string(out))
	if err != nil {
		return "", fmt.Errorf("z3: %v: %s%s", err, answer, stderr.Bytes())
	}
	return answer, nil
}
