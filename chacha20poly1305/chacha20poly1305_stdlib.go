//go:build (arm64 || loong64 || ppc64 || ppc64le || s390x) && !purego

package chacha20poly1305

import (
	"crypto/cipher"
	"unsafe"

	"github.com/vgcrypto/vg/cpufeat"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// registrations lists the backends compiled into this build, each with its
// key constructor, for registry (backend.go): on the GOARCHes where
// golang.org/x/crypto has ChaCha20 assembly and vg has none, x/crypto's
// AEAD (the one the standard library vendors for crypto/tls), then the
// portable one.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: "stdlib", Value: newKeyStd, Doc: cpufeat.MustLookup(cpufeat.ChaCha20Poly1305, "stdlib").Doc},
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}

// xorBlocks is the ChaCha20 block kernel k: vg's Go one (the stdlib
// backend's Encryptor runs on it).
func (kernels) xorBlocks(s *[16]uint32, dst, src []byte) { xorBlocksGeneric(s, dst, src) }

// polyBlocks is the Poly1305 block kernel k: vg's Go one.
func (kernels) polyBlocks(p *polyState, msg []byte) { polyBlocksGeneric(p, msg) }

// keyStd is a key prepared for the backend "stdlib": Seal, Open and
// SealGather run golang.org/x/crypto's ChaCha20-Poly1305 (or
// XChaCha20-Poly1305), whose ChaCha20 has assembly on this GOARCH, so their
// output is x/crypto's by construction; the Encryptor runs the drivers
// over the generic kernels. Unlike the other key types it is more than a
// keyState: it holds x/crypto's AEAD, made for the key's nonce size by
// newKeyStd, and is allocated with its type (newKey's pointer-free
// allocation does not apply).
type keyStd struct {
	keyState
	x cipher.AEAD // x/crypto's AEAD; nil where x/crypto refuses (GODEBUG=fips140=only): the generic drivers run
}

// newKeyStd is the key constructor of stdlib: it makes x/crypto's AEAD for
// the key, XChaCha20-Poly1305 when xNonce is set.
func newKeyStd(key []byte, xNonce bool) keyImpl {
	k := new(keyStd)
	k.key, k.xNonce = [KeySize]byte(key), xNonce
	k.handle.k, k.impl = &k.keyState, k
	var err error
	if xNonce {
		k.x, err = xchacha.NewX(k.key[:])
	} else {
		k.x, err = xchacha.New(k.key[:])
	}
	if err != nil {
		k.x = nil
	}
	return k
}

func (*keyStd) kernels() kernels { return genericKernels }

func (k *keyStd) seal(out, nonce, plaintext, ad []byte) {
	if k.x == nil {
		sealKernels(genericKernels, out, &k.key, nonce, plaintext, ad)
		return
	}
	k.x.Seal(out[:0], nonce, plaintext, ad)
}

// open passes x/crypto the ciphertext and its tag as one slice: the AEAD's
// Open passes them as consecutive parts of the caller's ciphertext. Parts
// that are not consecutive take the generic drivers.
func (k *keyStd) open(out, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	n := len(ciphertext)
	var sealed []byte
	switch {
	case n == 0:
		sealed = tag[:]
	case cap(ciphertext)-n >= TagSize && unsafe.Pointer(&ciphertext[:n+1][n]) == unsafe.Pointer(tag):
		sealed = ciphertext[:n+TagSize]
	}
	if k.x == nil || sealed == nil {
		return openKernels(genericKernels, out, &k.key, nonce, ciphertext, tag, ad)
	}
	_, err := k.x.Open(out[:0], nonce, sealed, ad)
	return err == nil
}

// sealGather copies the pieces into out (each is its own part of out or
// disjoint from it) and seals them there.
func (k *keyStd) sealGather(out, nonce []byte, plaintext [][]byte, ad []byte) {
	if k.x == nil {
		sealGatherKernels(genericKernels, out, &k.key, nonce, plaintext, ad)
		return
	}
	off := 0
	for _, p := range plaintext {
		off += copy(out[off:], p)
	}
	k.x.Seal(out[:0], nonce, out[:off], ad)
}

// wipe zeroes the key vg holds and drops x/crypto's AEAD, whose copy of
// the key cannot be zeroed from outside: the garbage collector frees it,
// unzeroed.
func (k *keyStd) wipe() {
	k.keyState.wipe()
	k.x = nil
}
