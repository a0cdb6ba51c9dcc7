package rsa_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// leadingZeroCiphertext encrypts random messages of msgLen bytes with
// encrypt until a ciphertext starts with a zero byte, and returns the
// message and that ciphertext.
func leadingZeroCiphertext(t *testing.T, msgLen int, encrypt func(msg []byte) ([]byte, error)) (msg, ct []byte) {
	t.Helper()
	for range 100000 {
		msg = make([]byte, msgLen)
		_, _ = rand.Read(msg)
		ct, err := encrypt(msg)
		require.NoError(t, err)
		if ct[0] == 0 {
			return msg, ct
		}
	}
	t.Fatal("no ciphertext with a leading zero byte")
	return nil, nil
}

// A valid ciphertext with its leading zero byte stripped is shorter than the
// modulus; crypto/rsa decrypts it (as if padded with zeros) and so must vg,
// on every backend. A ciphertext one byte longer than the modulus is
// rejected by both.
func TestShortCiphertext(t *testing.T) {
	oaep := &stdrsa.OAEPOptions{Hash: crypto.SHA256}
	for _, bits := range []int{1024, 2048} {
		std := testKey(t, bits)
		pkcsMsg, pkcsCT := leadingZeroCiphertext(t, 32, func(m []byte) ([]byte, error) {
			return stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, m)
		})
		oaepMsg, oaepCT := leadingZeroCiphertext(t, 32, func(m []byte) ([]byte, error) {
			return stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, m, nil)
		})
		pkcsShort, oaepShort := pkcsCT[1:], oaepCT[1:]
		// One byte too long: a zero prepended to a valid ciphertext.
		pkcsLong := append([]byte{0}, pkcsCT...)
		oaepLong := append([]byte{0}, oaepCT...)

		// What crypto/rsa does with them.
		got, err := stdrsa.DecryptPKCS1v15(nil, std, pkcsShort)
		require.NoError(t, err)
		require.Equal(t, pkcsMsg, got)
		got, err = stdrsa.DecryptOAEP(sha256.New(), nil, std, oaepShort, nil)
		require.NoError(t, err)
		require.Equal(t, oaepMsg, got)
		_, err = stdrsa.DecryptPKCS1v15(nil, std, pkcsLong)
		require.Error(t, err)
		_, err = stdrsa.DecryptOAEP(sha256.New(), nil, std, oaepLong, nil)
		require.Error(t, err)
		stdKey := make([]byte, 32)
		require.NoError(t, stdrsa.DecryptPKCS1v15SessionKey(nil, std, pkcsShort, stdKey))
		require.Equal(t, pkcsMsg, stdKey)
		require.Error(t, stdrsa.DecryptPKCS1v15SessionKey(nil, std, pkcsLong, make([]byte, 32)))

		for _, backend := range availableBackends(t) {
			t.Run(fmt.Sprintf("%s/%d", backend, bits), func(t *testing.T) {
				priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
				require.NoError(t, err)

				got, err := priv.DecryptPKCS1v15(pkcsShort)
				require.NoError(t, err)
				assert.Equal(t, pkcsMsg, got)
				got, err = priv.Decrypt(nil, pkcsShort, nil)
				require.NoError(t, err)
				assert.Equal(t, pkcsMsg, got)
				key := make([]byte, 32)
				require.NoError(t, priv.DecryptPKCS1v15SessionKey(pkcsShort, key))
				assert.Equal(t, pkcsMsg, key)
				got, err = priv.DecryptOAEP(crypto.SHA256, 0, oaepShort, nil)
				require.NoError(t, err)
				assert.Equal(t, oaepMsg, got)
				got, err = priv.Decrypt(nil, oaepShort, oaep)
				require.NoError(t, err)
				assert.Equal(t, oaepMsg, got)

				_, err = priv.DecryptPKCS1v15(pkcsLong)
				assert.ErrorIs(t, err, rsa.ErrDecryption)
				assert.ErrorIs(t, priv.DecryptPKCS1v15SessionKey(pkcsLong, make([]byte, 32)), rsa.ErrDecryption)
				_, err = priv.DecryptOAEP(crypto.SHA256, 0, oaepLong, nil)
				assert.ErrorIs(t, err, rsa.ErrDecryption)

				// The ciphertext itself (k bytes) still decrypts.
				got, err = priv.DecryptPKCS1v15(pkcsCT)
				require.NoError(t, err)
				assert.Equal(t, pkcsMsg, got)
				got, err = priv.DecryptOAEP(crypto.SHA256, 0, oaepCT, nil)
				require.NoError(t, err)
				assert.Equal(t, oaepMsg, got)
			})
		}
	}
}
