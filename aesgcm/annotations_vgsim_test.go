//go:build vgsim && amd64 && !purego

package aesgcm

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestAnnotationsAgainstNamedSecrets cross-checks the generators' Secret and
// Public annotations on the model: the test names the key table (round keys
// and GHASH key powers) and the plaintext secret, and every call of every
// entry point of every assembly backend, for each key size and for lengths
// on both sides of each backend's size classes, fails if it receives any of
// them through an argument declared Public (x86sim.NameSecret).
func TestAnnotationsAgainstNamedSecrets(t *testing.T) {
	lengths := []int{0, 1, 15, 16, 17, 32, 33, 127, 128, 255, 256, 257, 1000}
	aadLens := []int{0, 13, 16, 17, 300}
	if testing.Short() {
		lengths, aadLens = []int{0, 17, 33, 255, 257}, []int{0, 13, 17}
	}
	r := rand.New(rand.NewPCG(19, 3))
	rb := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	forEachAsm(t, func(t *testing.T, name string) {
		for _, size := range []int{16, 24, 32} {
			for _, nonceSize := range []int{12, 16} {
				g, err := Prepare(rb(size), WithBackend(name), WithNonceSize(nonceSize))
				require.NoError(t, err)
				table, _ := asmKeyTable(t, g)
				forgetKey := x86sim.NameSecretBytes("the key table", table)
				nonce := rb(nonceSize)
				for i, n := range lengths {
					aad := rb(aadLens[i%len(aadLens)])
					pt := rb(n)
					forget := x86sim.NameSecretBytes("the plaintext", pt)
					var sealed []byte
					require.NotPanics(t, func() { sealed = g.Seal(nil, nonce, pt, aad) }, "Seal, key %d, n %d", size, n)
					require.NotPanics(t, func() { g.SealGather(nil, nonce, [][]byte{pt[:n/3], pt[n/3:]}, aad) }, "SealGather, key %d, n %d", size, n)
					require.NotPanics(t, func() {
						e := g.NewEncryptor(nonce, aad)
						e.Finish(e.Encrypt(e.Encrypt(nil, pt[:n/2]), pt[n/2:]))
					}, "Encryptor, key %d, n %d", size, n)
					forget()
					// Open writes the plaintext: name its destination.
					dst := make([]byte, n)
					forget = x86sim.NameSecretBytes("the opened plaintext", dst)
					require.NotPanics(t, func() {
						out, err := g.Open(dst[:0], nonce, sealed, aad)
						require.NoError(t, err)
						require.Equal(t, pt, out)
					}, "Open, key %d, n %d", size, n)
					require.NotPanics(t, func() {
						d := g.NewDecryptor(nonce, aad)
						_, err := d.Write(sealed)
						require.NoError(t, err)
						out, err := d.Open(dst[:0])
						require.NoError(t, err)
						require.Equal(t, pt, out)
					}, "Decryptor, key %d, n %d", size, n)
					forget()
				}
				forgetKey()
			}
		}
	})
}
