//go:build (arm64 || ppc64 || ppc64le || s390x) && !purego

package aesgcm

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

// TestWipeStdlib checks what Wipe can do for the stdlib backend: zero the
// key it holds and the generic code's round keys and GHASH key powers
// (expanded here by a stream), drop crypto/cipher's GCM (whose round keys
// it cannot reach), and make every later use panic.
func TestWipeStdlib(t *testing.T) {
	if !cpufeat.Enabled().Has(cpufeat.StdAES) {
		t.Skip("the standard library's AES-GCM assembly does not run here (cpufeat.StdAES)")
	}
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i + 1)
	}
	g, err := Prepare(key, WithBackend("stdlib"))
	require.NoError(t, err)
	k := g.k.impl.(*keyStd)
	require.NotNil(t, k.gcm)
	g.NewEncryptor(make([]byte, NonceSize), nil).Finish(nil)
	require.NotZero(t, k.gen.aes.rk[0])
	g.Wipe()
	require.Equal(t, [32]byte{}, k.key)
	require.Equal(t, aesCT{}, k.gen.aes)
	require.Equal(t, ghashKey{}, k.gen.gh)
	require.Nil(t, k.gcm)
	require.PanicsWithValue(t, errWiped, func() { g.Seal(nil, make([]byte, NonceSize), nil, nil) })

	// A key wiped before its generic code was expanded never expands it.
	g, err = Prepare(key, WithBackend("stdlib"))
	require.NoError(t, err)
	k = g.k.impl.(*keyStd)
	g.Wipe()
	require.Equal(t, aesCT{}, k.generic().aes)
}
