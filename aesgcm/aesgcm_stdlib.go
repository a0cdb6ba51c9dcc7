//go:build (arm64 || ppc64 || ppc64le || s390x) && !purego

package aesgcm

import (
	"crypto/aes"
	"crypto/cipher"
	"sync"

	"github.com/vgcrypto/vg/cpufeat"
)

// registrations lists the backends compiled into this build, each with its
// key constructor, for registry (aesgcm.go): on the GOARCHes where the
// standard library has AES-GCM assembly and vg has none, the standard
// library's, then the portable one.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: "stdlib", Value: newKeyStd, Doc: cpufeat.MustLookup(cpufeat.AESGCM, "stdlib").Doc},
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}

// keyStd is a key prepared for the backend "stdlib": Seal, Open and
// SealGather run crypto/cipher's GCM over crypto/aes (its assembly, which
// cpufeat's StdAES says runs on this CPU's AES and carry-less multiply
// instructions), so their output is the standard library's by
// construction. crypto/cipher takes the nonce, not J0, so the AEAD's
// methods call it through nonceImpl (set by Prepare from forSizes). The
// streaming Encryptor, Seal with a tag shorter than 16 bytes (see
// sealShort), and a key whose nonce and tag sizes crypto/cipher has no
// constructor for, run the generic backend's code on the same key,
// expanded the first time it is needed.
type keyStd struct {
	gcm cipher.AEAD // crypto/cipher's GCM for the key's nonce and tag sizes, set by forSizes
	// sealShort is set for a tag shorter than 16 bytes: crypto/cipher's
	// assembly then writes zeros past the end of the tag, into the
	// caller's memory (golang/go#80288, in Go 1.26.8 on amd64 and arm64),
	// so Seal runs the generic code; Open does not write past its result
	// and stays on crypto/cipher.
	sealShort bool

	key     [32]byte // the AES key, until the generic code has expanded it
	keyLen  int
	genOnce sync.Once
	gen     keyGeneric // the generic backend's key, for streams and the sizes gcm lacks
}

// newKeyStd is the key constructor of stdlib.
func newKeyStd(key []byte) keyImpl {
	k := new(keyStd)
	k.keyLen = copy(k.key[:], key)
	return k
}

// forSizes makes crypto/cipher's GCM for the key's nonce and tag sizes and
// returns k as the AEAD's nonceImpl, or returns nil when crypto/cipher has
// no constructor for the pair (a nonce other than 12 bytes with a tag
// shorter than 16): the AEAD then calls the generic code through keyImpl.
func (k *keyStd) forSizes(nonceSize, tagSize int) nonceImpl {
	block, err := aes.NewCipher(k.key[:k.keyLen])
	if err != nil {
		panic("aesgcm: crypto/aes refused a key Prepare accepted: " + err.Error())
	}
	switch {
	case nonceSize == NonceSize && tagSize == TagSize:
		k.gcm, err = cipher.NewGCM(block)
	case nonceSize == NonceSize:
		k.gcm, err = cipher.NewGCMWithTagSize(block, tagSize)
		k.sealShort = true
	case tagSize == TagSize:
		k.gcm, err = cipher.NewGCMWithNonceSize(block, nonceSize)
	default:
		return nil
	}
	if err != nil {
		panic("aesgcm: crypto/cipher refused sizes Prepare accepted: " + err.Error())
	}
	return k
}

// generic returns the generic backend's key for k's AES key, expanding it
// on first use.
func (k *keyStd) generic() *keyGeneric {
	k.genOnce.Do(func() {
		k.gen.init(k.key[:k.keyLen])
	})
	return &k.gen
}

func (k *keyStd) state() *keyState { return &k.gen.st }

// sealNonce seals text into out (len(text) bytes of ciphertext, then the
// tag) with crypto/cipher's GCM.
func (k *keyStd) sealNonce(out, nonce, text, aad []byte) {
	if k.sealShort {
		n := len(text)
		k.generic().seal(out[:n], text, aad, nonceCounter(nonce), out[n:])
		return
	}
	k.gcm.Seal(out[:0], nonce, text, aad)
}

// openNonce opens ciphertext (text and tag) into out with crypto/cipher's
// GCM and reports whether the tag was right.
func (k *keyStd) openNonce(out, nonce, ciphertext, aad []byte) bool {
	_, err := k.gcm.Open(out[:0], nonce, ciphertext, aad)
	return err == nil
}

func (k *keyStd) ghashNonce(nonce []byte) counter { return k.generic().ghashNonce(nonce) }

func (k *keyStd) seal(out, text, aad []byte, j0 counter, tag []byte) {
	k.generic().seal(out, text, aad, j0, tag)
}

func (k *keyStd) open(out, ciphertext, aad []byte, j0 counter, tag []byte) bool {
	return k.generic().open(out, ciphertext, aad, j0, tag)
}

func (k *keyStd) sealGather(out []byte, pieces [][]byte, aad []byte, j0 counter, tag []byte) {
	k.generic().sealGather(out, pieces, aad, j0, tag)
}

func (k *keyStd) streamStart(s *streamState, aad []byte, j0 counter) {
	k.generic().streamStart(s, aad, j0)
}

func (k *keyStd) streamEncrypt(s *streamState, out, in []byte) {
	k.generic().streamEncrypt(s, out, in)
}

func (k *keyStd) streamFinish(s *streamState) [16]byte { return k.generic().streamFinish(s) }

// wipe zeroes the key vg holds and the generic code's round keys and GHASH
// key powers, and drops crypto/cipher's GCM, whose copy of the round keys
// (inside crypto/aes) cannot be zeroed from outside: the garbage collector
// frees it, unzeroed.
func (k *keyStd) wipe() {
	k.genOnce.Do(func() {}) // never expand a wiped key
	k.gen.wipe()
	clear(k.key[:])
	k.gcm = nil
}

// stdState holds the stdlib key's nonceImpl (set by Prepare through
// forSizes; nil for the generic backend and for the sizes stdlib runs on the
// generic code), which the AEAD's Seal, Open and SealGather call.
type stdState struct{ std nonceImpl }

func (s *stdState) nonced() nonceImpl     { return s.std }
func (s *stdState) setNonced(n nonceImpl) { s.std = n }
