package rsa

import "math/bits"

// keyGeneric is a key prepared for the generic backend, the portable one:
// 64-bit limbs, Montgomery multiplication with a dedicated squaring
// (nat.go), and a fixed-window exponentiation whose table lookups read
// every entry with masks. Its representation is the shared one: a public
// key uses the PublicKey's own n; a private key keeps a copy of n (which
// its wipe zeroes without touching its PublicKey), the PrivateKey's own
// primes and copies of the CRT exponents.
type keyGeneric struct {
	n    *modulus
	p, q *modulus // nil for a public key
	exponents
}

// newKeyGeneric is the key constructor of generic.
func newKeyGeneric(n *modulus, crt *crtParams) keyImpl {
	if crt == nil {
		return &keyGeneric{n: n}
	}
	return &keyGeneric{
		n:         n.clone(),
		p:         crt.p,
		q:         crt.q,
		exponents: crt.exponents(),
	}
}

// expCRT runs the two halves one after the other.
func (g *keyGeneric) expCRT(mp, mq, xp, xq []uint64) {
	w := g.p.width()
	scratch := make([]uint64, expScratchLimbs(w))
	expWindowed(mp, xp, g.dp, g.pBits, g.p, scratch)
	expWindowed(mq, xq, g.dq, g.qBits, g.q, scratch)
	wipe(scratch)
}

// wipe zeroes the exponents, the primes' Montgomery setup (the
// PrivateKey's own, which the generic backend shares) and the copy of n.
func (g *keyGeneric) wipe() {
	g.n.wipe()
	g.p.wipe()
	g.q.wipe()
	g.exponents.wipe()
}

// windowBits returns the fixed window size for exponents of ebits bits:
// 5, or 4 below 1024 bits. It depends on the public length only.
func windowBits(ebits int) uint {
	if ebits < 1024 {
		return 4
	}
	return 5
}

// expScratchLimbs is the scratch expWindowed needs for width w: a table of
// 32 entries, an accumulator, a looked-up entry and a 2w product.
func expScratchLimbs(w int) int { return 32*w + 2*w + 2*w }

// expWindowed sets z = x^e mod m for x < m (standard form) and an exponent e
// of at most ebits bits (len(e) == m.width()). The sequence of operations and
// memory accesses depends only on ebits and the width: every window squares
// the accumulator wsize times, reads all table entries with a mask that keeps
// the one selected, and multiplies, also when the window is zero (entry 0 is
// the Montgomery form of 1).
func expWindowed(z, x, e []uint64, ebits int, m *modulus, scratch []uint64) {
	w := m.width()
	wsize := windowBits(ebits)
	entries := 1 << wsize
	table := scratch[:entries*w]
	acc := scratch[32*w : 33*w]
	sel := scratch[33*w : 34*w]
	t := scratch[34*w : 36*w]

	// table[i] = x^i in Montgomery form.
	copy(table[:w], m.one)
	m.mul(table[w:2*w], x, m.rr, t)
	for i := 2; i < entries; i++ {
		if i%2 == 0 {
			m.sqr(table[i*w:(i+1)*w], table[i/2*w:(i/2+1)*w], t)
		} else {
			m.mul(table[i*w:(i+1)*w], table[(i-1)*w:i*w], table[w:2*w], t)
		}
	}

	// Windows from the most significant one; the top window is taken
	// whole from the table so the first squarings are not spent on 1.
	nwin := (ebits + int(wsize) - 1) / int(wsize)
	if nwin == 0 {
		nwin = 1
	}
	for wi := nwin - 1; wi >= 0; wi-- {
		k := windowAt(e, uint(wi)*wsize, wsize)
		lookup(sel, table, k, entries)
		if wi == nwin-1 {
			copy(acc, sel)
			continue
		}
		for range wsize {
			m.sqr(acc, acc, t)
		}
		m.mul(acc, acc, sel, t)
	}

	// Leave the Montgomery domain: acc * 1 * R^-1.
	copy(t[:w], acc)
	clear(t[w:])
	m.redc(z, t)
	wipe(scratch)
}

// windowAt returns the wsize bits of e starting at bit pos. The limbs read
// depend on pos only; bits past the end of e are zero.
func windowAt(e []uint64, pos, wsize uint) uint64 {
	i, s := pos/64, pos%64
	var v uint64
	if int(i) < len(e) {
		v = e[i] >> s
	}
	if s+wsize > 64 && int(i)+1 < len(e) {
		v |= e[i+1] << (64 - s)
	}
	return v & (1<<wsize - 1)
}

// lookup sets sel = table[k], reading every entry.
func lookup(sel, table []uint64, k uint64, entries int) {
	w := len(sel)
	clear(sel)
	for i := range entries {
		m := ctMask(ctEq(k, uint64(i)))
		row := table[i*w : (i+1)*w]
		for j := range sel {
			sel[j] |= row[j] & m
		}
	}
}

// expVarTime is left-to-right square and multiply over the bits of e.
func (g *keyGeneric) expVarTime(z, x []uint64, e uint64) {
	n := g.n
	w := n.width()
	scratch := make([]uint64, 4*w)
	xm, acc, t := scratch[:w], scratch[w:2*w], scratch[2*w:]
	n.mul(xm, x, n.rr, t)
	copy(acc, xm)
	for i := bits.Len64(e) - 2; i >= 0; i-- {
		n.sqr(acc, acc, t)
		if e>>uint(i)&1 == 1 { // public exponent
			n.mul(acc, acc, xm, t)
		}
	}
	copy(t[:w], acc)
	clear(t[w:])
	n.redc(z, t)
	wipe(scratch)
}
