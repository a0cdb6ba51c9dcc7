package sym

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// An Atom is a value the canonical form treats as opaque: a variable, or an
// operation on canonical words. Atoms are interned by their [Ctx]: one
// operation on the same arguments is one atom.
type Atom struct {
	id   uint32
	w    int
	op   string
	name string // a variable's name
	args []*Word
	// fn computes an operation the caller named (Ctx.Apply), for Eval.
	fn func(args []*big.Int) *big.Int
}

// String names the atom: a variable by its name, an operation by its
// operation and number.
func (a *Atom) String() string {
	if a.op == "var" {
		return a.name
	}
	return fmt.Sprintf("%s#%d", a.op, a.id)
}

// A Ctx interns atoms: words built from atoms of one Ctx compare with
// [Equal]; words from two contexts never share atoms.
type Ctx struct {
	atoms map[string]*Atom
	words map[string]*Word
	vars  map[string]*Atom
	next  uint32
}

// NewCtx returns an empty context.
func NewCtx() *Ctx {
	return &Ctx{atoms: map[string]*Atom{}, words: map[string]*Word{}, vars: map[string]*Atom{}}
}

func (c *Ctx) intern(op string, w int, args []*Word) *Word {
	return c.internFn(op, w, args, nil)
}

func (c *Ctx) internFn(op string, w int, args []*Word, fn func([]*big.Int) *big.Int) *Word {
	// The key names the arguments by the numbers of their interned
	// copies: short, however large the arguments are.
	k := make([]byte, 0, 16+8*len(args))
	k = append(k, op...)
	k = append(k, '/')
	k = strconv.AppendInt(k, int64(w), 10)
	for i, a := range args {
		args[i] = c.canon(a)
		k = append(k, '/')
		k = strconv.AppendUint(k, uint64(args[i].id), 10)
	}
	a := c.atoms[string(k)]
	if a == nil {
		c.next++
		a = &Atom{id: c.next, w: w, op: op, args: args, fn: fn}
		c.atoms[string(k)] = a
	}
	return a.word()
}

// canon returns the interned copy of x, which carries a number.
func (c *Ctx) canon(x *Word) *Word {
	if x.id != 0 {
		return x
	}
	if y := c.words[x.Key()]; y != nil {
		return y
	}
	c.next++
	x.id = c.next
	c.words[x.Key()] = x
	return x
}

func (a *Atom) word() *Word { return mk([]seg{{w: a.w, xs: []slice{{a, 0}}}}) }

// Var is the w-bit variable name; the same name is the same variable (and
// must keep its width).
func (c *Ctx) Var(name string, w int) *Word {
	a := c.vars[name]
	if a == nil {
		c.next++
		a = &Atom{id: c.next, w: w, op: "var", name: name}
		c.vars[name] = a
	} else if a.w != w {
		panic(fmt.Sprintf("sym: variable %s is %d bits, not %d", name, a.w, w))
	}
	return a.word()
}

// Add is the sum of words of one width, modulo 2^width.
func (c *Ctx) Add(ws ...*Word) *Word {
	w := ws[0].w
	sum := new(big.Int)
	var args []*Word
	var flat func(x *Word)
	flat = func(x *Word) {
		if x.w != w {
			panic(fmt.Sprintf("sym: adding %d-bit and %d-bit words", w, x.w))
		}
		if v, ok := x.Value(); ok {
			sum.Add(sum, v)
			return
		}
		if a := x.Atom(); a != nil && a.op == "add" {
			for _, y := range a.args {
				flat(y)
			}
			return
		}
		args = append(args, x)
	}
	for _, x := range ws {
		flat(x)
	}
	sum.And(sum, mask(w))
	if len(args) == 2 && sum.Sign() == 0 && Equal(args[0], args[1]) {
		// x + x doubles x: a shift, as PADDQ x, x does it.
		return args[0].Shl(1)
	}
	if len(args) == 1 {
		if r := c.addConst(args[0], sum); r != nil {
			return r
		}
	}
	if sum.Sign() != 0 {
		args = append(args, ConstBig(w, sum))
	}
	switch len(args) {
	case 0:
		return Zero(w)
	case 1:
		return args[0]
	}
	slices.SortFunc(args, func(a, b *Word) int { return strings.Compare(a.Key(), b.Key()) })
	return c.intern("add", w, args)
}

// addConst is x + k where x has constant bits at either end, written so
// that the constant bits stay constants: constant low bits c (j of them)
// give (c + k) mod 2^j below the sum of the rest and the carry; constant
// high bits absorb a k that is zero below them (modulo the width). Two
// computations of one counter, bumped in its constant byte or carried into
// its variable ones, so meet in one form. Otherwise nil.
func (c *Ctx) addConst(x *Word, k *big.Int) *Word {
	w := x.w
	if k.Sign() == 0 {
		return x
	}
	if s := x.segs[0]; len(s.xs) == 0 && s.w < w {
		j := s.w
		low := new(big.Int).And(k, mask(j))
		if s.c != nil {
			low.Add(low, s.c)
		}
		high := new(big.Int).Rsh(k, uint(j))
		high.Add(high, new(big.Int).Rsh(low, uint(j)))
		return Concat(ConstBig(j, low), c.Add(x.Extract(j, w-j), ConstBig(w-j, high.And(high, mask(w-j)))))
	}
	if s := x.segs[len(x.segs)-1]; len(s.xs) == 0 && s.w < w {
		h := w - s.w
		if k.TrailingZeroBits() >= uint(h) {
			v := new(big.Int).Rsh(k, uint(h))
			if s.c != nil {
				v.Add(v, s.c)
			}
			return Concat(x.Extract(0, h), ConstBig(s.w, v.And(v, mask(s.w))))
		}
	}
	return nil
}

// Low is the low k bits of x, with a sum's low bits written as the sum of
// its arguments' low bits (a carry only moves up), so that a 32-bit
// counter advanced in a 64-bit register reads back as the 32-bit sum.
func (c *Ctx) Low(x *Word, k int) *Word {
	y := x.Extract(0, k)
	if len(y.segs) != 1 || y.segs[0].c != nil || len(y.segs[0].xs) != 1 {
		return y
	}
	if sl := y.segs[0].xs[0]; sl.lo == 0 && sl.a.op == "add" && k < sl.a.w {
		args := make([]*Word, len(sl.a.args))
		for i, a := range sl.a.args {
			args[i] = c.Low(a, k)
		}
		return c.Add(args...)
	}
	return y
}

// Neg is the two's complement negation.
func (c *Ctx) Neg(x *Word) *Word { return c.Add(Not(x), Const(x.w, 1)) }

// Sub is a - b modulo 2^width.
func (c *Ctx) Sub(a, b *Word) *Word { return c.Add(a, c.Neg(b)) }

// Apply is the w-bit result of the operation op (which must not be one of
// this package's own: var, add, or, and) on args, an atom: two applications
// are equal when op and the arguments are. fn computes it for [Eval].
func (c *Ctx) Apply(op string, w int, fn func(args []*big.Int) *big.Int, args ...*Word) *Word {
	switch op {
	case "var", "add", "or", "and":
		panic("sym: Apply of the built-in operation " + op)
	}
	return c.internFn(op, w, args, fn)
}

// constRuns calls f for each maximal run of equal bits of a constant piece.
func constRuns(s seg, f func(lo, w int, one bool)) {
	at := 0
	for at < s.w {
		bit := s.c != nil && s.c.Bit(at) == 1
		end := at + 1
		for end < s.w && (s.c != nil && s.c.Bit(end) == 1) == bit {
			end++
		}
		f(at, end-at, bit)
		at = end
	}
}

// Or is the bitwise OR of two words of one width. Where one side is a
// constant the result is exact (x|0 = x, x|1 = 1), so OR of disjoint
// shifted parts is their concatenation; elsewhere it is an atom.
func (c *Ctx) Or(a, b *Word) *Word { return c.logic("or", a, b, true) }

// And is the bitwise AND of two words of one width, exact where one side is
// a constant.
func (c *Ctx) And(a, b *Word) *Word { return c.logic("and", a, b, false) }

func (c *Ctx) logic(op string, a, b *Word, isOr bool) *Word {
	var out []seg
	pieces([]*Word{a, b}, func(w int, ss []seg) {
		x, y := ss[0], ss[1]
		if len(x.xs) > 0 && len(y.xs) == 0 {
			x, y = y, x
		}
		if len(x.xs) == 0 {
			constRuns(x, func(lo, n int, one bool) {
				switch {
				case one == isOr: // x|1 = 1, x&0 = 0
					out = append(out, x.cut(lo, n))
				default: // x|0 = x, x&1 = x
					out = append(out, y.cut(lo, n))
				}
			})
			return
		}
		xw, yw := mk([]seg{x}), mk([]seg{y})
		if Equal(xw, yw) {
			out = append(out, x)
			return
		}
		if xw.Key() > yw.Key() {
			xw, yw = yw, xw
		}
		out = append(out, c.intern(op, w, []*Word{xw, yw}).segs...)
	})
	return mk(out)
}

// Eval is x's value when each variable has the value vars returns for it
// (taken modulo 2^width). It follows the definitions, not the canonical
// form's rules, so tests can check one against the other.
func Eval(x *Word, vars func(name string) *big.Int) *big.Int {
	memo := map[*Atom]*big.Int{}
	return eval(x, vars, memo)
}

func eval(x *Word, vars func(string) *big.Int, memo map[*Atom]*big.Int) *big.Int {
	r := new(big.Int)
	at := 0
	for _, s := range x.segs {
		v := new(big.Int)
		if s.c != nil {
			v.Set(s.c)
		}
		for _, sl := range s.xs {
			av := evalAtom(sl.a, vars, memo)
			v.Xor(v, new(big.Int).And(new(big.Int).Rsh(av, uint(sl.lo)), mask(s.w)))
		}
		r.Or(r, v.Lsh(v, uint(at)))
		at += s.w
	}
	return r
}

func evalAtom(a *Atom, vars func(string) *big.Int, memo map[*Atom]*big.Int) *big.Int {
	if v, ok := memo[a]; ok {
		return v
	}
	var v *big.Int
	args := make([]*big.Int, len(a.args))
	for i, x := range a.args {
		args[i] = eval(x, vars, memo)
	}
	switch a.op {
	case "var":
		v = new(big.Int).Set(vars(a.name))
	case "add":
		v = new(big.Int)
		for _, x := range args {
			v.Add(v, x)
		}
	case "or":
		v = new(big.Int).Or(args[0], args[1])
	case "and":
		v = new(big.Int).And(args[0], args[1])
	default:
		v = a.fn(args)
	}
	v.And(v, mask(a.w))
	memo[a] = v
	return v
}

// ID numbers the atom within its Ctx: distinct atoms have distinct numbers.
func (a *Atom) ID() uint32 { return a.id }

// Op is the atom's operation ("var" for a variable, else the operation its
// constructor or [Ctx.Apply] named).
func (a *Atom) Op() string { return a.op }

// Args are the operation's arguments (none for a variable).
func (a *Atom) Args() []*Word { return a.args }

// Width is the atom's width in bits.
func (a *Atom) Width() int { return a.w }

// Subst is x with each atom of m replaced by its word (of the atom's width)
// and every operation above those atoms rebuilt by its constructor, so that
// the result is in canonical form; an operation named by [Ctx.Apply] whose
// arguments all become constants is evaluated. A proof splits on a condition
// this way: the condition's atom replaced by each of its values.
func (c *Ctx) Subst(x *Word, m map[*Atom]*Word) *Word {
	for a, w := range m {
		if a.w != w.w {
			panic(fmt.Sprintf("sym: substituting a %d-bit word for the %d-bit atom %s", w.w, a.w, a))
		}
	}
	return c.subst(x, m, map[*Atom]*Word{})
}

func (c *Ctx) subst(x *Word, m, memo map[*Atom]*Word) *Word {
	// An atom that does not change maps to nil: a word none of whose
	// atoms change is itself.
	changed := false
	for _, s := range x.segs {
		for _, sl := range s.xs {
			if c.substAtom(sl.a, m, memo) != nil {
				changed = true
			}
		}
	}
	if !changed {
		return x
	}
	parts := make([]*Word, 0, len(x.segs))
	for _, s := range x.segs {
		terms := []*Word{mk([]seg{{w: s.w, c: s.c}})}
		for _, sl := range s.xs {
			a := c.substAtom(sl.a, m, memo)
			if a == nil {
				a = sl.a.word()
			}
			terms = append(terms, a.Extract(sl.lo, s.w))
		}
		parts = append(parts, Xor(terms...))
	}
	return Concat(parts...)
}

// substAtom is a's word with m's atoms replaced, nil when it is a's own.
func (c *Ctx) substAtom(a *Atom, m, memo map[*Atom]*Word) *Word {
	if w, ok := m[a]; ok {
		return w
	}
	if w, ok := memo[a]; ok {
		return w
	}
	var r *Word
	if a.op != "var" {
		args := make([]*Word, len(a.args))
		changed, consts := false, true
		for i, x := range a.args {
			args[i] = c.subst(x, m, memo)
			changed = changed || args[i] != x
			_, ok := args[i].Value()
			consts = consts && ok
		}
		switch {
		case !changed:
		case a.op == "add":
			r = c.Add(args...)
		case a.op == "and":
			r = c.And(args[0], args[1])
		case a.op == "or":
			r = c.Or(args[0], args[1])
		case consts && a.fn != nil:
			vs := make([]*big.Int, len(args))
			for i, x := range args {
				vs[i], _ = x.Value()
			}
			v := a.fn(vs)
			r = ConstBig(a.w, v.And(v, mask(a.w)))
		default:
			r = c.internFn(a.op, a.w, args, a.fn)
		}
	}
	memo[a] = r
	return r
}
