package rsa_test

import (
	"crypto"
	"crypto/md5"
	stdrsa "crypto/rsa"
	"crypto/sha1"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// crypto.MD5SHA1 (TLS 1.0 and 1.1: PKCS #1 v1.5 over the 36-byte MD5 || SHA-1
// digest, no DigestInfo) signs byte for byte as crypto/rsa signs, on every
// backend, and verifies.
func TestSignMD5SHA1(t *testing.T) {
	msg := []byte("TLS 1.0 ServerKeyExchange")
	m, s := md5.Sum(msg), sha1.Sum(msg)
	digest := append(m[:], s[:]...)
	require.Len(t, digest, crypto.MD5SHA1.Size())
	for _, bits := range []int{1024, 2048} {
		std := testKey(t, bits)
		want, err := stdrsa.SignPKCS1v15(nil, std, crypto.MD5SHA1, digest)
		require.NoError(t, err)
		for _, backend := range availableBackends(t) {
			t.Run(fmt.Sprintf("%s/%d", backend, bits), func(t *testing.T) {
				priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
				require.NoError(t, err)
				sig, err := priv.Sign(nil, digest, crypto.MD5SHA1)
				require.NoError(t, err)
				assert.Equal(t, want, sig)
				sig, err = priv.SignPKCS1v15(crypto.MD5SHA1, digest)
				require.NoError(t, err)
				assert.Equal(t, want, sig)

				assert.NoError(t, priv.PublicKey().VerifyPKCS1v15(crypto.MD5SHA1, digest, sig))
				assert.NoError(t, stdrsa.VerifyPKCS1v15(&std.PublicKey, crypto.MD5SHA1, digest, sig))
				bad := append([]byte(nil), digest...)
				bad[0] ^= 1
				assert.ErrorIs(t, priv.PublicKey().VerifyPKCS1v15(crypto.MD5SHA1, bad, sig), rsa.ErrVerification)

				// A digest of the wrong length is refused, as by crypto/rsa.
				_, err = priv.Sign(nil, digest[:20], crypto.MD5SHA1)
				assert.Error(t, err)
				_, err = stdrsa.SignPKCS1v15(nil, std, crypto.MD5SHA1, digest[:20])
				assert.Error(t, err)
			})
		}
	}
}
