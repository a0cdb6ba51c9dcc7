package prove

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/chacha20poly1305"
)

// Poly1305 on zmm (avx512's polyVec): eight lanes, each an accumulator in
// five 26-bit limbs, hash the text's groups of eight blocks, with the
// powers r¹..r⁸ from a table the code computes first. The proof follows
// three chains, each cut so that every step is proven for every value in
// range:
//
//   - the powers (powChain): at each "key power k" phase the general
//     registers that hold r^k are shown congruent to r^(k-1)·r, their
//     top limb below 8, and replaced by fresh variables T_k. The table's
//     rows are then the limbs of T_k, and T_k ≡ r^k modulo p.
//   - the lanes (laneChain): at each turn of the loop (its label vloop),
//     lane p's five limbs, read as Σ_i limb_i·2^(26i), are congruent to
//     (H_p + M_p)·T_8, H_p the lane's value at the turn before and M_p
//     block laneBlock(p) of that turn's group with its 2^128 bit; every
//     limb below 2^27, replaced by fresh variables. At the loop's entry
//     lane 0 holds h (the accumulator at the function's entry or the last
//     cut of polyChain) and the others zero.
//   - the exit (the label novec): h's three registers are congruent to
//     Σ_p (H_p + M_p)·T_lanePow(p) for the last group's M, and the top limb
//     is below 8.
//
// Those are the code's checks. What they add up to is the specification's
// loop over every block the lanes took: with D(H, A) = Σ_p H_p·r^lanePow(p)
// - r^8·A, the entry has D = 0, each turn multiplies D by r^8 while A
// becomes the specification's accumulator eight blocks on, and the exit
// leaves the specification's accumulator plus D. checkLaneAlgebra checks
// those three identities as polynomials in r, A, H and M, with the lane
// layout (laneBlock, lanePow) the code checks use; with T_k ≡ r^k they
// compose into h ≡ PolyAccumulate(h at the entry, the blocks, r).

// laneBlock is the block of a group of eight that lane p holds: the code
// interleaves its two 64-byte loads by qword.
func laneBlock(p int) int { return p/2 + 4*(p%2) }

// lanePow is the power of r lane p is multiplied by at the exit.
func lanePow(p int) int { return 8 - laneBlock(p) }

const (
	laneLimbBits = 27 // a lane limb's fresh variable: below 2^27
	vecLanes     = 8
)

// A powChain follows r¹..r⁸ through the key power phases.
type powChain struct {
	ctx  *sym.Ctx
	r    []*sym.Word     // r's bytes, clamped
	t    [9][3]*sym.Word // T_k's words once cut
	k    int             // the powers cut so far
	regs []int
	err  error
}

func newPowChain(ctx *sym.Ctx, r []*sym.Word) *powChain { return &powChain{ctx: ctx, r: r} }

// cuts are the phases "key power k" of fn's polyPowers, if it has one.
func (c *powChain) cuts(p *x86sim.Program, fn string) []x86sim.SymCut {
	var cs []x86sim.SymCut
	for _, ph := range p.Phases(fn) {
		var k int
		if _, err := fmt.Sscanf(ph, "key power %d:", &k); err == nil {
			cs = append(cs, x86sim.SymCut{Label: "phase: " + ph, Visit: func(n int, gp *[16]*sym.Word) { c.visit(k, n, gp) }})
		}
	}
	return cs
}

// power is T_k's value: T_k's words read by z.
func (c *powChain) power(z *zreader, k int) zpoly {
	return z.word(sym.Concat(c.t[k][:]...)).p
}

// visit cuts at power k. r¹ is r's two words in registers, every copy
// replaced by fresh variables with the clamp's zero bits (clampedR): the
// multiplications that follow read r from memory, so T_1 stands for the
// registers' copies alone. Each later power is three registers congruent to
// T_(k-1)·r, the top limb below 8.
func (c *powChain) visit(k, n int, gp *[16]*sym.Word) {
	if c.err != nil {
		return
	}
	if n > 0 || c.k != k-1 {
		c.err = fmt.Errorf("key power %d reached out of order", k)
		return
	}
	var regs []int
	var fresh [3]*sym.Word
	if k == 1 {
		for _, w := range []*sym.Word{sym.Concat(c.r[:8]...), sym.Concat(c.r[8:16]...)} {
			if i := slices.IndexFunc(gp[:], func(x *sym.Word) bool { return sym.Equal(x, w) }); i >= 0 {
				regs = append(regs, i)
			}
		}
		if len(regs) < 2 {
			c.err = fmt.Errorf("at key power 1, r is not in two registers")
			return
		}
		t := clampedR(c.ctx, "T1")
		fresh = [3]*sym.Word{sym.Concat(t[:8]...), sym.Concat(t[8:]...), sym.Zero(64)}
	} else {
		check := func(regs []int) bool {
			words := [3]*sym.Word{gp[regs[0]], gp[regs[1]], gp[regs[2]]}
			z := newZReader(append(append(words[:], c.t[k-1][:]...), c.r...)...)
			if z.word(words[2]).hi.Cmp(big.NewInt(7)) > 0 {
				return false
			}
			want := zmod{c.power(z, k-1), p1305}.Mul(zmod{z.leNumber(c.r), p1305})
			return z.congruent(z.word(sym.Concat(words[:]...)).p, want.p, p1305) == nil
		}
		if c.regs != nil && check(c.regs) {
			regs = c.regs
		} else {
			regs = findRegs(gp, 3, check)
		}
		if regs == nil {
			c.err = fmt.Errorf("at key power %d, no three registers hold r^%d·r modulo 2^130-5 with the top limb below 8", k, k-1)
			return
		}
		fresh = [3]*sym.Word{c.ctx.Var(fmt.Sprintf("T%d.0", k), 64), c.ctx.Var(fmt.Sprintf("T%d.1", k), 64),
			sym.Concat(c.ctx.Var(fmt.Sprintf("T%d.2", k), h2Bits), sym.Zero(64-h2Bits))}
		c.regs = regs
	}
	c.t[k] = fresh
	if k == 1 {
		replaceAll(gp[:], regs, fresh[:2])
	} else {
		for i, r := range regs {
			gp[r] = fresh[i]
		}
	}
	c.k = k
}

// findRegs returns the first n distinct registers among the non-constant
// ones of regs, in order, that ok accepts, or nil.
func findRegs(regs *[16]*sym.Word, n int, ok func([]int) bool) []int {
	var cand []int
	for i, w := range regs {
		if _, constant := w.Value(); !constant {
			cand = append(cand, i)
		}
	}
	return permute(cand, n, ok)
}

// permute tries the ordered choices of n of cand, returning the first that
// ok accepts.
func permute(cand []int, n int, ok func([]int) bool) []int {
	pick := make([]int, 0, n)
	var try func() bool
	try = func() bool {
		if len(pick) == n {
			return ok(pick)
		}
		for _, i := range cand {
			if slices.Contains(pick, i) {
				continue
			}
			pick = append(pick, i)
			if try() {
				return true
			}
			pick = pick[:len(pick)-1]
		}
		return false
	}
	if try() {
		return slices.Clone(pick)
	}
	return nil
}

// replaceAll replaces, in regs, every register holding the word that
// regs[at[i]] holds by with[i]: copies of a value the check covered stand
// for it too.
func replaceAll(regs []*sym.Word, at []int, with []*sym.Word) {
	old := make([]*sym.Word, len(at))
	for i, a := range at {
		old[i] = regs[a]
	}
	for j, w := range regs {
		for i, o := range old {
			if sym.Equal(w, o) {
				regs[j] = with[i]
				break
			}
		}
	}
}

// A laneChain follows polyVec's lanes for a polyChain: it takes over from
// the chain at the loop's first turn and hands h back at the exit, the
// blocks the lanes took counted in.
type laneChain struct {
	pc    *polyChain
	pow   *powChain
	turns int                   // the turns seen of the current loop (0: not in one)
	a0    [3]*sym.Word          // h at the loop's entry
	start int                   // the blocks h held then
	h     [vecLanes][]*sym.Word // the lanes' limbs at the last turn (nil at the first)
	regs  []int                 // the lanes' five registers, limb 0 first
}

func newLaneChain(pc *polyChain, pow *powChain) *laneChain { return &laneChain{pc: pc, pow: pow} }

// cuts are the loop labels and exits of every polyVec in fn: they go before
// the polyChain's, which the lanes suspend.
func (c *laneChain) cuts(p *x86sim.Program, fn string) []x86sim.SymCut {
	var cs []x86sim.SymCut
	for _, l := range p.Labels(fn) {
		switch {
		case strings.HasPrefix(l, "vloop_"):
			cs = append(cs, x86sim.SymCut{Label: l, Vec: func(n int, vec *[32]*sym.Word, _ *[8]*sym.Word) { c.turn(n, vec) }})
		case strings.HasPrefix(l, "novec_"):
			cs = append(cs, x86sim.SymCut{Label: l, Visit: func(_ int, gp *[16]*sym.Word) { c.exit(gp) }})
		}
	}
	return cs
}

func (c *laneChain) fail(err error) {
	if c.pc.err == nil {
		c.pc.err = err
	}
}

// group is M_p for the lanes of the group of eight blocks at turn g (the
// specification's blocks, each read with its 2^128 bit), and the blocks'
// bytes.
func (c *laneChain) group(z *zreader, g int) ([vecLanes]zpoly, error) {
	var m [vecLanes]zpoly
	at := c.start + 8*g
	if at+8 > len(c.pc.blocks) {
		return m, fmt.Errorf("the lanes take blocks %d-%d of the MAC input's %d", at, at+7, len(c.pc.blocks))
	}
	for p := range m {
		m[p] = z.leNumber(c.pc.blocks[at+laneBlock(p)])
	}
	return m, nil
}

// lanes is H_p for every lane, as z reads them (at the first turn, h in
// lane 0).
func (c *laneChain) lanes(z *zreader) [vecLanes]zpoly {
	var hs [vecLanes]zpoly
	for p := range hs {
		hs[p] = zpoly{}
		switch {
		case c.h[p] != nil:
			for i, w := range c.h[p] {
				hs[p].addScaled(z.word(w).p, pow2(26*i))
			}
		case p == 0:
			hs[p] = z.word(sym.Concat(c.a0[:]...)).p
		}
	}
	return hs
}

// blockWords are the words of turn g's group, for the reader's cuts.
func (c *laneChain) blockWords(g int) []*sym.Word {
	at := c.start + 8*g
	if at+8 > len(c.pc.blocks) {
		return nil
	}
	var ws []*sym.Word
	for _, b := range c.pc.blocks[at : at+8] {
		ws = append(ws, b...)
	}
	return ws
}

// known are the words every reading of the lanes mentions: H, h at the
// entry, the powers.
func (c *laneChain) known() []*sym.Word {
	ws := append([]*sym.Word(nil), c.a0[:]...)
	for _, l := range c.h {
		ws = append(ws, l...)
	}
	for k := 1; k <= 8; k++ {
		ws = append(ws, c.pow.t[k][:]...)
	}
	return append(ws, c.pow.r...)
}

func (c *laneChain) turn(n int, vec *[32]*sym.Word) {
	if c.pc.err != nil {
		return
	}
	if c.pow.err != nil {
		c.fail(c.pow.err)
		return
	}
	if n == 0 {
		if c.pow.k != 8 {
			c.fail(fmt.Errorf("the lanes' loop starts with %d of the 8 key powers cut", c.pow.k))
			return
		}
		c.turns, c.a0, c.start, c.h, c.regs = 1, c.pc.h, c.pc.done, [vecLanes][]*sym.Word{}, nil
		c.pc.suspended = true
		return
	}
	g := c.turns - 1 // the group the lanes have multiplied
	blocks := c.blockWords(g)
	if blocks == nil {
		c.fail(fmt.Errorf("the lanes' turn %d goes past the MAC input's %d blocks", g+1, len(c.pc.blocks)))
		return
	}
	var words []*sym.Word
	seen := map[string]bool{}
	for _, w := range vec {
		if _, constant := w.Value(); !constant && !seen[w.Key()] {
			seen[w.Key()] = true
			words = append(words, w)
		}
	}
	z := newZReader(append(append(words, blocks...), c.known()...)...)
	// The candidates: registers whose lane 0 is in a limb's range and reads
	// the group's blocks.
	var cand []int
	seen = map[string]bool{}
	for i, w := range vec {
		if _, constant := w.Value(); constant || seen[w.Key()] {
			continue
		}
		seen[w.Key()] = true
		if x := z.word(w.Extract(0, 64)); x.hi.Cmp(ones(laneLimbBits)) <= 0 && z.reads(x.p, blocks) {
			cand = append(cand, i)
		}
	}
	m, err := c.group(z, g)
	if err != nil {
		c.fail(err)
		return
	}
	hs := c.lanes(z)
	t8 := zmod{c.pow.power(z, 8), p1305}
	lane := func(regs []int, p int) (zpoly, bool) {
		v := zpoly{}
		for i, r := range regs {
			x := z.word(vec[r].Extract(64*p, 64))
			if x.hi.Cmp(ones(laneLimbBits)) > 0 {
				return nil, false
			}
			v.addScaled(x.p, pow2(26*i))
		}
		return v, true
	}
	check := func(regs []int, p int) error {
		v, ok := lane(regs, p)
		if !ok {
			return fmt.Errorf("lane %d after turn %d: a limb may reach 2^%d", p, g+1, laneLimbBits)
		}
		want := zmod{zsum(hs[p], m[p]), p1305}.Mul(t8)
		if err := z.congruent(v, want.p, p1305); err != nil {
			return fmt.Errorf("lane %d after turn %d is not (H + block %d)·r^8 modulo 2^130-5: %w", p, g+1, c.start+8*g+laneBlock(p), err)
		}
		return nil
	}
	if c.regs == nil || check(c.regs, 0) != nil {
		c.regs = permute(cand, 5, func(regs []int) bool { return check(regs, 0) == nil })
	}
	if c.regs == nil {
		c.fail(fmt.Errorf("after turn %d no five vector registers hold lane 0's limbs of (h + block %d)·r^8 modulo 2^130-5", g+1, c.start+8*g))
		return
	}
	for p := range vecLanes {
		if err := check(c.regs, p); err != nil {
			c.fail(err)
			return
		}
	}
	var fresh []*sym.Word
	for i := range 5 {
		var ls []*sym.Word
		for p := range vecLanes {
			if i == 0 {
				c.h[p] = make([]*sym.Word, 5)
			}
			c.h[p][i] = c.pc.ctx.Var(fmt.Sprintf("H%d.%d.%d.%d", c.start, g+1, p, i), laneLimbBits).ZeroExtend(64)
			ls = append(ls, c.h[p][i])
		}
		fresh = append(fresh, sym.Concat(ls...))
	}
	replaceAll(vec[:], c.regs, fresh)
	c.turns++
}

// exit checks h's registers at the loop's exit and hands h back to the
// polyChain, advanced by the blocks the lanes took.
func (c *laneChain) exit(gp *[16]*sym.Word) {
	if c.turns == 0 || c.pc.err != nil {
		return
	}
	g := c.turns - 1 // the last group: added, then multiplied by the powers
	blocks := c.blockWords(g)
	if blocks == nil || c.turns < 2 {
		c.fail(fmt.Errorf("the lanes' loop ends after %d turns, past the MAC input's %d blocks", c.turns, len(c.pc.blocks)))
		return
	}
	if err := checkLaneAlgebra(); err != nil {
		c.fail(err)
		return
	}
	var words []*sym.Word
	for _, w := range gp {
		if _, constant := w.Value(); !constant {
			words = append(words, w)
		}
	}
	z := newZReader(append(append(words, blocks...), c.known()...)...)
	var cand []int
	for i, w := range gp {
		if _, constant := w.Value(); !constant && z.reads(z.word(w).p, blocks) {
			cand = append(cand, i)
		}
	}
	m, err := c.group(z, g)
	if err != nil {
		c.fail(err)
		return
	}
	hs := c.lanes(z)
	want := zmod{zpoly{}, p1305}
	for p := range vecLanes {
		want = want.Add(zmod{zsum(hs[p], m[p]), p1305}.Mul(zmod{c.pow.power(z, lanePow(p)), p1305}))
	}
	var bad error
	regs := permute(cand, 3, func(regs []int) bool {
		if z.word(gp[regs[2]]).hi.Cmp(big.NewInt(7)) > 0 {
			return false
		}
		bad = z.congruent(z.word(sym.Concat(gp[regs[0]], gp[regs[1]], gp[regs[2]])).p, want.p, p1305)
		return bad == nil
	})
	if regs == nil {
		c.fail(fmt.Errorf("after the lanes' loop no three registers hold Σ_p (H_p + block)·r^k with the top limb below 8 (%v)", bad))
		return
	}
	c.pc.regs = regs
	c.pc.suspended = false
	c.pc.advance(gp, 8*c.turns-c.pc.done+c.start)
	c.turns = 0
}

// reads reports whether p mentions a variable of the bytes ws as z reads
// them.
func (z *zreader) reads(p zpoly, ws []*sym.Word) bool {
	vars := map[uint32]bool{}
	for _, w := range ws {
		for _, t := range z.word(w).p {
			for _, v := range t.vars {
				vars[v] = true
			}
		}
	}
	for _, t := range p {
		for _, v := range t.vars {
			if vars[v] {
				return true
			}
		}
	}
	return false
}

// checkLaneAlgebra checks, as polynomials in r, A, H_p and M_p, the three
// identities that make the lanes' checks the specification's loop (see
// the top of this file), with D(H, A) = Σ_p H_p·r^lanePow(p) - r^8·A:
//
//	D((A, 0, ..., 0), A) = 0,
//	D(H', A') = r^8·D(H, A) for H'_p = (H_p + M_p)·r^8 and A' the
//	    specification's loop from A over the group (block laneBlock(p) is M_p),
//	Σ_p (H_p + M_p)·r^lanePow(p) - A' = D(H, A).
func checkLaneAlgebra() error {
	z := &zreader{byName: map[string]uint32{}}
	one := big.NewInt(1)
	v := func(name string) zmod { return zmod{z.variable(name, one), p1305} }
	r, a := v("r"), v("A")
	pow := func(k int) zmod {
		x := zmod{zconst(one), p1305}
		for range k {
			x = x.Mul(r)
		}
		return x
	}
	var h, m [vecLanes]zmod
	group := make([]zmod, vecLanes)
	for p := range vecLanes {
		h[p], m[p] = v(fmt.Sprintf("H%d", p)), v(fmt.Sprintf("M%d", p))
		group[laneBlock(p)] = m[p]
	}
	neg := func(x zmod) zmod {
		p := zpoly{}
		p.addScaled(x.p, big.NewInt(-1))
		return zmod{p.reduce(p1305), p1305}
	}
	d := func(h [vecLanes]zmod, a zmod) zmod {
		s := neg(pow(8).Mul(a))
		for p := range h {
			s = s.Add(h[p].Mul(pow(lanePow(p))))
		}
		return s
	}
	zero := zmod{zpoly{}, p1305}
	var entry [vecLanes]zmod
	for p := range entry {
		entry[p] = zero
	}
	entry[0] = a
	if err := z.congruent(d(entry, a).p, nil, p1305); err != nil {
		return fmt.Errorf("the lanes' layout: h in lane 0 is not the loop's start: %w", err)
	}
	var next [vecLanes]zmod
	exit := neg(spec.PolyAccumulate(a, group, r))
	for p := range next {
		next[p] = h[p].Add(m[p]).Mul(pow(8))
		exit = exit.Add(h[p].Add(m[p]).Mul(pow(lanePow(p))))
	}
	if err := z.congruent(d(next, spec.PolyAccumulate(a, group, r)).p, pow(8).Mul(d(h, a)).p, p1305); err != nil {
		return fmt.Errorf("the lanes' layout: a turn is not eight blocks of the loop: %w", err)
	}
	if err := z.congruent(exit.p, d(h, a).p, p1305); err != nil {
		return fmt.Errorf("the lanes' layout: the exit is not the loop's last eight blocks: %w", err)
	}
	return nil
}
