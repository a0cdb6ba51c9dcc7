//go:build (arm64 || loong64 || ppc64 || ppc64le || s390x) && !purego

package chacha20poly1305

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

// TestWipeStdlib checks what Wipe can do for the stdlib backend: zero the
// key vg holds, drop x/crypto's AEAD (whose copy of the key it cannot
// reach), and make every later use panic.
func TestWipeStdlib(t *testing.T) {
	if !cpufeat.Enabled().Has(cpufeat.StdChaCha20) {
		t.Skip("x/crypto's ChaCha20 assembly does not run here (cpufeat.StdChaCha20)")
	}
	for _, x := range []bool{false, true} {
		key := make([]byte, KeySize)
		for i := range key {
			key[i] = byte(i + 1)
		}
		a, err := newAEAD(key, x, []Option{WithBackend("stdlib")})
		require.NoError(t, err)
		k := a.k.impl.(*keyStd)
		require.NotNil(t, k.x)
		a.Wipe()
		require.Equal(t, [KeySize]byte{}, k.key)
		require.Nil(t, k.x)
		require.PanicsWithValue(t, errWiped, func() { a.Seal(nil, make([]byte, a.NonceSize()), nil, nil) })
	}
}
