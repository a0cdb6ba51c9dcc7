package prove

import (
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// The key table's GHASH entries, as a GHASH proof will need them: the table
// holds H, H^2, ..., H^npow, each as encPower(H^k) with its Karatsuba half
// (TestTableLayout checks this against every backend's gcmInit on the
// model).

// xInv is x^-1 in GF(2^128) (x^127 + x^6 + x + 1), and xElem is x.
var (
	xInv  = [16]byte{0: 0xc2, 15: 0x01}
	xElem = [16]byte{0: 0x40}
)

// encPower is how the key table holds the element f: f·x^-1 with its bytes
// reversed.
func encPower(f [16]byte) (e [16]byte) {
	g := spec.Mul(f, xInv)
	for i := range e {
		e[i] = g[15-i]
	}
	return e
}

// decPower inverts encPower.
func decPower(e [16]byte) [16]byte {
	var g [16]byte
	for i := range g {
		g[i] = e[15-i]
	}
	return spec.Mul(g, xElem)
}

// karatsuba is the Karatsuba half of an entry: the XOR of its qwords, in
// both.
func karatsuba(e [16]byte) (k [16]byte) {
	for i := 0; i < 8; i++ {
		k[i] = e[i] ^ e[i+8]
		k[i+8] = k[i]
	}
	return k
}

// gcmLayout is where a backend's table holds H^m and its Karatsuba half.
type gcmLayout struct{ npow int }

func (l gcmLayout) pow(m int) int { return gcmPowers + 16*(l.npow-m) }
func (l gcmLayout) kar(m int) int { return gcmPowers + 16*l.npow + 16*(l.npow-m) }

// gcmPowers is the offset of the key powers in the table, after fifteen
// round keys.
const gcmPowers = 15 * 16

// A ghashChain is GHASH from the state y0 over blocks, with the key powers
// H^k at powers[k-1]: value t is the state after block t, written from the
// last value s the code's operands were shown to be as
//
//	y_t = y_s·H^(t-s) + Σ_{s<i≤t} b_i·H^(t-i+1)
//
// (y_0 = y0), which is Horner's rule regrouped: equal to it for any s when
// the powers are H's (the proofs take the table's powers as independent
// variables, so they hold for every table of that shape, the real one
// among them).
type ghashChain struct {
	y0       elem
	blocks   []elem
	constant []bool
	powers   []elem
	// blockOf is the block (from 1) each base bit of only one block
	// belongs to.
	blockOf map[uint32]int
}

func newGHASHChain(x *expander, y0 elem, blocks []*sym.Word, powers []elem) (*ghashChain, error) {
	g := &ghashChain{y0: y0, powers: powers, blockOf: map[uint32]int{}}
	shared := map[uint32]bool{}
	for i, b := range blocks {
		e, err := x.linearElem(b)
		if err != nil {
			return nil, err
		}
		g.blocks = append(g.blocks, e)
		constant := true
		for _, p := range e {
			for _, m := range p {
				if m != one {
					constant = false
					if j, ok := g.blockOf[uint32(m)]; ok && j != i+1 {
						shared[uint32(m)] = true
					}
					g.blockOf[uint32(m)] = i + 1
				}
			}
		}
		g.constant = append(g.constant, constant)
	}
	// A bit several blocks share (the last round key, in every ciphertext
	// block) tells none of them apart.
	for b := range shared {
		delete(g.blockOf, b)
	}
	return g, nil
}

func (g *ghashChain) candidates(x *expander, ps []poly, abs []int, base []uint32) []candidate {
	if len(abs) > 1 {
		return nil
	}
	s := 0
	if len(abs) == 1 {
		s = abs[0]
	}
	t := s + 1
	for _, b := range base {
		t = max(t, g.blockOf[b])
	}
	var cs []candidate
	for ; t <= len(g.blocks) && t-s <= len(g.powers); t++ {
		cs = append(cs, g.state(x, s, t))
		if t < len(g.blocks) && !g.constant[t] {
			break
		}
	}
	return cs
}

// state is y_t written from y_s.
func (g *ghashChain) state(x *expander, s, t int) candidate {
	// The terms multiply distinct powers, whose bits are distinct
	// variables: no two share a quadratic monomial, and the pivots may come
	// from any one of them (the first block's: never the lengths block).
	return candidate{meaning: t, key: fmt.Sprintf("y%d from y%d", t, s), value: func() elem {
		y := g.y0
		if s > 0 {
			y = x.absElem(s)
		}
		r := gfMul(&y, &g.powers[t-s-1])
		for i := s + 1; i <= t; i++ {
			p := gfMul(&g.blocks[i-1], &g.powers[t-i])
			r.xor(&p)
		}
		return r
	}, pivots: func() elem {
		if s > 0 {
			y := x.absElem(s)
			return gfMul(&y, &g.powers[t-s-1])
		}
		return gfMul(&g.blocks[s], &g.powers[t-s-1])
	}}
}

// final checks that got (a 16-byte block as a word) is y_N XOR mask (N the
// number of blocks, mask a block linear in its inputs, nil for none).
func (g *ghashChain) final(x *expander, got, mask *sym.Word) error {
	return g.finalBits(x, got, mask, 128)
}

// finalBits is final for the first nbits bits (SP 800-38D's order, so the
// first nbits/8 bytes) of got: the rest is not compared.
func (g *ghashChain) finalBits(x *expander, got, mask *sym.Word, nbits int) error {
	ps := make([]poly, nbits)
	for k := range ps {
		p, err := x.bit(got, specBit(k))
		if err != nil {
			return err
		}
		if mask != nil {
			m, err := x.bit(mask, specBit(k))
			if err != nil {
				return err
			}
			p = xorPoly(p, m)
		}
		ps[k] = p
	}
	abs, _ := x.mentions(ps[:], true)
	if len(abs) > 1 {
		return fmt.Errorf("the hash mixes %d intermediate states", len(abs))
	}
	s := 0
	if len(abs) == 1 {
		s = abs[0]
	}
	n := len(g.blocks)
	if s >= n {
		return fmt.Errorf("the hash is written over y%d, not a state before the last of its %d blocks", s, n)
	}
	if n-s > len(g.powers) {
		return fmt.Errorf("the hash is %d blocks on from the last state the code was shown to hold (y%d), more than the table's %d powers", n-s, s, len(g.powers))
	}
	want := x.target(g.state(x, s, n))
	for k := range ps {
		if !slices.Equal(ps[k], want[k]) {
			return fmt.Errorf("bit %d (SP 800-38D's order) of the hash differs from the specification's y%d (written from y%d): %d monomials against %d", k, n, s, len(ps[k]), len(want[k]))
		}
	}
	return nil
}

// keyedTable is a proof's context, a key table of variables but for each
// power's Karatsuba half, the XOR of the power's halves as every gcmInit
// writes it (TestTableLayout), and an expander with the powers as elements:
// H^m = decPower(the entry at pow(m)).
func keyedTable(l gcmLayout) (*sym.Ctx, *x86sim.SymMem, *expander, []elem) {
	ctx := sym.NewCtx()
	t := &x86sim.SymMem{Name: "t", Bytes: vars(ctx, "t", gcmTableSize)}
	x := newExpander(nil)
	var powers []elem
	for m := 1; m <= l.npow; m++ {
		at, kat := l.pow(m), l.kar(m)
		for i := 0; i < 8; i++ {
			k := sym.Xor(t.Bytes[at+i], t.Bytes[at+i+8])
			t.Bytes[kat+i], t.Bytes[kat+i+8] = k, k
		}
		// The entry's bits are variables: their polynomials cannot fail.
		p, _ := x.decPower(sym.Concat(t.Bytes[at : at+16]...))
		powers = append(powers, p)
	}
	return ctx, t, x, powers
}

// decPowerCols is decPower on each bit of an entry (it is linear).
var decPowerCols = sync.OnceValue(func() (cols [128][16]byte) {
	for q := range cols {
		var e [16]byte
		e[q/8] = 1 << (q % 8)
		cols[q] = decPower(e)
	}
	return cols
})

// decPower is decPower of an entry (a word of 16 bytes), bit by bit: it is
// linear.
func (x *expander) decPower(entry *sym.Word) (elem, error) {
	var p elem
	for q, col := range decPowerCols() {
		b, err := x.bit(entry, q)
		if err != nil {
			return p, err
		}
		for k := 0; k < 128; k++ {
			if col[k/8]>>(7-k%8)&1 == 1 {
				p[k] = xorPoly(p[k], b)
			}
		}
	}
	return p, nil
}

// lengthsBlock is len(a)·8 || len(c)·8, 64 bits each, big-endian.
func lengthsBlock(aadLen, textLen int) *sym.Word {
	var b [16]*sym.Word
	a, c := uint64(aadLen)*8, uint64(textLen)*8
	for i := 0; i < 8; i++ {
		b[7-i] = sym.Const(8, a>>(8*i)&0xff)
		b[15-i] = sym.Const(8, c>>(8*i)&0xff)
	}
	return sym.Concat(b[:]...)
}

// hashWords is the bytes padded with zero bytes to whole blocks, as words.
func hashWords(ctx *sym.Ctx, b []*sym.Word) []*sym.Word {
	var ws []*sym.Word
	for _, bl := range blocks(ctx, b) {
		ws = append(ws, bl.w)
	}
	return ws
}

// GCMNonce proves a nonce hash, func(t *[752]byte, nonce *byte, n int, j0
// *[16]byte): for every key H (the table holding its powers as l says) and
// nonce of n bytes, j0 is GHASH_H of the nonce padded to whole blocks, then
// 0^64 || bitlen(nonce) (SP 800-38D Algorithm 4 step 2).
func GCMNonce(p *x86sim.Program, fn string, l gcmLayout, n int) error {
	return gcmNonce(p, fn, l, n, n)
}

// gcmNonce is GCMNonce with the specification told the nonce is specLen
// bytes (n, but for the tests that show a proof failing).
func gcmNonce(p *x86sim.Program, fn string, l gcmLayout, n, specLen int) error {
	ctx, t, x, powers := keyedTable(l)
	nonce := &x86sim.SymMem{Name: "nonce", Bytes: vars(ctx, "nonce", n)}
	j0 := &x86sim.SymMem{Name: "j0", Bytes: vars(ctx, "j0", 16)}
	hashed := append(hashWords(ctx, nonce.Bytes), lengthsBlock(0, specLen))
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: t}, {Mem: nonce}, {Word: sym.Const(64, uint64(n))}, {Mem: j0}}); err != nil {
		return err
	}
	g, err := newGHASHChain(x, elem{}, hashed, powers)
	if err != nil {
		return err
	}
	x.chain = g
	if err := g.final(x, sym.Concat(j0.Bytes...), nil); err != nil {
		return fmt.Errorf("%s, n=%d: j0: %w", fn, n, err)
	}
	return nil
}

// openResult checks an open's result: 1 exactly when the given tag (tagLen
// bytes, 12 to 16) equals the first tagLen bytes of E(J0) XOR y_N, else 0. The code compares the bytes of their
// difference with zero (an "eq" atom each, 0xff when its arguments are
// equal) and those bytes' results with all ones (another): so res must be
// bit 0 of an eq atom of a word and a constant, the word's bits eq atoms of
// one byte and zero, set where the constant is, and the bytes, in order,
// the difference with the given tag: the first tagLen bits, the rest
// constants that match (the code zeroes both sides' bytes from tagLen on).
func (g *ghashChain) openResult(x *expander, res, tag, mask *sym.Word, tagLen int) error {
	if v, ok := res.Uint64(); ok {
		return fmt.Errorf("the result is the constant %d", v)
	}
	c, terms := res.BitTerms(0)
	for i := 1; i < res.Width(); i++ {
		if c, ts := res.BitTerms(i); c || len(ts) > 0 {
			return fmt.Errorf("the result's bit %d is not zero", i)
		}
	}
	if c || len(terms) != 1 || terms[0].Atom.Op() != "eq" {
		return fmt.Errorf("the result is not the outcome of one comparison: %s", res)
	}
	w, k := eqArgs(terms[0].Atom)
	if w == nil {
		return fmt.Errorf("the result compares two variable words")
	}
	var diff []*sym.Word
	for i := 0; i < w.Width(); i++ {
		c, ts := w.BitTerms(i)
		want := k.Bit(i) == 1
		if len(ts) == 0 {
			if c != want {
				return fmt.Errorf("bit %d of the compared word is the constant %v, never the %v it is compared with", i, c, want)
			}
			continue
		}
		if c || !want || len(ts) != 1 || ts[0].Atom.Op() != "eq" {
			return fmt.Errorf("bit %d of the compared word is not a byte's comparison with zero", i)
		}
		d, z := eqArgs(ts[0].Atom)
		if d == nil || z.Sign() != 0 || d.Width() != 8 {
			return fmt.Errorf("bit %d of the compared word is not a byte's comparison with zero", i)
		}
		if i != len(diff) {
			return fmt.Errorf("bit %d of the compared word compares a byte, and bit %d does not", i, len(diff))
		}
		diff = append(diff, d)
	}
	if len(diff) != tagLen {
		return fmt.Errorf("the result compares %d bytes, not the tag's %d", len(diff), tagLen)
	}
	// Byte i of the compared word is byte i of the tag given XOR byte i of
	// the computed one; the bytes from tagLen on are not compared.
	got := sym.Xor(sym.Concat(append(diff, sym.Zero(8*(16-tagLen)))...), tag)
	return g.finalBits(x, got, mask, 8*tagLen)
}

// eqArgs are an eq atom's variable argument and its constant one, or nil
// when both vary.
func eqArgs(a *sym.Atom) (*sym.Word, *big.Int) {
	args := a.Args()
	for i, w := range args {
		if v, ok := w.Value(); ok {
			return args[1-i], v
		}
	}
	return nil, nil
}

// A powerChain is the key powers H^k (k ≤ max): value k is H^k. Squaring is
// linear over GF(2), so every H^(2^i) is linear in H's bits and every
// product of two such squares (of H or of a power the code was shown to
// hold) is of degree two: those are the values a power the code multiplies
// again may be.
type powerChain struct {
	h   elem
	max int
}

// square is u^2 for u linear: GF(2^128)'s product with the cross terms
// u_i·u_j + u_j·u_i cancelling in pairs and u_i·u_i = u_i, so bit k is the
// sum of the u_i whose e_i·e_i has bit k: again linear.
func square(u *elem) elem {
	t := gfTable()
	var r elem
	for k := range r {
		for _, ij := range t[k] {
			if ij[0] == ij[1] {
				r[k] = xorPoly(r[k], u[ij[0]])
			}
		}
	}
	return r
}

// base is the element a base stands for: H (1), as the bits that stand for
// it once an operand was shown to be it, or an abstraction.
func (c *powerChain) base(x *expander, b int) elem {
	if _, ok := x.abs[b]; !ok && b == 1 {
		return c.h
	}
	return x.absElem(b)
}

// squares is the linear elements b^(2^i) with b·2^i ≤ max.
func (c *powerChain) squares(x *expander, b int) (exps []int, es []elem) {
	e := c.base(x, b)
	for k := b; k <= c.max; k *= 2 {
		exps, es = append(exps, k), append(es, e)
		e = square(&e)
	}
	return exps, es
}

func (c *powerChain) candidates(x *expander, ps []poly, abs []int, base []uint32) []candidate {
	return c.products(x, c.bases(abs, base), 0)
}

// bases are the abstractions named, and H (1) when bits of the cipher's
// output are.
func (c *powerChain) bases(abs []int, base []uint32) []int {
	if len(base) > 0 && !slices.Contains(abs, 1) {
		return append([]int{1}, abs...)
	}
	return abs
}

func (c *powerChain) linearCandidates(x *expander, abs []int, base []uint32) []candidate {
	if len(base) > 0 {
		// H itself, over the bits of the cipher's output.
		return []candidate{{meaning: 1, key: "H", linear: true, value: func() elem { return c.h }}}
	}
	var cs []candidate
	for _, b := range abs {
		exps, es := c.squares(x, b)
		for i := 1; i < len(exps); i++ {
			v := es[i]
			cs = append(cs, candidate{meaning: exps[i], key: fmt.Sprintf("H^%d as a square of %d", exps[i], b), linear: true, value: func() elem { return v }})
		}
	}
	return cs
}

// products are the candidates b^(2^i)·b'^(2^j) over the bases named, of
// exponent k (any, for 0) up to max.
func (c *powerChain) products(x *expander, bases []int, k int) []candidate {
	var cs []candidate
	for i, u := range bases {
		for _, v := range bases[i:] {
			ue, us := c.squares(x, u)
			ve, vs := c.squares(x, v)
			for a := range ue {
				for b := range ve {
					if u == v && b <= a || ue[a]+ve[b] > c.max || k != 0 && ue[a]+ve[b] != k {
						continue
					}
					cu, cv := us[a], vs[b]
					cs = append(cs, candidate{meaning: ue[a] + ve[b], key: fmt.Sprintf("H^%d as H^%d·H^%d (from %d, %d)", ue[a]+ve[b], ue[a], ve[b], u, v),
						value: func() elem { return gfMul(&cu, &cv) }})
				}
			}
		}
	}
	return cs
}

// A keyWord is a symbolic key schedule word as spec.KeyWord: byte a0 at bits
// 0..7, as memory holds it.
type keyWord struct {
	ctx *sym.Ctx
	w   *sym.Word
}

func (a keyWord) Xor(b keyWord) keyWord { return keyWord{a.ctx, sym.Xor(a.w, b.w)} }

// SubWord is the S-box on each byte as an AES final round computes it on
// the word in all four columns (ShiftRows then moves nothing): the first
// column of the round's atom, the code's AESENCLAST of a broadcast word
// under a zero key. TestSubWordIsTheSpecification ties it to the S-box.
func (a keyWord) SubWord() keyWord {
	return keyWord{a.ctx, x86sim.AESFinalRound(a.ctx, sym.Concat(a.w, a.w, a.w, a.w)).Extract(0, 32)}
}

func (a keyWord) RotWord() keyWord { return keyWord{a.ctx, a.w.RotateLeft(24)} }

func (a keyWord) XorRcon(rcon byte) keyWord {
	return keyWord{a.ctx, sym.Xor(a.w, sym.Const(32, uint64(rcon)))}
}

// GCMInit proves a key table setup, func(t *[752]byte, key *byte, keyLen
// int): for every key of keyLen bytes, the table's round keys are
// KeyExpansion of the key (spec.KeyExpansion), and with H the cipher of the
// zero block under them, it holds H^m at pow(m) as encPower(H^m) and its
// Karatsuba half at kar(m), m = 1 .. l.npow.
func GCMInit(p *x86sim.Program, fn string, l gcmLayout, keyLen int) error {
	ctx := sym.NewCtx()
	t := &x86sim.SymMem{Name: "t", Bytes: vars(ctx, "t", gcmTableSize)}
	key := &x86sim.SymMem{Name: "key", Bytes: vars(ctx, "key", keyLen)}
	var words []keyWord
	for i := 0; i < keyLen; i += 4 {
		words = append(words, keyWord{ctx, sym.Concat(key.Bytes[i : i+4]...)})
	}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: t}, {Mem: key}, {Word: sym.Const(64, uint64(keyLen))}}); err != nil {
		return err
	}
	where := func(err error) error { return fmt.Errorf("%s, keyLen=%d: %w", fn, keyLen, err) }
	rounds := keyLen/4 + 6
	var schedule []*sym.Word
	for _, w := range spec.KeyExpansion(words) {
		schedule = append(schedule, w.w.Bytes()...)
	}
	if err := sameBytes("round keys", t.Bytes[:16*(rounds+1)], schedule); err != nil {
		return where(err)
	}
	h := spec.Cipher(blocks(ctx, t.Bytes[:16*(rounds+1)]), block{ctx, sym.Zero(128)})
	x := newExpander(nil)
	he, err := x.linearElem(h.w)
	if err != nil {
		return where(err)
	}
	c := &powerChain{h: he, max: l.npow}
	x.chain = c
	for m := 1; m <= l.npow; m++ {
		at, kat := l.pow(m), l.kar(m)
		for i := 0; i < 8; i++ {
			k := sym.Xor(t.Bytes[at+i], t.Bytes[at+i+8])
			if !sym.Equal(t.Bytes[kat+i], k) || !sym.Equal(t.Bytes[kat+i+8], k) {
				return where(fmt.Errorf("H^%d's Karatsuba half: byte %d is not the XOR of the entry's halves", m, i))
			}
		}
		got, err := x.decPower(sym.Concat(t.Bytes[at : at+16]...))
		if err != nil {
			return where(fmt.Errorf("H^%d: %w", m, err))
		}
		// A linear entry is H or a square of a base; else a product of two.
		abs, base := x.mentions(got[:], false)
		var cands []candidate
		for _, cand := range c.linearCandidates(x, abs, base) {
			if cand.meaning == m {
				cands = append(cands, cand)
			}
		}
		cands = append(cands, c.products(x, c.bases(abs, base), m)...)
		ok := false
		for _, cand := range cands {
			want := x.target(cand)
			if slices.EqualFunc(got[:], want[:], func(a, b poly) bool { return slices.Equal(a, b) }) {
				ok = true
				break
			}
		}
		if !ok {
			return where(fmt.Errorf("the entry of H^%d is none of the %d ways to H^%d from what it is computed of (%v)", m, len(cands), m, candidateKeys(cands)))
		}
	}
	return nil
}
