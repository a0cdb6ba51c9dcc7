package chacha20poly1305

import (
	"encoding/binary"
	"math/bits"
)

// The ChaCha20 constant words, "expand 32-byte k" read as four little-endian
// words (RFC 8439, section 2.3).
const (
	sigma0 = 0x61707865
	sigma1 = 0x3320646e
	sigma2 = 0x79622d32
	sigma3 = 0x6b206574
)

// blockSize is the size of one ChaCha20 keystream block.
const blockSize = 64

// counterIndex is the position of the 32-bit block counter in the state.
const counterIndex = 12

// initState sets s to the ChaCha20 input state for key and nonce with block
// counter 0 (RFC 8439, section 2.3). key is secret.
func initState(s *[16]uint32, key *[KeySize]byte, nonce *[NonceSize]byte) {
	s[0], s[1], s[2], s[3] = sigma0, sigma1, sigma2, sigma3
	for i := range 8 {
		s[4+i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	s[counterIndex] = 0
	s[13] = binary.LittleEndian.Uint32(nonce[0:])
	s[14] = binary.LittleEndian.Uint32(nonce[4:])
	s[15] = binary.LittleEndian.Uint32(nonce[8:])
}

// quarterRound is the ChaCha quarter round (RFC 8439, section 2.1).
func quarterRound(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
	a += b
	d ^= a
	d = bits.RotateLeft32(d, 16)
	c += d
	b ^= c
	b = bits.RotateLeft32(b, 12)
	a += b
	d ^= a
	d = bits.RotateLeft32(d, 8)
	c += d
	b ^= c
	b = bits.RotateLeft32(b, 7)
	return a, b, c, d
}

// xorBlocksGeneric sets dst to src XOR the keystream of len(src)/64 blocks
// starting at block s[12], and advances s[12] by that many blocks. len(src)
// must be a multiple of 64 and len(dst) at least len(src); dst and src may be
// the same memory. The state words (the key) and the text are secret; the
// counter does not wrap within one call (the message limit keeps it below
// 2^32 blocks).
func xorBlocksGeneric(s *[16]uint32, dst, src []byte) {
	// The state lives in locals: the 16 input words here, the 16 working words
	// inside the loop. Only the counter changes from block to block.
	c0, c1, c2, c3 := s[0], s[1], s[2], s[3]
	c4, c5, c6, c7 := s[4], s[5], s[6], s[7]
	c8, c9, c10, c11 := s[8], s[9], s[10], s[11]
	c12, c13, c14, c15 := s[12], s[13], s[14], s[15]

	// The first column round of columns 1, 2 and 3 does not involve the
	// counter, so it is the same for every block: compute it once.
	p1, p5, p9, p13 := quarterRound(c1, c5, c9, c13)
	p2, p6, p10, p14 := quarterRound(c2, c6, c10, c14)
	p3, p7, p11, p15 := quarterRound(c3, c7, c11, c15)

	for len(src) >= blockSize {
		in := src[:blockSize:blockSize]
		out := dst[:blockSize:blockSize]

		// The rest of the first double round.
		x0, x4, x8, x12 := quarterRound(c0, c4, c8, c12)
		x0, x5, x10, x15 := quarterRound(x0, p5, p10, p15)
		x1, x6, x11, x12 := quarterRound(p1, p6, p11, x12)
		x2, x7, x8, x13 := quarterRound(p2, p7, x8, p13)
		x3, x4, x9, x14 := quarterRound(p3, x4, p9, p14)

		// The nine remaining double rounds.
		for range 9 {
			x0, x4, x8, x12 = quarterRound(x0, x4, x8, x12)
			x1, x5, x9, x13 = quarterRound(x1, x5, x9, x13)
			x2, x6, x10, x14 = quarterRound(x2, x6, x10, x14)
			x3, x7, x11, x15 = quarterRound(x3, x7, x11, x15)

			x0, x5, x10, x15 = quarterRound(x0, x5, x10, x15)
			x1, x6, x11, x12 = quarterRound(x1, x6, x11, x12)
			x2, x7, x8, x13 = quarterRound(x2, x7, x8, x13)
			x3, x4, x9, x14 = quarterRound(x3, x4, x9, x14)
		}

		// Add the input state and XOR with the text, 8 bytes at a time.
		xor64(out[0:], in[0:], x0+c0, x1+c1)
		xor64(out[8:], in[8:], x2+c2, x3+c3)
		xor64(out[16:], in[16:], x4+c4, x5+c5)
		xor64(out[24:], in[24:], x6+c6, x7+c7)
		xor64(out[32:], in[32:], x8+c8, x9+c9)
		xor64(out[40:], in[40:], x10+c10, x11+c11)
		xor64(out[48:], in[48:], x12+c12, x13+c13)
		xor64(out[56:], in[56:], x14+c14, x15+c15)

		c12++
		src = src[blockSize:]
		dst = dst[blockSize:]
	}
	s[counterIndex] = c12
}

// xor64 sets out[0:8] to in[0:8] XOR the little-endian words lo, hi.
func xor64(out, in []byte, lo, hi uint32) {
	v := binary.LittleEndian.Uint64(in) ^ (uint64(hi)<<32 | uint64(lo))
	binary.LittleEndian.PutUint64(out, v)
}

// hChaCha20 sets out to HChaCha20(key, nonce), the subkey of XChaCha20
// (draft-irtf-cfrg-xchacha-03, section 2.2): the ChaCha20 rounds over the
// constants, the key and the 16-byte nonce, without the final addition,
// keeping words 0-3 and 12-15. key and out are secret. Every backend uses
// it (through messageKey): it is one block's rounds per message.
func hChaCha20(out *[KeySize]byte, key *[KeySize]byte, nonce *[16]byte) {
	x0, x1, x2, x3 := uint32(sigma0), uint32(sigma1), uint32(sigma2), uint32(sigma3)
	x4 := binary.LittleEndian.Uint32(key[0:])
	x5 := binary.LittleEndian.Uint32(key[4:])
	x6 := binary.LittleEndian.Uint32(key[8:])
	x7 := binary.LittleEndian.Uint32(key[12:])
	x8 := binary.LittleEndian.Uint32(key[16:])
	x9 := binary.LittleEndian.Uint32(key[20:])
	x10 := binary.LittleEndian.Uint32(key[24:])
	x11 := binary.LittleEndian.Uint32(key[28:])
	x12 := binary.LittleEndian.Uint32(nonce[0:])
	x13 := binary.LittleEndian.Uint32(nonce[4:])
	x14 := binary.LittleEndian.Uint32(nonce[8:])
	x15 := binary.LittleEndian.Uint32(nonce[12:])

	for range 10 {
		x0, x4, x8, x12 = quarterRound(x0, x4, x8, x12)
		x1, x5, x9, x13 = quarterRound(x1, x5, x9, x13)
		x2, x6, x10, x14 = quarterRound(x2, x6, x10, x14)
		x3, x7, x11, x15 = quarterRound(x3, x7, x11, x15)

		x0, x5, x10, x15 = quarterRound(x0, x5, x10, x15)
		x1, x6, x11, x12 = quarterRound(x1, x6, x11, x12)
		x2, x7, x8, x13 = quarterRound(x2, x7, x8, x13)
		x3, x4, x9, x14 = quarterRound(x3, x4, x9, x14)
	}

	binary.LittleEndian.PutUint64(out[0:], uint64(x1)<<32|uint64(x0))
	binary.LittleEndian.PutUint64(out[8:], uint64(x3)<<32|uint64(x2))
	binary.LittleEndian.PutUint64(out[16:], uint64(x13)<<32|uint64(x12))
	binary.LittleEndian.PutUint64(out[24:], uint64(x15)<<32|uint64(x14))
}
