package chacha20poly1305

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/stackscratch"
)

// TestStreamLengthLimits checks the 2³⁸-64 byte limit of a message: Encrypt
// panics as Seal does when the message would grow beyond it, in one chunk
// or over several, and Write returns an error when the sealed message would
// grow beyond it plus the tag. The oversized slices have one byte of
// memory, which neither touches: they check the length first. checkptr (on
// under -race) rejects such slices.
func TestStreamLengthLimits(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("checkptr, enabled by -race, rejects the oversized slices this test fakes")
	}
	a, err := Prepare(make([]byte, KeySize))
	require.NoError(t, err)
	n12 := make([]byte, NonceSize)
	var b byte
	huge := unsafe.Slice(&b, MaxPlaintextSize+1)
	e := a.NewEncryptor(n12, nil)
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { e.Encrypt(nil, huge) })
	e.s.textLen = MaxPlaintextSize - 10 // as if that much had been encrypted
	assert.NotPanics(t, func() { e.Encrypt(nil, make([]byte, 10)) })
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { e.Encrypt(nil, []byte{0}) })

	d := a.NewDecryptor(n12, nil)
	_, err = d.Write(unsafe.Slice(&b, MaxPlaintextSize+TagSize+1))
	assert.EqualError(t, err, "chacha20poly1305: sealed message too large (more than MaxPlaintextSize bytes of ciphertext and the tag)")
}

// TestEncryptorWipesState checks that Finish leaves no key, keystream or
// Poly1305 state in the Encryptor.
func TestEncryptorWipesState(t *testing.T) {
	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, bytes.Repeat([]byte{9}, KeySize), true, name)
		e := a.NewEncryptor(make([]byte, NonceSizeX), []byte("ad"))
		e.Encrypt(nil, make([]byte, 100)) // leaves a block open and a partial Poly1305 block
		require.NotZero(t, e.s.ks, "a block is open")
		require.NotZero(t, e.s.ctN, "a Poly1305 block is partial")
		e.Finish(nil)
		assert.Zero(t, e.s.st, "cipher state")
		assert.Zero(t, e.s.p, "Poly1305 state")
		assert.Zero(t, e.s.ks, "keystream")
		assert.Zero(t, e.s.ct, "ciphertext tail")
	})
}
