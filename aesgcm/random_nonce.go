package aesgcm

import (
	"crypto/cipher"
	"crypto/rand"
	"errors"

	"github.com/vgcrypto/vg/internal/aead"
)

// RandomNonceOverhead is the Overhead of an AEAD from [NewWithRandomNonce]:
// the 12-byte nonce it prepends and the 16-byte tag it appends.
const RandomNonceOverhead = NonceSize + TagSize

// NewWithRandomNonce returns AES-GCM with key (16, 24 or 32 bytes) that
// draws a random 96-bit nonce from crypto/rand for every message, as
// crypto/cipher.NewGCMWithRandomNonce does, with the same format: Seal
// appends the nonce, the ciphertext and the 16-byte tag, and Open takes
// that back. NonceSize is 0 (Seal and Open panic on a non-empty nonce) and
// Overhead is [RandomNonceOverhead]. Fed the same random bytes, its output
// is byte for byte crypto/cipher's.
//
// Of the options, only [WithBackend] applies; a nonce or tag size other
// than the defaults is an error. The AEAD it returns also has the methods
// Backend() string and Wipe(), reached through an interface assertion, with
// the meaning of [AEAD.Backend] and [AEAD.Wipe].
//
// Random 96-bit nonces may collide: seal at most 2^32 messages with one
// key.
func NewWithRandomNonce(key []byte, opts ...Option) (cipher.AEAD, error) {
	a, err := Prepare(key, opts...)
	if err != nil {
		return nil, err
	}
	if a.k.nonceSize != NonceSize || a.k.tagSize != TagSize {
		return nil, errors.New("aesgcm: NewWithRandomNonce uses 12-byte nonces and 16-byte tags; WithNonceSize and WithTagSize do not apply")
	}
	return randomNonceAEAD{*a}, nil
}

// randomNonceAEAD is the AEAD of NewWithRandomNonce. It holds an AEAD by
// value, which shares the key (and Wipe's mark) with the one Prepare made.
type randomNonceAEAD struct {
	a AEAD
}

const errNonEmptyNonce = "aesgcm: non-empty nonce passed to an AEAD from NewWithRandomNonce"

func (r randomNonceAEAD) NonceSize() int { r.a.made(); return 0 }

func (r randomNonceAEAD) Overhead() int { r.a.made(); return RandomNonceOverhead }

// Backend returns the name of the backend the key was prepared for.
func (r randomNonceAEAD) Backend() string { return r.a.Backend() }

// Wipe zeroes the key; any later use panics.
func (r randomNonceAEAD) Wipe() { r.a.Wipe() }

// check panics like AEAD.check, with an empty nonce expected.
func (r randomNonceAEAD) check(nonce []byte) *keyState {
	k := r.a.live()
	if len(nonce) != 0 {
		panic(errNonEmptyNonce)
	}
	return k
}

// Seal draws a random nonce and appends it, the ciphertext of plaintext
// and the tag to dst. plaintext[:0] as dst seals in place (the text moves
// 12 bytes up); any other overlap panics, as in crypto/cipher.
func (r randomNonceAEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	k := r.check(nonce)
	if uint64(len(plaintext)) > MaxPlaintextSize {
		panic("aesgcm: message too large for GCM")
	}
	n := len(plaintext)
	// The nonce and the tag are both overhead around the text.
	ret, out := panics.SealBuffers(dst, plaintext, additionalData, RandomNonceOverhead)
	text := out[NonceSize : NonceSize+n]
	if aead.AnyOverlap(out, plaintext) {
		// In place: move the text up past where the nonce goes, then
		// encrypt it where it is.
		copy(text, plaintext)
		plaintext = text
	}
	rand.Read(out[:NonceSize]) // never fails (it crashes the program instead)
	if nc := k.nonced(); nc != nil {
		nc.sealNonce(out[NonceSize:], out[:NonceSize], plaintext, additionalData)
		return ret
	}
	k.impl.seal(text, plaintext, additionalData, k.counterBlock(out[:NonceSize]), out[NonceSize+n:])
	return ret
}

// Open takes the nonce from the front of ciphertext, authenticates the rest
// and additionalData, and if they are authentic appends the plaintext to
// dst. ciphertext[:0] as dst opens in place; any other overlap panics. On a
// wrong tag it returns an error and zeroes what it wrote.
func (r randomNonceAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	k := r.check(nonce)
	if len(ciphertext) < RandomNonceOverhead {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > MaxPlaintextSize+RandomNonceOverhead {
		return nil, errTooLarge
	}
	n := len(ciphertext) - RandomNonceOverhead
	ret, out := aead.SliceForAppend(dst, n)
	if aead.InexactOverlap(out, ciphertext) {
		panic("aesgcm: invalid buffer overlap of output and input")
	}
	if aead.AnyOverlap(out, additionalData) {
		panic("aesgcm: invalid buffer overlap of output and additional data")
	}
	if nc := k.nonced(); nc != nil {
		return openStd(nc, ret, out, ciphertext, additionalData)
	}
	j0 := k.counterBlock(ciphertext[:NonceSize])
	tag := ciphertext[NonceSize+n:] // out never reaches it, even in place
	text := ciphertext[NonceSize : NonceSize+n]
	if aead.AnyOverlap(out, ciphertext) {
		// In place (out starts where ciphertext does): move the text down
		// over the nonce, then decrypt it where it is.
		copy(out, text)
		text = out
	}
	ok := k.impl.open(out, text, additionalData, j0, tag)
	declassify(&ok) // the verdict is public
	return aead.Release(ok, ret, out, errOpen)
}

// openStd is Open on a backend that takes the nonce (nonceImpl), which
// reads the text and the tag as one slice: in place, the text and the tag
// move down over the nonce together (the bytes past the plaintext then hold
// the tag), a copy of the nonce having been kept.
func openStd(nc nonceImpl, ret, out, ciphertext, additionalData []byte) ([]byte, error) {
	var nonce [NonceSize]byte
	copy(nonce[:], ciphertext)
	sealed := ciphertext[NonceSize:]
	if aead.AnyOverlap(out, ciphertext) {
		sealed = ciphertext[:copy(ciphertext, sealed)]
	}
	ok := nc.openNonce(out, nonce[:], sealed, additionalData)
	declassify(&ok) // the verdict is public
	return aead.Release(ok, ret, out, errOpen)
}
