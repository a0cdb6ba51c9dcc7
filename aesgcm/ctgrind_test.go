//go:build valgrind

package aesgcm

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/internal/aeadtest"
	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

// TestCTGrindSealOpen runs under ci/cmd/ctgrind (valgrind's memcheck): with
// the key and the plaintext marked undefined, Seal, SealGather, Open, the
// Encryptor and the Decryptor of every backend must not branch on them or
// use them in an address, in Go code or in assembly, for every key size and
// both nonce paths. Natively it runs the backends valgrind decodes (generic,
// aesni, aesni-avx); valgrind has no VAES, so ci/cmd/ctgrind runs vaes-avx2
// and vaes-avx512 on the model (build tag vgsim), which takes its secrets
// from memcheck at every assembly call. Each run logs which backends it ran
// (ctgrind.RunsBackend). The ciphertext and tag are declassified before the
// test compares them; Open's verdict and a GHASH-derived J0 are
// declassified where the package makes them public (declassify).
func TestCTGrindSealOpen(t *testing.T) {
	if !ctgrind.Running() {
		t.Skip("not under valgrind: run go run ./ci/cmd/ctgrind ./aesgcm")
	}
	lengths := []int{0, 1, 16, 17, 63, 130, 300}
	if testing.Short() {
		lengths = []int{0, 17, 130}
	}
	r := rand.New(rand.NewPCG(19, 5))
	rb := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	for _, b := range Backends() {
		if !ctgrind.RunsBackend(t, b.Name, b.Available, b.Requires.String()) {
			continue
		}
		for _, size := range []int{16, 24, 32} {
			for _, nonceSize := range []int{12, 16} {
				t.Run(fmt.Sprintf("%s/%d/nonce%d", b.Name, size, nonceSize), func(t *testing.T) {
					key := rb(size)
					blk, err := aes.NewCipher(key)
					require.NoError(t, err)
					ref, err := cipher.NewGCMWithNonceSize(blk, nonceSize)
					require.NoError(t, err)
					secretKey := append([]byte(nil), key...)
					ctgrind.UndefinedBytes(secretKey)
					g, err := Prepare(secretKey, WithBackend(b.Name), WithNonceSize(nonceSize))
					require.NoError(t, err)
					// Leave nothing marked secret for the collector to free
					// and the runtime to reuse unwritten.
					defer func() { g.Wipe(); ctgrind.DefinedBytes(secretKey) }()
					nonce := rb(nonceSize)
					for i, n := range lengths {
						aeadtest.CheckSecretMessage(t, aeadtest.KeyOf[*Encryptor, *Decryptor](g), ref, nonce, rb(n), rb([]int{0, 13, 40}[i%3]))
					}
				})
			}
		}
	}
}
