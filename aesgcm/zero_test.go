package aesgcm_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
)

// A zero AEAD has no key: every method panics rather than seal or open
// without one.
func TestZeroValuePanics(t *testing.T) {
	const msg = "aesgcm: use of an AEAD not made by New or Prepare (a zero value has no key)"
	nonce := make([]byte, aesgcm.NonceSize)
	sealed := make([]byte, 32)
	for name, call := range map[string]func(a *aesgcm.AEAD){
		"Seal":         func(a *aesgcm.AEAD) { a.Seal(nil, nonce, []byte("text"), nil) },
		"Open":         func(a *aesgcm.AEAD) { _, _ = a.Open(nil, nonce, sealed, nil) },
		"SealGather":   func(a *aesgcm.AEAD) { a.SealGather(nil, nonce, [][]byte{[]byte("text")}, nil) },
		"NewEncryptor": func(a *aesgcm.AEAD) { a.NewEncryptor(nonce, nil) },
		"NewDecryptor": func(a *aesgcm.AEAD) { a.NewDecryptor(nonce, nil) },
		"NonceSize":    func(a *aesgcm.AEAD) { a.NonceSize() },
		"Overhead":     func(a *aesgcm.AEAD) { a.Overhead() },
		"Backend":      func(a *aesgcm.AEAD) { a.Backend() },
		"Wipe":         func(a *aesgcm.AEAD) { a.Wipe() },
	} {
		t.Run(name, func(t *testing.T) {
			var zero aesgcm.AEAD
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// An AEAD from New does not panic.
			a, err := aesgcm.Prepare(make([]byte, aesgcm.KeySize128))
			require.NoError(t, err)
			assert.NotPanics(t, func() { call(a) })
		})
	}
}

// A zero Encryptor has no key: every method panics.
func TestZeroEncryptorPanics(t *testing.T) {
	const msg = "aesgcm: use of an Encryptor not made by AEAD.NewEncryptor (a zero value has no key)"
	for name, call := range map[string]func(e *aesgcm.Encryptor){
		"Encrypt": func(e *aesgcm.Encryptor) { e.Encrypt(nil, []byte("text")) },
		"Finish":  func(e *aesgcm.Encryptor) { e.Finish(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var zero aesgcm.Encryptor
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			a, err := aesgcm.Prepare(make([]byte, aesgcm.KeySize128))
			require.NoError(t, err)
			e := a.NewEncryptor(make([]byte, aesgcm.NonceSize), nil)
			assert.NotPanics(t, func() { call(e) })
		})
	}
}

// A zero Decryptor has no key: every method panics.
func TestZeroDecryptorPanics(t *testing.T) {
	const msg = "aesgcm: use of a Decryptor not made by AEAD.NewDecryptor (a zero value has no key)"
	for name, call := range map[string]func(d *aesgcm.Decryptor){
		"Write": func(d *aesgcm.Decryptor) { _, _ = d.Write([]byte("text")) },
		"Open":  func(d *aesgcm.Decryptor) { _, _ = d.Open(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var zero aesgcm.Decryptor
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			a, err := aesgcm.Prepare(make([]byte, aesgcm.KeySize128))
			require.NoError(t, err)
			d := a.NewDecryptor(make([]byte, aesgcm.NonceSize), nil)
			assert.NotPanics(t, func() { call(d) })
		})
	}
}
