package rsa_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

// errWiped is the panic of every use of a wiped key, aesgcm's words.
const errWiped = "rsa: use of a wiped key"

// wipeKey calls k.Wipe, failing the test when PrivateKey has no Wipe method
// (through an interface, so that the tests compile without it).
func wipeKey(t *testing.T, k *rsa.PrivateKey) {
	t.Helper()
	w, ok := any(k).(interface{ Wipe() })
	require.True(t, ok, "*rsa.PrivateKey has no Wipe method")
	w.Wipe()
}

// secretUses are the methods of a PrivateKey that use its secrets, called
// directly and through crypto.Signer and crypto.Decrypter.
func secretUses(t *testing.T, std *stdrsa.PrivateKey) map[string]func(k *rsa.PrivateKey) {
	digest := sha256.Sum256([]byte("text"))
	ct, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, []byte("a session key of 32 bytes long!!"))
	require.NoError(t, err)
	oaep, err := stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, []byte("text"), nil)
	require.NoError(t, err)
	return map[string]func(k *rsa.PrivateKey){
		"Sign":          func(k *rsa.PrivateKey) { _, _ = k.Sign(nil, digest[:], crypto.SHA256) },
		"Sign/PSS":      func(k *rsa.PrivateKey) { _, _ = k.Sign(nil, digest[:], &stdrsa.PSSOptions{Hash: crypto.SHA256}) },
		"Sign/nil opts": func(k *rsa.PrivateKey) { _, _ = k.Sign(nil, digest[:], nil) },
		"crypto.Signer": func(k *rsa.PrivateKey) { _, _ = crypto.Signer(k).Sign(rand.Reader, digest[:], crypto.SHA256) },
		"Decrypt":       func(k *rsa.PrivateKey) { _, _ = k.Decrypt(nil, ct, nil) },
		"Decrypt/OAEP":  func(k *rsa.PrivateKey) { _, _ = k.Decrypt(nil, oaep, &stdrsa.OAEPOptions{Hash: crypto.SHA256}) },
		"Decrypt/session": func(k *rsa.PrivateKey) {
			_, _ = k.Decrypt(rand.Reader, ct, &stdrsa.PKCS1v15DecryptOptions{SessionKeyLen: 32})
		},
		"crypto.Decrypter": func(k *rsa.PrivateKey) {
			_, _ = crypto.Decrypter(k).Decrypt(rand.Reader, oaep, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
		},
		"DecryptOAEP":     func(k *rsa.PrivateKey) { _, _ = k.DecryptOAEP(crypto.SHA256, 0, oaep, nil) },
		"DecryptPKCS1v15": func(k *rsa.PrivateKey) { _, _ = k.DecryptPKCS1v15(ct) },
		"DecryptPKCS1v15SessionKey": func(k *rsa.PrivateKey) {
			_ = k.DecryptPKCS1v15SessionKey(ct, make([]byte, 32))
		},
		"SignPKCS1v15": func(k *rsa.PrivateKey) { _, _ = k.SignPKCS1v15(crypto.SHA256, digest[:]) },
		"SignPSS":      func(k *rsa.PrivateKey) { _, _ = k.SignPSS(nil, crypto.SHA256, digest[:], nil) },
		"SignPSSParams": func(k *rsa.PrivateKey) {
			_, _ = k.SignPSSParams(nil, digest[:], rsa.PSSParams{Hash: crypto.SHA256})
		},
	}
}

// TestWipe: after Wipe, every use of the key's secrets panics with "rsa:
// use of a wiped key", on the key and on every copy of it made before or
// after (copies share the secret state and its mark), whichever of them
// was wiped; what is public keeps working.
func TestWipe(t *testing.T) {
	std := testKey(t, 1024)
	uses := secretUses(t, std)
	for _, backend := range availableBackends(t) {
		t.Run(backend, func(t *testing.T) {
			k, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
			require.NoError(t, err)
			if !cpufeat.Simulated() { // every kernel call is slow on the model
				for name, use := range uses {
					require.NotPanics(t, func() { use(k) }, name)
				}
			}
			before := *k
			wipeKey(t, k)
			after := *k
			// Wiping a copy wipes the original.
			k2, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
			require.NoError(t, err)
			cp := *k2
			wipeKey(t, &cp)
			for name, use := range uses {
				t.Run(name, func(t *testing.T) {
					assert.PanicsWithValue(t, errWiped, func() { use(k) }, "the wiped key")
					assert.PanicsWithValue(t, errWiped, func() { use(&before) }, "a copy made before Wipe")
					assert.PanicsWithValue(t, errWiped, func() { use(&after) }, "a copy made after Wipe")
					assert.PanicsWithValue(t, errWiped, func() { use(k2) }, "the original of a wiped copy")
				})
			}
		})
	}
}

// TestWipePublicSurvives: the public key is not secret, so Public,
// PublicKey, Size and Backend keep working after Wipe (a wiped key can
// still be identified, e.g. matched to its certificate), and signatures
// made before still verify. Wiping again, or through a copy, is a no-op;
// the *crypto/rsa.PrivateKey the key was made from is untouched.
func TestWipePublicSurvives(t *testing.T) {
	std := testKey(t, 2048)
	k, err := rsa.NewPrivateKey(std)
	require.NoError(t, err)
	d := sha256.Sum256([]byte("before"))
	sig, err := k.Sign(nil, d[:], crypto.SHA256)
	require.NoError(t, err)
	cp := *k
	wipeKey(t, k)
	require.NotPanics(t, func() { wipeKey(t, k) })
	require.NotPanics(t, func() { wipeKey(t, &cp) })
	require.Equal(t, &std.PublicKey, k.Public())
	require.Equal(t, &std.PublicKey, cp.Public())
	require.Equal(t, 256, k.Size())
	require.NotEmpty(t, k.Backend())
	require.NoError(t, k.PublicKey().VerifyPKCS1v15(crypto.SHA256, d[:], sig))
	require.NoError(t, cp.PublicKey().VerifyPKCS1v15(crypto.SHA256, d[:], sig))

	require.NoError(t, std.Validate())
	k2, err := rsa.NewPrivateKey(std)
	require.NoError(t, err)
	sig2, err := k2.Sign(nil, d[:], crypto.SHA256)
	require.NoError(t, err)
	require.Equal(t, sig, sig2)
}

// TestWipeZeroValue: the zero PrivateKey panics with its own message on
// Wipe, as on every other method.
func TestWipeZeroValue(t *testing.T) {
	var zero rsa.PrivateKey
	assert.PanicsWithValue(t, "rsa: use of a PrivateKey not made by NewPrivateKey, ParsePKCS1PrivateKey, ParsePKCS8PrivateKey or ParsePEMPrivateKey (a zero value has no key)", func() { wipeKey(t, &zero) })
}
