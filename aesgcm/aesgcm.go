package aesgcm

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aead"
)

const (
	// KeySize128, KeySize192 and KeySize256 are the AES key sizes New and
	// Prepare accept.
	KeySize128 = 16
	KeySize192 = 24
	KeySize256 = 32

	// NonceSize is the default nonce size, the one NIST recommends and the
	// fast path: the counter block is the nonce followed by a 32-bit one.
	NonceSize = 12
	// TagSize is the default (and largest) tag size.
	TagSize = 16
	// MinTagSize is the smallest tag size WithTagSize accepts.
	MinTagSize = 12

	// BlockSize is the AES block size.
	BlockSize = 16

	// MaxPlaintextSize is the largest plaintext GCM can seal under one nonce:
	// 2^32-2 blocks, 2^36-32 bytes.
	MaxPlaintextSize = (1<<32 - 2) * BlockSize
)

// panics holds the messages of the overlap panics.
var panics = aead.NewPanics("aesgcm")

var (
	errOpen     = errors.New("aesgcm: message authentication failed")
	errTooLarge = errors.New("aesgcm: ciphertext too large for GCM")
)

// config collects the options of Prepare.
type config struct {
	nonceSize int
	tagSize   int
	backend   string
}

// Option configures Prepare (and NewWithRandomNonce).
type Option func(*config)

// WithNonceSize sets the nonce size in bytes. Any n >= 1 is accepted, as in
// crypto/cipher.NewGCMWithNonceSize; nonces of other sizes than 12 are hashed
// into the counter block, which costs one GHASH per message. Use it only for
// compatibility with an existing protocol.
func WithNonceSize(n int) Option { return func(c *config) { c.nonceSize = n } }

// WithTagSize sets the tag size in bytes, from 12 to 16 (the default), as in
// crypto/cipher.NewGCMWithTagSize.
func WithTagSize(n int) Option { return func(c *config) { c.tagSize = n } }

// WithBackend makes Prepare use the named backend (see [Backends]) instead
// of the best available one. A name cpufeat does not declare, a backend this
// build does not implement, or one whose CPU features are not enabled makes
// Prepare fail, each with its own error.
func WithBackend(name string) Option { return func(c *config) { c.backend = name } }

// AEAD is an AES-GCM key prepared for one backend. It implements
// crypto/cipher.AEAD and is safe for concurrent use, except [AEAD.Wipe].
//
// The zero value is not a key: every method of an AEAD not returned by
// [Prepare] panics, so that no message is ever sealed or opened without a
// key. A copy of an AEAD shares its key with the original, wiped state
// included: after [AEAD.Wipe], every copy panics too.
type AEAD struct {
	k *keyState
}

// keyState is a prepared key. AEAD holds it behind a pointer so that every
// copy of an AEAD sees Wipe's mark, not only the value it was called on.
type keyState struct {
	// stdState holds the nonce-taking methods of a backend that has them
	// (nonceImpl), in the builds that have one (aesgcm_stdlib.go); it is
	// empty elsewhere, so that there the AEAD's branches to them fold away
	// and the fields every call reads keep their places.
	stdState
	// handle is the AEAD Prepare returns a pointer to, with handle.k
	// pointing back here. The state lives inside the key prepared for the
	// backend (its state method), so a key is one allocation: the key
	// table, the state and the AEAD.
	handle    AEAD
	impl      keyImpl // the key prepared for the backend called name
	name      string
	nonceSize int
	tagSize   int
	wiped     bool
}

// errZero is the panic of every method of an AEAD that New or Prepare did
// not make.
const errZero = "aesgcm: use of an AEAD not made by New or Prepare (a zero value has no key)"

// errWiped is the panic of every use of a wiped key.
const errWiped = "aesgcm: use of a wiped key"

// made returns a's key, and panics on a zero value.
func (a *AEAD) made() *keyState { return aead.Made(a.k, errZero) }

// New returns AES-GCM with key (16, 24 or 32 bytes: AES-128, AES-192,
// AES-256), 12-byte nonces and 16-byte tags, on the best backend here: what
// cipher.NewGCM(aes.NewCipher(key)) returns in the standard library, with
// the shape func([]byte) (cipher.AEAD, error) that code choosing an AEAD
// passes around. The AEAD it returns is a *[AEAD]: a type assertion reaches
// the methods beyond crypto/cipher.AEAD, and [Prepare] takes options.
func New(key []byte) (cipher.AEAD, error) { return aead.AsAEAD(Prepare(key)) }

// Prepare prepares key (16, 24 or 32 bytes: AES-128, AES-192, AES-256) for
// AES-GCM with the given options. Everything that depends only on the key
// (round keys, GHASH key powers) is computed here, once. Prepare fails on a
// wrong key, nonce or tag size and on an unknown or unavailable backend; an
// invalid VG_CPU_FEATURES is not an error (see package cpufeat).
func Prepare(key []byte, opts ...Option) (*AEAD, error) {
	c := config{nonceSize: NonceSize, tagSize: TagSize}
	if len(opts) > 0 {
		c = aead.Apply(c, opts)
	}
	switch len(key) {
	case KeySize128, KeySize192, KeySize256:
	default:
		return nil, fmt.Errorf("aesgcm: invalid key size %d bytes (want 16, 24 or 32)", len(key))
	}
	if c.nonceSize < 1 {
		return nil, fmt.Errorf("aesgcm: invalid nonce size %d (want at least 1; 12 is the default)", c.nonceSize)
	}
	if c.tagSize < MinTagSize || c.tagSize > TagSize {
		return nil, fmt.Errorf("aesgcm: invalid tag size %d (want 12 to 16)", c.tagSize)
	}
	reg, err := registry.Pick(c.backend)
	if err != nil {
		return nil, err
	}
	impl := reg.Value(key)
	k := impl.state()
	k.impl, k.name, k.nonceSize, k.tagSize = impl, reg.Name, c.nonceSize, c.tagSize
	if n, ok := impl.(interface {
		forSizes(nonceSize, tagSize int) nonceImpl
	}); ok {
		k.setNonced(n.forSizes(c.nonceSize, c.tagSize))
	}
	k.handle.k = k
	return &k.handle, nil
}

// newKeyFunc prepares a key for one backend: a backend's registration (the
// list registrations, in aesgcm_amd64.go, aesgcm_stdlib.go or aesgcm_noasm.go) carries its
// newKeyFunc.
type newKeyFunc = func(key []byte) keyImpl

// registry holds the backends of this build (the list registrations, in
// aesgcm_amd64.go, aesgcm_stdlib.go or aesgcm_noasm.go) and chooses one at New.
var registry = cpufeat.NewRegistry(cpufeat.AESGCM, registrations)

// genericDoc describes the generic backend (the Doc of its registration).
const genericDoc = "bitsliced AES (4 blocks per pass, Boyar–Peralta S-box circuit), GHASH by integer multiplies with holes; no tables"

// Backend describes one backend implemented in this build: its Name (as
// in cpufeat and WithBackend), the CPU features it Requires, and whether it
// is Available, that is whether Requires is within cpufeat.Enabled() so
// that New can use it here and now.
type Backend = cpufeat.BackendInfo

// Backends returns every backend implemented in this build, best first,
// whether or not it can run here.
func Backends() []Backend { return registry.Backends() }

// Backend returns the name of the backend this key was prepared for.
func (a *AEAD) Backend() string { return a.made().name }

// NonceSize returns the nonce size in bytes.
func (a *AEAD) NonceSize() int { return a.made().nonceSize }

// Overhead returns the tag size in bytes, the difference between the
// lengths of a ciphertext and its plaintext.
func (a *AEAD) Overhead() int { return a.made().tagSize }

// Wipe zeroes the key schedule and the GHASH key powers held by a. Call it
// when the key is no longer needed; any later use of a, or of any copy of
// a, panics. Wipe must not run concurrently with other methods of a. On the
// stdlib backend it cannot zero crypto/cipher's copy of the key schedule,
// only drop it (see Backends in the package documentation).
func (a *AEAD) Wipe() {
	k := a.made()
	k.impl.wipe()
	k.wiped = true
}

// live returns a's key, and panics on a zero value or a wiped key.
func (a *AEAD) live() *keyState {
	k := a.made()
	if k.wiped {
		panic(errWiped)
	}
	return k
}

// check returns a's key, and panics on a zero value, a wiped key or a nonce
// of the wrong length.
func (a *AEAD) check(nonce []byte) *keyState {
	k := a.live()
	if len(nonce) != k.nonceSize {
		panic("aesgcm: incorrect nonce length given to GCM")
	}
	return k
}

// counterBlock returns the pre-counter block J0 for nonce (SP 800-38D,
// section 7.1, step 2).
func (k *keyState) counterBlock(nonce []byte) counter {
	if len(nonce) == NonceSize {
		return nonceCounter(nonce)
	}
	return k.impl.ghashNonce(nonce)
}

// nonceCounter returns J0 for a 12-byte nonce: the nonce, then the 32-bit
// big-endian counter 1.
func nonceCounter(nonce []byte) counter {
	return counter{binary.LittleEndian.Uint64(nonce), uint64(binary.LittleEndian.Uint32(nonce[8:])) | 1<<56}
}

// Seal encrypts and authenticates plaintext, authenticates additionalData,
// and appends the ciphertext and tag to dst, returning the updated slice.
// To reuse plaintext's storage, use plaintext[:0] as dst; any other overlap
// of dst's new bytes with plaintext or additionalData panics. Seal panics
// when nonce is not NonceSize() bytes long or plaintext is longer than
// MaxPlaintextSize. Never use a nonce twice with one key.
func (a *AEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	k := a.check(nonce)
	if uint64(len(plaintext)) > MaxPlaintextSize {
		panic("aesgcm: message too large for GCM")
	}
	ret, out := panics.SealBuffers(dst, plaintext, additionalData, k.tagSize)
	if n := k.nonced(); n != nil {
		n.sealNonce(out, nonce, plaintext, additionalData)
		return ret
	}
	k.impl.seal(out[:len(plaintext)], plaintext, additionalData, k.counterBlock(nonce), out[len(plaintext):])
	return ret
}

// Open authenticates ciphertext (the output of Seal: the encrypted text
// followed by the tag) and additionalData, and if they are authentic appends
// the plaintext to dst, returning the updated slice. To reuse ciphertext's
// storage, use ciphertext[:0] as dst; any other overlap panics. On a wrong
// tag Open returns an error and zeroes the bytes it wrote past len(dst)
// (even when it worked in place), so no unauthenticated plaintext is left.
// Open panics when nonce is not NonceSize() bytes long.
func (a *AEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	k := a.check(nonce)
	if len(ciphertext) < k.tagSize {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > MaxPlaintextSize+uint64(k.tagSize) {
		return nil, errTooLarge
	}
	ret, out, text, tag := panics.OpenBuffers(dst, ciphertext, additionalData, k.tagSize)
	if n := k.nonced(); n != nil {
		ok := n.openNonce(out, nonce, ciphertext, additionalData)
		declassify(&ok) // the verdict is public
		return aead.Release(ok, ret, out, errOpen)
	}
	ok := k.impl.open(out, text, additionalData, k.counterBlock(nonce), tag)
	declassify(&ok) // the verdict is public
	return aead.Release(ok, ret, out, errOpen)
}

// SealGather is Seal of the concatenation of the slices in plaintext: it
// appends the ciphertext of plaintext[0] || plaintext[1] || ... and the tag
// to dst. The TLS 1.3 record shape is {payload, contentType[:]}. A piece may
// be the very part of dst's new bytes that its ciphertext goes to (sealing
// in place); any other overlap between the pieces and the output panics, as
// does an overlap of the output with additionalData.
func (a *AEAD) SealGather(dst, nonce []byte, plaintext [][]byte, additionalData []byte) []byte {
	k := a.check(nonce)
	total, touches := aead.Gather(dst, plaintext)
	if total > MaxPlaintextSize {
		panic("aesgcm: message too large for GCM")
	}
	n := int(total)
	ret, out := panics.GatherBuffers(dst, plaintext, total, touches, additionalData, k.tagSize)
	if nc := k.nonced(); nc != nil {
		// Each piece is its own part of out or disjoint from it: copy
		// moves the rest into place, and the text is sealed in place.
		off := 0
		for _, p := range plaintext {
			off += copy(out[off:], p)
		}
		nc.sealNonce(out, nonce, out[:n], additionalData)
		return ret
	}
	k.impl.sealGather(out[:n], plaintext, additionalData, k.counterBlock(nonce), out[n:])
	return ret
}
