// Package chacha20poly1305 is a short reference ChaCha20-Poly1305 written
// from RFC 8439, and XChaCha20-Poly1305 from draft-irtf-cfrg-xchacha-03, for
// tests only. It follows the documents' definitions step by step: the state
// as sixteen words, the quarter round and block function of sections 2.1 to
// 2.3, encryption of section 2.4, Poly1305 of section 2.5 computed with
// math/big modulo 2¹³⁰-5, the key generation of section 2.6 and the AEAD
// construction of section 2.8. It is slow and makes no attempt at constant
// time: never use it on real secrets.
package chacha20poly1305

import (
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"math/big"
	"math/bits"
)

// Sizes, in bytes.
const (
	KeySize    = 32
	NonceSize  = 12
	NonceSizeX = 24
	TagSize    = 16
)

// A Word is the 32-bit modular arithmetic the block function is written in:
// [U32] computes with it; a symbolic word (x86sim's symbolic mode) runs the
// same code to prove an implementation equal to it for every input.
type Word[W any] interface {
	// Add is the sum modulo 2³².
	Add(W) W
	// AddUint32 adds a constant modulo 2³².
	AddUint32(uint32) W
	// Xor is the bitwise XOR.
	Xor(W) W
	// RotateLeft rotates towards the high bits by k.
	RotateLeft(k int) W
}

// U32 is a uint32 as a [Word].
type U32 uint32

// Add is the sum modulo 2³².
func (a U32) Add(b U32) U32 { return a + b }

// AddUint32 adds k modulo 2³².
func (a U32) AddUint32(k uint32) U32 { return a + U32(k) }

// Xor is a XOR b.
func (a U32) Xor(b U32) U32 { return a ^ b }

// RotateLeft is a rotated left by k bits.
func (a U32) RotateLeft(k int) U32 { return U32(bits.RotateLeft32(uint32(a), k)) }

// QuarterRound is the ChaCha quarter round of RFC 8439 section 2.1.
func QuarterRound(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
	w, x, y, z := quarterRound(U32(a), U32(b), U32(c), U32(d))
	return uint32(w), uint32(x), uint32(y), uint32(z)
}

func quarterRound[W Word[W]](a, b, c, d W) (W, W, W, W) {
	a = a.Add(b)
	d = d.Xor(a)
	d = d.RotateLeft(16)
	c = c.Add(d)
	b = b.Xor(c)
	b = b.RotateLeft(12)
	a = a.Add(b)
	d = d.Xor(a)
	d = d.RotateLeft(8)
	c = c.Add(d)
	b = b.Xor(c)
	b = b.RotateLeft(7)
	return a, b, c, d
}

// Sigma is the state's constant row, "expand 32-byte k" (section 2.3).
var Sigma = [4]uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}

// initialState is the ChaCha20 state of section 2.3: the four constant
// words, the key as eight little-endian words, the block counter and the
// nonce as three words.
func initialState(key []byte, counter uint32, nonce []byte) [16]uint32 {
	var s [16]uint32
	copy(s[:4], Sigma[:])
	for i := 0; i < 8; i++ {
		s[4+i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	s[12] = counter
	for i := 0; i < 3; i++ {
		s[13+i] = binary.LittleEndian.Uint32(nonce[4*i:])
	}
	return s
}

// innerBlock is one double round: four column rounds then four diagonal
// rounds (section 2.3.1).
func innerBlock[W Word[W]](s *[16]W) {
	qr := func(a, b, c, d int) { s[a], s[b], s[c], s[d] = quarterRound(s[a], s[b], s[c], s[d]) }
	qr(0, 4, 8, 12)
	qr(1, 5, 9, 13)
	qr(2, 6, 10, 14)
	qr(3, 7, 11, 15)
	qr(0, 5, 10, 15)
	qr(1, 6, 11, 12)
	qr(2, 7, 8, 13)
	qr(3, 4, 9, 14)
}

// BlockWords is the ChaCha20 block function of section 2.3 on a state of
// sixteen words: twenty rounds, then the initial state added word by word.
// The block's bytes are the result's words, little-endian.
func BlockWords[W Word[W]](state [16]W) [16]W {
	working := state
	for i := 0; i < 10; i++ {
		innerBlock(&working)
	}
	for i := range working {
		working[i] = working[i].Add(state[i])
	}
	return working
}

// Block is the ChaCha20 block function of section 2.3: twenty rounds over
// the state, the initial state added word by word, serialized little-endian.
func Block(key []byte, counter uint32, nonce []byte) [64]byte {
	var state [16]U32
	for i, w := range initialState(key, counter, nonce) {
		state[i] = U32(w)
	}
	var out [64]byte
	for i, w := range BlockWords(state) {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(w))
	}
	return out
}

// XORBlocksWords is the encryption of section 2.4 over whole blocks, in
// words: block j of text, as sixteen little-endian words, XORed with the
// block function of state with its counter word (12) advanced by j. It also
// returns the state with the counter advanced past the text.
func XORBlocksWords[W Word[W]](state [16]W, text [][16]W) (out [][16]W, next [16]W) {
	for j, block := range text {
		s := state
		s[12] = s[12].AddUint32(uint32(j))
		ks := BlockWords(s)
		var o [16]W
		for i := range o {
			o[i] = block[i].Xor(ks[i])
		}
		out = append(out, o)
	}
	next = state
	next[12] = next[12].AddUint32(uint32(len(text)))
	return out, next
}

// Encrypt is ChaCha20 encryption of section 2.4: block j of the text is
// XORed with Block(key, counter+j, nonce). Decryption is the same function.
func Encrypt(key []byte, counter uint32, nonce, text []byte) []byte {
	out := make([]byte, len(text))
	for j := 0; j*64 < len(text); j++ {
		ks := Block(key, counter+uint32(j), nonce)
		for i := j * 64; i < len(text) && i < (j+1)*64; i++ {
			out[i] = text[i] ^ ks[i-j*64]
		}
	}
	return out
}

// p is the Poly1305 prime 2¹³⁰-5.
var p = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))

// leNum reads b as a little-endian number.
func leNum(b []byte) *big.Int {
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	return new(big.Int).SetBytes(be)
}

// A Num is the arithmetic of Poly1305's accumulator, the integers modulo
// p: [Poly1305] computes with math/big; a proof runs the same loop over
// polynomials in an implementation's inputs.
type Num[N any] interface {
	// Add is the sum modulo p.
	Add(N) N
	// Mul is the product modulo p.
	Mul(N) N
}

// PolyBlocks splits msg into the blocks of section 2.5.1: 16 bytes each
// (the last one possibly shorter), with a 0x01 byte appended (one).
func PolyBlocks[B any](msg []B, one B) [][]B {
	var out [][]B
	for i := 0; i < len(msg); i += 16 {
		block := append([]B(nil), msg[i:min(i+16, len(msg))]...)
		out = append(out, append(block, one))
	}
	return out
}

// PolyAccumulate is the loop of section 2.5.1: for each block n (a block
// of [PolyBlocks] read as a little-endian number) the accumulator becomes
// (acc + n)·r, modulo p.
func PolyAccumulate[N Num[N]](acc N, blocks []N, r N) N {
	for _, n := range blocks {
		acc = acc.Add(n).Mul(r)
	}
	return acc
}

// modP is an integer modulo p as a [Num].
type modP struct{ v *big.Int }

func (a modP) Add(b modP) modP {
	v := new(big.Int).Add(a.v, b.v)
	return modP{v.Mod(v, p)}
}

func (a modP) Mul(b modP) modP {
	v := new(big.Int).Mul(a.v, b.v)
	return modP{v.Mod(v, p)}
}

// ClampR is the clamp of r (section 2.5.1): the top four bits of bytes 3,
// 7, 11 and 15 and the bottom two of bytes 4, 8 and 12 cleared.
var ClampR = [16]byte{
	0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
	0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
}

// Poly1305 is the MAC of section 2.5.1: r is the first half of the key,
// clamped; s the second half; for each 16-byte block of msg (the last one
// possibly shorter), the block with a 0x01 byte appended is read as a
// little-endian number n and the accumulator becomes (acc + n)·r mod p; the
// tag is the low 128 bits of acc + s.
func Poly1305(key [32]byte, msg []byte) [TagSize]byte {
	rBytes := append([]byte(nil), key[:16]...)
	for i := range rBytes {
		rBytes[i] &= ClampR[i]
	}
	r := leNum(rBytes)
	s := leNum(key[16:])

	var blocks []modP
	for _, b := range PolyBlocks(msg, 0x01) {
		blocks = append(blocks, modP{leNum(b)})
	}
	acc := PolyAccumulate(modP{new(big.Int)}, blocks, modP{r}).v
	acc.Add(acc, s)

	var tag [TagSize]byte
	be := make([]byte, 32)
	acc.FillBytes(be)
	for i := 0; i < TagSize; i++ {
		tag[i] = be[31-i]
	}
	return tag
}

// PolyKeyGen is the Poly1305 key generation of section 2.6: the first 32
// bytes of the ChaCha20 block with counter 0.
func PolyKeyGen(key, nonce []byte) [32]byte {
	b := Block(key, 0, nonce)
	return [32]byte(b[:32])
}

// pad16 returns the zero bytes that bring a length of n to a multiple of 16.
func pad16(n int) []byte {
	return make([]byte, (16-n%16)%16)
}

// macData is the Poly1305 input of section 2.8: the AAD, padding, the
// ciphertext, padding, and the two lengths as 64-bit little-endian numbers.
func macData(aad, ciphertext []byte) []byte {
	return MACData(aad, ciphertext, func(b byte) byte { return b })
}

// MACData is macData over bytes of any type B, byteOf giving the padding's
// and the lengths' bytes.
func MACData[B any](aad, ciphertext []B, byteOf func(byte) B) []B {
	var m []B
	bytes := func(bs []byte) {
		for _, b := range bs {
			m = append(m, byteOf(b))
		}
	}
	m = append(m, aad...)
	bytes(pad16(len(aad)))
	m = append(m, ciphertext...)
	bytes(pad16(len(ciphertext)))
	bytes(binary.LittleEndian.AppendUint64(nil, uint64(len(aad))))
	bytes(binary.LittleEndian.AppendUint64(nil, uint64(len(ciphertext))))
	return m
}

// Seal is the AEAD_CHACHA20_POLY1305 encryption of section 2.8: the
// ciphertext (ChaCha20 from counter 1) followed by the tag.
func Seal(key, nonce, plaintext, aad []byte) []byte {
	otk := PolyKeyGen(key, nonce)
	ciphertext := Encrypt(key, 1, nonce, plaintext)
	tag := Poly1305(otk, macData(aad, ciphertext))
	return append(ciphertext, tag[:]...)
}

// ErrOpen is returned by Open and OpenX when the tag does not match.
var ErrOpen = errors.New("spec/chacha20poly1305: message authentication failed")

// Open is the AEAD decryption of section 2.8: the tag is recomputed over
// the received ciphertext and compared before anything is decrypted.
func Open(key, nonce, sealed, aad []byte) ([]byte, error) {
	if len(sealed) < TagSize {
		return nil, ErrOpen
	}
	ciphertext, tag := sealed[:len(sealed)-TagSize], sealed[len(sealed)-TagSize:]
	otk := PolyKeyGen(key, nonce)
	want := Poly1305(otk, macData(aad, ciphertext))
	if subtle.ConstantTimeCompare(want[:], tag) != 1 {
		return nil, ErrOpen
	}
	return Encrypt(key, 1, nonce, ciphertext), nil
}

// HChaCha20 is the subkey derivation of draft-irtf-cfrg-xchacha-03 section
// 2.2: the ChaCha20 state with the 16-byte nonce in words 12 to 15, twenty
// rounds, no final addition, and words 0-3 and 12-15 serialized.
func HChaCha20(key, nonce16 []byte) [32]byte {
	var s [16]U32
	for i, w := range initialState(key, binary.LittleEndian.Uint32(nonce16[0:]), nonce16[4:16]) {
		s[i] = U32(w)
	}
	for i := 0; i < 10; i++ {
		innerBlock(&s)
	}
	var out [32]byte
	for i, w := range []U32{s[0], s[1], s[2], s[3], s[12], s[13], s[14], s[15]} {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(w))
	}
	return out
}

// xParams returns the ChaCha20-Poly1305 key and nonce of an XChaCha20 message
// (draft section 2.3): the HChaCha20 subkey of the nonce's first 16 bytes,
// and four zero bytes followed by its last 8.
func xParams(key, nonce24 []byte) ([]byte, []byte) {
	sub := HChaCha20(key, nonce24[:16])
	n := append(make([]byte, 4), nonce24[16:24]...)
	return sub[:], n
}

// SealX is XChaCha20-Poly1305 encryption.
func SealX(key, nonce24, plaintext, aad []byte) []byte {
	k, n := xParams(key, nonce24)
	return Seal(k, n, plaintext, aad)
}

// OpenX is XChaCha20-Poly1305 decryption.
func OpenX(key, nonce24, sealed, aad []byte) ([]byte, error) {
	k, n := xParams(key, nonce24)
	return Open(k, n, sealed, aad)
}
