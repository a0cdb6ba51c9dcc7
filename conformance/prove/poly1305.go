package prove

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/chacha20poly1305"
)

// p1305 is the Poly1305 prime 2^130 - 5.
var p1305 = new(big.Int).Sub(pow2(130), big.NewInt(5))

// h2Bits is the width of the accumulator's top limb every Poly1305 kernel
// takes and leaves: h below 2^131, partially reduced.
const h2Bits = 3

// clampedR is r as 16 bytes of variables with the clamp's bits zero: the
// variables are the runs of bits the clamp keeps, so the integer reading
// sees r as their weighted sum.
func clampedR(ctx *sym.Ctx, name string) []*sym.Word {
	var bits []*sym.Word
	run := 0
	flush := func() {
		if run > 0 {
			bits = append(bits, ctx.Var(fmt.Sprintf("%s.%d", name, len(bits)), run))
			run = 0
		}
	}
	for i := 0; i < 128; i++ {
		if spec.ClampR[i/8]>>(i%8)&1 == 1 {
			run++
			continue
		}
		flush()
		bits = append(bits, sym.Zero(1))
	}
	flush()
	return sym.Concat(bits...).Bytes()
}

// PolyBlocks proves a Poly1305 block function with the signature
// func(p *[7]uint64, msg *byte, n int) — h = p[0..2], r = p[3..4], s =
// p[5..6]; for each 16-byte block m of msg[:n], h = (h + m + 2^128)·r mod p,
// partially reduced — equal to spec.PolyAccumulate for every accumulator
// whose top limb is below 2^h2Bits, every clamped r and every message: the
// value the function leaves is congruent to the specification's modulo
// 2^130 - 5, its top limb is again below 2^h2Bits, and r and s are kept.
//
// The loop is cut at each turn (polyChain): the registers that held h's
// limbs when it was first reached are replaced by fresh variables once the
// words they hold are shown to be the next block of the specification's
// loop from the previous turn's variables, the top limb in range. So each
// turn is proven for every h in range, and the turns chain to the
// specification's loop over all of msg.
func PolyBlocks(p *x86sim.Program, fn string, n int) error {
	ctx := sym.NewCtx()
	h := [3]*sym.Word{ctx.Var("h0", 64), ctx.Var("h1", 64), sym.Concat(ctx.Var("h2", h2Bits), sym.Zero(64-h2Bits))}
	r := clampedR(ctx, "r")
	state := append(append(sym.Concat(h[:]...).Bytes(), r...), ctx.Var("s", 128).Bytes()...)
	st := &x86sim.SymMem{Name: "p", Bytes: append([]*sym.Word(nil), state...)}
	msg := &x86sim.SymMem{Name: "msg", Bytes: vars(ctx, "m", n), ReadOnly: true}
	what := fmt.Sprintf("%s, n=%d", fn, n)
	chain := newPolyChain(ctx, msg.Bytes, r, h)
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: st}, {Mem: msg}, {Word: sym.Const(64, uint64(n))}},
		chain.cuts(p, fn)...); err != nil {
		return err
	}
	if chain.err != nil {
		return fmt.Errorf("%s: %w", what, chain.err)
	}
	if chain.done != len(chain.blocks) {
		return fmt.Errorf("%s: h holds %d of the message's %d blocks at the last cut", what, chain.done, len(chain.blocks))
	}
	if err := sameBytes("r and s", st.Bytes[24:], state[24:]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := sameBytes("h", st.Bytes[:24], sym.Concat(chain.h[:]...).Bytes()); err != nil {
		return fmt.Errorf("%s: h is not what the loop left: %w", what, err)
	}
	return nil
}

// A polyChain follows Poly1305's accumulator h through a function that
// hashes its message block by block in general registers: a block
// function's msg, or a seal or open's MAC input (spec.MACData). At each cut
// (every label) the registers holding h either hold the words of the last
// cut or more blocks of the specification's loop (the next blocks, those
// whose variables the words mention), which is checked, h's top limb in
// range, before they are replaced by fresh variables. h's registers are
// those that first hold its words together when h is variable (a block
// function's), or three that held zero at the cut before and now hold the
// first blocks (a seal's or open's, whose h starts at zero).
type polyChain struct {
	ctx    *sym.Ctx
	blocks [][]*sym.Word // the message's blocks, with their 0x01 bytes
	r      []*sym.Word   // r's bytes, clamped
	h      [3]*sym.Word  // h at the last cut
	done   int           // the blocks h holds
	regs   []int         // h's registers, once found
	zeros  []int         // the registers that held zero at the last cut, until regs
	// suspended is set while a laneChain holds h in zmm lanes: h's
	// registers are scratch then.
	suspended bool
	// lost is set when h's registers were reused after the text: the tag
	// finds h again.
	lost bool
	// tagged is set for a seal's or open's MAC input, whose last block (the
	// lengths) the tag absorbs.
	tagged bool
	err    error
}

// newPolyChain follows h from h0 over msg's blocks, with the clamped r.
func newPolyChain(ctx *sym.Ctx, msg, r []*sym.Word, h0 [3]*sym.Word) *polyChain {
	return &polyChain{ctx: ctx, blocks: spec.PolyBlocks(msg, sym.Const(8, 1)), r: r, h: h0}
}

// cuts are the chain's cuts: every label of fn (loop heads, partial
// blocks' ends, the passes of a long function's fused loops), after those
// of the key powers and the zmm lanes (polyvec.go) where fn has them.
func (c *polyChain) cuts(p *x86sim.Program, fn string) []x86sim.SymCut {
	pow := newPowChain(c.ctx, c.r)
	cs := append(pow.cuts(p, fn), newLaneChain(c, pow).cuts(p, fn)...)
	for _, l := range p.Labels(fn) {
		cs = append(cs, x86sim.SymCut{Label: l, Visit: c.visit})
	}
	return cs
}

func (c *polyChain) visit(_ int, gp *[16]*sym.Word) {
	if c.err != nil || c.suspended {
		return
	}
	if _, constant := sym.Concat(c.h[:]...).Value(); c.regs == nil && !constant {
		var regs []int
		for _, w := range c.h {
			if i := slices.IndexFunc(gp[:], func(x *sym.Word) bool { return sym.Equal(x, w) }); i >= 0 {
				regs = append(regs, i)
			}
		}
		if len(regs) < 3 {
			return // h is not in registers yet
		}
		c.regs = regs
	}
	if c.regs == nil {
		var zeros []int
		for i, w := range gp {
			if v, ok := w.Uint64(); ok && v == 0 {
				zeros = append(zeros, i)
			}
		}
		last := c.zeros
		c.zeros = zeros
		if len(last) < 3 || len(zeros) >= len(last) && !slices.ContainsFunc(last, func(i int) bool { return !slices.Contains(zeros, i) }) {
			return // no block yet
		}
		for _, a := range last {
			for _, b := range last {
				for _, d := range last {
					if a == b || a == d || b == d {
						continue
					}
					if k := c.steps([3]*sym.Word{gp[a], gp[b], gp[d]}); k > 0 {
						c.regs = []int{a, b, d}
						c.advance(gp, k)
						return
					}
				}
			}
		}
		return // a register other than h's changed
	}
	words := [3]*sym.Word{gp[c.regs[0]], gp[c.regs[1]], gp[c.regs[2]]}
	if sym.Equal(words[0], c.h[0]) && sym.Equal(words[1], c.h[1]) && sym.Equal(words[2], c.h[2]) {
		return
	}
	k := c.steps(words)
	if k == 0 && c.tagged && c.done == len(c.blocks)-1 {
		// Every block but the lengths is in h: the registers may be
		// reused until the tag, which reads h again from wherever the
		// code kept it and checks it is c.h (tag).
		c.regs, c.lost = nil, true
		return
	}
	if k == 0 {
		c.err = c.step(words, 1, 7)
		if c.err == nil {
			c.err = fmt.Errorf("h changes between two cuts, by blocks other than the next ones")
		}
		return
	}
	c.advance(gp, k)
}

// steps is how many more blocks words hold than the last cut's h, after
// checking that they hold them (0 if not): the blocks whose variables the
// words mention, counted on from the last cut's.
func (c *polyChain) steps(words [3]*sym.Word) int {
	z := newZReader(append(append(words[:], c.h[:]...), c.r...)...)
	z.word(sym.Concat(words[:]...))
	k := 0
	for i := c.done; i < len(c.blocks); i++ {
		before := len(z.vars)
		z.leNumber(c.blocks[i])
		if len(z.vars) > before || !slices.ContainsFunc(c.blocks[i], func(b *sym.Word) bool { _, ok := b.Value(); return !ok }) {
			break
		}
		k++
	}
	if k == 0 || c.step(words, k, 7) != nil {
		return 0
	}
	return k
}

// step checks that words (h's limbs) are k more blocks of the
// specification's loop from the last cut's h, the top limb at most top.
func (c *polyChain) step(words [3]*sym.Word, k int, top int64) error {
	if c.done+k > len(c.blocks) {
		return fmt.Errorf("h changes after the MAC input's %d blocks", len(c.blocks))
	}
	z := newZReader(append(append(words[:], c.h[:]...), c.r...)...)
	if hi := z.word(words[2]).hi; hi.Cmp(big.NewInt(top)) > 0 {
		return fmt.Errorf("block %d: h's top limb may reach %v, above %d", c.done+k-1, hi, top)
	}
	var ns []zmod
	for _, b := range c.blocks[c.done : c.done+k] {
		ns = append(ns, zmod{z.leNumber(b), p1305})
	}
	want := spec.PolyAccumulate(zmod{z.word(sym.Concat(c.h[:]...)).p, p1305}, ns, zmod{z.leNumber(c.r), p1305})
	if err := z.congruent(z.word(sym.Concat(words[:]...)).p, want.p, p1305); err != nil {
		return fmt.Errorf("block %d: h is not one more step of the specification's loop modulo 2^130-5: %w", c.done+k-1, err)
	}
	return nil
}

// advance replaces h's registers by fresh variables for the next turn,
// after k more blocks.
func (c *polyChain) advance(gp *[16]*sym.Word, k int) {
	c.done += k
	c.h = [3]*sym.Word{c.ctx.Var(fmt.Sprintf("h0.%d", c.done), 64), c.ctx.Var(fmt.Sprintf("h1.%d", c.done), 64),
		sym.Concat(c.ctx.Var(fmt.Sprintf("h2.%d", c.done), h2Bits), sym.Zero(64-h2Bits))}
	for i, reg := range c.regs {
		gp[reg] = c.h[i]
	}
}

// tag checks the tag words t (16 bytes, low first) the function computed
// after the last cut: the last block (the lengths) absorbed into h, then
// (h mod p) + s mod 2^128, with s the bytes s. The final reduction picks h
// or h + 5 - 2^130 by comparing (h + 5) >> 130 with zero (an "eq" atom): the
// compared word must be that of h + 5's carry chain from h's words, h below
// 2p, and in each case the tag is congruent to h + s, or h + 5 + s (that
// is, h - p + s), modulo 2^128.
func (c *polyChain) tag(t, s []*sym.Word) error {
	if c.err != nil {
		return c.err
	}
	if c.regs == nil && !c.lost && len(c.blocks) > 1 {
		return fmt.Errorf("no three registers that held zero at a cut ever held the specification's h after its first blocks")
	}
	tw := sym.Concat(t...)
	var eqs []*sym.Atom
	seen := map[*sym.Atom]bool{}
	var walk func(w *sym.Word)
	walk = func(w *sym.Word) {
		for _, pc := range w.Pieces() {
			for _, sl := range pc.Slices {
				if a := sl.Atom; !seen[a] {
					seen[a] = true
					if a.Op() == "eq" {
						eqs = append(eqs, a)
					}
					for _, x := range a.Args() {
						walk(x)
					}
				}
			}
		}
	}
	walk(tw)
	if len(eqs) != 1 {
		return fmt.Errorf("the tag depends on %d comparisons, not the final reduction's one", len(eqs))
	}
	e := eqs[0]
	w, k := eqArgs(e)
	if w == nil || k.Sign() != 0 {
		return fmt.Errorf("the final reduction's comparison is not of a word with zero")
	}
	h, err := c.reductionInput(w)
	if err != nil {
		return err
	}
	if err := c.step(h, 1, 6); err != nil {
		return fmt.Errorf("the lengths block: %w", err)
	}
	if c.done+1 != len(c.blocks) {
		return fmt.Errorf("the tag is taken after %d of the MAC input's %d blocks", c.done+1, len(c.blocks))
	}
	for _, below := range []bool{true, false} {
		v := sym.Zero(8)
		if below {
			v = sym.Const(8, 0xff) // (h + 5) >> 130 is zero: h < p
		}
		got := c.ctx.Subst(tw, map[*sym.Atom]*sym.Word{e: v})
		z := newZReader(append(append([]*sym.Word{got}, h[:]...), s...)...)
		want := zsum(z.word(sym.Concat(h[:]...)).p, z.leNumber(s))
		if !below {
			want = zsum(want, zconst(big.NewInt(5)))
		}
		if err := z.congruent(z.word(got).p, want, pow2(128)); err != nil {
			return fmt.Errorf("with h %s p, the tag is not h %s+ s modulo 2^128: %w", map[bool]string{true: "<", false: "≥"}[below], map[bool]string{true: "", false: "- p "}[below], err)
		}
	}
	return nil
}

// reductionInput finds h's words in w, the final reduction's compared word,
// and checks that w is (h + 5) >> 130 computed from them: g = h + 5 by ADD
// and two ADCs, then g2 >> 2. (The sum g2 = h2 + carry has h2's own
// summands flattened into it: h2 is the sum of the others.)
func (c *polyChain) reductionInput(w *sym.Word) ([3]*sym.Word, error) {
	fail := fmt.Errorf("the final reduction's compared word is not (h + 5) >> 130: %s", w)
	ps := w.Pieces()
	if len(ps) != 2 || len(ps[0].Slices) != 1 || ps[0].C != nil || ps[0].Slices[0].Bit != 2 || ps[0].W != 62 || ps[0].Slices[0].Atom.Op() != "add" {
		return [3]*sym.Word{}, fail
	}
	// carry is the 65-bit sum whose bit 64 x is (zero-extended), or nil.
	carry := func(x *sym.Word) *sym.Atom {
		if p := x.Pieces(); len(p) == 2 && len(p[0].Slices) == 1 && p[0].C == nil && p[0].W == 1 && p[0].Slices[0].Bit == 64 && p[0].Slices[0].Atom.Width() == 65 && p[0].Slices[0].Atom.Op() == "add" {
			return p[0].Slices[0].Atom
		}
		return nil
	}
	g2 := ps[0].Slices[0].Atom.Args()
	for i, x := range g2 {
		c1 := carry(x)
		if c1 == nil || len(c1.Args()) != 2 {
			continue
		}
		for j, y := range c1.Args() {
			c0 := carry(y)
			if c0 == nil || len(c0.Args()) != 2 {
				continue
			}
			for k, v := range c0.Args() {
				if five, ok := v.Value(); !ok || five.Int64() != 5 {
					continue
				}
				rest := append(append([]*sym.Word(nil), g2[:i]...), g2[i+1:]...)
				h := [3]*sym.Word{c0.Args()[1-k].Extract(0, 64), c1.Args()[1-j].Extract(0, 64), c.ctx.Add(rest...)}
				cf0 := c.ctx.Add(h[0].ZeroExtend(65), sym.Const(65, 5)).Extract(64, 1)
				cf1 := c.ctx.Add(h[1].ZeroExtend(65), cf0.ZeroExtend(65)).Extract(64, 1)
				if sym.Equal(w, c.ctx.Add(h[2], cf1.ZeroExtend(64)).Shr(2)) {
					return h, nil
				}
			}
		}
	}
	return [3]*sym.Word{}, fail
}

// tagCompared checks an open's result res: 1 exactly when the 16 bytes of
// tag equal the 16 bytes t the code compares them with, else 0. The code
// XORs the two halves with the tag's, ORs them and tests the OR for zero
// (an "eq" atom, 0xff when its arguments are equal): res must be bit 0 of
// such an atom, and t is read out of the OR's pieces and checked by
// building the comparison again from it. It returns t.
func tagCompared(ctx *sym.Ctx, res *sym.Word, tag []*sym.Word) ([]*sym.Word, error) {
	c, terms := res.BitTerms(0)
	for i := 1; i < res.Width(); i++ {
		if c, ts := res.BitTerms(i); c || len(ts) > 0 {
			return nil, fmt.Errorf("the result's bit %d is not zero", i)
		}
	}
	if c || len(terms) != 1 || terms[0].Atom.Op() != "eq" || terms[0].Bit != 0 {
		return nil, fmt.Errorf("the result is not the outcome of one comparison: %s", res)
	}
	e := terms[0].Atom
	or, k := eqArgs(e)
	if or == nil || k.Sign() != 0 || or.Width() != 64 {
		return nil, fmt.Errorf("the result is not a 64-bit word's comparison with zero")
	}
	tag0, tag1 := sym.Concat(tag[:8]...), sym.Concat(tag[8:]...)
	var lo, hi []*sym.Word
	for _, pc := range or.Pieces() {
		if len(pc.Slices) != 1 || pc.C != nil || pc.Slices[0].Atom.Op() != "or" || pc.Slices[0].Bit != 0 {
			return nil, fmt.Errorf("the compared word is not an OR of the tag's halves' differences: %s", or)
		}
		x, y := pc.Slices[0].Atom.Args()[0], pc.Slices[0].Atom.Args()[1]
		t0, t1 := tag0.Extract(pc.At, pc.W), tag1.Extract(pc.At, pc.W)
		if mentions(y, t0) {
			x, y = y, x
		}
		lo, hi = append(lo, sym.Xor(x, t0)), append(hi, sym.Xor(y, t1))
	}
	t := append(sym.Concat(lo...).Bytes(), sym.Concat(hi...).Bytes()...)
	again := ctx.Or(sym.Xor(sym.Concat(t[:8]...), tag0), sym.Xor(sym.Concat(t[8:]...), tag1))
	if !sym.Equal(or, again) {
		return nil, fmt.Errorf("the compared word is not an OR of the tag's halves' differences: %s", or)
	}
	return t, nil
}

// mentions reports whether x's bit terms include an atom of v's.
func mentions(x, v *sym.Word) bool {
	atoms := map[*sym.Atom]bool{}
	for _, pc := range v.Pieces() {
		for _, s := range pc.Slices {
			atoms[s.Atom] = true
		}
	}
	for _, pc := range x.Pieces() {
		for _, s := range pc.Slices {
			if atoms[s.Atom] {
				return true
			}
		}
	}
	return false
}
