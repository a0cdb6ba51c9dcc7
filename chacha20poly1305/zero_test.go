package chacha20poly1305_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
)

// A zero AEAD has no key: every method panics rather than seal or open under
// an all-zero key.
func TestZeroValuePanics(t *testing.T) {
	const msg = "chacha20poly1305: use of an AEAD not made by New, NewX, Prepare or PrepareX (a zero value has no key)"
	nonce := make([]byte, chacha20poly1305.NonceSize)
	sealed := make([]byte, 32)
	for name, call := range map[string]func(a *chacha20poly1305.AEAD){
		"Seal":         func(a *chacha20poly1305.AEAD) { a.Seal(nil, nonce, []byte("text"), nil) },
		"Open":         func(a *chacha20poly1305.AEAD) { _, _ = a.Open(nil, nonce, sealed, nil) },
		"SealGather":   func(a *chacha20poly1305.AEAD) { a.SealGather(nil, nonce, [][]byte{[]byte("text")}, nil) },
		"NonceSize":    func(a *chacha20poly1305.AEAD) { a.NonceSize() },
		"Overhead":     func(a *chacha20poly1305.AEAD) { a.Overhead() },
		"Backend":      func(a *chacha20poly1305.AEAD) { a.Backend() },
		"Wipe":         func(a *chacha20poly1305.AEAD) { a.Wipe() },
		"NewEncryptor": func(a *chacha20poly1305.AEAD) { a.NewEncryptor(nonce, nil) },
		"NewDecryptor": func(a *chacha20poly1305.AEAD) { a.NewDecryptor(nonce, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var zero chacha20poly1305.AEAD
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// An AEAD from New does not panic.
			a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
			require.NoError(t, err)
			assert.NotPanics(t, func() { call(a) })
		})
	}
}

// A zero Encryptor has no key: every method panics.
func TestZeroEncryptorPanics(t *testing.T) {
	const msg = "chacha20poly1305: use of an Encryptor not made by AEAD.NewEncryptor (a zero value has no key)"
	for name, call := range map[string]func(e *chacha20poly1305.Encryptor){
		"Encrypt": func(e *chacha20poly1305.Encryptor) { e.Encrypt(nil, []byte("text")) },
		"Finish":  func(e *chacha20poly1305.Encryptor) { e.Finish(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var zero chacha20poly1305.Encryptor
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// An Encryptor from NewEncryptor does not panic.
			a, err := chacha20poly1305.PrepareX(make([]byte, chacha20poly1305.KeySize))
			require.NoError(t, err)
			e := a.NewEncryptor(make([]byte, chacha20poly1305.NonceSizeX), nil)
			assert.NotPanics(t, func() { call(e) })
		})
	}
}

// A zero Decryptor has no key: every method panics.
func TestZeroDecryptorPanics(t *testing.T) {
	const msg = "chacha20poly1305: use of a Decryptor not made by AEAD.NewDecryptor (a zero value has no key)"
	for name, call := range map[string]func(d *chacha20poly1305.Decryptor){
		"Write": func(d *chacha20poly1305.Decryptor) { _, _ = d.Write([]byte("text")) },
		"Open":  func(d *chacha20poly1305.Decryptor) { _, _ = d.Open(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var zero chacha20poly1305.Decryptor
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// A Decryptor from NewDecryptor does not panic.
			a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
			require.NoError(t, err)
			d := a.NewDecryptor(make([]byte, chacha20poly1305.NonceSize), nil)
			assert.NotPanics(t, func() { call(d) })
		})
	}
}
