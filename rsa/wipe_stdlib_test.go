//go:build (arm64 || ppc64 || ppc64le || s390x) && !purego

package rsa

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

// TestWipeStdlib checks what Wipe can do for the stdlib backend: zero the
// words of every secret number of vg's crypto/rsa copy of the key (not
// crypto/rsa's own precomputed form, which it cannot reach), and make
// every later private operation panic.
func TestWipeStdlib(t *testing.T) {
	if !cpufeat.Enabled().Has(cpufeat.StdRSA) {
		t.Skip("VG_CPU_FEATURES turns crypto/rsa's backend off (cpufeat.StdRSA)")
	}
	priv, err := NewPrivateKey(loadKey(t, "2048"), WithBackend(stdlibBackend))
	require.NoError(t, err)
	std := priv.sk.std
	require.NotNil(t, std)
	secrets := append([]*big.Int{std.D, std.Precomputed.Dp, std.Precomputed.Dq, std.Precomputed.Qinv}, std.Primes...)
	for _, x := range secrets {
		require.NotZero(t, x.Sign())
	}
	priv.Wipe()
	for _, x := range secrets {
		for _, w := range x.Bits() {
			require.Zero(t, w)
		}
	}
	require.Nil(t, priv.sk.std)
	require.PanicsWithValue(t, errWiped, func() { _, _ = priv.SignPKCS1v15(0, []byte("x")) })
}
