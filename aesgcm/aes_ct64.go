package aesgcm

import (
	"encoding/binary"
	"github.com/vgcrypto/vg/stackscratch"
	"math/bits"
)

// This file is a bitsliced, constant-time AES that encrypts four blocks per
// pass (the layout idea of BearSSL's aes_ct64, written from FIPS 197).
//
// Layout. Eight uint64 words q[0..7]; q[j] holds bit j of every byte of the
// four blocks. In each word, the bit of state byte (row r, column c) of block
// k sits at position 16*r + 4*c + k: a row is a 16-bit group, a column a
// nibble inside it, the block the bit inside the nibble. With rows in 16-bit
// groups, ShiftRows is a nibble rotation inside each group and MixColumns
// needs only 64-bit rotations by 16 and 32.
//
// Getting there. A block's 16 bytes (column-major: byte 4*c + r) are split
// into two words of 8 bytes: w0 holds columns 0 and 2, w1 columns 1 and 3,
// with byte p = 2*r + (c>>1). Word i = 4*(c&1) + k of the eight then carries
// bit j of its byte p at position 8*p + j; transposing each 8x8 bit matrix
// (ortho) moves that bit to word j, position 8*p + i = 16*r + 4*c + k.
//
// Nothing here branches on or indexes memory with data: the S-box is a
// Boolean circuit (Boyar and Peralta's 113-gate, depth-16 circuit), the
// other steps are masks, shifts and rotations.

// spreadBytes moves the four bytes of the low half of x to the even byte
// positions of the result.
func spreadBytes(x uint64) uint64 {
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	x = (x | x<<8) & 0x00FF00FF00FF00FF
	return x
}

// gatherBytes is the inverse of spreadBytes: it collects the even bytes of x
// into the low half of the result.
func gatherBytes(x uint64) uint64 {
	x &= 0x00FF00FF00FF00FF
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	x = (x | x>>16) & 0x00000000FFFFFFFF
	return x
}

// loadWords returns the two words of a block given as its little-endian
// halves lo (bytes 0..7) and hi (bytes 8..15).
func loadWords(lo, hi uint64) (w0, w1 uint64) {
	w0 = spreadBytes(lo&0xFFFFFFFF) | spreadBytes(hi&0xFFFFFFFF)<<8
	w1 = spreadBytes(lo>>32) | spreadBytes(hi>>32)<<8
	return
}

// storeWords is the inverse of loadWords.
func storeWords(w0, w1 uint64) (lo, hi uint64) {
	lo = gatherBytes(w0) | gatherBytes(w1)<<32
	hi = gatherBytes(w0>>8) | gatherBytes(w1>>8)<<32
	return
}

// ortho transposes the 8x8 bit matrix formed by byte p of each of the eight
// words, for every p. It is its own inverse.
func ortho(q *[8]uint64) {
	swap := func(a, b *uint64, m uint64, s uint) {
		x, y := *a, *b
		*a = x&m | (y&m)<<s
		*b = (x>>s)&m | y&(m<<s)
	}
	const m1, m2, m4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
	swap(&q[0], &q[1], m1, 1)
	swap(&q[2], &q[3], m1, 1)
	swap(&q[4], &q[5], m1, 1)
	swap(&q[6], &q[7], m1, 1)
	swap(&q[0], &q[2], m2, 2)
	swap(&q[1], &q[3], m2, 2)
	swap(&q[4], &q[6], m2, 2)
	swap(&q[5], &q[7], m2, 2)
	swap(&q[0], &q[4], m4, 4)
	swap(&q[1], &q[5], m4, 4)
	swap(&q[2], &q[6], m4, 4)
	swap(&q[3], &q[7], m4, 4)
}

// subBytes applies the AES S-box to all 64 bytes held in q.
//
// The circuit is Boyar and Peralta's (2011): a linear top layer, a nonlinear
// middle computing the GF(2^8) inverse in a tower field, and a linear bottom
// layer that also applies the affine map (the NOT gates add 0x63). U0 is the
// most significant bit of the input byte (q[7]), S0 of the output.
func subBytes(q *[8]uint64) {
	u0, u1, u2, u3 := q[7], q[6], q[5], q[4]
	u4, u5, u6, u7 := q[3], q[2], q[1], q[0]

	t1 := u0 ^ u3
	t2 := u0 ^ u5
	t3 := u0 ^ u6
	t4 := u3 ^ u5
	t5 := u4 ^ u6
	t6 := t1 ^ t5
	t7 := u1 ^ u2
	t8 := u7 ^ t6
	t9 := u7 ^ t7
	t10 := t6 ^ t7
	t11 := u1 ^ u5
	t12 := u2 ^ u5
	t13 := t3 ^ t4
	t14 := t6 ^ t11
	t15 := t5 ^ t11
	t16 := t5 ^ t12
	t17 := t9 ^ t16
	t18 := u3 ^ u7
	t19 := t7 ^ t18
	t20 := t1 ^ t19
	t21 := u6 ^ u7
	t22 := t7 ^ t21
	t23 := t2 ^ t22
	t24 := t2 ^ t10
	t25 := t20 ^ t17
	t26 := t3 ^ t16
	t27 := t1 ^ t12

	m1 := t13 & t6
	m2 := t23 & t8
	m3 := t14 ^ m1
	m4 := t19 & u7
	m5 := m4 ^ m1
	m6 := t3 & t16
	m7 := t22 & t9
	m8 := t26 ^ m6
	m9 := t20 & t17
	m10 := m9 ^ m6
	m11 := t1 & t15
	m12 := t4 & t27
	m13 := m12 ^ m11
	m14 := t2 & t10
	m15 := m14 ^ m11
	m16 := m3 ^ m2
	m17 := m5 ^ t24
	m18 := m8 ^ m7
	m19 := m10 ^ m15
	m20 := m16 ^ m13
	m21 := m17 ^ m15
	m22 := m18 ^ m13
	m23 := m19 ^ t25
	m24 := m22 ^ m23
	m25 := m22 & m20
	m26 := m21 ^ m25
	m27 := m20 ^ m21
	m28 := m23 ^ m25
	m29 := m28 & m27
	m30 := m26 & m24
	m31 := m20 & m23
	m32 := m27 & m31
	m33 := m27 ^ m25
	m34 := m21 & m22
	m35 := m24 & m34
	m36 := m24 ^ m25
	m37 := m21 ^ m29
	m38 := m32 ^ m33
	m39 := m23 ^ m30
	m40 := m35 ^ m36
	m41 := m38 ^ m40
	m42 := m37 ^ m39
	m43 := m37 ^ m38
	m44 := m39 ^ m40
	m45 := m42 ^ m41
	m46 := m44 & t6
	m47 := m40 & t8
	m48 := m39 & u7
	m49 := m43 & t16
	m50 := m38 & t9
	m51 := m37 & t17
	m52 := m42 & t15
	m53 := m45 & t27
	m54 := m41 & t10
	m55 := m44 & t13
	m56 := m40 & t23
	m57 := m39 & t19
	m58 := m43 & t3
	m59 := m38 & t22
	m60 := m37 & t20
	m61 := m42 & t1
	m62 := m45 & t4
	m63 := m41 & t2

	l0 := m61 ^ m62
	l1 := m50 ^ m56
	l2 := m46 ^ m48
	l3 := m47 ^ m55
	l4 := m54 ^ m58
	l5 := m49 ^ m61
	l6 := m62 ^ l5
	l7 := m46 ^ l3
	l8 := m51 ^ m59
	l9 := m52 ^ m53
	l10 := m53 ^ l4
	l11 := m60 ^ l2
	l12 := m48 ^ m51
	l13 := m50 ^ l0
	l14 := m52 ^ m61
	l15 := m55 ^ l1
	l16 := m56 ^ l0
	l17 := m57 ^ l1
	l18 := m58 ^ l8
	l19 := m63 ^ l4
	l20 := l0 ^ l1
	l21 := l1 ^ l7
	l22 := l3 ^ l12
	l23 := l18 ^ l2
	l24 := l15 ^ l9
	l25 := l6 ^ l10
	l26 := l7 ^ l9
	l27 := l8 ^ l10
	l28 := l11 ^ l14
	l29 := l11 ^ l17

	q[7] = l6 ^ l24
	q[6] = ^(l16 ^ l26)
	q[5] = ^(l19 ^ l28)
	q[4] = l6 ^ l21
	q[3] = l20 ^ l22
	q[2] = l25 ^ l29
	q[1] = ^(l13 ^ l27)
	q[0] = ^(l6 ^ l23)
}

// shiftRows rotates row r left by r columns: in each 16-bit row group the
// nibble of column c takes the nibble of column c+r.
func shiftRows(q *[8]uint64) {
	for i := range q {
		x := q[i]
		q[i] = x&0x000000000000FFFF |
			(x&0x00000000FFF00000)>>4 | (x&0x00000000000F0000)<<12 |
			(x&0x0000FF0000000000)>>8 | (x&0x000000FF00000000)<<8 |
			(x&0x0FFF000000000000)<<4 | (x&0xF000000000000000)>>12
	}
}

// mixColumns computes, for each column, out_r = 2*(a_r + a_{r+1}) + a_{r+1}
// + a_{r+2} + a_{r+3}. Rotating a word right by 16 brings row r+1 to row r.
func mixColumns(q *[8]uint64) {
	r0 := bits.RotateLeft64(q[0], -16)
	r1 := bits.RotateLeft64(q[1], -16)
	r2 := bits.RotateLeft64(q[2], -16)
	r3 := bits.RotateLeft64(q[3], -16)
	r4 := bits.RotateLeft64(q[4], -16)
	r5 := bits.RotateLeft64(q[5], -16)
	r6 := bits.RotateLeft64(q[6], -16)
	r7 := bits.RotateLeft64(q[7], -16)
	s0 := q[0] ^ r0
	s1 := q[1] ^ r1
	s2 := q[2] ^ r2
	s3 := q[3] ^ r3
	s4 := q[4] ^ r4
	s5 := q[5] ^ r5
	s6 := q[6] ^ r6
	s7 := q[7] ^ r7
	// xtime(s): bit 0 <- s7, bits 1, 3, 4 get s7 added.
	q[0] = s7 ^ r0 ^ bits.RotateLeft64(s0, 32)
	q[1] = s0 ^ s7 ^ r1 ^ bits.RotateLeft64(s1, 32)
	q[2] = s1 ^ r2 ^ bits.RotateLeft64(s2, 32)
	q[3] = s2 ^ s7 ^ r3 ^ bits.RotateLeft64(s3, 32)
	q[4] = s3 ^ s7 ^ r4 ^ bits.RotateLeft64(s4, 32)
	q[5] = s4 ^ r5 ^ bits.RotateLeft64(s5, 32)
	q[6] = s5 ^ r6 ^ bits.RotateLeft64(s6, 32)
	q[7] = s6 ^ r7 ^ bits.RotateLeft64(s7, 32)
}

func addRoundKey(q *[8]uint64, rk *[8]uint64) {
	q[0] ^= rk[0]
	q[1] ^= rk[1]
	q[2] ^= rk[2]
	q[3] ^= rk[3]
	q[4] ^= rk[4]
	q[5] ^= rk[5]
	q[6] ^= rk[6]
	q[7] ^= rk[7]
}

// aesCT is an expanded AES key in bitsliced form: every round key is
// replicated into the four block slots, ready to XOR into a state.
type aesCT struct {
	rk     [15][8]uint64
	rounds int
}

// subWord applies the S-box to each byte of w. The circuit works on bit
// planes, q[j] holding bit j of every byte; for four bytes the planes are
// made with shifts and masks (bit j of byte i at bit 8i of q[j]) instead of
// the two 8x8 transposes of a whole state, which took half of a key
// expansion's time.
func subWord(w uint32) uint32 {
	const lsb = 0x01010101
	var q [8]uint64
	for j := range q {
		q[j] = uint64(w>>j) & lsb
	}
	subBytes(&q)
	var r uint32
	for j := range q {
		r |= uint32(q[j]&lsb) << j
	}
	return r
}

// expandKey sets c to the bitsliced key schedule of key (16, 24 or 32 bytes;
// the caller checks). It follows FIPS 197 section 5.2 on little-endian
// words, with the S-box evaluated by the circuit.
func (c *aesCT) expandKey(key []byte) {
	var w [60]uint32
	c.rounds = expandKeyWords(key, &w)
	for r := 0; r <= c.rounds; r++ {
		lo := uint64(w[4*r]) | uint64(w[4*r+1])<<32
		hi := uint64(w[4*r+2]) | uint64(w[4*r+3])<<32
		w0, w1 := loadWords(lo, hi)
		q := &c.rk[r]
		q[0], q[1], q[2], q[3] = w0, w0, w0, w0
		q[4], q[5], q[6], q[7] = w1, w1, w1, w1
		ortho(q)
	}
	stackscratch.WipeWords(w[:])
}

// expandKeyWords sets w to the AES key schedule of key (16, 24 or 32
// bytes) as little-endian words, so that round key r is the 16 bytes of
// w[4r..4r+3] in the standard (FIPS 197) byte order, and returns the number
// of rounds. It follows FIPS 197 section 5.2 with the S-box evaluated by
// the bitsliced circuit: no table lookup, constant time.
func expandKeyWords(key []byte, w *[60]uint32) (rounds int) {
	nk := len(key) / 4
	rounds = nk + 6
	total := 4 * (rounds + 1)
	for i := 0; i < nk; i++ {
		w[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	rcon := uint32(1)
	for i := nk; i < total; i++ {
		t := w[i-1]
		switch {
		case i%nk == 0:
			t = subWord(bits.RotateLeft32(t, -8)) ^ rcon
			rcon <<= 1
			rcon ^= 0x11b & -(rcon >> 8) // xtime; rcon is public
		case nk > 6 && i%nk == 4:
			t = subWord(t)
		}
		w[i] = w[i-nk] ^ t
	}
	return rounds
}

// encrypt runs the AES rounds on the four blocks held in q.
func (c *aesCT) encrypt(q *[8]uint64) {
	addRoundKey(q, &c.rk[0])
	for r := 1; r < c.rounds; r++ {
		subBytes(q)
		shiftRows(q)
		mixColumns(q)
		addRoundKey(q, &c.rk[r])
	}
	subBytes(q)
	shiftRows(q)
	addRoundKey(q, &c.rk[c.rounds])
}

// encryptBlocks encrypts the four 16-byte blocks of src into dst (64 bytes
// each; they may be the same array).
func (c *aesCT) encryptBlocks(dst, src *[64]byte) {
	var q [8]uint64
	for k := 0; k < 4; k++ {
		lo := binary.LittleEndian.Uint64(src[16*k:])
		hi := binary.LittleEndian.Uint64(src[16*k+8:])
		q[k], q[4+k] = loadWords(lo, hi)
	}
	ortho(&q)
	c.encrypt(&q)
	ortho(&q)
	for k := 0; k < 4; k++ {
		lo, hi := storeWords(q[k], q[4+k])
		binary.LittleEndian.PutUint64(dst[16*k:], lo)
		binary.LittleEndian.PutUint64(dst[16*k+8:], hi)
	}
}

// ctr4 writes to ks the encryptions of the four counter blocks prefix ||
// BE32(ctr), ..., prefix || BE32(ctr+3) (the counter wraps modulo 2^32).
// prefix holds the first 12 bytes of the counter block as little-endian
// words: lo = bytes 0..7, hi = bytes 8..11.
func (c *aesCT) ctr4(ks *[64]byte, lo, hi uint64, ctr uint32) {
	var q [8]uint64
	w0 := spreadBytes(lo&0xFFFFFFFF) | spreadBytes(hi&0xFFFFFFFF)<<8
	lo1 := spreadBytes(lo >> 32)
	for k := 0; k < 4; k++ {
		q[k] = w0
		q[4+k] = lo1 | spreadBytes(uint64(bits.ReverseBytes32(ctr+uint32(k))))<<8
	}
	ortho(&q)
	c.encrypt(&q)
	ortho(&q)
	for k := 0; k < 4; k++ {
		lo, hi := storeWords(q[k], q[4+k])
		binary.LittleEndian.PutUint64(ks[16*k:], lo)
		binary.LittleEndian.PutUint64(ks[16*k+8:], hi)
	}
}

// wipe zeroes the key schedule.
func (c *aesCT) wipe() {
	for i := range c.rk {
		stackscratch.WipeWords(c.rk[i][:])
	}
	c.rounds = 0
}
