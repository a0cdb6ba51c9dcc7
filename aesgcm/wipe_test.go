package aesgcm

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWipeZeroesKeyMaterial(t *testing.T) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i + 1)
	}
	g, err := Prepare(key, WithBackend("generic"))
	require.NoError(t, err)
	k := g.k.b.(*genericKey)
	require.NotZero(t, k.aes.rk[0])
	require.NotZero(t, k.gh.pow[3])
	g.Wipe()
	require.Equal(t, genericKey{}, *k)
}

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
