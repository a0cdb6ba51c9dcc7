//go:build amd64 && !purego

package chacha20poly1305

import "unsafe"

// The glue of the assembly backends: one key type per backend, whose
// methods call that backend's functions, generated into
// asm_<backend>_amd64.s and declared in asm_<backend>_amd64.go (or
// asm_<backend>_vgsim_amd64.go under the build tag vgsim), directly, so the
// backend chosen at Prepare is never decided again per call. Each method
// meets the contract at [keyImpl]. The whole-message functions read the
// text through slice headers (the gather seal's form): seal passes one
// header on its stack for a contiguous text.

// keyAVX512 is a key prepared for the backend avx512: whole-message
// functions for every length, the short ones up to shortMaxAVX512 bytes,
// the long ones beyond. Its block kernels serve the Encryptor (stream.go),
// the tests and the benchmarks.
type keyAVX512 struct{ keyState }

// newKeyAVX512 is the key constructor of avx512.
func newKeyAVX512(key []byte, xNonce bool) keyImpl { return newKey[keyAVX512](key, xNonce) }

func (*keyAVX512) kernels() kernels { return avx512Kernels }

func (k *keyAVX512) seal(out, nonce, plaintext, ad []byte) {
	srcs := [1][]byte{plaintext}
	k.sealAsm(out, nonce, srcs[:], len(plaintext), ad)
}

func (k *keyAVX512) open(out, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, &k.key, nonce)
	o, c, a, n := unsafe.SliceData(out), unsafe.SliceData(ciphertext), unsafe.SliceData(ad), len(ciphertext)
	var ok int
	if n <= shortMaxAVX512 {
		ok = openShortAVX512(o, mk, &mn, c, n, a, len(ad), tag)
	} else {
		ok = openLongAVX512(o, mk, &mn, c, n, a, len(ad), tag)
	}
	wipeSubkey(&subkey, nonce)
	return ok == 1
}

func (k *keyAVX512) sealGather(out, nonce []byte, plaintext [][]byte, ad []byte) {
	k.sealAsm(out, nonce, plaintext, len(out)-TagSize, ad)
}

// sealAsm seals the first n bytes of the slices of srcs with the short or
// the long seal.
func (k *keyAVX512) sealAsm(out, nonce []byte, srcs [][]byte, n int, ad []byte) {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, &k.key, nonce)
	o, a := unsafe.SliceData(out), unsafe.SliceData(ad)
	if n <= shortMaxAVX512 {
		sealShortAVX512(o, mk, &mn, srcs, n, a, len(ad))
	} else {
		sealLongAVX512(o, mk, &mn, srcs, n, a, len(ad))
	}
	wipeSubkey(&subkey, nonce)
}

// keyAVX2 is a key prepared for the backend avx2: whole-message functions
// for every length, the short ones up to shortMaxAVX2 bytes, the long ones
// beyond. Its block kernels serve the Encryptor (stream.go), the tests and
// the benchmarks.
type keyAVX2 struct{ keyState }

// newKeyAVX2 is the key constructor of avx2.
func newKeyAVX2(key []byte, xNonce bool) keyImpl { return newKey[keyAVX2](key, xNonce) }

func (*keyAVX2) kernels() kernels { return avx2Kernels }

func (k *keyAVX2) seal(out, nonce, plaintext, ad []byte) {
	srcs := [1][]byte{plaintext}
	k.sealAsm(out, nonce, srcs[:], len(plaintext), ad)
}

func (k *keyAVX2) open(out, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, &k.key, nonce)
	o, c, a, n := unsafe.SliceData(out), unsafe.SliceData(ciphertext), unsafe.SliceData(ad), len(ciphertext)
	var ok int
	if n <= shortMaxAVX2 {
		ok = openShortAVX2(o, mk, &mn, c, n, a, len(ad), tag)
	} else {
		ok = openLongAVX2(o, mk, &mn, c, n, a, len(ad), tag)
	}
	wipeSubkey(&subkey, nonce)
	return ok == 1
}

func (k *keyAVX2) sealGather(out, nonce []byte, plaintext [][]byte, ad []byte) {
	k.sealAsm(out, nonce, plaintext, len(out)-TagSize, ad)
}

// sealAsm seals the first n bytes of the slices of srcs with the short or
// the long seal.
func (k *keyAVX2) sealAsm(out, nonce []byte, srcs [][]byte, n int, ad []byte) {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, &k.key, nonce)
	o, a := unsafe.SliceData(out), unsafe.SliceData(ad)
	if n <= shortMaxAVX2 {
		sealShortAVX2(o, mk, &mn, srcs, n, a, len(ad))
	} else {
		sealLongAVX2(o, mk, &mn, srcs, n, a, len(ad))
	}
	wipeSubkey(&subkey, nonce)
}

// keySSSE3 is a key prepared for the backend ssse3: the whole-message short
// functions for texts up to shortMaxSSSE3 bytes, the drivers over its block
// kernels beyond.
type keySSSE3 struct{ keyState }

// newKeySSSE3 is the key constructor of ssse3.
func newKeySSSE3(key []byte, xNonce bool) keyImpl { return newKey[keySSSE3](key, xNonce) }

func (*keySSSE3) kernels() kernels { return ssse3Kernels }

func (k *keySSSE3) seal(out, nonce, plaintext, ad []byte) {
	if len(plaintext) > shortMaxSSSE3 {
		sealKernels(ssse3Kernels, out, &k.key, nonce, plaintext, ad)
		return
	}
	srcs := [1][]byte{plaintext}
	k.sealShort(out, nonce, srcs[:], len(plaintext), ad)
}

func (k *keySSSE3) open(out, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	n := len(ciphertext)
	if n > shortMaxSSSE3 {
		return openKernels(ssse3Kernels, out, &k.key, nonce, ciphertext, tag, ad)
	}
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, &k.key, nonce)
	ok := openShortSSSE3(unsafe.SliceData(out), mk, &mn, unsafe.SliceData(ciphertext), n, unsafe.SliceData(ad), len(ad), tag)
	wipeSubkey(&subkey, nonce)
	return ok == 1
}

func (k *keySSSE3) sealGather(out, nonce []byte, plaintext [][]byte, ad []byte) {
	n := len(out) - TagSize
	if n > shortMaxSSSE3 {
		sealGatherKernels(ssse3Kernels, out, &k.key, nonce, plaintext, ad)
		return
	}
	k.sealShort(out, nonce, plaintext, n, ad)
}

// sealShort seals the first n bytes (at most shortMaxSSSE3) of the slices
// of srcs with sealShortSSSE3.
func (k *keySSSE3) sealShort(out, nonce []byte, srcs [][]byte, n int, ad []byte) {
	var subkey [KeySize]byte
	mk, mn := messageKey(&subkey, &k.key, nonce)
	sealShortSSSE3(unsafe.SliceData(out), mk, &mn, srcs, n, unsafe.SliceData(ad), len(ad))
	wipeSubkey(&subkey, nonce)
}
