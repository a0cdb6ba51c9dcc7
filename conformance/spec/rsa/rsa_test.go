package rsa

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
)

// The reference is checked against crypto/rsa, an independent
// implementation: deterministic PKCS #1 v1.5 signatures byte for byte, and
// each side's randomized output through the other side's inverse.
func TestAgainstStdlib(t *testing.T) {
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	priv := &PrivateKey{PublicKey{std.N, std.E}, std.D}
	d := sha256.Sum256([]byte("spec"))

	want, err := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
	require.NoError(t, err)
	got, err := SignPKCS1v15(priv, crypto.SHA256, d[:])
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.NoError(t, VerifyPKCS1v15(&priv.PublicKey, crypto.SHA256, d[:], want))
	want[3] ^= 1
	require.Error(t, VerifyPKCS1v15(&priv.PublicKey, crypto.SHA256, d[:], want))

	salt := make([]byte, 32)
	rand.Read(salt)
	sig, err := SignPSS(priv, crypto.SHA256, crypto.SHA256, d[:], salt)
	require.NoError(t, err)
	require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA256, d[:], sig, &stdrsa.PSSOptions{SaltLength: 32}))
	sig, err = stdrsa.SignPSS(rand.Reader, std, crypto.SHA256, d[:], &stdrsa.PSSOptions{SaltLength: 20})
	require.NoError(t, err)
	require.NoError(t, VerifyPSS(&priv.PublicKey, crypto.SHA256, crypto.SHA256, d[:], sig, 20))
	require.Error(t, VerifyPSS(&priv.PublicKey, crypto.SHA256, crypto.SHA256, d[:], sig, 21))

	msg := []byte("message")
	seed := make([]byte, 32)
	rand.Read(seed)
	ct, err := EncryptOAEP(&priv.PublicKey, crypto.SHA256, crypto.SHA256, msg, []byte("L"), seed)
	require.NoError(t, err)
	pt, err := stdrsa.DecryptOAEP(sha256.New(), nil, std, ct, []byte("L"))
	require.NoError(t, err)
	require.Equal(t, msg, pt)
	ct, err = stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, msg, nil)
	require.NoError(t, err)
	pt, err = DecryptOAEP(priv, crypto.SHA256, crypto.SHA256, ct, nil)
	require.NoError(t, err)
	require.Equal(t, msg, pt)
	_, err = DecryptOAEP(priv, crypto.SHA256, crypto.SHA256, ct, []byte("x"))
	require.Error(t, err)

	ps := make([]byte, priv.Size()-len(msg)-3)
	for i := range ps {
		ps[i] = byte(i%255) + 1
	}
	ct, err = EncryptPKCS1v15(&priv.PublicKey, msg, ps)
	require.NoError(t, err)
	pt, err = stdrsa.DecryptPKCS1v15(nil, std, ct)
	require.NoError(t, err)
	require.Equal(t, msg, pt)
	ct, err = stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, msg)
	require.NoError(t, err)
	pt, err = DecryptPKCS1v15(priv, ct)
	require.NoError(t, err)
	require.Equal(t, msg, pt)
}
