package rsa_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// A zero PrivateKey has no key: every method panics with a message naming
// the constructors instead of dereferencing nil.
func TestZeroPrivateKeyPanics(t *testing.T) {
	const msg = "rsa: use of a PrivateKey not made by NewPrivateKey, ParsePKCS1PrivateKey, ParsePKCS8PrivateKey or ParsePEMPrivateKey (a zero value has no key)"
	std := testKey(t, 2048)
	digest := sha256.Sum256([]byte("text"))
	ct, err := stdrsa.EncryptPKCS1v15(nil, &std.PublicKey, []byte("a session key of 32 bytes long!!"))
	require.NoError(t, err)
	oaep, err := stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, []byte("text"), nil)
	require.NoError(t, err)
	for name, call := range map[string]func(k *rsa.PrivateKey){
		"Public":       func(k *rsa.PrivateKey) { k.Public() },
		"PublicKey":    func(k *rsa.PrivateKey) { k.PublicKey() },
		"Size":         func(k *rsa.PrivateKey) { k.Size() },
		"Backend":      func(k *rsa.PrivateKey) { k.Backend() },
		"Sign":         func(k *rsa.PrivateKey) { _, _ = k.Sign(nil, digest[:], crypto.SHA256) },
		"Decrypt":      func(k *rsa.PrivateKey) { _, _ = k.Decrypt(nil, ct, nil) },
		"DecryptOAEP":  func(k *rsa.PrivateKey) { _, _ = k.DecryptOAEP(crypto.SHA256, 0, oaep, nil) },
		"SignPKCS1v15": func(k *rsa.PrivateKey) { _, _ = k.SignPKCS1v15(crypto.SHA256, digest[:]) },
		"DecryptPKCS1v15": func(k *rsa.PrivateKey) {
			_, _ = k.DecryptPKCS1v15(ct)
		},
		"DecryptPKCS1v15SessionKey": func(k *rsa.PrivateKey) {
			_ = k.DecryptPKCS1v15SessionKey(ct, make([]byte, 32))
		},
		"SignPSS": func(k *rsa.PrivateKey) { _, _ = k.SignPSS(nil, crypto.SHA256, digest[:], nil) },
		"SignPSSParams": func(k *rsa.PrivateKey) {
			_, _ = k.SignPSSParams(nil, digest[:], rsa.PSSParams{Hash: crypto.SHA256})
		},
		"Wipe": func(k *rsa.PrivateKey) { k.Wipe() },
	} {
		t.Run(name, func(t *testing.T) {
			var zero rsa.PrivateKey
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// A key from NewPrivateKey does not panic.
			k, err := rsa.NewPrivateKey(std)
			require.NoError(t, err)
			assert.NotPanics(t, func() { call(k) })
		})
	}
}

// A zero PublicKey has no key: every method panics with a message naming
// the constructors instead of dereferencing nil.
func TestZeroPublicKeyPanics(t *testing.T) {
	const msg = "rsa: use of a PublicKey not made by NewPublicKey or PrivateKey.PublicKey (a zero value has no key)"
	std := testKey(t, 2048)
	digest := sha256.Sum256([]byte("text"))
	sig := make([]byte, 256)
	for name, call := range map[string]func(k *rsa.PublicKey){
		"Size":            func(k *rsa.PublicKey) { k.Size() },
		"Key":             func(k *rsa.PublicKey) { k.Key() },
		"Backend":         func(k *rsa.PublicKey) { k.Backend() },
		"EncryptOAEP":     func(k *rsa.PublicKey) { _, _ = k.EncryptOAEP(nil, crypto.SHA256, 0, []byte("text"), nil) },
		"EncryptPKCS1v15": func(k *rsa.PublicKey) { _, _ = k.EncryptPKCS1v15(nil, []byte("text")) },
		"VerifyPKCS1v15":  func(k *rsa.PublicKey) { _ = k.VerifyPKCS1v15(crypto.SHA256, digest[:], sig) },
		"VerifyPSS":       func(k *rsa.PublicKey) { _ = k.VerifyPSS(crypto.SHA256, digest[:], sig, nil) },
		"VerifyPSSParams": func(k *rsa.PublicKey) {
			_ = k.VerifyPSSParams(digest[:], sig, rsa.PSSParams{Hash: crypto.SHA256})
		},
	} {
		t.Run(name, func(t *testing.T) {
			var zero rsa.PublicKey
			assert.PanicsWithValue(t, msg, func() { call(&zero) })
			// Keys from NewPublicKey and PrivateKey.PublicKey do not panic.
			k, err := rsa.NewPublicKey(&std.PublicKey)
			require.NoError(t, err)
			assert.NotPanics(t, func() { call(k) })
			priv, err := rsa.NewPrivateKey(std)
			require.NoError(t, err)
			assert.NotPanics(t, func() { call(priv.PublicKey()) })
		})
	}
}
