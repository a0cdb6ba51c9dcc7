package rsa_test

import (
	"bytes"
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// FuzzDecryptAgreement checks every backend available here but the
// portable one against crypto/rsa on ciphertexts the fuzzer shapes, with
// the 1024-bit test key: the message is encrypted (PKCS #1 v1.5 or
// OAEP-SHA256 with the label), then, unless flip is 0, one bit of it is
// flipped, or it is replaced by the raw bytes given. Both sides must accept
// the same inputs and return the same plaintext; a rejection must be
// ErrDecryption for both paddings, as in crypto/rsa. An unmodified
// encryption must give its message back, which is what crypto/rsa would
// return, so it is not decrypted by crypto/rsa as well. The portable
// backend has its own target, FuzzDecryptAgreementGeneric, so that each
// spends its executions on one kind of code. The seeds run in every
// `go test`; `go test -run '^$' -fuzz '^FuzzDecryptAgreement$' ./rsa`
// explores further (CONTRIBUTING says how long).
func FuzzDecryptAgreement(f *testing.F) {
	var names []string
	for _, name := range availableBackends(f) {
		if name != "generic" {
			names = append(names, name)
		}
	}
	fuzzDecrypt(f, names, "")
}

// FuzzDecryptAgreementGeneric is FuzzDecryptAgreement for the portable
// backend, against the adx backend where it runs: FuzzDecryptAgreement holds
// adx to crypto/rsa, and adx decrypts three times as fast, so that this
// target spends its executions on the portable code. Elsewhere it is held
// to crypto/rsa.
func FuzzDecryptAgreementGeneric(f *testing.F) {
	ref := ""
	for _, name := range availableBackends(f) {
		if name == "adx" {
			ref = name
		}
	}
	fuzzDecrypt(f, []string{"generic"}, ref)
}

// fuzzDecrypt runs the decryption agreement target over the backends
// named, against crypto/rsa, or with ref the named backend, for inputs
// other than an unmodified encryption.
func fuzzDecrypt(f *testing.F, names []string, ref string) {
	f.Add(false, []byte("message"), []byte{}, uint16(0), []byte{})
	f.Add(true, []byte("message"), []byte("label"), uint16(0), []byte{})
	f.Add(false, []byte("m"), []byte{}, uint16(5), []byte{})
	f.Add(true, []byte{}, []byte("l"), uint16(1000), []byte{})
	f.Add(false, []byte{}, []byte{}, uint16(0), []byte{0, 2, 1, 1, 0, 9})
	f.Add(true, []byte{}, []byte{}, uint16(0), bytes.Repeat([]byte{0xff}, 128))
	std := testKey(f, 1024)
	var privs []*rsa.PrivateKey
	for _, name := range names {
		p, err := rsa.NewPrivateKey(std, rsa.WithBackend(name))
		require.NoError(f, err)
		privs = append(privs, p)
	}
	var refKey *rsa.PrivateKey
	if ref != "" {
		var err error
		refKey, err = rsa.NewPrivateKey(std, rsa.WithBackend(ref))
		require.NoError(f, err)
	}
	f.Fuzz(func(t *testing.T, oaep bool, msg, label []byte, flip uint16, raw []byte) {
		if len(privs) == 0 {
			t.Skip("only the portable backend here: FuzzDecryptAgreementGeneric covers it")
		}
		var ct []byte
		var err error
		switch {
		case len(raw) > 0:
			ct = raw
		case oaep:
			msg = msg[:min(len(msg), std.Size()-2*sha256.Size-2)]
			ct, err = stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, msg, label)
			require.NoError(t, err)
		default:
			msg = msg[:min(len(msg), std.Size()-11)]
			ct, err = stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, msg)
			require.NoError(t, err)
		}
		modified := len(raw) > 0 || flip != 0
		if flip != 0 && len(raw) == 0 {
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
		}
		want := msg
		var wantErr error
		var opts crypto.DecrypterOpts
		if oaep {
			opts = &stdrsa.OAEPOptions{Hash: crypto.SHA256, Label: label}
		}
		switch {
		case !modified:
		case refKey != nil:
			want, wantErr = refKey.Decrypt(nil, ct, opts)
		case oaep:
			want, wantErr = stdrsa.DecryptOAEP(sha256.New(), nil, std, ct, label)
		default:
			want, wantErr = stdrsa.DecryptPKCS1v15(nil, std, ct)
		}
		for _, p := range privs {
			got, err := p.Decrypt(nil, ct, opts)
			if wantErr != nil {
				require.ErrorIs(t, err, rsa.ErrDecryption, "%s accepted what the reference rejects (%v)", p.Backend(), wantErr)
				require.Nil(t, got, p.Backend())
				continue
			}
			require.NoError(t, err, "%s rejected what the reference accepts", p.Backend())
			require.True(t, bytes.Equal(want, got), "%s: plaintext differs", p.Backend())
		}
	})
}
