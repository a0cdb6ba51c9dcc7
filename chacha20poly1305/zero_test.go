package chacha20poly1305_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// A zero AEAD, Encryptor or Decryptor has no key: every method panics
// rather than seal or open under an all-zero key.
func TestZeroValuePanics(t *testing.T) {
	a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	aeadtest.CheckZeroKey(t, keyOf(new(chacha20poly1305.AEAD)), keyOf(a),
		"chacha20poly1305: use of an AEAD not made by New, NewX, Prepare or PrepareX (a zero value has no key)")
	aeadtest.CheckZeroStream(t,
		new(chacha20poly1305.Encryptor), "chacha20poly1305: use of an Encryptor not made by AEAD.NewEncryptor (a zero value has no key)",
		new(chacha20poly1305.Decryptor), "chacha20poly1305: use of a Decryptor not made by AEAD.NewDecryptor (a zero value has no key)")
}
