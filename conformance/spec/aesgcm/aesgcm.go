// Package aesgcm is a short reference AES-GCM written from FIPS 197 and
// NIST SP 800-38D, for tests only. It follows the documents' definitions
// step by step, computes the S-box from its definition, and multiplies in
// GF(2^128) bit by bit (SP 800-38D Algorithm 1). It is slow and makes no
// attempt at constant time: never use it on real secrets.
package aesgcm

import (
	"crypto/subtle"
	"errors"
)

// sbox is computed from FIPS 197 section 5.1.1: the multiplicative inverse
// in GF(2^8) followed by the affine transformation.
var sbox = func() (s [256]byte) {
	for x := 0; x < 256; x++ {
		inv := byte(0)
		for y := 1; y < 256; y++ {
			if gfMul8(byte(x), byte(y)) == 1 {
				inv = byte(y)
			}
		}
		b := inv
		var out byte
		for i := 0; i < 8; i++ {
			bit := (b>>i ^ b>>((i+4)%8) ^ b>>((i+5)%8) ^ b>>((i+6)%8) ^ b>>((i+7)%8) ^ 0x63>>i) & 1
			out |= bit << i
		}
		s[x] = out
	}
	return
}()

// gfMul8 multiplies in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197
// section 4.2).
func gfMul8(a, b byte) byte {
	var p byte
	for i := 0; i < 8; i++ {
		if b&1 == 1 {
			p ^= a
		}
		hi := a & 0x80
		a <<= 1
		if hi != 0 {
			a ^= 0x1b
		}
		b >>= 1
	}
	return p
}

// A KeyWord is the 32-bit word KeyExpansion is written over: [Bytes4]
// computes with it; a symbolic word runs the same code to prove an
// implementation's key schedule equal to it.
type KeyWord[W any] interface {
	// Xor is the bitwise XOR.
	Xor(W) W
	// SubWord applies the S-box to each byte (FIPS 197 section 5.2).
	SubWord() W
	// RotWord is the cyclic permutation [a0,a1,a2,a3] -> [a1,a2,a3,a0].
	RotWord() W
	// XorRcon XORs rcon into the first byte: Rcon[i] = [rcon,0,0,0].
	XorRcon(rcon byte) W
}

// Bytes4 is a key schedule word as its four bytes, a0 first.
type Bytes4 [4]byte

// Xor is a XOR b.
func (a Bytes4) Xor(b Bytes4) Bytes4 {
	return Bytes4{a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]}
}

// SubWord is S(a0), S(a1), S(a2), S(a3).
func (a Bytes4) SubWord() Bytes4 { return Bytes4{sbox[a[0]], sbox[a[1]], sbox[a[2]], sbox[a[3]]} }

// RotWord is a1, a2, a3, a0.
func (a Bytes4) RotWord() Bytes4 { return Bytes4{a[1], a[2], a[3], a[0]} }

// XorRcon is a0 XOR rcon, a1, a2, a3.
func (a Bytes4) XorRcon(rcon byte) Bytes4 { a[0] ^= rcon; return a }

// KeyExpansion is FIPS 197 section 5.2 on the key's Nk words: it returns
// the 4·(Nr+1) words of the schedule, Nr = Nk + 6.
func KeyExpansion[W KeyWord[W]](key []W) []W {
	nk := len(key)
	w := make([]W, 4*(nk+7))
	copy(w, key)
	rcon := byte(1)
	for i := nk; i < len(w); i++ {
		t := w[i-1]
		if i%nk == 0 {
			t = t.RotWord().SubWord().XorRcon(rcon)
			rcon = gfMul8(rcon, 2)
		} else if nk > 6 && i%nk == 4 {
			t = t.SubWord()
		}
		w[i] = w[i-nk].Xor(t)
	}
	return w
}

// expandKey is KeyExpansion on bytes; it returns Nr+1 round keys of 16
// bytes.
func expandKey(key []byte) [][16]byte {
	words := make([]Bytes4, len(key)/4)
	for i := range words {
		copy(words[i][:], key[4*i:])
	}
	w := KeyExpansion(words)
	rks := make([][16]byte, len(w)/4)
	for r := range rks {
		for c := 0; c < 4; c++ {
			copy(rks[r][4*c:], w[4*r+c][:])
		}
	}
	return rks
}

// A Block is the 128-bit value the cipher and the counter mode are written
// over: [Bytes16] computes with it; a symbolic block (x86sim's symbolic mode)
// runs the same code to prove an implementation equal to it.
type Block[B any] interface {
	// Xor is the bitwise XOR (AddRoundKey, and the keystream's).
	Xor(B) B
	// Round is SubBytes, ShiftRows and MixColumns (FIPS 197 sections
	// 5.1.1-5.1.3), then AddRoundKey(rk).
	Round(rk B) B
	// FinalRound is SubBytes and ShiftRows, then AddRoundKey(rk).
	FinalRound(rk B) B
	// Inc32 is inc32 (SP 800-38D section 6.2) applied k times: the last 32
	// bits, big-endian, plus k modulo 2^32.
	Inc32(k uint32) B
}

// Bytes16 is a block as bytes, the state byte of row r, column c at
// 4*c+r (FIPS 197 section 3.4).
type Bytes16 [16]byte

// Xor is a XOR b.
func (a Bytes16) Xor(b Bytes16) Bytes16 {
	for i := range a {
		a[i] ^= b[i]
	}
	return a
}

// subShift is SubBytes then ShiftRows: s'[r][c] = S(s[r][(c+r) mod 4]).
func (a Bytes16) subShift() Bytes16 {
	var t Bytes16
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			t[4*c+r] = sbox[a[4*((c+r)%4)+r]]
		}
	}
	return t
}

// Round is a full round with the round key rk.
func (a Bytes16) Round(rk Bytes16) Bytes16 {
	s := a.subShift()
	for c := 0; c < 4; c++ { // MixColumns
		col := [4]byte{s[4*c], s[4*c+1], s[4*c+2], s[4*c+3]}
		for r := 0; r < 4; r++ {
			s[4*c+r] = gfMul8(col[r], 2) ^ gfMul8(col[(r+1)%4], 3) ^ col[(r+2)%4] ^ col[(r+3)%4]
		}
	}
	return s.Xor(rk)
}

// FinalRound is the last round, without MixColumns.
func (a Bytes16) FinalRound(rk Bytes16) Bytes16 { return a.subShift().Xor(rk) }

// Inc32 adds k to the last four bytes as a big-endian number.
func (a Bytes16) Inc32(k uint32) Bytes16 {
	c := uint32(a[12])<<24 | uint32(a[13])<<16 | uint32(a[14])<<8 | uint32(a[15])
	c += k
	a[12], a[13], a[14], a[15] = byte(c>>24), byte(c>>16), byte(c>>8), byte(c)
	return a
}

// Cipher is FIPS 197 section 5.1 with the round keys rks (Nr+1 of them).
func Cipher[B Block[B]](rks []B, in B) B {
	s := in.Xor(rks[0])
	nr := len(rks) - 1
	for round := 1; round < nr; round++ {
		s = s.Round(rks[round])
	}
	return s.FinalRound(rks[nr])
}

// GCTRBlocks is GCTR (SP 800-38D Algorithm 3) over whole blocks: block i of
// x XORed with the cipher of icb advanced i times by inc32.
func GCTRBlocks[B Block[B]](rks []B, icb B, x []B) []B {
	y := make([]B, len(x))
	for i := range x {
		y[i] = x[i].Xor(Cipher(rks, icb.Inc32(uint32(i))))
	}
	return y
}

// encryptBlock is Cipher on bytes.
func encryptBlock(rks [][16]byte, in [16]byte) [16]byte {
	b := make([]Bytes16, len(rks))
	for i, rk := range rks {
		b[i] = rk
	}
	return Cipher(b, Bytes16(in))
}

// EncryptBlock encrypts one block with AES under key (16, 24 or 32 bytes).
func EncryptBlock(key []byte, block [16]byte) [16]byte {
	return encryptBlock(expandKey(key), block)
}

// mulBlocks is SP 800-38D Algorithm 1: X * Y in GF(2^128), where bit 0 of a
// block is the leftmost (most significant bit of byte 0).
func mulBlocks(x, y [16]byte) [16]byte {
	var z [16]byte
	v := y
	for i := 0; i < 128; i++ {
		if x[i/8]>>(7-i%8)&1 == 1 {
			for j := range z {
				z[j] ^= v[j]
			}
		}
		lsb := v[15] & 1
		for j := 15; j > 0; j-- { // V >> 1
			v[j] = v[j]>>1 | v[j-1]<<7
		}
		v[0] >>= 1
		if lsb == 1 {
			v[0] ^= 0xe1 // R = 11100001 || 0^120
		}
	}
	return z
}

// Mul is X·Y in GF(2^128) (Algorithm 1).
func Mul(x, y [16]byte) [16]byte { return mulBlocks(x, y) }

// A HashBlock is the 128-bit value GHASH is written over when one operand
// of each product is a constant: [Bytes16] computes with it; a symbolic
// block proves code equal to it.
type HashBlock[B any] interface {
	// Xor is the bitwise XOR.
	Xor(B) B
	// Select is v where bit i of the block (SP 800-38D's bit order: bit 0
	// is the most significant bit of byte 0) is 1, and zero where it is 0.
	Select(i int, v [16]byte) B
}

// Select is v if bit i of a is 1, else zero.
func (a Bytes16) Select(i int, v [16]byte) Bytes16 {
	if a[i/8]>>(7-i%8)&1 == 1 {
		return v
	}
	return Bytes16{}
}

// MulConst is x·y in GF(2^128) for a constant y: Algorithm 1, the sum over
// the bits of x of y·x^i.
func MulConst[B HashBlock[B]](x B, y [16]byte) B {
	z := x.Select(0, [16]byte{})
	v := y
	for i := 0; i < 128; i++ {
		z = z.Xor(x.Select(i, v))
		v = mulBlocks(v, [16]byte{0: 0x40}) // v·x (the element x is bit 1)
	}
	return z
}

// GHASHExpanded is GHASH_H (Algorithm 2) of the blocks x written out as
// the sum of X_i·H^(m-i+1) (m blocks), with H^k given as powers[k-1].
func GHASHExpanded[B HashBlock[B]](powers [][16]byte, x []B) B {
	m := len(x)
	var y B
	for i, b := range x {
		t := MulConst(b, powers[m-1-i])
		if i == 0 {
			y = t
		} else {
			y = y.Xor(t)
		}
	}
	return y
}

// ghash is GHASH_H (SP 800-38D Algorithm 2) of x padded with zeros to a
// whole number of blocks.
func ghash(h [16]byte, y [16]byte, x []byte) [16]byte {
	for len(x) > 0 {
		var block [16]byte
		n := copy(block[:], x)
		x = x[n:]
		for j := range y {
			y[j] ^= block[j]
		}
		y = mulBlocks(y, h)
	}
	return y
}

func inc32(b [16]byte) [16]byte {
	for i := 15; i >= 12; i-- {
		b[i]++
		if b[i] != 0 {
			break
		}
	}
	return b
}

// gctr is SP 800-38D Algorithm 3.
func gctr(rks [][16]byte, icb [16]byte, x []byte) []byte {
	y := make([]byte, len(x))
	cb := icb
	for i := 0; i < len(x); i += 16 {
		ks := encryptBlock(rks, cb)
		for j := i; j < len(x) && j < i+16; j++ {
			y[j] = x[j] ^ ks[j-i]
		}
		cb = inc32(cb)
	}
	return y
}

func lengthsBlock(aadLen, textLen int) [16]byte {
	var b [16]byte
	a, c := uint64(aadLen)*8, uint64(textLen)*8
	for i := 0; i < 8; i++ {
		b[7-i] = byte(a >> (8 * i))
		b[15-i] = byte(c >> (8 * i))
	}
	return b
}

// tagOf computes J0 and the full tag for ciphertext c (steps 2 and 5-6 of
// Algorithm 4).
func tagOf(rks [][16]byte, iv, c, a []byte) (j0, tag [16]byte) {
	h := encryptBlock(rks, [16]byte{})
	if len(iv) == 12 {
		copy(j0[:], iv)
		j0[15] = 1
	} else {
		j0 = ghash(h, [16]byte{}, iv)
		l := lengthsBlock(0, len(iv))
		j0 = ghash(h, j0, l[:])
	}
	s := ghash(h, [16]byte{}, a)
	s = ghash(h, s, c)
	l := lengthsBlock(len(a), len(c))
	s = ghash(h, s, l[:])
	t := gctr(rks, j0, s[:])
	copy(tag[:], t)
	return j0, tag
}

// Seal is GCM-AE (SP 800-38D Algorithm 4): it returns C || T with a tag of
// tagSize bytes.
func Seal(key, iv, plaintext, additionalData []byte, tagSize int) []byte {
	rks := expandKey(key)
	var j0 [16]byte
	if len(iv) == 12 {
		copy(j0[:], iv)
		j0[15] = 1
	} else {
		j0, _ = tagOf(rks, iv, nil, nil)
	}
	c := gctr(rks, inc32(j0), plaintext)
	_, tag := tagOf(rks, iv, c, additionalData)
	return append(c, tag[:tagSize]...)
}

// ErrAuth is returned by Open for an inauthentic message.
var ErrAuth = errors.New("spec/aesgcm: authentication failed")

// Open is GCM-AD (SP 800-38D Algorithm 5) for C || T with a tag of tagSize
// bytes.
func Open(key, iv, sealed, additionalData []byte, tagSize int) ([]byte, error) {
	if len(sealed) < tagSize {
		return nil, ErrAuth
	}
	c, t := sealed[:len(sealed)-tagSize], sealed[len(sealed)-tagSize:]
	rks := expandKey(key)
	j0, tag := tagOf(rks, iv, c, additionalData)
	if subtle.ConstantTimeCompare(tag[:tagSize], t) != 1 {
		return nil, ErrAuth
	}
	return gctr(rks, inc32(j0), c), nil
}
