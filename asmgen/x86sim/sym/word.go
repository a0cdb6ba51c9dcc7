// Package sym is the value domain of x86sim's symbolic mode: bit-vectors
// built from named variables and opaque operations, kept in a canonical form
// so that two values equal as terms are equal for every assignment of the
// variables.
//
// # The canonical form
//
// A [Word] is a bit-vector of any width. It is stored as segments, low bits
// first; each segment is a constant XORed with slices of [Atom]s (a slice is
// the segment's width of bits of one atom, from some bit up). An atom is a
// variable or an operation the XOR-and-wiring layer cannot see through: a
// modular addition, or a non-disjoint OR or AND. Adjacent segments merge
// whenever they can, so the segments of a word are a unique description of
// where each of its bits comes from: bit i is the constant's bit i XORed with
// bit lo+(i-start) of each atom sliced in i's segment.
//
// Everything that only moves, selects, XORs or constant-masks bits (shifts,
// rotations, byte shuffles, lane permutes, unpacks, broadcasts, XOR, AND and
// OR with constants or of disjoint parts) is computed exactly in this form,
// so a vector kernel that rearranges the same words differently from its
// specification ends up with the same segments. Additions are atoms whose
// arguments are canonical words, sorted (addition commutes), nested sums
// flattened and constants folded, so a+b and b+a, or (x+1)+1 and x+2, are
// the same atom. Two words are then equal when their segments are
// ([Equal]): a sufficient condition for equality as functions, decided
// without a solver.
//
// # Trust
//
// The canonical form is only as good as the rules that build it; [Eval]
// computes a word's value under an assignment of its variables from the
// definitions alone, and the package tests check every constructor against
// it on random values.
package sym

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// A slice is bits [lo, lo+w) of an atom, w being its segment's width.
type slice struct {
	a  *Atom
	lo int
}

// A seg is w bits: c XOR the slices of xs (sorted by atom id, then lo).
type seg struct {
	w  int
	c  *big.Int // nil for zero
	xs []slice
}

// A Word is a bit-vector value in canonical form. Words are immutable.
type Word struct {
	w    int
	segs []seg
	key  string
	// id numbers the copy a Ctx interned (0: not interned).
	id uint32
}

// Width is the word's width in bits.
func (x *Word) Width() int { return x.w }

func mask(w int) *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
}

func bitsOf(c *big.Int, lo, w int) *big.Int {
	if c == nil || c.Sign() == 0 {
		return nil
	}
	r := new(big.Int).Rsh(c, uint(lo))
	r.And(r, mask(w))
	if r.Sign() == 0 {
		return nil
	}
	return r
}

func xorC(a, b *big.Int) *big.Int {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	r := new(big.Int).Xor(a, b)
	if r.Sign() == 0 {
		return nil
	}
	return r
}

func cmpSlice(a, b slice) int {
	if a.a.id != b.a.id {
		return int(a.a.id) - int(b.a.id)
	}
	return a.lo - b.lo
}

// xorSlices is the XOR of two sorted slice lists: equal slices cancel.
func xorSlices(a, b []slice) []slice {
	r := make([]slice, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && cmpSlice(a[i], b[j]) < 0:
			r = append(r, a[i])
			i++
		case i == len(a) || cmpSlice(a[i], b[j]) > 0:
			r = append(r, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return r
}

// cut is bits [lo, lo+w) of segment s.
func (s seg) cut(lo, w int) seg {
	r := seg{w: w, c: bitsOf(s.c, lo, w)}
	if lo == 0 {
		// Slices start where the segment does: share them (they are
		// never changed in place).
		r.xs = s.xs
		return r
	}
	if len(s.xs) > 0 {
		r.xs = make([]slice, len(s.xs))
		for i, x := range s.xs {
			r.xs[i] = slice{x.a, x.lo + lo}
		}
	}
	return r
}

// follows reports whether segment b continues segment a: the same atoms at
// offsets exactly a.w further on.
func follows(a, b seg) bool {
	if len(a.xs) != len(b.xs) {
		return false
	}
	for i := range a.xs {
		if a.xs[i].a != b.xs[i].a || b.xs[i].lo != a.xs[i].lo+a.w {
			return false
		}
	}
	return true
}

// mk builds a word from segments, merging every mergeable neighbour.
func mk(segs []seg) *Word {
	out := make([]seg, 0, len(segs))
	w := 0
	for _, s := range segs {
		if s.w == 0 {
			continue
		}
		w += s.w
		if n := len(out); n > 0 && follows(out[n-1], s) {
			p := out[n-1]
			var c *big.Int
			if s.c != nil {
				c = new(big.Int).Lsh(s.c, uint(p.w))
			}
			out[n-1] = seg{w: p.w + s.w, c: xorC(p.c, c), xs: p.xs}
			continue
		}
		out = append(out, s)
	}
	return &Word{w: w, segs: out}
}

// Const is the w-bit constant v (taken modulo 2^w).
func Const(w int, v uint64) *Word {
	return ConstBig(w, new(big.Int).SetUint64(v))
}

// ConstBig is the w-bit constant v (taken modulo 2^w, v ≥ 0).
func ConstBig(w int, v *big.Int) *Word {
	return mk([]seg{{w: w, c: bitsOf(v, 0, w)}})
}

// Zero is the w-bit zero.
func Zero(w int) *Word { return mk([]seg{{w: w}}) }

// Value returns the word's value when it is a constant.
func (x *Word) Value() (*big.Int, bool) {
	v := new(big.Int)
	at := 0
	for _, s := range x.segs {
		if len(s.xs) > 0 {
			return nil, false
		}
		if s.c != nil {
			v.Or(v, new(big.Int).Lsh(s.c, uint(at)))
		}
		at += s.w
	}
	return v, true
}

// Uint64 returns the word's value when it is a constant of at most 64 bits.
func (x *Word) Uint64() (uint64, bool) {
	v, ok := x.Value()
	if !ok || x.w > 64 {
		return 0, false
	}
	return v.Uint64(), true
}

// Atom returns the atom x is, when x is exactly one atom's full value.
func (x *Word) Atom() *Atom {
	if len(x.segs) != 1 {
		return nil
	}
	s := x.segs[0]
	if s.c != nil || len(s.xs) != 1 || s.xs[0].lo != 0 || s.xs[0].a.w != x.w {
		return nil
	}
	return s.xs[0].a
}

// Extract is bits [lo, lo+w) of x.
func (x *Word) Extract(lo, w int) *Word {
	if lo < 0 || w < 0 || lo+w > x.w {
		panic(fmt.Sprintf("sym: extract [%d, %d) of a %d-bit word", lo, lo+w, x.w))
	}
	if lo == 0 && w == x.w {
		return x
	}
	var out []seg
	at := 0
	for _, s := range x.segs {
		a, b := max(lo, at), min(lo+w, at+s.w)
		if a < b {
			out = append(out, s.cut(a-at, b-a))
		}
		at += s.w
	}
	return mk(out)
}

// Concat is the parts side by side, the first in the low bits.
func Concat(parts ...*Word) *Word {
	var out []seg
	for _, p := range parts {
		out = append(out, p.segs...)
	}
	return mk(out)
}

// Bytes splits x (a multiple of 8 bits wide) into its bytes, low first.
func (x *Word) Bytes() []*Word {
	r := make([]*Word, x.w/8)
	for i := range r {
		r[i] = x.Extract(8*i, 8)
	}
	return r
}

// Lanes splits x into n-bit lanes, low first.
func (x *Word) Lanes(n int) []*Word {
	r := make([]*Word, x.w/n)
	for i := range r {
		r[i] = x.Extract(n*i, n)
	}
	return r
}

// pieces calls f for the common refinement of words of equal width: each
// maximal run of bits over which no word changes segment, with each word's
// segment cut to it.
func pieces(ws []*Word, f func(w int, ss []seg)) {
	n := ws[0].w
	for _, x := range ws {
		if x.w != n {
			panic(fmt.Sprintf("sym: widths %d and %d differ", n, x.w))
		}
	}
	idx := make([]int, len(ws))
	start := make([]int, len(ws))
	ss := make([]seg, len(ws))
	for at := 0; at < n; {
		end := n
		for i, x := range ws {
			for start[i]+x.segs[idx[i]].w <= at {
				start[i] += x.segs[idx[i]].w
				idx[i]++
			}
			end = min(end, start[i]+x.segs[idx[i]].w)
		}
		for i, x := range ws {
			ss[i] = x.segs[idx[i]].cut(at-start[i], end-at)
		}
		f(end-at, ss)
		at = end
	}
}

// Xor is the bitwise XOR of words of one width.
func Xor(ws ...*Word) *Word {
	if len(ws) == 1 {
		return ws[0]
	}
	var out []seg
	pieces(ws, func(w int, ss []seg) {
		r := seg{w: w}
		for _, s := range ss {
			r.c = xorC(r.c, s.c)
			r.xs = xorSlices(r.xs, s.xs)
		}
		out = append(out, r)
	})
	return mk(out)
}

// Not is the bitwise complement.
func Not(x *Word) *Word { return Xor(x, ConstBig(x.w, mask(x.w))) }

// RotateLeft is x rotated left (towards the high bits) by k bits.
func (x *Word) RotateLeft(k int) *Word {
	k = ((k % x.w) + x.w) % x.w
	return Concat(x.Extract(x.w-k, k), x.Extract(0, x.w-k))
}

// Shl is x shifted left by k bits (k ≥ width gives zero).
func (x *Word) Shl(k int) *Word {
	if k >= x.w {
		return Zero(x.w)
	}
	return Concat(Zero(k), x.Extract(0, x.w-k))
}

// Shr is x shifted right logically by k bits.
func (x *Word) Shr(k int) *Word {
	if k >= x.w {
		return Zero(x.w)
	}
	return Concat(x.Extract(k, x.w-k), Zero(k))
}

// ZeroExtend widens x to w bits with zeros.
func (x *Word) ZeroExtend(w int) *Word {
	if w == x.w {
		return x
	}
	return Concat(x, Zero(w-x.w))
}

// Equal reports whether a and b have the same canonical form, which implies
// they are equal for every assignment of their variables.
func Equal(a, b *Word) bool { return a == b || a.w == b.w && a.Key() == b.Key() }

// Key is a string that identifies the word's canonical form.
func (x *Word) Key() string {
	if x.key != "" {
		return x.key
	}
	b := make([]byte, 0, 16+12*len(x.segs))
	b = strconv.AppendInt(b, int64(x.w), 10)
	b = append(b, '{')
	for i, s := range x.segs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(s.w), 10)
		if s.c != nil {
			b = append(b, ':')
			b = s.c.Append(b, 16)
		}
		for _, sl := range s.xs {
			b = append(b, ',')
			b = strconv.AppendUint(b, uint64(sl.a.id), 10)
			b = append(b, '@')
			b = strconv.AppendInt(b, int64(sl.lo), 10)
		}
	}
	b = append(b, '}')
	x.key = string(b)
	return x.key
}

// String prints the word for a human: its segments from the high bits down,
// each as const ^ atom[hi:lo] terms, atoms by name.
func (x *Word) String() string {
	var parts []string
	for i := len(x.segs) - 1; i >= 0; i-- {
		s := x.segs[i]
		var ts []string
		if s.c != nil || len(s.xs) == 0 {
			v := s.c
			if v == nil {
				v = new(big.Int)
			}
			ts = append(ts, fmt.Sprintf("%#x", v))
		}
		for _, sl := range s.xs {
			if sl.lo == 0 && s.w == sl.a.w {
				ts = append(ts, sl.a.String())
			} else {
				ts = append(ts, fmt.Sprintf("%s[%d:%d]", sl.a, sl.lo+s.w-1, sl.lo))
			}
		}
		parts = append(parts, fmt.Sprintf("%s:%d", strings.Join(ts, "^"), s.w))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, " . ") + ")"
}

// Diff describes where two words first differ ("" when they are equal): the
// first bits whose descriptions differ, followed down through atoms of one
// operation to the deepest pair of arguments that differ, so that a failed
// proof names the step where code and specification part.
func Diff(a, b *Word) string {
	if Equal(a, b) {
		return ""
	}
	if a.w != b.w {
		return fmt.Sprintf("widths %d and %d", a.w, b.w)
	}
	var out string
	at := 0
	pieces([]*Word{a, b}, func(w int, ss []seg) {
		defer func() { at += w }()
		if out != "" {
			return
		}
		x, y := mk([]seg{ss[0]}), mk([]seg{ss[1]})
		if Equal(x, y) {
			return
		}
		out = fmt.Sprintf("bits %d..%d: %s against %s", at, at+w-1, x, y)
		sx, sy := ss[0], ss[1]
		if len(sx.xs) != len(sy.xs) {
			return
		}
		for i := range sx.xs {
			p, q := sx.xs[i].a, sy.xs[i].a
			if p == q {
				continue
			}
			if p.op != q.op || p.op == "var" || len(p.args) != len(q.args) {
				return
			}
			for j := range p.args {
				if d := Diff(p.args[j], q.args[j]); d != "" {
					out = fmt.Sprintf("%s, argument %d of %s: %s", p, j, p.op, d)
					return
				}
			}
		}
	})
	return out
}

// An AtomBit is bit Bit of the atom Atom.
type AtomBit struct {
	// Atom is the atom, Bit the bit of it (0 the lowest).
	Atom *Atom
	Bit  int
}

// BitTerms is bit i of x as the canonical form holds it: the constant bit
// one XORed with the atom bits terms (sorted by atom number, then bit).
// Analyses above the canonical form (the GF(2) polynomials of a GHASH proof)
// read words through it.
func (x *Word) BitTerms(i int) (one bool, terms []AtomBit) {
	if i < 0 || i >= x.w {
		panic(fmt.Sprintf("sym: bit %d of a %d-bit word", i, x.w))
	}
	at := 0
	for _, s := range x.segs {
		if i < at+s.w {
			off := i - at
			if s.c != nil {
				one = s.c.Bit(off) == 1
			}
			terms = make([]AtomBit, len(s.xs))
			for k, sl := range s.xs {
				terms[k] = AtomBit{sl.a, sl.lo + off}
			}
			return one, terms
		}
		at += s.w
	}
	panic("unreachable")
}

// A Piece is W bits of a word from its bit At: the constant C (nil for
// zero) XORed with Slices, each bits [Bit, Bit+W) of its atom.
type Piece struct {
	At, W  int
	C      *big.Int
	Slices []AtomBit
}

// Pieces are the word's segments, low first: the canonical form, for
// analyses above it (the integer reading of a Poly1305 proof).
func (x *Word) Pieces() []Piece {
	out := make([]Piece, len(x.segs))
	at := 0
	for i, s := range x.segs {
		p := Piece{At: at, W: s.w, Slices: make([]AtomBit, len(s.xs))}
		if s.c != nil {
			p.C = new(big.Int).Set(s.c)
		}
		for k, sl := range s.xs {
			p.Slices[k] = AtomBit{sl.a, sl.lo}
		}
		out[i] = p
		at += s.w
	}
	return out
}
