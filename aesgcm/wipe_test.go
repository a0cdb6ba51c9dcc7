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
	k := g.k.impl.(*keyGeneric)
	require.NotZero(t, k.aes.rk[0])
	require.NotZero(t, k.gh.pow[3])
	g.Wipe()
	require.Equal(t, aesCT{}, k.aes)
	require.Equal(t, ghashKey{}, k.gh)
	require.True(t, k.st.wiped, "the state the key carries is marked wiped")
}
