package chacha20poly1305

import (
	"unsafe"

	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// keyImpl is the seam every ChaCha20-Poly1305 implementation plugs into: a
// key prepared for one backend, made once by Prepare and PrepareX through
// the backend's newKeyFunc (its registration) and held by the AEAD. Its
// methods call that backend's code directly, so the backend chosen at
// Prepare is never decided again per call. The generic backend's key type
// is in kernels.go, the assembly backends' in asm_glue_amd64.go.
//
// ChaCha20 has no key schedule: what a backend keeps is the key itself, in
// the keyState its key type consists of, and each message's cipher state
// is set up from it. A backend with assembly runs whole-message functions,
// or the Go drivers of kernels.go over its block kernels, or each for the
// lengths it is faster at.
//
// The public methods of AEAD check lengths and overlaps; the methods here
// meet these contracts:
//
//   - seal(out, nonce, plaintext, ad) writes the encryption of plaintext to
//     out[:len(plaintext)] and the tag to out[len(plaintext):];
//     len(out) == len(plaintext)+TagSize, and out aliases plaintext exactly
//     or not at all.
//   - open(out, nonce, ciphertext, tag, ad) writes the decryption of
//     ciphertext (without its tag) to out, len(out) == len(ciphertext),
//     aliasing it exactly or not at all, and reports in constant time
//     whether tag is its tag. On false the caller zeroes out.
//   - sealGather(out, nonce, plaintext, ad) is seal of the concatenation of
//     plaintext's slices, read where they are; a slice overlaps out only if
//     it is exactly its own part of out.
//   - kernels() names the backend's block kernels (see kernels.go), which
//     the drivers run on for the lengths the backend does not do in
//     whole-message assembly, which the Encryptor (stream.go) runs on for
//     every chunk, and which the tests compare.
//   - state() returns the keyState the key consists of, and wipe() zeroes
//     the key in it.
//
// nonce is the caller's, NonceSize or NonceSizeX bytes; each backend
// derives the message's ChaCha20 key and nonce with messageKey in its own
// frame. Arguments cross the interface by value or as memory the caller
// owns (the caller's slices): through an interface call escape analysis
// cannot see the callee, so a pointer to a local of the caller (the
// XChaCha20 subkey, the 12-byte nonce) would move that local to the heap
// and every message would allocate. The caller's slices escape for the
// same reason, as they do through crypto/cipher.AEAD and in aesgcm: buffers
// a caller of Seal keeps in its own stack frame move to its heap.
//
// The key, the text and every intermediate state are secret; lengths, the
// nonce and slice boundaries are public. Every method except wipe is safe
// for concurrent use and does not allocate.
type keyImpl interface {
	seal(out, nonce, plaintext, ad []byte)
	open(out, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool
	sealGather(out, nonce []byte, plaintext [][]byte, ad []byte)
	kernels() kernels
	state() *keyState
	wipe()
}

// newKeyFunc prepares a 32-byte key for one backend, for 24-byte nonces
// (XChaCha20-Poly1305) when xNonce is set: a backend's
// registration (the list registrations, in chacha20poly1305_amd64.go, chacha20poly1305_stdlib.go or
// chacha20poly1305_noasm.go) carries its newKeyFunc.
type newKeyFunc = func(key []byte, xNonce bool) keyImpl

// keyState is what a key prepared for any backend consists of: every
// backend's key type is a struct of one keyState (the stdlib backend's
// begins with one, then holds x/crypto's AEAD), so that the key, the AEAD
// handle and Wipe's mark are one allocation. AEAD holds it behind a
// pointer so that every copy of an AEAD sees Wipe's mark, not only the
// value it was called on.
type keyState struct {
	key [KeySize]byte
	// handle is the AEAD the constructors return a pointer to, with
	// handle.k pointing back here.
	handle  AEAD
	impl    keyImpl // the backend's key this state is (pointing back here)
	backend uint8   // the backend's index in backendNames
	xNonce  bool    // XChaCha20-Poly1305: 24-byte nonces, per-message subkeys
	wiped   bool
}

// backendNames lists the names of the backends in registry, in its order;
// a keyState's backend indexes it. Holding an index rather than the name
// keeps a keyState at 64 bytes, an allocation size class below the 80 a
// string makes it.
var backendNames = registry.Names()

// backendIndex returns the index of the backend called name in backendNames.
func backendIndex(name string) uint8 {
	for i, n := range backendNames {
		if n == name {
			return uint8(i)
		}
	}
	panic("chacha20poly1305: backend " + name + " is not in the registry")
}

func (s *keyState) state() *keyState { return s }

// newKey returns a new key of type K, a backend's key type (a struct of one
// keyState), holding a copy of key, for 24-byte nonces when xNonce is set,
// with its handle and impl pointing to it.
//
// The key is allocated as memory without pointers, which the garbage
// collector neither marks with a pointer bitmap nor scans (the module
// README's design notes have what it saves). It is sound because of what a
// keyState's pointers point to: handle.k and the data word of impl into the
// keyState itself, the type word of impl to the itab of a key type
// (static). The garbage collector never needs them to find a live object;
// every other place that holds a pointer to the keyState (the *AEAD a
// constructor returns, a copy of an AEAD, an Encryptor) is typed memory,
// which it scans.
// TestKeyStatePointers fails when a field with other pointers is added.
func newKey[K any, P interface {
	*K
	keyImpl
}](key []byte, xNonce bool) keyImpl {
	if unsafe.Sizeof(*new(K)) != unsafe.Sizeof(keyState{}) {
		panic("chacha20poly1305: a key type is not one keyState")
	}
	m := new([unsafe.Sizeof(keyState{}) / 8]uint64)
	s := (*keyState)(unsafe.Pointer(m))
	s.key = [KeySize]byte(key)
	// The fields after the key are set in a keyState on the stack, whose
	// key stays zero, and copied as words: stores of pointers into m itself
	// would run the write barrier for memory the collector never scans.
	var head keyState
	head.handle.k, head.impl, head.xNonce = s, P(unsafe.Pointer(m)), xNonce
	const keyWords = KeySize / 8
	*(*[len(m) - keyWords]uint64)(m[keyWords:]) = *(*[len(m) - keyWords]uint64)((*[len(m)]uint64)(unsafe.Pointer(&head))[keyWords:])
	return head.impl
}

// wipe zeroes the key.
func (s *keyState) wipe() { stackscratch.Wipe(s.key[:]) }

// registry holds the backends of this build (the list registrations, in
// chacha20poly1305_amd64.go or chacha20poly1305_noasm.go) and chooses one at
// Prepare and PrepareX.
var registry = cpufeat.NewRegistry(cpufeat.ChaCha20Poly1305, registrations)

// genericDoc describes the generic backend (the Doc of its registration).
const genericDoc = "portable Go, Poly1305 with 64-bit limbs"
