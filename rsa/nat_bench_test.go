package rsa

import (
	mrand "math/rand/v2"
	"testing"
)

// Montgomery kernel benchmarks, the baseline later backends compare to.

func benchMont(b *testing.B, w int, sq bool) {
	r := mrand.New(mrand.NewPCG(1, 2))
	mv := randOdd(r, w)
	m := newModulus(mv)
	x, y := randBelow(r, mv), randBelow(r, mv)
	z := make([]uint64, w)
	t := make([]uint64, 2*w)
	for b.Loop() {
		if sq {
			m.sqr(z, x, t)
		} else {
			m.mul(z, x, y, t)
		}
	}
}

func BenchmarkMontMul16(b *testing.B) { benchMont(b, 16, false) }
func BenchmarkMontSqr16(b *testing.B) { benchMont(b, 16, true) }
func BenchmarkMontMul32(b *testing.B) { benchMont(b, 32, false) }
func BenchmarkMontSqr32(b *testing.B) { benchMont(b, 32, true) }
