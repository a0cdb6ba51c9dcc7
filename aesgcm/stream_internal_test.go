package aesgcm

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The Encryptor refuses to pass GCM's limit; the state is set near it
// rather than fed 64 GiB.
func TestEncryptorLimit(t *testing.T) {
	g, err := Prepare(make([]byte, 16))
	require.NoError(t, err)
	e := g.NewEncryptor(make([]byte, 12), nil)
	e.s.textLen = MaxPlaintextSize - 10
	e.Encrypt(nil, make([]byte, 10))
	require.PanicsWithValue(t, "aesgcm: message too large for GCM", func() { e.Encrypt(nil, make([]byte, 1)) })
}
