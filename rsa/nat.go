package rsa

import (
	"math/bits"
	"slices"

	"github.com/vgcrypto/vg/stackscratch"
)

// This file holds the fixed-width limb arithmetic every backend shares for
// key setup, reduction and CRT recombination, and that the generic backend
// uses for its exponentiation too. A number is a []uint64 of little-endian
// limbs whose length is public (it follows from the modulus size, never from
// a value). Every function here runs in time that depends only on those
// lengths, unless its name ends in VarTime; the vocabulary is bigmod's:
// choice, ctMask, ctEq and masked assign.

// choice is a constant-time boolean: 1 is yes, 0 is no. It is never used in
// a branch or as an index.
type choice uint64

const (
	no  choice = 0
	yes choice = 1
)

// not returns the negation of c.
func not(c choice) choice { return 1 ^ c }

// ctMask returns all ones when on is yes and zero when on is no.
func ctMask(on choice) uint64 { return -uint64(on) }

// ctEq returns yes when x == y.
func ctEq(x, y uint64) choice {
	// x-y and y-x both borrow exactly when x != y.
	_, c1 := bits.Sub64(x, y, 0)
	_, c2 := bits.Sub64(y, x, 0)
	return not(choice(c1 | c2))
}

// ctIsZero returns yes when x == 0.
func ctIsZero(x uint64) choice { return ctEq(x, 0) }

// assign sets z = x when on is yes and leaves z unchanged otherwise, reading
// and writing every limb either way. len(x) must be at least len(z).
func assign(z, x []uint64, on choice) {
	m := ctMask(on)
	x = x[:len(z)]
	for i := range z {
		z[i] ^= m & (z[i] ^ x[i])
	}
}

// natEqual returns yes when x == y; both have the same length.
func natEqual(x, y []uint64) choice {
	y = y[:len(x)]
	var d uint64
	for i := range x {
		d |= x[i] ^ y[i]
	}
	return ctIsZero(d)
}

// natIsZero returns yes when x == 0.
func natIsZero(x []uint64) choice {
	var d uint64
	for _, v := range x {
		d |= v
	}
	return ctIsZero(d)
}

// natIsOne returns yes when x == 1.
func natIsOne(x []uint64) choice {
	if len(x) == 0 {
		return no
	}
	d := x[0] ^ 1
	for _, v := range x[1:] {
		d |= v
	}
	return ctIsZero(d)
}

// addVV sets z = x + y and returns the carry. All three have z's length.
func addVV(z, x, y []uint64) (c uint64) {
	x, y = x[:len(z)], y[:len(z)]
	for i := range z {
		z[i], c = bits.Add64(x[i], y[i], c)
	}
	return c
}

// subVV sets z = x - y and returns the borrow. All three have z's length.
func subVV(z, x, y []uint64) (b uint64) {
	x, y = x[:len(z)], y[:len(z)]
	for i := range z {
		z[i], b = bits.Sub64(x[i], y[i], b)
	}
	return b
}

// lessThan returns yes when x < y (equal lengths).
func lessThan(x, y []uint64) choice {
	y = y[:len(x)]
	var b uint64
	for i := range x {
		_, b = bits.Sub64(x[i], y[i], b)
	}
	return choice(b)
}

// addMulVVW sets z += x*y and returns the carry limb. len(x) >= len(z).
func addMulVVW(z, x []uint64, y uint64) (c uint64) {
	x = x[:len(z)]
	i := 0
	// Four limbs per round; x*y + z + c never exceeds 2^128 - 1, so the
	// high word absorbs both carries.
	for ; i+4 <= len(z); i += 4 {
		z4, x4 := z[i:i+4:i+4], x[i:i+4:i+4]
		h0, l0 := bits.Mul64(x4[0], y)
		h1, l1 := bits.Mul64(x4[1], y)
		h2, l2 := bits.Mul64(x4[2], y)
		h3, l3 := bits.Mul64(x4[3], y)
		var k uint64
		l0, k = bits.Add64(l0, z4[0], 0)
		h0 += k
		l0, k = bits.Add64(l0, c, 0)
		h0 += k
		l1, k = bits.Add64(l1, z4[1], 0)
		h1 += k
		l1, k = bits.Add64(l1, h0, 0)
		h1 += k
		l2, k = bits.Add64(l2, z4[2], 0)
		h2 += k
		l2, k = bits.Add64(l2, h1, 0)
		h2 += k
		l3, k = bits.Add64(l3, z4[3], 0)
		h3 += k
		l3, k = bits.Add64(l3, h2, 0)
		h3 += k
		z4[0], z4[1], z4[2], z4[3] = l0, l1, l2, l3
		c = h3
	}
	for ; i < len(z); i++ {
		hi, lo := bits.Mul64(x[i], y)
		var k uint64
		lo, k = bits.Add64(lo, z[i], 0)
		hi += k
		lo, k = bits.Add64(lo, c, 0)
		hi += k
		z[i] = lo
		c = hi
	}
	return c
}

// addMul2VVW sets z += x*y0 + x*y1*2^64, where len(z) == len(x)+1 >= 2, and
// returns the carry limb (the value's limb at index len(x)+1). The two rows
// run as two interleaved carry chains, which halves the passes over z and
// lets the chains overlap. The caller guarantees the sum fits in
// len(x)+2 limbs.
func addMul2VVW(z, x []uint64, y0, y1 uint64) uint64 {
	n := len(x)
	z = z[:n+1]
	var k uint64
	h, l := bits.Mul64(x[0], y0)
	l, k = bits.Add64(l, z[0], 0)
	h += k
	z[0] = l
	cA, cB := h, uint64(0)
	for j := 1; j < n; j++ {
		hA, lA := bits.Mul64(x[j], y0)
		hB, lB := bits.Mul64(x[j-1], y1)
		lA, k = bits.Add64(lA, z[j], 0)
		hA += k
		lA, k = bits.Add64(lA, cA, 0)
		hA += k
		lB, k = bits.Add64(lB, lA, 0)
		hB += k
		lB, k = bits.Add64(lB, cB, 0)
		hB += k
		z[j] = lB
		cA, cB = hA, hB
	}
	hB, lB := bits.Mul64(x[n-1], y1)
	v, kA := bits.Add64(z[n], cA, 0)
	lB, k = bits.Add64(lB, v, 0)
	hB += k
	lB, k = bits.Add64(lB, cB, 0)
	hB += k
	z[n] = lB
	return hB + kA
}

// mulFull sets t = x * y, where len(t) == len(x) + len(y), two rows of the
// schoolbook product per pass.
func mulFull(t, x, y []uint64) {
	clear(t)
	n := len(x)
	i := 0
	if n >= 2 {
		for ; i+2 <= len(y); i += 2 {
			t[i+n+1] = addMul2VVW(t[i:i+n+1], x, y[i], y[i+1])
		}
	}
	for ; i < len(y); i++ {
		t[i+n] = addMulVVW(t[i:i+n], x, y[i])
	}
}

// sqrFull sets t = x * x, where len(t) == 2*len(x). It computes each cross
// product once, doubles, and adds the squares on the diagonal.
func sqrFull(t, x []uint64) {
	w := len(x)
	clear(t)
	for i := 0; i < w-1; i++ {
		t[i+w] = addMulVVW(t[2*i+1:i+w], x[i+1:], x[i])
	}
	// Double: t <<= 1 (the top bit of the cross products is always 0).
	var top uint64
	for i := range t {
		v := t[i]
		t[i] = v<<1 | top
		top = v >> 63
	}
	var c uint64
	for i := 0; i < w; i++ {
		hi, lo := bits.Mul64(x[i], x[i])
		t[2*i], c = bits.Add64(t[2*i], lo, c)
		t[2*i+1], c = bits.Add64(t[2*i+1], hi, c)
	}
}

// modulus is an odd modulus prepared for Montgomery arithmetic with
// R = 2^(64*len(m)). For the primes every field is secret.
type modulus struct {
	m     []uint64 // the modulus, w limbs
	m0inv uint64   // -m^-1 mod 2^64
	rr    []uint64 // R^2 mod m
	one   []uint64 // R mod m, the Montgomery form of 1
}

// width returns the limb count w.
func (m *modulus) width() int { return len(m.m) }

// clone returns a copy of m.
func (m *modulus) clone() *modulus {
	return &modulus{m: slices.Clone(m.m), m0inv: m.m0inv, rr: slices.Clone(m.rr), one: slices.Clone(m.one)}
}

// wipe zeroes every value of m (all secret for a prime).
func (m *modulus) wipe() {
	wipe(m.m)
	wipe(m.rr)
	wipe(m.one)
	m.m0inv = 0
}

// minusInverse64 returns -x^-1 mod 2^64 for odd x (Newton's iteration: each
// step doubles the number of correct low bits, starting from 3).
func minusInverse64(x uint64) uint64 {
	y := x
	for range 5 {
		y *= 2 - x*y
	}
	return -y
}

// redc sets z = t * R^-1 mod m for t < m*R (len(t) == 2w), destroying t. The
// result is fully reduced.
func (m *modulus) redc(z, t []uint64) {
	w := len(m.m)
	t = t[:2*w]
	mm := m.m[:w]
	var top uint64
	i := 0
	if w >= 2 {
		// Two rows per pass: q1 is computed from limb i+1 as it will be
		// once row i is added (only its low 64 bits matter).
		for ; i+2 <= w; i += 2 {
			q0 := t[i] * m.m0inv
			h0, l0 := bits.Mul64(mm[0], q0)
			_, k := bits.Add64(l0, t[i], 0) // the sum is 0 mod 2^64
			q1 := (t[i+1] + mm[1]*q0 + h0 + k) * m.m0inv
			// The carry pending from the previous pass belongs at i+w.
			t[i+w], k = bits.Add64(t[i+w], top, 0)
			c := addMul2VVW(t[i:i+w+1], mm, q0, q1)
			t[i+w+1], top = bits.Add64(t[i+w+1], c, k) // i+w+1 < 2w
		}
	}
	for ; i < w; i++ {
		q := t[i] * m.m0inv
		c := addMulVVW(t[i:i+w], mm, q)
		t[i+w], top = bits.Add64(t[i+w], c, top)
	}
	// The value is t[w:2w] + top*R < 2m: subtract m once when it is >= m.
	b := subVV(z, t[w:2*w], m.m)
	// Keep the difference when there was a top carry or no borrow.
	assign(z, t[w:2*w], not(choice(top)|not(choice(b))))
}

// mul sets z = x*y*R^-1 mod m for x, y < m (one of them may be any value
// below R when the other is below m). t is scratch of 2w limbs. z may alias x
// or y.
func (m *modulus) mul(z, x, y, t []uint64) {
	mulFull(t[:2*len(m.m)], x, y)
	m.redc(z, t)
}

// sqr sets z = x*x*R^-1 mod m for x < m. t is scratch of 2w limbs.
func (m *modulus) sqr(z, x, t []uint64) {
	sqrFull(t[:2*len(m.m)], x)
	m.redc(z, t)
}

// modAdd sets z = x + y mod m for x, y < m.
func (m *modulus) modAdd(z, x, y, scratch []uint64) {
	c := addVV(z, x, y)
	s := scratch[:len(z)]
	b := subVV(s, z, m.m)
	// Keep z - m when the sum overflowed or did not borrow.
	assign(z, s, choice(c)|not(choice(b)))
}

// modSub sets z = x - y mod m for x, y < m.
func (m *modulus) modSub(z, x, y, scratch []uint64) {
	b := subVV(z, x, y)
	s := scratch[:len(z)]
	addVV(s, z, m.m)
	assign(z, s, choice(b))
}

// newModulus prepares the odd modulus mv (w limbs, copied) and computes
// R^2 mod m with the doubling and squaring chain: R mod m by 64w modular
// doublings of 1, then square-and-double over the bits of 64w. Its cost and
// access pattern depend only on w.
func newModulus(mv []uint64) *modulus { return newModulusFrom(mv, 0) }

// newModulusFull is newModulus for an m whose top limb is not zero (m >=
// 2^(64(w-1)), as a public modulus is by construction): its R^2 chain
// starts from 2^(64(w-1)), 64 doublings below R rather than 64w.
func newModulusFull(mv []uint64) *modulus { return newModulusFrom(mv, 64*(len(mv)-1)) }

// newModulusFrom prepares mv, given a public low with 2^low < mv.
func newModulusFrom(mv []uint64, low int) *modulus {
	w := len(mv)
	m := &modulus{
		m:     append([]uint64(nil), mv...),
		m0inv: minusInverse64(mv[0]),
		rr:    make([]uint64, w),
		one:   make([]uint64, w),
	}
	m.rr = m.rrByChain(low)
	t := make([]uint64, 2*w)
	x := make([]uint64, w)
	x[0] = 1
	m.mul(m.one, x, m.rr, t)
	wipe(t)
	return m
}

// rrByChain returns R^2 mod m computed from scratch, given a public low
// with 2^low < m.
func (m *modulus) rrByChain(low int) []uint64 {
	w := len(m.m)
	r := make([]uint64, w)
	s := make([]uint64, w)
	t := make([]uint64, 2*w)
	defer wipe(s)
	defer wipe(t)
	// r = 2^low < m, then double 64w-low times: r = 2^(64w) = R mod m, the
	// Montgomery form of 1. (One more doubling: Montgomery form of 2.)
	r[low/64] = 1 << uint(low%64)
	for range 64*w - low {
		m.modAdd(r, r, r, s)
	}
	// Now r = mont(2^a) with a = 1 after one doubling; walk the bits of
	// e = 64w from the top: square (a -> 2a) and double (a -> a+1). The
	// result is mont(2^(64w)) = R * R mod m.
	m.modAdd(r, r, r, s)
	e := uint(64 * w)
	for i := bits.Len(e) - 2; i >= 0; i-- {
		m.sqr(r, r, t)
		if e>>uint(i)&1 == 1 { // public: depends on w only
			m.modAdd(r, r, r, s)
		}
	}
	return r
}

// reduceBits sets z = x mod d (len(z) == len(d), d > 0) for an x whose bits
// above its low n are a number below d: x >> n < d. It starts from x >> n
// and shifts the low n bits in one at a time, so it costs about n*len(d)
// limb operations: a caller that knows a bound on x (d < N, e*dp < 2^bits(e)
// * (p-1)) passes the few bits the bound leaves. It is constant time in the
// values of x and d; n is public. It is for one-time key validation.
func reduceBits(z, x, d []uint64, n int) {
	w := len(d)
	// z = x >> n, which fits in w limbs since it is below d.
	clear(z)
	limb, sh := n/64, uint(n%64)
	for k := range z {
		i := limb + k
		if i < len(x) {
			z[k] = x[i] >> sh
		}
		if sh != 0 && i+1 < len(x) {
			z[k] |= x[i+1] << (64 - sh)
		}
	}
	s := make([]uint64, w)
	defer wipe(s)
	for j := n - 1; j >= 0; j-- {
		bit := x[j/64] >> uint(j%64) & 1
		// z = 2z + bit; z < d before, so 2z+bit < 2d.
		top := z[w-1] >> 63
		for k := w - 1; k > 0; k-- {
			z[k] = z[k]<<1 | z[k-1]>>63
		}
		z[0] = z[0]<<1 | bit
		b := subVV(s, z, d)
		assign(z, s, choice(top)|not(choice(b)))
	}
}

// limbsFromBytes returns the big-endian b as w little-endian limbs. The
// caller checks that b fits.
func limbsFromBytes(b []byte, w int) []uint64 {
	z := make([]uint64, w)
	setBytes(z, b)
	return z
}

// setBytes sets z to the big-endian b, which must fit in len(z) limbs once
// its leading bytes beyond the width are zero (they are ignored).
func setBytes(z []uint64, b []byte) {
	clear(z)
	for i := 0; i < len(b) && i < 8*len(z); i++ {
		z[i/8] |= uint64(b[len(b)-1-i]) << (8 * uint(i%8))
	}
}

// fillBytes writes x big-endian into all of b, truncating high limbs that do
// not fit (the caller knows they are zero).
func fillBytes(b []byte, x []uint64) {
	for i := range b {
		var v byte
		if i/8 < len(x) {
			v = byte(x[i/8] >> (8 * uint(i%8)))
		}
		b[len(b)-1-i] = v
	}
}

// wipe zeroes x in a way the compiler keeps.
func wipe(x []uint64) { stackscratch.WipeWords(x) }

// wipeBytes zeroes b in a way the compiler keeps.
func wipeBytes(b []byte) { stackscratch.Wipe(b) }

// natAtLeastPow2 returns yes when x >= 2^t, that is when a bit of x at
// index t or above is set (crypto/rsa's BitLen(x) > t). Which bits of
// which limbs are read depends on t, which is public, only.
func natAtLeastPow2(x []uint64, t int) choice {
	var acc uint64
	for i := range x {
		var m uint64
		switch lo := 64 * i; {
		case lo >= t:
			m = ^uint64(0)
		case lo+64 > t:
			m = ^uint64(0) << uint(t-lo)
		}
		acc |= x[i] & m
	}
	return not(ctIsZero(acc))
}
