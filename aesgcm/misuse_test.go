package aesgcm_test

import (
	"crypto/aes"
	"crypto/cipher"
	"testing"
	"testing/cryptotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

const errWiped = "aesgcm: use of a wiped key"

// A copy of an AEAD shares its key: after Wipe, the copy panics like the
// original instead of sealing under the zeroed key, and so do the
// Encryptor and Decryptor started before the Wipe.
func TestWipeCopies(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		a, err := aesgcm.Prepare(make([]byte, 16), aesgcm.WithBackend(backend))
		require.NoError(t, err)
		cp := *a
		aeadtest.CheckWipeCopies(t, keyOf(a), keyOf(&cp), errWiped)
	})
}

// SealGather's output is text and tag: a piece lying where the tag goes
// panics like Seal's overlap, instead of being overwritten by the tag.
func TestSealGatherTagOverlap(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		a, err := aesgcm.Prepare(make([]byte, 16), aesgcm.WithBackend(backend))
		require.NoError(t, err)
		nonce := make([]byte, aesgcm.NonceSize)
		buf := make([]byte, 64)
		const msg = "aesgcm: invalid buffer overlap of output and input"
		assert.PanicsWithValue(t, msg, func() { a.SealGather(buf[:0], nonce, [][]byte{buf[0:10], buf[20:30]}, nil) })
		assert.PanicsWithValue(t, msg, func() { a.SealGather(buf[:0], nonce, [][]byte{buf[0:10], buf[10:20], buf[35:36]}, nil) })
		assert.PanicsWithValue(t, msg, func() { a.SealGather(buf[:0], nonce, [][]byte{buf[12:22]}, nil) })
		// In place and past the tag are fine.
		assert.NotPanics(t, func() { a.SealGather(buf[:0], nonce, [][]byte{buf[0:10], buf[10:20]}, nil) })
		assert.NotPanics(t, func() { a.SealGather(buf[:0], nonce, [][]byte{buf[0:10], buf[36:40]}, nil) })
	})
}

// New has the shape of the constructors code passes around to pick an
// AEAD (filippo.io/hpke's, say), seals as cipher.NewGCM(aes.NewCipher(k))
// does, and returns a nil interface, not a typed nil, on error.
func TestNewDropIn(t *testing.T) {
	var f func([]byte) (cipher.AEAD, error) = aesgcm.New
	for _, n := range []int{16, 24, 32} {
		key := make([]byte, n)
		key[0] = byte(n)
		a, err := f(key)
		require.NoError(t, err)
		b, err := aes.NewCipher(key)
		require.NoError(t, err)
		std, err := cipher.NewGCM(b)
		require.NoError(t, err)
		nonce := make([]byte, 12)
		equalBytes(t, std.Seal(nil, nonce, []byte("hello"), []byte("ad")), a.Seal(nil, nonce, []byte("hello"), []byte("ad")))
		assert.Equal(t, std.NonceSize(), a.NonceSize())
		assert.Equal(t, std.Overhead(), a.Overhead())
		_, ok := a.(*aesgcm.AEAD)
		assert.True(t, ok, "the extended API is a type assertion away")
	}
	a, err := f(make([]byte, 15))
	require.Error(t, err)
	assert.True(t, a == nil, "a nil cipher.AEAD, not a typed nil: %#v", a)
}

// NewWithRandomNonce matches crypto/cipher.NewGCMWithRandomNonce byte for
// byte when both draw the same random bytes, on every backend, in place and
// not, and refuses what crypto/cipher refuses.
func TestRandomNonceMatchesStdlib(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(7)
		for _, keySize := range []int{16, 32} {
			key := r.bytes(keySize)
			b, err := aes.NewCipher(key)
			require.NoError(t, err)
			std, err := cipher.NewGCMWithRandomNonce(b)
			require.NoError(t, err)
			vg, err := aesgcm.NewWithRandomNonce(key, aesgcm.WithBackend(backend))
			require.NoError(t, err)
			assert.Equal(t, 0, vg.NonceSize())
			assert.Equal(t, std.Overhead(), vg.Overhead())
			assert.Equal(t, backend, vg.(interface{ Backend() string }).Backend())
			for _, n := range []int{0, 1, 16, 17, 100, 1024, 4099} {
				text, ad := r.bytes(n), r.bytes(n%29)
				cryptotest.SetGlobalRandom(t, uint64(n))
				want := std.Seal(nil, nil, text, ad)
				cryptotest.SetGlobalRandom(t, uint64(n))
				got := vg.Seal(nil, nil, text, ad)
				equalBytes(t, want, got, "Seal, %d bytes", n)

				// In place: plaintext[:0] as dst.
				buf := make([]byte, n, n+aesgcm.RandomNonceOverhead)
				copy(buf, text)
				cryptotest.SetGlobalRandom(t, uint64(n))
				equalBytes(t, want, vg.Seal(buf[:0], nil, buf, ad), "in-place Seal, %d bytes", n)

				pt, err := vg.Open(nil, nil, want, ad)
				require.NoError(t, err)
				equalBytes(t, text, pt)
				inPlace := append([]byte(nil), want...)
				pt, err = vg.Open(inPlace[:0], nil, inPlace, ad)
				require.NoError(t, err)
				equalBytes(t, text, pt, "in-place Open")
				pt, err = std.Open(nil, nil, got, ad)
				require.NoError(t, err)
				equalBytes(t, text, pt)

				bad := append([]byte(nil), want...)
				bad[n%len(bad)] ^= 1
				out := make([]byte, 0, len(bad))
				_, err = vg.Open(out, nil, bad, ad)
				require.Error(t, err)
				assert.Equal(t, make([]byte, n), out[:n], "nothing released on a bad tag")
			}
			_, err = vg.Open(nil, nil, make([]byte, aesgcm.RandomNonceOverhead-1), nil)
			require.Error(t, err)
			const nonEmpty = "aesgcm: non-empty nonce passed to an AEAD from NewWithRandomNonce"
			assert.PanicsWithValue(t, nonEmpty, func() { vg.Seal(nil, make([]byte, 12), nil, nil) })
			assert.PanicsWithValue(t, nonEmpty, func() { _, _ = vg.Open(nil, make([]byte, 12), make([]byte, 28), nil) })
			buf := make([]byte, 64)
			assert.PanicsWithValue(t, "aesgcm: invalid buffer overlap of output and input", func() { vg.Seal(buf[:0], nil, buf[1:20], nil) })
			assert.PanicsWithValue(t, "aesgcm: invalid buffer overlap of output and additional data", func() { vg.Seal(buf[:0], nil, nil, buf[2:4]) })
			vg.(interface{ Wipe() }).Wipe()
			assert.PanicsWithValue(t, errWiped, func() { vg.Seal(nil, nil, nil, nil) })
		}
	})
	_, err := aesgcm.NewWithRandomNonce(make([]byte, 16), aesgcm.WithTagSize(12))
	require.Error(t, err)
	_, err = aesgcm.NewWithRandomNonce(make([]byte, 16), aesgcm.WithNonceSize(16))
	require.Error(t, err)
	_, err = aesgcm.NewWithRandomNonce(make([]byte, 17))
	require.Error(t, err)
}
