package prove

import (
	"fmt"
	"math/big"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// MontADX proves rsa's montMul<n>ADX, func(z, x, y, m *uint64, m0inv
// uint64), or with sqr montSqr<n>ADX, func(z, x, m *uint64, m0inv uint64)
// (y = x), against the contract of almost Montgomery multiplication: for
// every x, y and m of n limbs (z apart from them, or with alias z == x)
// and every m0inv with m0inv·m[0] ≡ -1 modulo 2^64, with R = 2^(64n),
// z < R and
//
//	R·z = x·y + (Q - top·R)·m
//
// for the code's Q = Σ q_i·2^(64i) (q_i < 2^64, so Q < R) and top in {0, 1}:
// z ≡ x·y·R^-1 modulo m whatever Q is. What is checked, as identities of
// integer polynomials (zint.go) in the inputs' limbs and the variables the
// cuts introduce:
//
//   - where the reduction loop is first reached, the 2n limbs of T the
//     product left are x·y exactly;
//   - at each turn i of the reduction loop (cut at its label, T's limbs
//     i..2n-1 and the pending carry top replaced by fresh variables once
//     shown to be the invariant's value V_i), the next turn's
//     2^64·V_(i+1) + D_i = V_i + q_i·m exactly, where q_i is the word the
//     code multiplies m by and D_i the limb the row drops, its value read
//     from q_i and T[i] as the code adds them; and D_i ≡
//     T[i]·(m0inv·m[0] + 1) ≡ 0 modulo 2^64, so D_i, a word, is zero: the
//     chain gives R·(S + top·R) = x·y + Q·m, S the limbs T[n..2n) at the
//     loop's exit;
//   - at the exit (S and top fresh again, top a bit: S + top·R = (x·y +
//     Q·m)/R < 2R because x, y, Q and m are below R), z ≡ S - top·m modulo
//     R, with the subtraction's final borrow dropped.
//
// The last step is arithmetic on those identities, not checked by machine:
// x·y + Q·m < R² + R·m, so S + top·R < R + m; with top = 1, S < m and
// S - m + R is in [0, R), with top = 0, S < R: either way z = S + top·R -
// top·m exactly, and R·z = x·y + Q·m - top·R·m.
func MontADX(p *x86sim.Program, fn string, n int, sqr, alias bool) error {
	ctx := sym.NewCtx()
	limbs := func(name string, readOnly bool) ([]*sym.Word, *x86sim.SymMem) {
		ws := make([]*sym.Word, n)
		mem := &x86sim.SymMem{Name: name, ReadOnly: readOnly}
		for i := range ws {
			ws[i] = ctx.Var(fmt.Sprintf("%s%d", name, i), 64)
			mem.Bytes = append(mem.Bytes, ws[i].Bytes()...)
		}
		return ws, mem
	}
	x, xm := limbs("x", !alias)
	y, ym := x, xm
	if !sqr {
		y, ym = limbs("y", true)
	}
	m, mm := limbs("m", true)
	_, zm := limbs("zin", false)
	u := ctx.Var("m0inv", 64)
	c := &montChain{ctx: ctx, z: newZReader(), n: n}
	c.x, c.y, c.m = c.number(x), c.number(y), c.number(m)
	c.u = c.z.word(u).p
	c.m0 = c.z.word(m[0])
	if alias {
		zm = xm
	}
	args := []x86sim.SymArg{{Mem: zm}, {Mem: xm}}
	if !sqr {
		args = append(args, x86sim.SymArg{Mem: ym})
	}
	args = append(args, x86sim.SymArg{Mem: mm}, x86sim.SymArg{Word: u})
	label, err := loopLabel(p, fn, "redrow")
	if err != nil {
		return err
	}
	if _, err := p.RunSymbolic(ctx, fn, args,
		x86sim.SymCut{Label: label, Mem: c.turn},
		x86sim.SymCut{Label: label, Exit: true, Mem: c.exit}); err != nil {
		return err
	}
	what := fmt.Sprintf("%s, %s", fn, arrangement(alias, "z", "x"))
	if c.err != nil {
		return fmt.Errorf("%s: %w", what, c.err)
	}
	if c.turns != n || c.s == nil {
		return fmt.Errorf("%s: the reduction loop ran %d turns of %d", what, c.turns, n)
	}
	// z ≡ S - top·m modulo R.
	var zs []*sym.Word
	for i := range n {
		zs = append(zs, sym.Concat(zm.Bytes[8*i:8*i+8]...))
	}
	want := zsum(c.s)
	want.addScaled(zmul(c.top, c.m), big.NewInt(-1))
	if err := c.z.congruent(c.number(zs), want, pow2(64*n)); err != nil {
		return fmt.Errorf("%s: z is not S - top·m modulo R: %w", what, err)
	}
	return nil
}

// loopLabel is fn's label whose name starts with prefix.
func loopLabel(p *x86sim.Program, fn, prefix string) (string, error) {
	for _, l := range p.Labels(fn) {
		if len(l) > len(prefix) && l[:len(prefix)] == prefix {
			return l, nil
		}
	}
	return "", fmt.Errorf("%s has no label %s", fn, prefix)
}

// A montChain follows the Montgomery reduction's loop turn by turn.
type montChain struct {
	ctx        *sym.Ctx
	z          *zreader
	n          int
	x, y, m, u zpoly
	m0         zval
	// v is the invariant's value V_i at the last cut, t its limb T[i] (the
	// next row's), turns the cuts passed.
	v     zpoly
	t     zval
	turns int
	// s and top are S and top at the loop's exit.
	s, top zpoly
	err    error
}

// number is the limbs ws read as one little-endian integer.
func (c *montChain) number(ws []*sym.Word) zpoly {
	r := zpoly{}
	for i, w := range ws {
		r.addScaled(c.z.word(w).p, pow2(64*i))
	}
	return r
}

// frame loads limbs lo..hi-1 of T, the frame's scratch at SP.
func frame(gp *[16]*sym.Word, mem x86sim.SymMemory, lo, hi int) ([]*sym.Word, error) {
	sp, ok := gp[4].Uint64()
	if !ok {
		return nil, fmt.Errorf("SP is not a constant")
	}
	var ws []*sym.Word
	for j := lo; j < hi; j++ {
		ws = append(ws, mem.Load(sp+uint64(8*j), 8))
	}
	return ws, nil
}

// turn is the cut at the reduction loop's label, before row i = turns.
func (c *montChain) turn(i int, gp *[16]*sym.Word, mem x86sim.SymMemory) {
	if c.err != nil {
		return
	}
	n := c.n
	if i == 0 {
		// T = x·y, and top (some register) is zero.
		ts, err := frame(gp, mem, 0, 2*n)
		if err != nil {
			c.err = err
			return
		}
		if err := c.z.congruent(c.number(ts), zmul(c.x, c.y), nil); err != nil {
			c.err = fmt.Errorf("T is not x·y where the reduction starts: %w", err)
			return
		}
		c.fresh(gp, mem, 0, -1, 64)
		return
	}
	r, err := c.step(gp, mem, i)
	if err != nil {
		c.err = err
		return
	}
	c.fresh(gp, mem, i, r, 64)
}

// exit is the cut after the loop's last turn.
func (c *montChain) exit(_ int, gp *[16]*sym.Word, mem x86sim.SymMemory) {
	if c.err != nil {
		return
	}
	r, err := c.step(gp, mem, c.n)
	if err != nil {
		c.err = err
		return
	}
	// top is a bit: S + top·R < 2R (see MontADX).
	c.fresh(gp, mem, c.n, r, 1)
	c.s = c.v.clone()
	c.s.addScaled(c.top, new(big.Int).Neg(pow2(64*c.n)))
}

// step checks that the row just run took V_(i-1) to V_i (the words now in
// T[i..2n) and register r, the pending carry) and returns r.
func (c *montChain) step(gp *[16]*sym.Word, mem x86sim.SymMemory, i int) (int, error) {
	n := c.n
	ts, err := frame(gp, mem, i, 2*n)
	if err != nil {
		return 0, err
	}
	// The row multiplied m by q in RDX (MULX's implicit operand), and
	// dropped D = (q·m[0] mod 2^64 + T[i-1]) mod 2^64.
	q := c.z.word(gp[2])
	lo := c.z.slice(zval{zmul(q.p, c.m0.p), new(big.Int).Mul(q.hi, c.m0.hi)}, 0, 64)
	d := c.z.slice(zval{zsum(lo.p, c.t.p), new(big.Int).Add(lo.hi, c.t.hi)}, 0, 64)
	one := zconst(big.NewInt(1))
	if err := c.z.congruent(d.p, zmul(c.t.p, zsum(zmul(c.u, c.m0.p), one)), pow2(64)); err != nil {
		return 0, fmt.Errorf("row %d: the limb it drops is not T[%d]·(m0inv·m[0] + 1) modulo 2^64: %w", i-1, i-1, err)
	}
	// 2^64·(T[i..2n) + top·2^(64n)) + D = V_(i-1) + q·m, for the register
	// r that holds top.
	base := c.number(ts)
	base = zsum(zmul(base, zconst(pow2(64))), d.p)
	want := zsum(c.v, zmul(q.p, c.m))
	var last error
	for r := range gp {
		if r == 4 || r == 2 {
			continue // SP, and RDX holds q
		}
		lhs := zsum(base, zmul(c.z.word(gp[r]).p, zconst(pow2(64*n+64))))
		if last = c.z.congruent(lhs, want, nil); last == nil {
			return r, nil
		}
	}
	return 0, fmt.Errorf("row %d: no register holds the carry that makes T[%d..%d) the row's sum: %v", i-1, i, 2*n, last)
}

// fresh replaces T[i..2n) with fresh variables and register r (none when
// negative) with a fresh pending carry of bits bits, and sets V_i.
func (c *montChain) fresh(gp *[16]*sym.Word, mem x86sim.SymMemory, i, r, bits int) {
	sp, _ := gp[4].Uint64()
	var ts []*sym.Word
	for j := i; j < 2*c.n; j++ {
		t := c.ctx.Var(fmt.Sprintf("T%d.%d", i, j), 64)
		mem.Store(sp+uint64(8*j), t)
		ts = append(ts, t)
	}
	c.v = c.number(ts)
	c.top = zpoly{}
	if r >= 0 {
		top := c.ctx.Var(fmt.Sprintf("top%d", i), bits)
		gp[r] = top.ZeroExtend(64)
		c.top = c.z.word(top).p
		c.v.addScaled(c.top, pow2(64*c.n))
	}
	c.t = c.z.word(ts[0])
	c.turns = i
}

// Gather5ADX proves gather5ADX, func(z *uint64, table *uint64, n int, k
// uint64), for one value of k: z[j] = table[32·j + k] for j < n, every
// table. The index is secret, so the code reads every entry and selects by
// masks; a proof per value of k below 32 covers every index.
func Gather5ADX(p *x86sim.Program, fn string, n, k int) error {
	ctx := sym.NewCtx()
	table := &x86sim.SymMem{Name: "table", ReadOnly: true}
	var words []*sym.Word
	for i := range 32 * n {
		w := ctx.Var(fmt.Sprintf("t%d", i), 64)
		words = append(words, w)
		table.Bytes = append(table.Bytes, w.Bytes()...)
	}
	z := &x86sim.SymMem{Name: "z", Bytes: vars(ctx, "z", 8*n)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: z}, {Mem: table},
		{Word: sym.Const(64, uint64(n))}, {Word: sym.Const(64, uint64(k))}}); err != nil {
		return err
	}
	var want []*sym.Word
	for j := range n {
		want = append(want, words[32*j+k].Bytes()...)
	}
	if err := sameBytes("z", z.Bytes, want); err != nil {
		return fmt.Errorf("%s, n=%d, k=%d: %w", fn, n, k, err)
	}
	return nil
}
