package aesgcm

import (
	"encoding/binary"
	"math/bits"
)

// This file is a constant-time GHASH (NIST SP 800-38D, section 6.4) built on
// integer multiplication, after the "multiplication with holes" idea of
// BearSSL's ghash_ctmul64 and BoringSSL's gcm_nohw, written here from the
// mathematics. No table is indexed by data; bits.Mul64 is a single MULQ on
// amd64 (and UMULH/MUL on arm64), whose timing does not depend on operands.
//
// Representation. A 16-byte block is read as a 128-bit big-endian integer
// (hi, lo). GCM puts the coefficient of x^0 in the most significant bit, so
// the integer is the bit-reversed polynomial. For reversed operands A and B
// the ordinary carry-less product A*B holds the coefficient of x^d at bit
// 254-d; shifted left by one it is the 256-bit reversal of the product, whose
// upper half is already in our representation once the lower half (the terms
// x^128..x^254) is folded back with x^128 = x^7 + x^2 + x + 1.

// clmul64 returns the 128-bit carry-less product of x and y.
//
// Each operand is split into four parts holding every fourth bit. The
// integer product of two parts has at most min(|x part|, |y part|) terms per
// column, so as long as that is below 16 the column sum fits in the four bits
// up to the next column of the same residue, and its lowest bit is the XOR
// we want; the products whose columns share a residue are XORed and the
// result masked to that residue. With full 128-bit products a part of 16
// bits can make a column of 16 terms, which would carry into the next column
// of the same residue, so bits 0..3 of x are removed from the parts (leaving
// at most 15 per part) and their contribution is added by masked shifts.
func clmul64(x, y uint64) (hi, lo uint64) {
	const (
		m0 = 0x1111111111111111
		m1 = 0x2222222222222222
		m2 = 0x4444444444444444
		m3 = 0x8888888888888888
	)
	xl := x & 0xF
	x &^= 0xF
	x0, x1, x2, x3 := x&m0, x&m1, x&m2, x&m3
	y0, y1, y2, y3 := y&m0, y&m1, y&m2, y&m3

	h00, l00 := bits.Mul64(x0, y0)
	h13, l13 := bits.Mul64(x1, y3)
	h22, l22 := bits.Mul64(x2, y2)
	h31, l31 := bits.Mul64(x3, y1)
	h01, l01 := bits.Mul64(x0, y1)
	h10, l10 := bits.Mul64(x1, y0)
	h23, l23 := bits.Mul64(x2, y3)
	h32, l32 := bits.Mul64(x3, y2)
	h02, l02 := bits.Mul64(x0, y2)
	h11, l11 := bits.Mul64(x1, y1)
	h20, l20 := bits.Mul64(x2, y0)
	h33, l33 := bits.Mul64(x3, y3)
	h03, l03 := bits.Mul64(x0, y3)
	h12, l12 := bits.Mul64(x1, y2)
	h21, l21 := bits.Mul64(x2, y1)
	h30, l30 := bits.Mul64(x3, y0)

	hi = (h00^h13^h22^h31)&m0 | (h01^h10^h23^h32)&m1 | (h02^h11^h20^h33)&m2 | (h03^h12^h21^h30)&m3
	lo = (l00^l13^l22^l31)&m0 | (l01^l10^l23^l32)&m1 | (l02^l11^l20^l33)&m2 | (l03^l12^l21^l30)&m3

	// x's bits 0..3: add y << i where bit i is set, selected by masks.
	mask := -(xl & 1)
	lo ^= y & mask
	mask = -(xl >> 1 & 1)
	lo ^= y << 1 & mask
	hi ^= y >> 63 & mask
	mask = -(xl >> 2 & 1)
	lo ^= y << 2 & mask
	hi ^= y >> 62 & mask
	mask = -(xl >> 3 & 1)
	lo ^= y << 3 & mask
	hi ^= y >> 61 & mask
	return hi, lo
}

// ghashElem is a field element in the representation above: hi holds the
// first eight bytes of the block, big-endian.
type ghashElem struct{ hi, lo uint64 }

func loadElem(b []byte) ghashElem {
	return ghashElem{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])}
}

func (e ghashElem) store(b []byte) {
	binary.BigEndian.PutUint64(b, e.hi)
	binary.BigEndian.PutUint64(b[8:], e.lo)
}

// ghashPower is a power of H with the XOR of its halves, the third operand
// of the Karatsuba multiplication.
type ghashPower struct{ hi, lo, mid uint64 }

func newPower(e ghashElem) ghashPower { return ghashPower{e.hi, e.lo, e.hi ^ e.lo} }

// unreduced accumulates Karatsuba partial products of several
// multiplications; reduce turns the sum into one field element.
type unreduced struct{ h1, h0, l1, l0, m1, m0 uint64 }

// mulAdd adds x*p to u without reducing.
func (u *unreduced) mulAdd(x ghashElem, p *ghashPower) {
	hh, hl := clmul64(x.hi, p.hi)
	lh, ll := clmul64(x.lo, p.lo)
	mh, ml := clmul64(x.hi^x.lo, p.mid)
	u.h1 ^= hh
	u.h0 ^= hl
	u.l1 ^= lh
	u.l0 ^= ll
	u.m1 ^= mh
	u.m0 ^= ml
}

// reduce returns the field element equal to the accumulated sum.
func (u *unreduced) reduce() ghashElem {
	// Karatsuba: middle = m - h - l, added at 64 bits.
	mh := u.m1 ^ u.h1 ^ u.l1
	ml := u.m0 ^ u.h0 ^ u.l0
	v3 := u.h1
	v2 := u.h0 ^ mh
	v1 := u.l1 ^ ml
	v0 := u.l0
	// Shift the 255-bit product left by one.
	v3 = v3<<1 | v2>>63
	v2 = v2<<1 | v1>>63
	v1 = v1<<1 | v0>>63
	v0 <<= 1
	// Fold bit b of the low half (the term x^(255-b)) into bits b+128,
	// b+127, b+126 and b+121: x^128 = 1 + x + x^2 + x^7. The first fold
	// spills into v1, which is folded next.
	v2 ^= v0 ^ v0>>1 ^ v0>>2 ^ v0>>7
	v1 ^= v0<<63 ^ v0<<62 ^ v0<<57
	v3 ^= v1 ^ v1>>1 ^ v1>>2 ^ v1>>7
	v2 ^= v1<<63 ^ v1<<62 ^ v1<<57
	return ghashElem{v3, v2}
}

// gfMul returns x*y in GF(2^128).
func gfMul(x ghashElem, y *ghashPower) ghashElem {
	var u unreduced
	u.mulAdd(x, y)
	return u.reduce()
}

// ghashKey holds H^1..H^4 for the four-block aggregated update.
type ghashKey struct {
	pow [4]ghashPower // pow[i] = H^(i+1)
}

func (k *ghashKey) init(h ghashElem) {
	k.pow[0] = newPower(h)
	for i := 1; i < len(k.pow); i++ {
		k.pow[i] = newPower(gfMul(h, &k.pow[i-1]))
	}
}

// update absorbs data into y: whole blocks, then a last partial block padded
// with zeros.
func (k *ghashKey) update(y *ghashElem, data []byte) {
	for len(data) >= 64 {
		var u unreduced
		x := loadElem(data)
		x.hi ^= y.hi
		x.lo ^= y.lo
		u.mulAdd(x, &k.pow[3])
		u.mulAdd(loadElem(data[16:]), &k.pow[2])
		u.mulAdd(loadElem(data[32:]), &k.pow[1])
		u.mulAdd(loadElem(data[48:]), &k.pow[0])
		*y = u.reduce()
		data = data[64:]
	}
	for len(data) >= 16 {
		x := loadElem(data)
		y.hi ^= x.hi
		y.lo ^= x.lo
		*y = gfMul(*y, &k.pow[0])
		data = data[16:]
	}
	if len(data) > 0 {
		var block [16]byte
		copy(block[:], data)
		x := loadElem(block[:])
		y.hi ^= x.hi
		y.lo ^= x.lo
		*y = gfMul(*y, &k.pow[0])
	}
}

// updateLengths absorbs the final block of bit lengths.
func (k *ghashKey) updateLengths(y *ghashElem, aadLen, textLen uint64) {
	y.hi ^= aadLen * 8
	y.lo ^= textLen * 8
	*y = gfMul(*y, &k.pow[0])
}

func (k *ghashKey) wipe() { clear(k.pow[:]) }
