//go:build valgrind

package rsa

import (
	"crypto"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

// ctgrindSecrets returns the private key's secret numbers in the backend's
// own copies: the CRT exponents, the primes, their Montgomery constants and
// q^-1.
func ctgrindSecrets(t *testing.T, priv *PrivateKey) [][]uint64 {
	s := [][]uint64{priv.sk.qinv, priv.sk.p.m, priv.sk.q.m, priv.sk.p.rr, priv.sk.q.rr, priv.sk.p.one, priv.sk.q.one}
	switch c := priv.sk.impl.(type) {
	case *keyGeneric:
		s = append(s, c.dp, c.dq, c.p.m, c.q.m, c.p.rr, c.q.rr, c.p.one, c.q.one)
	default:
		s = append(s, ctgrindBackendSecrets(t, c)...)
	}
	return s
}

// TestCTGrindPrivate runs under ci/cmd/ctgrind (valgrind's memcheck): with
// the private key's numbers marked undefined once the key is prepared, the
// Montgomery arithmetic, the exponentiation, the CRT recombination and its
// s^e = m check (Sign), and the PKCS #1 v1.5 and OAEP decryption checks (the
// Marvin attack's target) on valid and invalid ciphertexts, of every
// backend, must not branch on them or use them in an address. Natively it
// runs generic and adx (valgrind decodes ADX although its CPUID hides it:
// cpufeat adds it under the build tag valgrind); valgrind has no AVX-512,
// so ci/cmd/ctgrind runs ifma on the model (build tag vgsim), which takes
// its secrets from memcheck at every assembly call; there, with -short, a
// Sign alone (the backend's exponentiation and Go glue; the padding checks
// are the same Go code as natively). Each run logs which backends it ran
// (ctgrind.RunsBackend). The results are declassified where the package makes
// them public (declassify: the padding verdicts, the message length of a
// valid decryption, the CRT check's verdict).
func TestCTGrindPrivate(t *testing.T) {
	if !ctgrind.Running() {
		t.Skip("not under valgrind: run go run ./ci/cmd/ctgrind ./rsa")
	}
	sizes := []string{"1024", "2048"}
	if testing.Short() {
		sizes = []string{"1024"}
	}
	for _, b := range Backends() {
		if !ctgrind.RunsBackend(t, b.Name, b.Available, b.Requires.String()) {
			continue
		}
		for _, bits := range sizes {
			t.Run(b.Name+"/"+bits, func(t *testing.T) {
				priv, err := NewPrivateKey(loadKey(t, bits), WithBackend(b.Name))
				require.NoError(t, err)
				pub := priv.PublicKey()
				ct15, err := pub.EncryptPKCS1v15(nil, []byte("session key 16 b"))
				require.NoError(t, err)
				ctOAEP, err := pub.EncryptOAEP(nil, crypto.SHA256, 0, []byte("message"), nil)
				require.NoError(t, err)
				bad := append([]byte(nil), ct15...)
				bad[len(bad)/2] ^= 1
				for _, x := range ctgrindSecrets(t, priv) {
					ctgrind.UndefinedWords(x)
				}
				// On every return, leave nothing marked secret for the
				// collector to free and the runtime to reuse unwritten.
				defer func() {
					for _, x := range ctgrindSecrets(t, priv) {
						ctgrind.DefinedWords(x)
					}
				}()
				d := sha256.Sum256([]byte("ctgrind"))
				sig, err := priv.Sign(nil, d[:], crypto.SHA256)
				require.NoError(t, err)
				ctgrind.DefinedBytes(sig)
				if ctgrind.OnModel && testing.Short() {
					return
				}
				pt, err := priv.Decrypt(nil, ct15, nil)
				require.NoError(t, err)
				ctgrind.DefinedBytes(pt)
				require.Equal(t, "session key 16 b", string(pt))
				pt, err = priv.Decrypt(nil, ctOAEP, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
				require.NoError(t, err)
				ctgrind.DefinedBytes(pt)
				require.Equal(t, "message", string(pt))
				_, err = priv.Decrypt(nil, bad, nil)
				require.Error(t, err)
				_, err = priv.Decrypt(nil, bad, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
				require.Error(t, err)
				key := make([]byte, 16)
				require.NoError(t, priv.DecryptPKCS1v15SessionKey(ct15, key))
				require.NoError(t, priv.DecryptPKCS1v15SessionKey(bad, key))
				ctgrind.DefinedBytes(key)
			})
		}
	}
}
