//go:build vgsim && amd64 && !purego

package rsa

import (
	"crypto"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestAnnotationsAgainstNamedSecrets cross-checks the adx kernels' Secret
// and Public annotations on the model: the test names the CRT exponents, the
// primes, their Montgomery constants and q^-1 secret, and Sign and both
// decryptions fail if any kernel call receives them through an argument
// declared Public (x86sim.NameSecret).
func TestAnnotationsAgainstNamedSecrets(t *testing.T) {
	requireADX(t)
	sizes := []string{"1024", "2048", "3072", "4096"}
	if testing.Short() {
		sizes = []string{"1024", "2048"}
	}
	for _, bits := range sizes {
		t.Run(bits, func(t *testing.T) {
			priv, err := NewPrivateKey(loadKey(t, bits), WithBackend("adx"))
			require.NoError(t, err)
			c := priv.sk.impl.(*keyADX)
			for name, x := range map[string][]uint64{"dp": c.dp, "dq": c.dq, "p": c.p.m, "q": c.q.m, "R^2 mod p": c.p.rr, "R^2 mod q": c.q.rr, "R mod p": c.p.one, "R mod q": c.q.one, "q^-1 mod p": priv.sk.qinv} {
				defer x86sim.NameSecretWords(name, x)()
			}
			d := sha256.Sum256([]byte("annotations"))
			require.NotPanics(t, func() {
				_, err := priv.Sign(nil, d[:], crypto.SHA256)
				require.NoError(t, err)
			}, "Sign")
			ct, err := priv.PublicKey().EncryptPKCS1v15(nil, []byte("m"))
			require.NoError(t, err)
			require.NotPanics(t, func() {
				_, err := priv.Decrypt(nil, ct, nil)
				require.NoError(t, err)
			}, "Decrypt PKCS #1 v1.5")
			ct, err = priv.PublicKey().EncryptOAEP(nil, crypto.SHA256, 0, []byte("m"), nil)
			require.NoError(t, err)
			require.NotPanics(t, func() {
				_, err := priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
				require.NoError(t, err)
			}, "Decrypt OAEP")
		})
	}
}
