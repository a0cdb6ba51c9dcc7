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

// TestIFMAAnnotationsAgainstNamedSecrets is TestAnnotationsAgainstNamedSecrets
// for the ifma kernels: the CRT exponents, the primes in limbs and digits,
// R'^2 of each prime and q^-1 are named secret, and Sign and both
// decryptions fail if a kernel call receives them through an argument
// declared Public.
func TestIFMAAnnotationsAgainstNamedSecrets(t *testing.T) {
	requireIFMA(t)
	sizes := []string{"2048", "3072", "4096"}
	if testing.Short() {
		sizes = []string{"2048"}
	}
	for _, bits := range sizes {
		t.Run(bits, func(t *testing.T) {
			priv, _ := withIFMA(t, bits)
			c := priv.sk.impl.(*keyIFMA)
			for name, x := range map[string][]uint64{"dp": c.dp, "dq": c.dq, "p digits": c.p.m, "q digits": c.q.m, "p": c.p.m64, "q": c.q.m64, "R'^2 mod p": c.p.rr, "R'^2 mod q": c.q.rr, "q^-1 mod p": priv.sk.qinv} {
				defer x86sim.NameSecretWords(name, x)()
			}
			d := sha256.Sum256([]byte("annotations"))
			require.NotPanics(t, func() {
				_, err := priv.Sign(nil, d[:], crypto.SHA256)
				require.NoError(t, err)
			}, "Sign")
			ct, err := priv.PublicKey().EncryptOAEP(nil, crypto.SHA256, 0, []byte("m"), nil)
			require.NoError(t, err)
			require.NotPanics(t, func() {
				_, err := priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
				require.NoError(t, err)
			}, "Decrypt OAEP")
		})
	}
}
