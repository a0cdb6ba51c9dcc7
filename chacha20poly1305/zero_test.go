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
	const msg = "chacha20poly1305: use of an AEAD not made by New or NewX (a zero value has no key)"
	nonce := make([]byte, chacha20poly1305.NonceSize)
	sealed := make([]byte, 32)
	for name, call := range map[string]func(a *chacha20poly1305.AEAD){
		"Seal":       func(a *chacha20poly1305.AEAD) { a.Seal(nil, nonce, []byte("text"), nil) },
		"Open":       func(a *chacha20poly1305.AEAD) { _, _ = a.Open(nil, nonce, sealed, nil) },
		"SealGather": func(a *chacha20poly1305.AEAD) { a.SealGather(nil, nonce, [][]byte{[]byte("text")}, nil) },
		"NonceSize":  func(a *chacha20poly1305.AEAD) { a.NonceSize() },
		"Overhead":   func(a *chacha20poly1305.AEAD) { a.Overhead() },
		"Backend":    func(a *chacha20poly1305.AEAD) { a.Backend() },
		"Wipe":       func(a *chacha20poly1305.AEAD) { a.Wipe() },
	} {
		t.Run(name, func(t *testing.T) {
			var zero chacha20poly1305.AEAD
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// An AEAD from New does not panic.
			a, err := chacha20poly1305.New(make([]byte, chacha20poly1305.KeySize))
			require.NoError(t, err)
			assert.NotPanics(t, func() { call(a) })
		})
	}
}
