package chacha20poly1305

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/internal/aeadtest"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// TestWipe checks that Wipe zeroes the key and that every later use panics.
func TestWipe(t *testing.T) {
	key := bytes.Repeat([]byte{7}, KeySize)
	a, err := Prepare(key)
	require.NoError(t, err)
	a.Wipe()
	assert.Equal(t, make([]byte, KeySize), a.k.key[:])
	assert.Panics(t, func() { a.Seal(nil, make([]byte, NonceSize), nil, nil) })
	assert.Panics(t, func() { _, _ = a.Open(nil, make([]byte, NonceSize), make([]byte, 16), nil) })
	assert.Panics(t, func() { a.SealGather(nil, make([]byte, NonceSize), nil, nil) })
}

// A key is allocated as memory the garbage collector does not scan
// (newKey): the AEAD, a copy of it and an Encryptor keep it alive from
// typed memory after the *AEAD the constructor returned is gone, through
// collections that would free it otherwise.
func TestKeyOutlivesConstructorPointer(t *testing.T) {
	key := bytes.Repeat([]byte{9}, KeySize)
	nonce := make([]byte, NonceSize)
	ref, err := xchacha.New(key)
	require.NoError(t, err)
	want := ref.Seal(nil, nonce, []byte("text"), nil)
	forEachBackend(t, func(t *testing.T, backend string) {
		holders := make([]struct {
			copy AEAD
			enc  *Encryptor
		}, 8)
		for i := range holders {
			a := mustNew(t, key, false, backend)
			holders[i].copy = *a
			holders[i].enc = a.NewEncryptor(nonce, nil)
		}
		for range 3 {
			runtime.GC()
			_ = make([]byte, 1<<20) // reuse what was freed
		}
		for _, h := range holders {
			assert.Equal(t, want, h.copy.Seal(nil, nonce, []byte("text"), nil))
			assert.Equal(t, want, h.enc.Finish(h.enc.Encrypt(nil, []byte("text"))))
			assert.Equal(t, backend, h.copy.Backend())
		}
	})
}

// A copy of an AEAD shares its key: after Wipe, the copy, and the
// Encryptor and Decryptor started before the Wipe, panic like the original.
func TestWipeCopies(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, bytes.Repeat([]byte{7}, KeySize), x, backend)
			cp := *a
			aeadtest.CheckWipeCopies(t, keyOf(a), keyOf(&cp), errWiped)
		}
	})
}
