//go:build vgsim && amd64 && !purego

package chacha20poly1305

import (
	"fmt"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestAnnotationsAgainstNamedSecrets cross-checks the generators' Secret and
// Public annotations on the model: the test names the key and the plaintext
// (and, for Open, the buffer that receives it) secret, and every call of
// every entry point of every assembly backend, at lengths on both sides of
// each backend's short-path limit and pass sizes, with both nonce sizes,
// fails if it receives any of them through an argument declared Public
// (x86sim.NameSecret).
func TestAnnotationsAgainstNamedSecrets(t *testing.T) {
	lengths := []int{0, 1, 16, 17, 63, 64, 127, 128, 129, 255, 256, 257, 319, 320, 321, 447, 448, 449, 511, 512, 513, 1000, 1473}
	if testing.Short() {
		lengths = []int{0, 17, 128, 129, 320, 321, 513, 1000}
	}
	rng := mathrand.New(mathrand.NewPCG(19, 4))
	for _, b := range asmBackends(t) {
		for _, x := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/x=%v", b, x), func(t *testing.T) {
				a := mustNew(t, randBytes(rng, KeySize), x, b.String())
				defer x86sim.NameSecretBytes("the key", a.k.key[:])()
				nonce := randBytes(rng, a.NonceSize())
				for i, n := range lengths {
					ad := randBytes(rng, []int{0, 13, 16, 300}[i%4])
					pt := randBytes(rng, n)
					forget := x86sim.NameSecretBytes("the plaintext", pt)
					var ct []byte
					require.NotPanics(t, func() { ct = a.Seal(nil, nonce, pt, ad) }, "Seal n=%d", n)
					require.NotPanics(t, func() { a.SealGather(nil, nonce, [][]byte{pt[:n/3], pt[n/3:]}, ad) }, "SealGather n=%d", n)
					require.NotPanics(t, func() {
						e := a.NewEncryptor(nonce, ad)
						e.Finish(e.Encrypt(e.Encrypt(nil, pt[:n/2]), pt[n/2:]))
					}, "Encryptor n=%d", n)
					forget()
					dst := make([]byte, n)
					forget = x86sim.NameSecretBytes("the opened plaintext", dst)
					require.NotPanics(t, func() {
						out, err := a.Open(dst[:0], nonce, ct, ad)
						require.NoError(t, err)
						require.Equal(t, pt, out)
					}, "Open n=%d", n)
					require.NotPanics(t, func() {
						d := a.NewDecryptor(nonce, ad)
						_, err := d.Write(ct)
						require.NoError(t, err)
						out, err := d.Open(dst[:0])
						require.NoError(t, err)
						require.Equal(t, pt, out)
					}, "Decryptor n=%d", n)
					forget()
				}
			})
		}
	}
}
