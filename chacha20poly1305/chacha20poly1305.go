package chacha20poly1305

import (
	"crypto/cipher"
	"errors"
	"fmt"

	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aead"
	"github.com/vgcrypto/vg/stackscratch"
)

const (
	// KeySize is the size of the key, in bytes.
	KeySize = 32

	// NonceSize is the size of the nonce of ChaCha20-Poly1305 ([New]), in
	// bytes. It is too short to be chosen at random for more than about
	// 2³² messages under one key; use [NewX] for random nonces.
	NonceSize = 12

	// NonceSizeX is the size of the nonce of XChaCha20-Poly1305 ([NewX]), in
	// bytes; it is long enough to be chosen at random.
	NonceSizeX = 24

	// TagSize is the size of the Poly1305 authentication tag, in bytes.
	TagSize = 16

	// Overhead is the difference between the length of a ciphertext and of
	// its plaintext: the tag.
	Overhead = TagSize

	// MaxPlaintextSize is the longest plaintext one nonce can encrypt,
	// 2³⁸-64 bytes: 2³²-1 keystream blocks of 64 bytes after the block that
	// keys Poly1305.
	MaxPlaintextSize = 1<<38 - 64
)

// Backend describes one backend implemented in this build: its Name
// ("generic", "ssse3", "avx2", ...), the value [WithBackend] takes; the CPU
// features it Requires; and whether it is Available, that is whether those
// features are enabled here: detected by the CPU and operating system and
// allowed by VG_CPU_FEATURES.
type Backend = cpufeat.BackendInfo

// Backends returns the backends this build implements, best first, with
// their availability under the enabled CPU features. With the purego build
// tag, or on another architecture, that is the generic backend only.
func Backends() []Backend { return registry.Backends() }

// options collects what the Option values set.
type options struct {
	backend string
}

// Option configures [Prepare] and [PrepareX].
type Option func(*options)

// WithBackend makes Prepare use the backend called name instead of the best
// one available. Prepare fails when cpufeat does not declare that name, when
// this build does not implement it, or when the CPU features it requires are
// not enabled, each with its own error. It is meant for tests, benchmarks
// and comparisons; [Backends] lists the names.
func WithBackend(name string) Option {
	return func(o *options) { o.backend = name }
}

// AEAD is a ChaCha20-Poly1305 or XChaCha20-Poly1305 key ready for use. It
// implements [crypto/cipher.AEAD] and is safe for concurrent use. Seal, Open
// and SealGather do not allocate when dst has enough capacity.
//
// The zero value is not a key: every method of an AEAD not returned by
// one of the constructors panics, so that no message is ever sealed or
// opened under an all-zero key. A copy of an AEAD shares its key with the
// original, wiped state included: after [AEAD.Wipe], every copy panics too.
type AEAD struct {
	k *keyState
}

// errZero is the panic of every method of an AEAD that no constructor
// made.
const errZero = "chacha20poly1305: use of an AEAD not made by New, NewX, Prepare or PrepareX (a zero value has no key)"

// errWiped is the panic of every use of a wiped key.
const errWiped = "chacha20poly1305: use of a wiped key"

// made returns a's key, and panics on a zero value.
func (a *AEAD) made() *keyState { return aead.Made(a.k, errZero) }

var _ cipher.AEAD = (*AEAD)(nil)

// New returns ChaCha20-Poly1305 (RFC 8439) with a 32-byte key and 12-byte
// nonces on the best backend the enabled CPU features allow. It has the
// shape of golang.org/x/crypto/chacha20poly1305.New, so it fits wherever
// code passes that constructor around; its AEAD is a *[AEAD], which a type
// assertion reaches for the methods beyond crypto/cipher.AEAD. It returns an
// error only when the key is not 32 bytes; [Prepare] takes options.
func New(key []byte) (cipher.AEAD, error) { return aead.AsAEAD(Prepare(key)) }

// NewX returns XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03) with a
// 32-byte key and 24-byte nonces, which may be chosen at random, in the
// shape of golang.org/x/crypto/chacha20poly1305.NewX. Each message is sealed
// with ChaCha20-Poly1305 under the subkey HChaCha20(key, nonce[:16]) and the
// nonce 0⁴‖nonce[16:]. As for [New], its AEAD is a *[AEAD], and
// [PrepareX] takes options.
func NewX(key []byte) (cipher.AEAD, error) { return aead.AsAEAD(PrepareX(key)) }

// Prepare is [New] with options, returning the *AEAD itself. It fails when
// the key is not 32 bytes or when a requested backend cannot be used (an
// invalid VG_CPU_FEATURES is not an error: see package cpufeat).
func Prepare(key []byte, opts ...Option) (*AEAD, error) {
	return newAEAD(key, false, opts)
}

// PrepareX is [NewX] with options, returning the *AEAD itself. Errors are as
// for [Prepare].
func PrepareX(key []byte, opts ...Option) (*AEAD, error) {
	return newAEAD(key, true, opts)
}

func newAEAD(key []byte, xNonce bool, opts []Option) (*AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("chacha20poly1305: bad key length %d bytes (want %d)", len(key), KeySize)
	}
	var o options
	if len(opts) > 0 {
		o = aead.Apply(o, opts)
	}
	reg, err := registry.Pick(o.backend)
	if err != nil {
		return nil, err
	}
	k := reg.Value(key, xNonce).state()
	k.backend = backendIndex(reg.Name)
	return &k.handle, nil
}

// Backend returns the name of the backend a uses.
func (a *AEAD) Backend() string { return backendNames[a.made().backend] }

// NonceSize returns the nonce size: [NonceSize], or [NonceSizeX] for a key
// from [NewX].
func (a *AEAD) NonceSize() int { return a.made().nonceSize() }

func (k *keyState) nonceSize() int {
	if k.xNonce {
		return NonceSizeX
	}
	return NonceSize
}

// Overhead returns the tag size, [Overhead].
func (a *AEAD) Overhead() int {
	a.made()
	return Overhead
}

// Wipe zeroes the key held by a. Call it when the key is no longer needed;
// any later Seal, Open or SealGather with a, or with any copy of a, panics
// rather than use a zero key. Wipe must not run concurrently with other
// methods of a. On the stdlib backend it cannot zero x/crypto's copy of the
// key, only drop it (see Backends in the package documentation).
func (a *AEAD) Wipe() {
	k := a.made()
	k.impl.wipe()
	k.wiped = true
}

// panics holds the messages of the overlap panics.
var panics = aead.NewPanics("chacha20poly1305")

// errOpen is the one error Open returns: it says nothing about why.
var errOpen = errors.New("chacha20poly1305: message authentication failed")

// Seal encrypts and authenticates plaintext, authenticates additionalData,
// appends the result to dst and returns the updated slice. The nonce must be
// NonceSize() bytes long and unique for every message under the key. To
// reuse plaintext's storage for the output, use plaintext[:0] as dst;
// otherwise the remaining capacity of dst must not overlap plaintext, and
// dst must not overlap additionalData.
//
// Seal panics, as crypto/cipher's AEADs do, on a wrong nonce length, on a
// plaintext longer than [MaxPlaintextSize] and on an invalid overlap.
func (a *AEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	k := a.checkNonce(nonce, "Seal")
	if uint64(len(plaintext)) > MaxPlaintextSize {
		panic("chacha20poly1305: plaintext too large")
	}
	ret, out := panics.SealBuffers(dst, plaintext, additionalData, TagSize)
	k.impl.seal(out, nonce, plaintext, additionalData)
	return ret
}

// Open decrypts and authenticates ciphertext, authenticates additionalData
// and, if successful, appends the plaintext to dst and returns the updated
// slice. The nonce must be NonceSize() bytes long. To reuse ciphertext's
// storage for the output, use ciphertext[:0] as dst; otherwise the
// remaining capacity of dst must not overlap ciphertext (its tag included:
// crypto/cipher's rule, where x/crypto checks the text only), and dst must
// not overlap additionalData.
//
// When the ciphertext is not authentic, or is shorter than the tag or
// longer than [MaxPlaintextSize] plus the tag, Open returns an error and
// releases no plaintext: the bytes of dst's capacity it wrote are zeroed.
// It panics, as crypto/cipher's AEADs do, on a wrong nonce length and on an
// invalid overlap.
func (a *AEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	k := a.checkNonce(nonce, "Open")
	if len(ciphertext) < TagSize || uint64(len(ciphertext)) > MaxPlaintextSize+TagSize {
		return nil, errOpen
	}
	// The tag stays where it is: out may be the text exactly (in place)
	// and never covers it.
	ret, out, text, tag := panics.OpenBuffers(dst, ciphertext, additionalData, TagSize)
	ok := k.impl.open(out, nonce, text, (*[TagSize]byte)(tag), additionalData)
	declassify(&ok) // the verdict is public
	return aead.Release(ok, ret, out, errOpen)
}

// SealGather is [AEAD.Seal] of the concatenation of the slices of plaintext,
// read where they are (no staging copy): it appends the ciphertext of
// plaintext[0] ‖ plaintext[1] ‖ ... and the tag to dst. The TLS 1.3 record
// shape is {payload, contentType[:]}. A slice may be the very part of dst's
// new bytes that its ciphertext goes to (sealing in place); any other
// overlap between the slices and the output panics, as does an overlap of
// the output with additionalData. It panics like Seal otherwise, the length
// limit applying to the total.
func (a *AEAD) SealGather(dst, nonce []byte, plaintext [][]byte, additionalData []byte) []byte {
	k := a.checkNonce(nonce, "SealGather")
	total, touches := aead.Gather(dst, plaintext)
	if total > MaxPlaintextSize {
		panic("chacha20poly1305: plaintext too large")
	}
	ret, out := panics.GatherBuffers(dst, plaintext, total, touches, additionalData, TagSize)
	k.impl.sealGather(out, nonce, plaintext, additionalData)
	return ret
}

// checkNonce returns a's key, and panics on a zero value, a wiped key or a
// nonce of the wrong length; op names the method in the message.
func (a *AEAD) checkNonce(nonce []byte, op string) *keyState {
	k := a.made()
	if k.wiped {
		panic(errWiped)
	}
	if len(nonce) != k.nonceSize() {
		panic("chacha20poly1305: bad nonce length passed to " + op)
	}
	return k
}

// messageKey returns the ChaCha20 key and 12-byte nonce of one message
// under key with nonce (NonceSize or NonceSizeX bytes, which Seal, Open and
// SealGather have checked): key and nonce themselves for ChaCha20-Poly1305;
// for XChaCha20-Poly1305 the subkey HChaCha20(key, nonce[:16]), written to
// subkey, and 0⁴‖nonce[16:24]. Backends call it with subkey a local of
// their own, which they wipe when the message is done.
func messageKey(subkey, key *[KeySize]byte, nonce []byte) (*[KeySize]byte, [NonceSize]byte) {
	// Array conversions, not copy: copy's memmove writes the 12 bytes as
	// two overlapping 8-byte stores, and the assembly's 4-byte load of
	// bytes 8-11 then waits for the stores to retire instead of forwarding
	// from them, a large part of a short message.
	if len(nonce) == NonceSize {
		return key, [NonceSize]byte(nonce)
	}
	return xMessageKey(subkey, key, nonce)
}

// xMessageKey is messageKey for an XChaCha20-Poly1305 nonce; it is apart so
// that messageKey inlines into the backends.
func xMessageKey(subkey, key *[KeySize]byte, nonce []byte) (*[KeySize]byte, [NonceSize]byte) {
	var n [NonceSize]byte
	hChaCha20(subkey, key, (*[16]byte)(nonce[:16]))
	*(*[8]byte)(n[4:]) = [8]byte(nonce[16:24])
	return subkey, n
}

// wipeSubkey wipes the XChaCha20 subkey messageKey wrote for nonce, if it
// wrote one (the nonce's length is public).
func wipeSubkey(subkey *[KeySize]byte, nonce []byte) {
	if len(nonce) != NonceSize {
		stackscratch.Wipe(subkey[:])
	}
}
