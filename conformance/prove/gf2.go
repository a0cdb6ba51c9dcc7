package prove

import (
	"fmt"
	"slices"
	"sync"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// GHASH's products are where the canonical form stops deciding equality: a
// carry-less product of two variable operands is an atom ("clmul"), and the
// code reaches a field product through Karatsuba, reductions by the field
// polynomial and byte reflections that no rewriting of words turns into the
// specification's bit-serial multiply. So a GHASH proof reads the words the
// code left as polynomials over GF(2) in the bits of the atoms beneath them
// (base bits): a product of two linear forms is a polynomial of degree two,
// and one of those is equal to another exactly when their monomials are, for
// every value of the base bits. The specification's products are expanded
// into the same form from the multiplication table of GF(2^128), which its
// Mul gives on basis vectors (Mul is bilinear, so that table is all of it).
//
// Horner's rule multiplies each result again, which would raise the degree
// without bound. So where the code feeds a result of degree two into another
// product, the result is first shown to be a value the specification names
// (a GHASH prefix, a key power), bit for bit as a GF(2) linear combination of
// that value's bits plus a linear rest; those bits then stand for it as new
// base bits. That is sound: the substitution is an equality of functions of
// the bits below, checked, not assumed.

// A poly is a GF(2) polynomial of degree at most two in base bits, as the
// sorted set of its monomials. A monomial is lo<<32 | hi with lo ≤ hi: the
// product of the base bits lo and hi, or the bit hi alone when lo is 0, or
// the constant 1 when both are. Base bits are numbered from 1, and a bit
// times itself is the bit.
type poly []uint64

const one = uint64(0)

// mono is the monomial a·b (a or b 0 for the constant 1).
func mono(a, b uint32) uint64 {
	if a > b {
		a, b = b, a
	}
	if a == b {
		a = 0
	}
	return uint64(a)<<32 | uint64(b)
}

// quadratic reports whether m is a product of two base bits.
func quadratic(m uint64) bool { return m>>32 != 0 }

// collect sorts ms and keeps the monomials that occur an odd number of
// times: the sum over GF(2).
func collect(ms []uint64) poly {
	slices.Sort(ms)
	out := ms[:0]
	for i := 0; i < len(ms); {
		j := i
		for j < len(ms) && ms[j] == ms[i] {
			j++
		}
		if (j-i)%2 == 1 {
			out = append(out, ms[i])
		}
		i = j
	}
	return slices.Clip(out)
}

// xorPoly is a + b.
func xorPoly(a, b poly) poly {
	r := make(poly, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			r = append(r, a[i])
			i++
		case i == len(a) || a[i] > b[j]:
			r = append(r, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return r
}

func (p poly) linear() bool {
	return len(p) == 0 || !quadratic(p[len(p)-1])
}

// mulInto appends the monomials of a·b, both linear, to ms.
func mulInto(ms []uint64, a, b poly) []uint64 {
	for _, x := range a {
		for _, y := range b {
			ms = append(ms, mono(uint32(x), uint32(y)))
		}
	}
	return ms
}

// gfTable is GF(2^128)'s multiplication on basis vectors, in
// SP 800-38D's bit order (bit 0 the most significant bit of byte 0): bit k
// of e_i·e_j is set for the pairs gfTable[k] holds.
var gfTable = sync.OnceValue(func() [128][][2]uint8 {
	var t [128][][2]uint8
	for i := 0; i < 128; i++ {
		for j := 0; j < 128; j++ {
			p := spec.Mul(unit(i), unit(j))
			for k := 0; k < 128; k++ {
				if p[k/8]>>(7-k%8)&1 == 1 {
					t[k] = append(t[k], [2]uint8{uint8(i), uint8(j)})
				}
			}
		}
	}
	return t
})

// unit is the block with only bit i set (SP 800-38D's order).
func unit(i int) (b [16]byte) {
	b[i/8] = 0x80 >> (i % 8)
	return b
}

// An elem is a GF(2^128) element as 128 polynomials, bit k in SP 800-38D's
// order.
type elem [128]poly

// gfMul is u·v in GF(2^128) for u and v linear in base bits.
func gfMul(u, v *elem) elem {
	t := gfTable()
	var r elem
	var ms []uint64
	for k := range r {
		ms = ms[:0]
		for _, ij := range t[k] {
			ms = mulInto(ms, u[ij[0]], v[ij[1]])
		}
		r[k] = collect(slices.Clone(ms))
	}
	return r
}

func (a *elem) xor(b *elem) {
	for k := range a {
		a[k] = xorPoly(a[k], b[k])
	}
}

// specBit is where bit k of a 16-byte block in SP 800-38D's order is in the
// block as a word (byte i at bits 8i..8i+7).
func specBit(k int) int { return 8*(k/8) + 7 - k%8 }

// A chain is what a proof's products are meant to compute: it names the
// values a result of degree two fed into another product may be.
type chain interface {
	// candidates are the values worth trying for the result ps (in the
	// code's layout), given the abstractions (by meaning) and base bits its
	// quadratic monomials mention.
	candidates(x *expander, ps []poly, abs []int, base []uint32) []candidate
}

// A candidate is a value the specification names: its meaning (an index
// the chain gives it) and its bits over the base below it.
type candidate struct {
	meaning int
	key     string
	// linear says the value is linear in the base below it.
	linear bool
	value  func() elem
	// pivots, when not nil, is a part of the value whose quadratic
	// monomials no other part has: each bit's pivot may be chosen in it.
	pivots func() elem
}

// An abstraction is a candidate shown equal to a code result: first is the
// number of the base bit that stands for its bit 0 (SP 800-38D's order), the
// others following.
type abstraction struct {
	meaning int
	first   uint32
}

// An expander reads words as polynomials (x86sim/sym's canonical form below,
// this file's above).
type expander struct {
	ids   map[sym.AtomBit]uint32
	next  uint32
	memo  map[*sym.Atom][]poly
	chain chain
	// abs are the abstractions by meaning, absOf the meaning each
	// abstraction bit stands in for (by its number).
	abs     map[int]abstraction
	absOf   map[uint32]int
	pivots  map[string]*echelon
	targets map[string]elem
}

func newExpander(c chain) *expander {
	return &expander{ids: map[sym.AtomBit]uint32{}, memo: map[*sym.Atom][]poly{}, chain: c,
		abs: map[int]abstraction{}, absOf: map[uint32]int{}, pivots: map[string]*echelon{}, targets: map[string]elem{}}
}

// id numbers a base bit.
func (x *expander) id(b sym.AtomBit) uint32 {
	if n, ok := x.ids[b]; ok {
		return n
	}
	x.next++
	x.ids[b] = x.next
	return x.next
}

// bit is bit i of w as a polynomial.
func (x *expander) bit(w *sym.Word, i int) (poly, error) {
	c, terms := w.BitTerms(i)
	var ms []uint64
	if c {
		ms = append(ms, one)
	}
	// Products' bits are sorted already: merge them, pairwise.
	var products []poly
	for _, t := range terms {
		if t.Atom.Op() != "clmul" {
			ms = append(ms, mono(0, x.id(t)))
			continue
		}
		bits, err := x.clmul(t.Atom)
		if err != nil {
			return nil, err
		}
		products = append(products, bits[t.Bit])
	}
	products = append(products, collect(ms))
	for len(products) > 1 {
		var next []poly
		for k := 0; k+1 < len(products); k += 2 {
			next = append(next, xorPoly(products[k], products[k+1]))
		}
		if len(products)%2 == 1 {
			next = append(next, products[len(products)-1])
		}
		products = next
	}
	return products[0], nil
}

// bits is every bit of w.
func (x *expander) bits(w *sym.Word) ([]poly, error) {
	ps := make([]poly, w.Width())
	for i := range ps {
		p, err := x.bit(w, i)
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	return ps, nil
}

// clmul is the 128 bits of a carry-less product atom.
func (x *expander) clmul(a *sym.Atom) ([]poly, error) {
	if r, ok := x.memo[a]; ok {
		return r, nil
	}
	if args := a.Args(); len(args) != 2 || args[0].Width() != 64 || args[1].Width() != 64 || a.Width() != 128 {
		return nil, fmt.Errorf("a clmul atom of %d arguments, %d bits, is not the model's 64×64-bit product", len(args), a.Width())
	}
	var ops [2][]poly
	for k, w := range a.Args() {
		ps, err := x.bits(w)
		if err == nil {
			ps, err = x.linearize(ps)
		}
		if err != nil {
			return nil, err
		}
		ops[k] = ps
	}
	r := make([]poly, 128)
	var ms []uint64
	for m := range r {
		ms = ms[:0]
		for i := max(0, m-63); i <= min(m, 63); i++ {
			ms = mulInto(ms, ops[0][i], ops[1][m-i])
		}
		r[m] = collect(slices.Clone(ms))
	}
	x.memo[a] = r
	return r, nil
}

// linearize rewrites ps, a code result about to be multiplied again, as
// linear polynomials: unchanged when they already are, else over the bits
// of the value the chain names that ps are a linear combination of (plus a
// linear rest).
func (x *expander) linearize(ps []poly) ([]poly, error) {
	quad, dense := false, false
	_, always := x.chain.(linearChain)
	for _, p := range ps {
		if len(p) > 16 || always && len(p) > 1 {
			dense = true
		}
		if !p.linear() {
			quad = true
		}
	}
	if !quad && dense {
		// A linear operand of many terms a bit (a square, which spreads
		// each bit over half the others): written over the bits of the
		// value it is, when the chain names one, its products stay small.
		// A chain that names linear values has every operand of more than
		// one term a bit so written, for its products to be in its terms.
		lc, ok := x.chain.(linearChain)
		if !ok {
			return ps, nil
		}
		abs, base := x.mentions(ps, false)
		if out, ok, err := x.substitute(ps, lc.linearCandidates(x, abs, base)); ok || err != nil {
			return out, err
		}
		return ps, nil
	}
	if !quad {
		return ps, nil
	}
	abs, base := x.mentions(ps, true)
	cands := x.chain.candidates(x, ps, abs, base)
	if out, ok, err := x.substitute(ps, cands); ok || err != nil {
		return out, err
	}
	return nil, fmt.Errorf("a product's operand (%d bits) is of degree two and none of the %d values the specification names for it (%v)", len(ps), len(cands), candidateKeys(cands))
}

// mentions are the abstractions (by meaning, sorted) and the other base
// bits that ps's monomials name: their quadratic monomials only, when
// quadOnly.
func (x *expander) mentions(ps []poly, quadOnly bool) (abs []int, base []uint32) {
	seen := map[int]bool{}
	for _, p := range ps {
		for _, m := range p {
			if m == one || quadOnly && !quadratic(m) {
				continue
			}
			for _, b := range []uint32{uint32(m >> 32), uint32(m)} {
				if b == 0 {
					continue
				}
				if mn, ok := x.absOf[b]; ok {
					seen[mn] = true
				} else {
					base = append(base, b)
				}
			}
		}
	}
	return sortedKeys(seen), base
}

// A linearChain also names the values a dense linear operand may be.
type linearChain interface {
	linearCandidates(x *expander, abs []int, base []uint32) []candidate
}

func sortedKeys(m map[int]bool) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// substitute writes ps over the bits of the first candidate they are a
// combination of (plus a rest: linear for a quadratic candidate, constant
// for a linear one), the candidate's bits becoming base bits that stand for
// it; ok is false when none is.
func (x *expander) substitute(ps []poly, cands []candidate) ([]poly, bool, error) {
	for _, c := range cands {
		e, err := x.echelonOf(c)
		if err != nil {
			return nil, false, err
		}
		out, ok := e.reduce(ps)
		if !ok {
			continue
		}
		a, ok := x.abs[c.meaning]
		if !ok {
			a = abstraction{meaning: c.meaning, first: x.next + 1}
			x.next += 128
			x.abs[c.meaning] = a
			for k := uint32(0); k < 128; k++ {
				x.absOf[a.first+k] = c.meaning
			}
		}
		res := make([]poly, len(ps))
		for i := range out {
			var ms []uint64
			for k := uint32(0); k < 128; k++ {
				if out[i].bits[k/64]>>(k%64)&1 == 1 {
					ms = append(ms, mono(0, a.first+k))
				}
			}
			res[i] = xorPoly(out[i].rest, collect(ms))
		}
		return res, true, nil
	}
	return nil, false, nil
}

func candidateKeys(cs []candidate) []string {
	var ks []string
	for _, c := range cs {
		ks = append(ks, c.key)
	}
	return ks
}

// target is a candidate's value, computed once.
func (x *expander) target(c candidate) elem {
	if v, ok := x.targets[c.key]; ok {
		return v
	}
	v := c.value()
	x.targets[c.key] = v
	return v
}

// An echelon is a value's 128 bits in reduced row echelon form over their
// quadratic monomials: rows, each the sum of the bits combo holds, with a
// pivot each, a quadratic monomial no other row has. A polynomial is a sum
// of the value's bits plus a linear rest exactly when removing the rows
// whose pivots it holds leaves it linear.
type echelon struct {
	rows   []poly
	combos [][2]uint64
	pivots map[uint64]int
	// linear: the pivots are the value's base bits, and the rest of a
	// reduction must be a constant.
	linear bool
}

// pivotable says whether m may be a pivot.
func (e *echelon) pivotable(m uint64) bool { return quadratic(m) || e.linear && m != one }

func (x *expander) echelonOf(c candidate) (*echelon, error) {
	if e, ok := x.pivots[c.key]; ok {
		return e, nil
	}
	bits := x.target(c)
	var e *echelon
	if c.pivots != nil {
		part := c.pivots()
		e = uniquePivots(&bits, &part)
	}
	if e == nil {
		e = eliminate(&bits, c.linear)
	}
	x.pivots[c.key] = e
	return e, nil
}

// uniquePivots is the echelon when every bit of part, a part of the value
// bits whose quadratic monomials no other part has, has a quadratic
// monomial no other bit of it has (the bits themselves are then the rows),
// or nil.
func uniquePivots(bits, part *elem) *echelon {
	count := map[uint64]int{}
	for _, r := range part {
		for _, m := range r {
			if quadratic(m) {
				count[m]++
			}
		}
	}
	e := &echelon{pivots: map[uint64]int{}}
	for k, r := range bits {
		found := false
		for _, m := range part[k] {
			if quadratic(m) && count[m] == 1 {
				e.pivots[m] = k
				found = true
				break
			}
		}
		if !found {
			return nil
		}
		e.rows = append(e.rows, r)
		e.combos = append(e.combos, [2]uint64{})
		e.combos[k][k/64] |= 1 << (k % 64)
	}
	return e
}

// eliminate is Gauss-Jordan elimination over the quadratic monomials (all
// but the constant, for a linear value).
func eliminate(bits *elem, linear bool) *echelon {
	e := &echelon{pivots: map[uint64]int{}, linear: linear}
	for k, r := range bits {
		var combo [2]uint64
		combo[k/64] |= 1 << (k % 64)
		for _, m := range slices.Clone(r) {
			if j, ok := e.pivots[m]; ok {
				r = xorPoly(r, e.rows[j])
				combo[0] ^= e.combos[j][0]
				combo[1] ^= e.combos[j][1]
			}
		}
		if len(r) == 0 || !e.pivotable(r[len(r)-1]) {
			continue // a sum of earlier bits, up to a rest
		}
		pivot := r[len(r)-1]
		for j := range e.rows {
			if _, ok := slices.BinarySearch(e.rows[j], pivot); ok {
				e.rows[j] = xorPoly(e.rows[j], r)
				e.combos[j][0] ^= combo[0]
				e.combos[j][1] ^= combo[1]
			}
		}
		e.pivots[pivot] = len(e.rows)
		e.rows = append(e.rows, r)
		e.combos = append(e.combos, combo)
	}
	return e
}

// A combination is a polynomial as a sum of a value's bits (a bit set)
// plus a rest.
type combination struct {
	bits [2]uint64
	rest poly
}

// reduce writes each of ps as bits plus a linear rest, or reports that one
// cannot be.
func (e *echelon) reduce(ps []poly) ([]combination, bool) {
	out := make([]combination, len(ps))
	for i, p := range ps {
		rest := p
		var combo [2]uint64
		for _, m := range p {
			if j, ok := e.pivots[m]; ok {
				rest = xorPoly(rest, e.rows[j])
				combo[0] ^= e.combos[j][0]
				combo[1] ^= e.combos[j][1]
			}
		}
		if len(rest) > 0 && e.pivotable(rest[len(rest)-1]) {
			return nil, false
		}
		out[i] = combination{combo, rest}
	}
	return out, true
}

// linearElem reads a 16-byte block (a word of 128 bits, bytes low first) as
// an element whose bits must be linear.
func (x *expander) linearElem(w *sym.Word) (elem, error) {
	var e elem
	for k := range e {
		p, err := x.bit(w, specBit(k))
		if err != nil {
			return e, err
		}
		if !p.linear() {
			return e, fmt.Errorf("bit %d of a block the specification hashes is not linear in its inputs", k)
		}
		e[k] = p
	}
	return e, nil
}

// absElem is the abstraction of meaning as an element.
func (x *expander) absElem(meaning int) elem {
	var e elem
	a := x.abs[meaning]
	for k := range e {
		e[k] = poly{mono(0, a.first+uint32(k))}
	}
	return e
}
