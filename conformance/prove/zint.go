package prove

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// The integer reading of symbolic words, for the carry chains of Poly1305:
// CryptoLine's method. A word's value is an integer polynomial in integer
// variables, each with a range [0, hi]:
//
//   - a sum or product of 64 bits or more (the atoms of ADD, ADC, MUL,
//     VPADDQ, VPMULUDQ) is the sum or product of its arguments' values;
//   - bits [lo, lo+w) of a value V are F(V, lo) - 2^w·F(V, lo+w), where
//     F(V, k) = floor(V / 2^k): a carry, a product's high half, a shift;
//   - anything else (a variable, an XOR of several atoms' bits, a 32-bit
//     sum) is a variable of its own, named by its bits in the canonical
//     form, ranging over [0, 2^w).
//
// F(V, k) is itself rewritten before it becomes a variable: V = 2^k·Q + R
// with R's coefficients in [0, 2^k) gives F(V, k) = Q + F(R, k), and F(R, k)
// is zero when R's largest value is below 2^k. Every rewrite is an identity
// of integers, so two values whose polynomials agree (or differ by a
// multiple of p in every coefficient) agree for every input; reading
// related quantities (a variable and its bits) as independent variables can
// only make an identity harder to show, never a false one true. The range
// of each value is also computed on the words themselves (interval
// arithmetic on sums, products and slices), which is what shows a carry
// zero.

// A zterm is a coefficient times a product of variables (their numbers,
// sorted, repeated for a power).
type zterm struct {
	vars []uint32
	c    *big.Int
}

// A zpoly is a polynomial: its terms by their variables' key.
type zpoly map[string]*zterm

func monoKey(vars []uint32) string {
	b := make([]byte, 4*len(vars))
	for i, v := range vars {
		binary.BigEndian.PutUint32(b[4*i:], v)
	}
	return string(b)
}

func zconst(c *big.Int) zpoly {
	p := zpoly{}
	if c.Sign() != 0 {
		p[""] = &zterm{c: new(big.Int).Set(c)}
	}
	return p
}

// addTerm adds c·vars to p.
func (p zpoly) addTerm(vars []uint32, c *big.Int) {
	if c.Sign() == 0 {
		return
	}
	k := monoKey(vars)
	if t := p[k]; t != nil {
		t.c.Add(t.c, c)
		if t.c.Sign() == 0 {
			delete(p, k)
		}
		return
	}
	p[k] = &zterm{vars: vars, c: new(big.Int).Set(c)}
}

// addScaled adds k·q to p (k nil for 1).
func (p zpoly) addScaled(q zpoly, k *big.Int) {
	for _, t := range q {
		c := t.c
		if k != nil {
			c = new(big.Int).Mul(c, k)
		}
		p.addTerm(t.vars, c)
	}
}

func (p zpoly) clone() zpoly {
	r := make(zpoly, len(p))
	for k, t := range p {
		r[k] = &zterm{vars: t.vars, c: new(big.Int).Set(t.c)}
	}
	return r
}

func zsum(ps ...zpoly) zpoly {
	r := zpoly{}
	for _, p := range ps {
		r.addScaled(p, nil)
	}
	return r
}

func zmul(a, b zpoly) zpoly {
	r := zpoly{}
	c := new(big.Int)
	for _, x := range a {
		for _, y := range b {
			vs := make([]uint32, 0, len(x.vars)+len(y.vars))
			vs = append(append(vs, x.vars...), y.vars...)
			slices.Sort(vs)
			r.addTerm(vs, c.Mul(x.c, y.c))
		}
	}
	return r
}

// reduce takes every coefficient modulo m (to [0, m)).
func (p zpoly) reduce(m *big.Int) zpoly {
	r := zpoly{}
	for k, t := range p {
		c := new(big.Int).Mod(t.c, m)
		if c.Sign() != 0 {
			r[k] = &zterm{vars: t.vars, c: c}
		}
	}
	return r
}

// key is the polynomial's canonical text.
func (p zpoly) key() string {
	ks := make([]string, 0, len(p))
	for k := range p {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k)
		b.WriteByte('*')
		b.WriteString(p[k].c.Text(62))
		b.WriteByte(';')
	}
	return b.String()
}

// A zvar is an integer variable ranging over [0, hi].
type zvar struct {
	name string
	hi   *big.Int
}

// A zval is a word's value and the top of its range (the bottom is 0).
type zval struct {
	p  zpoly
	hi *big.Int
}

// A zreader reads the words of one symbolic context as integers.
type zreader struct {
	vars   []zvar
	byName map[string]uint32
	atoms  map[*sym.Atom]zval
	// cuts are the bit positions at which the words read slice each
	// variable (by bitsKey): a slice of a variable is the weighted sum of
	// the pieces between them, so that the code's 64-bit word and the
	// specification's bytes, or a 26-bit limb, read the same variables.
	cuts map[string][]int
	// limits are ranges tighter than their width for whole variables: a
	// loop cut's fresh variable stands for a value the turn before was
	// shown to keep below the limit.
	limits map[*sym.Atom]*big.Int
}

// newZReader reads words, and any word made of the same slices of the
// variables (read after it).
func newZReader(words ...*sym.Word) *zreader {
	z := &zreader{byName: map[string]uint32{}, atoms: map[*sym.Atom]zval{}, cuts: map[string][]int{}, limits: map[*sym.Atom]*big.Int{}}
	seen := map[*sym.Atom]bool{}
	var walk func(x *sym.Word)
	walk = func(x *sym.Word) {
		for _, pc := range x.Pieces() {
			if key, at, ok := bitsKey(pc); ok {
				z.cuts[key] = append(z.cuts[key], at, at+pc.W)
				continue
			}
			if len(pc.Slices) != 1 {
				continue
			}
			s := pc.Slices[0]
			switch {
			case arith(s.Atom) && !seen[s.Atom]:
				seen[s.Atom] = true
				for _, a := range s.Atom.Args() {
					walk(a)
				}
			}
		}
	}
	for _, w := range words {
		walk(w)
	}
	for a, c := range z.cuts {
		slices.Sort(c)
		z.cuts[a] = slices.Compact(c)
	}
	return z
}

func pow2(k int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(k)) }

func ones(k int) *big.Int { return new(big.Int).Sub(pow2(k), big.NewInt(1)) }

// variable is the variable name, made with the range [0, hi] the first time.
func (z *zreader) variable(name string, hi *big.Int) zpoly {
	id, ok := z.byName[name]
	if !ok {
		id = uint32(len(z.vars))
		z.vars = append(z.vars, zvar{name, new(big.Int).Set(hi)})
		z.byName[name] = id
	}
	return zpoly{monoKey([]uint32{id}): &zterm{vars: []uint32{id}, c: big.NewInt(1)}}
}

// max is the largest value of p, whose coefficients must be non-negative.
func (z *zreader) max(p zpoly) *big.Int {
	s := new(big.Int)
	for _, t := range p {
		v := new(big.Int).Set(t.c)
		for _, id := range t.vars {
			v.Mul(v, z.vars[id].hi)
		}
		s.Add(s, v)
	}
	return s
}

// arith reports whether the integer reading sees through atom a: a sum, a
// product or a select (an element under a write mask whose bit is not a
// constant) of 64 bits or more.
func arith(a *sym.Atom) bool {
	return (a.Op() == "add" || a.Op() == "mul" || a.Op() == "select") && a.Width() >= 64
}

// word is x's value.
func (z *zreader) word(x *sym.Word) zval {
	r := zval{zpoly{}, new(big.Int)}
	for _, pc := range x.Pieces() {
		v := z.piece(pc)
		r.p.addScaled(v.p, pow2(pc.At))
		r.hi.Add(r.hi, new(big.Int).Lsh(v.hi, uint(pc.At)))
	}
	return r
}

func (z *zreader) piece(pc sym.Piece) zval {
	if len(pc.Slices) == 0 {
		if pc.C == nil {
			return zval{zpoly{}, new(big.Int)}
		}
		return zval{zconst(pc.C), new(big.Int).Set(pc.C)}
	}
	if s := pc.Slices[0]; len(pc.Slices) == 1 && arith(s.Atom) && (pc.C == nil || pc.C.Cmp(ones(pc.W)) == 0) {
		v := z.slice(z.atom(s.Atom), s.Bit, pc.W)
		if pc.C != nil { // the complement: 2^w - 1 - v
			p := zconst(ones(pc.W))
			p.addScaled(v.p, big.NewInt(-1))
			return zval{p, ones(pc.W)}
		}
		return v
	}
	if key, at, ok := bitsKey(pc); ok && z.cuts[key] != nil && (pc.Slices[0].Atom.Op() == "var" || z.limits[pc.Slices[0].Atom] == nil) {
		// A slice of a variable: the sum of its pieces.
		r := zval{zpoly{}, ones(pc.W)}
		cuts := z.cuts[key]
		i, _ := slices.BinarySearch(cuts, at)
		for lo := at; lo < at+pc.W; i++ {
			hi := at + pc.W
			if i+1 < len(cuts) && cuts[i] == lo {
				hi = min(hi, cuts[i+1])
			}
			// A slice the reader was not given (not at its cuts) is a
			// variable of its own: sound, if unlikely to prove.
			r.p.addScaled(z.variable(fmt.Sprintf("%s[%d:%d]", key, lo, hi), ones(hi-lo)), pow2(lo-at))
			lo = hi
		}
		return r
	}
	hi := ones(pc.W)
	if s := pc.Slices[0]; len(pc.Slices) == 1 && pc.C == nil && s.Bit == 0 && pc.W == s.Atom.Width() && z.limits[s.Atom] != nil {
		hi = z.limits[s.Atom]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bits%d", pc.W)
	if pc.C != nil {
		fmt.Fprintf(&b, "^%x", pc.C)
	}
	for _, s := range pc.Slices {
		fmt.Fprintf(&b, ",%v:%d", s.Atom, s.Bit)
	}
	return zval{z.variable(b.String(), hi), hi}
}

// bitsKey names the bits a piece without a constant XORs together, when
// the integer reading does not see through them (no sum or product of its
// own): bit k of the piece is bit at+k of the bit-vector key names, the XOR
// of its atoms' bits at fixed offsets from one another. A variable's slice
// is that variable's bits; a byte of ciphertext and the 26-bit limb that
// takes six of its bits are two slices of one such XOR, so the reader
// cuts them alike.
func bitsKey(pc sym.Piece) (key string, at int, ok bool) {
	if pc.C != nil || len(pc.Slices) == 0 {
		return "", 0, false
	}
	for _, s := range pc.Slices {
		if arith(s.Atom) {
			return "", 0, false
		}
	}
	at = pc.Slices[0].Bit
	if len(pc.Slices) == 1 {
		return pc.Slices[0].Atom.String(), at, true
	}
	var b strings.Builder
	for i, s := range pc.Slices {
		if i > 0 {
			b.WriteByte('^')
		}
		fmt.Fprintf(&b, "%v@%d", s.Atom, s.Bit-at)
	}
	return b.String(), at, true
}

// atom is the value of an arithmetic atom.
func (z *zreader) atom(a *sym.Atom) zval {
	if v, ok := z.atoms[a]; ok {
		return v
	}
	var v zval
	switch a.Op() {
	case "add":
		v = zval{zpoly{}, new(big.Int)}
		for _, x := range a.Args() {
			xv := z.word(x)
			v.p.addScaled(xv.p, nil)
			v.hi.Add(v.hi, xv.hi)
		}
		// The sum modulo 2^width.
		v = z.slice(v, 0, a.Width())
	case "mul":
		x, y := z.word(a.Args()[0]), z.word(a.Args()[1])
		v = zval{zmul(x.p, y.p), new(big.Int).Mul(x.hi, y.hi)}
	case "select":
		// bit ? x : y is y + bit·(x - y), bit being 0 or 1.
		b, x, y := z.word(a.Args()[0]), z.word(a.Args()[1]), z.word(a.Args()[2])
		d := x.p.clone()
		d.addScaled(y.p, big.NewInt(-1))
		v = zval{zsum(y.p, zmul(b.p, d)), x.hi}
		if y.hi.Cmp(x.hi) > 0 {
			v.hi = y.hi
		}
	default:
		panic("prove: no integer reading of " + a.Op())
	}
	z.atoms[a] = v
	return v
}

// slice is bits [lo, lo+w) of v: F(v, lo) - 2^w·F(v, lo+w).
func (z *zreader) slice(v zval, lo, w int) zval {
	hi := new(big.Int).Rsh(v.hi, uint(lo))
	if hi.Cmp(ones(w)) > 0 {
		hi = ones(w)
	}
	p := z.floor(v, lo)
	p.addScaled(z.floor(v, lo+w), new(big.Int).Neg(pow2(w)))
	return zval{p, hi}
}

// floor is F(v, k) = floor(v / 2^k).
func (z *zreader) floor(v zval, k int) zpoly {
	if k == 0 {
		return v.p.clone()
	}
	if v.hi.Cmp(pow2(k)) < 0 {
		return zpoly{}
	}
	q, r := zpoly{}, zpoly{}
	m := pow2(k)
	for _, t := range v.p {
		rc := new(big.Int).Mod(t.c, m)
		r.addTerm(t.vars, rc)
		q.addTerm(t.vars, new(big.Int).Rsh(new(big.Int).Sub(t.c, rc), uint(k)))
	}
	if top := z.max(r); top.Cmp(m) >= 0 {
		q.addScaled(z.variable(fmt.Sprintf("F%d(%s)", k, r.key()), top.Rsh(top, uint(k))), nil)
	}
	return q
}

// congruent reports how a and b differ modulo m: nil when every
// coefficient of a - b is a multiple of m (with m nil, when a = b), else the
// first few terms that are not, by their variables.
func (z *zreader) congruent(a, b zpoly, m *big.Int) error {
	d := a.clone()
	d.addScaled(b, big.NewInt(-1))
	if m != nil {
		d = d.reduce(m)
	}
	if len(d) == 0 {
		return nil
	}
	var bad []string
	for _, t := range d {
		var names []string
		for _, id := range t.vars {
			n := z.vars[id].name
			if len(n) > 40 {
				n = n[:40] + "…"
			}
			names = append(names, n)
		}
		bad = append(bad, fmt.Sprintf("%v·[%s]", t.c, strings.Join(names, " ")))
	}
	slices.Sort(bad)
	if len(bad) > 4 {
		bad = append(bad[:4], fmt.Sprintf("and %d more", len(bad)-4))
	}
	if m == nil {
		return fmt.Errorf("they differ by %d terms: %s", len(d), strings.Join(bad, ", "))
	}
	return fmt.Errorf("they differ by %d terms modulo %v: %s", len(d), m, strings.Join(bad, ", "))
}

// A zmod is a polynomial with coefficients modulo m, as the specification's
// Num: the proof runs the specification's loop on it.
type zmod struct {
	p zpoly
	m *big.Int
}

func (a zmod) Add(b zmod) zmod { return zmod{zsum(a.p, b.p).reduce(a.m), a.m} }
func (a zmod) Mul(b zmod) zmod { return zmod{zmul(a.p, b.p).reduce(a.m), a.m} }

// leNumber is bytes read as a little-endian number.
func (z *zreader) leNumber(b []*sym.Word) zpoly {
	return z.word(sym.Concat(b...)).p
}
