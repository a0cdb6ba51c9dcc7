package sym

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A pair is a word and the value its definition gives under one assignment,
// computed with math/big and math/bits alone.
type pair struct {
	w *Word
	v *big.Int
}

// TestRulesAgreeWithDefinitions builds random expressions over 32- and
// 64-bit variables with every constructor and checks that each canonical
// word evaluates to the value the plain definition of its operations gives,
// and that BitTerms reads a random bit of it back.
func TestRulesAgreeWithDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := 0; round < 200; round++ {
		c := NewCtx()
		vals := map[string]*big.Int{}
		var pool []pair
		for i := 0; i < 4; i++ {
			w := []int{32, 64}[i%2]
			name := fmt.Sprintf("v%d", i)
			v := new(big.Int).SetUint64(rng.Uint64())
			v.And(v, mask(w))
			vals[name] = v
			pool = append(pool, pair{c.Var(name, w), v})
		}
		pick := func(w int) pair {
			for {
				p := pool[rng.IntN(len(pool))]
				if p.w.Width() == w {
					return p
				}
			}
		}
		for step := 0; step < 60; step++ {
			w := []int{32, 64}[rng.IntN(2)]
			a, b := pick(w), pick(w)
			var r pair
			switch rng.IntN(14) {
			case 13:
				// A sum with constant bits at either end.
				k := rng.Uint64() & (1<<uint(min(w, 63)) - 1)
				lo, hi := uint64(rng.IntN(256)), uint64(rng.IntN(256))
				v := Concat(Const(8, lo), a.w.Extract(8, w-16), Const(8, hi))
				vv := new(big.Int).And(a.v, new(big.Int).Lsh(mask(w-16), 8))
				vv.Or(vv, new(big.Int).SetUint64(lo)).Or(vv, new(big.Int).Lsh(new(big.Int).SetUint64(hi), uint(w-8)))
				r = pair{c.Add(v, Const(w, k)), new(big.Int).And(new(big.Int).Add(vv, new(big.Int).SetUint64(k)), mask(w))}
			case 12:
				if w == 64 {
					r = pair{c.Low(c.Add(a.w, b.w), 32).ZeroExtend(64), new(big.Int).And(new(big.Int).Add(a.v, b.v), mask(32))}
				} else {
					r = pair{c.Low(a.w, 16).ZeroExtend(32), new(big.Int).And(a.v, mask(16))}
				}
			case 0:
				r = pair{c.Add(a.w, b.w), new(big.Int).And(new(big.Int).Add(a.v, b.v), mask(w))}
			case 1:
				r = pair{Xor(a.w, b.w), new(big.Int).Xor(a.v, b.v)}
			case 2:
				r = pair{c.Or(a.w, b.w), new(big.Int).Or(a.v, b.v)}
			case 3:
				r = pair{c.And(a.w, b.w), new(big.Int).And(a.v, b.v)}
			case 4:
				k := rng.IntN(w)
				r = pair{a.w.RotateLeft(k), rotl(a.v, k, w)}
			case 5:
				k := rng.IntN(w + 1)
				r = pair{a.w.Shl(k), new(big.Int).And(new(big.Int).Lsh(a.v, uint(k)), mask(w))}
			case 6:
				k := rng.IntN(w + 1)
				r = pair{a.w.Shr(k), new(big.Int).Rsh(a.v, uint(k))}
			case 7:
				// Swap the halves through Extract and Concat.
				h := w / 2
				r = pair{Concat(a.w.Extract(h, h), a.w.Extract(0, h)), rotl(a.v, h, w)}
			case 8:
				k := rng.Uint64() & (1<<uint(min(w, 63)) - 1)
				r = pair{c.Add(a.w, Const(w, k)), new(big.Int).And(new(big.Int).Add(a.v, new(big.Int).SetUint64(k)), mask(w))}
			case 9:
				m := new(big.Int).SetUint64(rng.Uint64())
				m.And(m, mask(w))
				r = pair{c.And(a.w, ConstBig(w, m)), new(big.Int).And(a.v, m)}
			case 10:
				r = pair{Not(a.w), new(big.Int).Xor(a.v, mask(w))}
			case 11:
				r = pair{c.Sub(a.w, b.w), new(big.Int).And(new(big.Int).Sub(new(big.Int).Add(a.v, new(big.Int).Lsh(big.NewInt(1), uint(w))), b.v), mask(w))}
			}
			got := Eval(r.w, func(n string) *big.Int { return vals[n] })
			require.Zero(t, got.Cmp(r.v), "round %d step %d: %s evaluates to %#x, want %#x", round, step, r.w, got, r.v)
			// BitTerms reads the same value back, bit by bit.
			i := rng.IntN(w)
			one, terms := r.w.BitTerms(i)
			bit := uint(0)
			if one {
				bit = 1
			}
			for _, tm := range terms {
				bit ^= Eval(tm.Atom.word(), func(n string) *big.Int { return vals[n] }).Bit(tm.Bit)
			}
			require.Equal(t, r.v.Bit(i), bit, "round %d step %d: bit %d of %s through BitTerms", round, step, i, r.w)
			pool = append(pool, r)
		}
	}
}

func rotl(v *big.Int, k, w int) *big.Int {
	if w == 32 {
		return new(big.Int).SetUint64(uint64(bits.RotateLeft32(uint32(v.Uint64()), k)))
	}
	return new(big.Int).SetUint64(bits.RotateLeft64(v.Uint64(), k))
}

// TestCanonical checks identities the proofs rely on: two ways of writing
// one value give the same word.
func TestCanonical(t *testing.T) {
	c := NewCtx()
	x, y, z := c.Var("x", 32), c.Var("y", 32), c.Var("z", 32)
	for _, e := range []struct {
		what string
		a, b *Word
	}{
		{"rotation as shifts", x.RotateLeft(12), c.Or(x.Shl(12), x.Shr(20))},
		{"rotation as a byte shuffle", x.RotateLeft(8), Concat(x.Extract(24, 8), x.Extract(0, 8), x.Extract(8, 8), x.Extract(16, 8))},
		{"rotations compose", x.RotateLeft(7).RotateLeft(25), x},
		{"addition commutes", c.Add(x, y), c.Add(y, x)},
		{"a word plus itself is doubled", c.Add(x, x), x.Shl(1)},
		{"addition associates", c.Add(c.Add(x, y), z), c.Add(x, c.Add(y, z))},
		{"constants fold", c.Add(c.Add(x, Const(32, 1)), Const(32, 1)), c.Add(x, Const(32, 2))},
		{"xor cancels", Xor(Xor(x, y), y), x},
		{"the low byte of a sum in a wider word", c.Low(Concat(c.Add(x, Const(32, 0x1ff)), y), 8), c.Add(x.Extract(0, 8), Const(8, 0xff))},
		{"the low half of a wide sum", c.Low(c.Add(Concat(x, Zero(32)), Const(64, 8)), 32), c.Add(x, Const(32, 8))},
		{"a big-endian counter bumped in its constant byte", c.Add(Concat(x.Extract(0, 24), Const(8, 0xec)), Const(32, 3<<24)), Concat(x.Extract(0, 24), Const(8, 0xef))},
		{"a little-endian counter's constant low byte, no carry", c.Add(Concat(Const(8, 0xec), x.Extract(8, 24)), Const(32, 3)), Concat(Const(8, 0xef), x.Extract(8, 24))},
		{"steps that carry meet one sum", c.Add(c.Add(Concat(Const(8, 0xfe), x.Extract(8, 24)), Const(32, 1)), Const(32, 1)), c.Add(Concat(Const(8, 0xfe), x.Extract(8, 24)), Const(32, 2))},
		{"xor by bytes", Concat(Xor(x.Extract(0, 8), y.Extract(0, 8)), Xor(x, y).Extract(8, 24)), Xor(x, y)},
		{"64-bit xor of 32-bit halves", Xor(Concat(x, y), Concat(z, x)), Concat(Xor(x, z), Xor(y, x))},
	} {
		require.True(t, Equal(e.a, e.b), "%s: %s and %s", e.what, e.a, e.b)
	}
	for _, e := range []struct {
		what string
		a, b *Word
	}{
		{"different rotations", x.RotateLeft(8), x.RotateLeft(16)},
		{"addition is not xor", c.Add(x, y), Xor(x, y)},
		{"a 64-bit add is not two 32-bit ones", c.Add(Concat(x, y), Const(64, 1)), Concat(c.Add(x, Const(32, 1)), y)},
	} {
		require.False(t, Equal(e.a, e.b), "%s", e.what)
	}
}

// TestSubstAgreesWithEval builds random expressions of sums, products,
// ANDs, ORs, XORs, shifts and slices over three variables, replaces one
// variable by a word or a constant with Subst, and checks that the result
// evaluates to the expression's value with that variable given the word's
// value.
func TestSubstAgreesWithEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	mul := func(v []*big.Int) *big.Int { return new(big.Int).Mul(v[0], v[1]) }
	for round := 0; round < 300; round++ {
		c := NewCtx()
		vs := []*Word{c.Var("a", 64), c.Var("b", 64), c.Var("c", 64)}
		pool := append([]*Word(nil), vs...)
		for step := 0; step < 12; step++ {
			x, y := pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]
			var r *Word
			switch rng.IntN(6) {
			case 0:
				r = c.Add(x, y, Const(64, rng.Uint64()))
			case 1:
				r = c.Apply("mul", 128, mul, x, y).Extract(rng.IntN(2)*64, 64)
			case 2:
				r = c.And(x, y)
			case 3:
				r = c.Or(x, Const(64, rng.Uint64()))
			case 4:
				r = Xor(x, y.Shl(rng.IntN(64)))
			default:
				r = Concat(x.Extract(0, 32), y.Extract(32, 32))
			}
			pool = append(pool, r)
		}
		x := pool[len(pool)-1]
		repl := c.Add(vs[2], Const(64, rng.Uint64()))
		if round%2 == 1 {
			repl = Const(64, rng.Uint64())
		}
		got := c.Subst(x, map[*Atom]*Word{vs[1].Atom(): repl})
		vals := map[string]*big.Int{
			"a": new(big.Int).SetUint64(rng.Uint64()),
			"b": new(big.Int),
			"c": new(big.Int).SetUint64(rng.Uint64()),
		}
		vals["b"] = Eval(repl, func(n string) *big.Int { return vals[n] })
		require.Equal(t, Eval(x, func(n string) *big.Int { return vals[n] }), Eval(got, func(n string) *big.Int { return vals[n] }), "round %d", round)
	}
}
