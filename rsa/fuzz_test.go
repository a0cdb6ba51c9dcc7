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

// FuzzDecryptAgreement checks every backend available here against
// crypto/rsa on ciphertexts the fuzzer shapes, with the 1024-bit test key:
// the message is encrypted (PKCS #1 v1.5 or OAEP-SHA256 with the label),
// then, unless flip is 0, one bit of it is flipped, or it is replaced by the
// raw bytes given. Both sides must accept the same inputs and return the
// same plaintext; a rejection must be ErrDecryption for both paddings, as in
// crypto/rsa. The seeds run in every `go test`;
// `go test -fuzz FuzzDecryptAgreement ./rsa` explores further.
func FuzzDecryptAgreement(f *testing.F) {
	f.Add(false, []byte("message"), []byte{}, uint16(0), []byte{})
	f.Add(true, []byte("message"), []byte("label"), uint16(0), []byte{})
	f.Add(false, []byte("m"), []byte{}, uint16(5), []byte{})
	f.Add(true, []byte{}, []byte("l"), uint16(1000), []byte{})
	f.Add(false, []byte{}, []byte{}, uint16(0), []byte{0, 2, 1, 1, 0, 9})
	f.Add(true, []byte{}, []byte{}, uint16(0), bytes.Repeat([]byte{0xff}, 128))
	std := testKey(f, 1024)
	var privs []*rsa.PrivateKey
	for _, name := range availableBackends(f) {
		p, err := rsa.NewPrivateKey(std, rsa.WithBackend(name))
		require.NoError(f, err)
		privs = append(privs, p)
	}
	f.Fuzz(func(t *testing.T, oaep bool, msg, label []byte, flip uint16, raw []byte) {
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
		if flip != 0 && len(raw) == 0 {
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
		}
		var want []byte
		var wantErr error
		var opts crypto.DecrypterOpts
		if oaep {
			want, wantErr = stdrsa.DecryptOAEP(sha256.New(), nil, std, ct, label)
			opts = &stdrsa.OAEPOptions{Hash: crypto.SHA256, Label: label}
		} else {
			want, wantErr = stdrsa.DecryptPKCS1v15(nil, std, ct)
		}
		for _, p := range privs {
			got, err := p.Decrypt(nil, ct, opts)
			if wantErr != nil {
				require.ErrorIs(t, err, rsa.ErrDecryption, "%s accepted what crypto/rsa rejects (%v)", p.Backend(), wantErr)
				require.Nil(t, got, p.Backend())
				continue
			}
			require.NoError(t, err, "%s rejected what crypto/rsa accepts", p.Backend())
			require.True(t, bytes.Equal(want, got), "%s: plaintext differs", p.Backend())
			if flip == 0 && len(raw) == 0 {
				require.True(t, bytes.Equal(msg, got), "%s: not the message", p.Backend())
			}
		}
	})
}
