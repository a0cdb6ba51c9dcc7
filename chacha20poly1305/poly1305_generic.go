package chacha20poly1305

import (
	"encoding/binary"
	"math/bits"
)

// polyState is a Poly1305 computation in progress (RFC 8439, section 2.5),
// with 64-bit limbs: the accumulator h = h[0] + h[1]·2⁶⁴ + h[2]·2¹²⁸, the
// clamped multiplier r = r[0] + r[1]·2⁶⁴ and the final addend s. Every field
// is secret. The layout is fixed (seven words, in this order) so that
// assembly kernels can share it.
type polyState struct {
	h [3]uint64
	r [2]uint64
	s [2]uint64
}

// The clamp of r (RFC 8439, section 2.5): the top four bits of bytes 3, 7, 11
// and 15 and the bottom two bits of bytes 4, 8 and 12 are cleared.
const (
	rMask0 = 0x0ffffffc0fffffff
	rMask1 = 0x0ffffffc0ffffffc
)

// init starts a Poly1305 computation with the one-time key: r from the first
// 16 bytes, clamped, and s from the last 16.
func (p *polyState) init(key *[32]byte) {
	p.h = [3]uint64{}
	p.r[0] = binary.LittleEndian.Uint64(key[0:]) & rMask0
	p.r[1] = binary.LittleEndian.Uint64(key[8:]) & rMask1
	p.s[0] = binary.LittleEndian.Uint64(key[16:])
	p.s[1] = binary.LittleEndian.Uint64(key[24:])
}

// polyBlocksGeneric absorbs msg, whose length must be a multiple of 16, as
// full 16-byte blocks: for each block m, h = (h + m + 2¹²⁸)·r mod 2¹³⁰-5,
// partially reduced. The AEAD only ever hashes full blocks (it pads with
// zeros), so every block carries the 2¹²⁸ bit.
//
// Bounds, which the limb arithmetic relies on: r[0], r[1] < 2⁶⁰ (clamped);
// on entry h < 2¹³⁰ + 2¹²⁸, so h[2] ≤ 4, and after adding a block h[2] ≤ 7,
// which keeps h[2]·r[i] below 2⁶³ and the product h·r below 2²⁵⁵.
func polyBlocksGeneric(p *polyState, msg []byte) {
	h0, h1, h2 := p.h[0], p.h[1], p.h[2]
	r0, r1 := p.r[0], p.r[1]

	for len(msg) >= 16 {
		// h += m + 2¹²⁸
		var c uint64
		h0, c = bits.Add64(h0, binary.LittleEndian.Uint64(msg[0:8]), 0)
		h1, c = bits.Add64(h1, binary.LittleEndian.Uint64(msg[8:16]), c)
		h2 += c + 1

		// t = h·r = t0 + t1·2⁶⁴ + t2·2¹²⁸ + t3·2¹⁹², with t0, t1, t2
		// 128-bit column sums and t3 one word.
		t0hi, t0lo := bits.Mul64(h0, r0)

		ahi, alo := bits.Mul64(h0, r1)
		bhi, blo := bits.Mul64(h1, r0)
		t1lo, c := bits.Add64(alo, blo, 0)
		t1hi := ahi + bhi + c

		chi, clo := bits.Mul64(h1, r1)
		t2lo, c := bits.Add64(clo, h2*r0, 0)
		t2hi := chi + c

		t3 := h2 * r1

		// m = m0 + m1·2⁶⁴ + m2·2¹²⁸ + m3·2¹⁹², the product in words.
		m0 := t0lo
		m1, c := bits.Add64(t0hi, t1lo, 0)
		m2, c := bits.Add64(t1hi, t2lo, c)
		m3 := t2hi + t3 + c

		// Reduce modulo 2¹³⁰-5: with m = l + k·2¹³⁰ (l the low 130 bits),
		// m ≡ l + 5k = l + 4k + k. The words (m2 with its low two bits
		// cleared, m3) are 4k as a 128-bit number.
		h0, h1, h2 = m0, m1, m2&3
		k4lo, k4hi := m2&^3, m3
		h0, c = bits.Add64(h0, k4lo, 0)
		h1, c = bits.Add64(h1, k4hi, c)
		h2 += c
		klo := k4lo>>2 | k4hi<<62
		khi := k4hi >> 2
		h0, c = bits.Add64(h0, klo, 0)
		h1, c = bits.Add64(h1, khi, c)
		h2 += c

		msg = msg[16:]
	}

	p.h[0], p.h[1], p.h[2] = h0, h1, h2
}

// polyFinish writes the tag (h mod 2¹³⁰-5) + s mod 2¹²⁸ to tag. h is below
// 2·(2¹³⁰-5), so one conditional subtraction of the prime, chosen with a
// mask, reduces it fully.
func polyFinish(p *polyState, tag *[TagSize]byte) {
	h0, h1, h2 := p.h[0], p.h[1], p.h[2]

	// g = h + 5; h ≥ 2¹³⁰-5 exactly when g ≥ 2¹³⁰, that is when bit 2 of
	// g2 is set (g < 2¹³¹), and then h mod p is g - 2¹³⁰, whose low 128
	// bits are g0, g1.
	g0, c := bits.Add64(h0, 5, 0)
	g1, c := bits.Add64(h1, 0, c)
	g2 := h2 + c
	mask := -(g2 >> 2 & 1)
	h0 ^= mask & (h0 ^ g0)
	h1 ^= mask & (h1 ^ g1)

	t0, c := bits.Add64(h0, p.s[0], 0)
	t1, _ := bits.Add64(h1, p.s[1], c)
	binary.LittleEndian.PutUint64(tag[0:], t0)
	binary.LittleEndian.PutUint64(tag[8:], t1)
}
