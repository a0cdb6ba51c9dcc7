package aeadcontract

import (
	"crypto/aes"
	"crypto/cipher"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

func newGCM(nonceSize, tagSize int) MakeAEAD {
	return func() (cipher.AEAD, error) {
		b, err := aes.NewCipher(testKey)
		if err != nil {
			return nil, err
		}
		switch {
		case nonceSize != 12:
			return cipher.NewGCMWithNonceSize(b, nonceSize)
		case tagSize != 16:
			return cipher.NewGCMWithTagSize(b, tagSize)
		}
		return cipher.NewGCM(b)
	}
}

// TestGCM runs the suite on crypto/cipher's GCM, which keeps the contract.
func TestGCM(t *testing.T) {
	TestAEAD(t, newGCM(12, 16))
}

// TestGCMVariants runs the suite on GCM with other nonce sizes. (Not with
// a truncated tag: Go 1.26's amd64 GCM then writes a whole block for a partial
// last one, past the end of Seal's result, which NoWriteBeyondOutput reports.)
func TestGCMVariants(t *testing.T) {
	for _, v := range []struct{ nonce, tag int }{{8, 16}, {16, 16}} {
		assert.NoError(t, Check(newGCM(v.nonce, v.tag)), "nonce %d, tag %d", v.nonce, v.tag)
	}
}

func TestGCMAllocsAndConcurrency(t *testing.T) {
	a, err := newGCM(12, 16)()
	require.NoError(t, err)
	TestAllocs(t, a)
	TestConcurrent(t, a)
}

// broken wraps crypto/cipher's GCM with one deliberate contract violation.
type broken struct {
	cipher.AEAD
	seal func(inner cipher.AEAD, dst, nonce, pt, ad []byte) []byte
	open func(inner cipher.AEAD, dst, nonce, ct, ad []byte) ([]byte, error)
}

func (b *broken) Seal(dst, nonce, pt, ad []byte) []byte {
	if b.seal != nil {
		return b.seal(b.AEAD, dst, nonce, pt, ad)
	}
	return b.AEAD.Seal(dst, nonce, pt, ad)
}

func (b *broken) Open(dst, nonce, ct, ad []byte) ([]byte, error) {
	if b.open != nil {
		return b.open(b.AEAD, dst, nonce, ct, ad)
	}
	return b.AEAD.Open(dst, nonce, ct, ad)
}

func makeBroken(b broken) MakeAEAD {
	return func() (cipher.AEAD, error) {
		inner, err := newGCM(12, 16)()
		if err != nil {
			return nil, err
		}
		bb := b
		bb.AEAD = inner
		return &bb, nil
	}
}

func gcmTag12() cipher.AEAD {
	a, err := newGCM(12, 12)()
	if err != nil {
		panic(err)
	}
	return a
}

// TestBrokenAEADsAreCaught checks that each violation is reported by the check
// meant to find it.
func TestBrokenAEADsAreCaught(t *testing.T) {
	tag12 := gcmTag12()
	cases := []struct {
		name  string
		b     broken
		check string
	}{
		{"releases plaintext on failure", broken{open: func(in cipher.AEAD, dst, nonce, ct, ad []byte) ([]byte, error) {
			out, err := in.Open(dst, nonce, ct, ad)
			if err != nil && len(ct) > in.Overhead() {
				// Decrypted in place of checking first, and did not clear.
				copy(dst[len(dst):cap(dst)], ct[:len(ct)-in.Overhead()])
			}
			return out, err
		}}, "Tamper"},
		{"checks only 12 tag bytes", broken{open: func(in cipher.AEAD, dst, nonce, ct, ad []byte) ([]byte, error) {
			if len(ct) < 16 {
				return nil, errTest
			}
			return tag12.Open(dst, nonce, ct[:len(ct)-4], ad)
		}}, "Tamper"},
		{"returns dst on failure", broken{open: func(in cipher.AEAD, dst, nonce, ct, ad []byte) ([]byte, error) {
			out, err := in.Open(dst, nonce, ct, ad)
			if err != nil {
				return dst, err
			}
			return out, nil
		}}, "Tamper"},
		{"modifies its input", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			out := in.Seal(dst, nonce, pt, ad)
			if len(pt) > 0 && len(dst) == 0 && cap(dst) == 0 {
				pt[0] ^= 1
			}
			return out
		}}, "InputNotModified"},
		{"copies instead of panicking on overlap", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			return in.Seal(dst, nonce, slices.Clone(pt), ad)
		}}, "InexactOverlap"},
		{"pads a short nonce", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			n := make([]byte, in.NonceSize())
			copy(n, nonce)
			return in.Seal(dst, n, pt, ad)
		}}, "WrongNonceLength"},
		{"clobbers the prefix", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			out := in.Seal(dst, nonce, pt, ad)
			if len(dst) > 0 {
				out[0] ^= 0xff
			}
			return out
		}}, "AppendDst"},
		{"clears the output before reading the input", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			if cap(dst)-len(dst) >= len(pt)+in.Overhead() {
				clear(dst[len(dst) : len(dst)+len(pt)+in.Overhead()])
			}
			return in.Seal(dst, nonce, pt, ad)
		}}, "InPlace"},
		{"does not authenticate the additional data", broken{
			seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte { return in.Seal(dst, nonce, pt, nil) },
			open: func(in cipher.AEAD, dst, nonce, ct, ad []byte) ([]byte, error) { return in.Open(dst, nonce, ct, nil) },
		}, "Tamper"},
		{"writes a whole block past a partial one", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			out := in.Seal(dst, nonce, pt, ad)
			if r := len(pt) % 16; r != 0 && cap(out)-len(out) >= 16-r {
				clear(out[len(out) : len(out)+16-r])
			}
			return out
		}}, "NoWriteBeyondOutput"},
		{"one tag byte too many", broken{seal: func(in cipher.AEAD, dst, nonce, pt, ad []byte) []byte {
			return append(in.Seal(dst, nonce, pt, ad), 0)
		}}, "Sizes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(makeBroken(c.b))
			require.Error(t, err)
			failed := FailedChecks(err)
			assert.Contains(t, failed, c.check)
			t.Logf("failed: %v", failed)
		})
	}
}

type testError struct{}

func (testError) Error() string { return "test: rejected" }

var errTest = testError{}

// TestUnexpectedPanicIsAFailure checks that a panicking Seal fails the check
// instead of crashing the caller.
func TestUnexpectedPanicIsAFailure(t *testing.T) {
	err := Check(makeBroken(broken{seal: func(cipher.AEAD, []byte, []byte, []byte, []byte) []byte { panic("boom") }}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "boom")
	assert.Contains(t, FailedChecks(err), "RoundTrip")
}

// allocating seals into a fresh slice every time.
type allocating struct{ cipher.AEAD }

func (a allocating) Seal(dst, nonce, pt, ad []byte) []byte {
	return append(dst, a.AEAD.Seal(nil, nonce, pt, ad)...)
}

func TestAllocsCaught(t *testing.T) {
	a, err := newGCM(12, 16)()
	require.NoError(t, err)
	seal, open := Allocs(allocating{a}, 64, 13)
	assert.Positive(t, seal)
	assert.Zero(t, open)
}

// racy shares a scratch buffer between calls.
type racy struct {
	cipher.AEAD
	mu      sync.Mutex
	scratch []byte
}

func (r *racy) Seal(dst, nonce, pt, ad []byte) []byte {
	r.mu.Lock()
	r.scratch = r.AEAD.Seal(r.scratch[:0], nonce, pt, ad)
	r.mu.Unlock()
	// The lock is released before the shared scratch is read.
	runtime.Gosched()
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(dst, r.scratch...)
}

func TestConcurrentCaught(t *testing.T) {
	a, err := newGCM(12, 16)()
	require.NoError(t, err)
	// A shared scratch buffer gives another goroutine's ciphertext sooner or
	// later; try a few times, the interleaving is up to the scheduler.
	var got error
	for range 20 {
		if got = Concurrent(&racy{AEAD: a}, 8, 200); got != nil {
			break
		}
	}
	require.Error(t, got)
	t.Log(got)
}
