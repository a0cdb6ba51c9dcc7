//go:build valgrind

package chacha20poly1305

import (
	"fmt"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/internal/aeadtest"
	"github.com/vgcrypto/vg/stackscratch/ctgrind"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// TestCTGrindSealOpen runs under ci/cmd/ctgrind (valgrind's memcheck): with
// the key and the plaintext marked undefined, Seal, SealGather, Open, the
// Encryptor and the Decryptor of every backend, with both nonce sizes, must
// not branch on them or use them in an address, in the Go code (ChaCha20,
// Poly1305, the glue) or in the assembly. Natively it runs the backends
// valgrind decodes (generic, ssse3, avx2); valgrind has no AVX-512, so
// ci/cmd/ctgrind runs avx512 on the model (build tag vgsim), which takes its
// secrets from memcheck at every assembly call. Each run logs which backends
// it ran (ctgrind.RunsBackend). Outputs are declassified before the test
// compares them; Open's verdict is declassified where the package makes it
// public (declassify).
func TestCTGrindSealOpen(t *testing.T) {
	if !ctgrind.Running() {
		t.Skip("not under valgrind: run go run ./ci/cmd/ctgrind ./chacha20poly1305")
	}
	lengths := []int{0, 1, 16, 17, 100, 129, 321, 600}
	if testing.Short() {
		lengths = []int{0, 17, 129, 321, 600} // 600: the long functions of avx512 too
	}
	rng := mathrand.New(mathrand.NewPCG(19, 6))
	for _, b := range Backends() {
		if !ctgrind.RunsBackend(t, b.Name, b.Available, b.Requires.String()) {
			continue
		}
		for _, x := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/x=%v", b.Name, x), func(t *testing.T) {
				key := randBytes(rng, KeySize)
				var ref interface {
					Seal(dst, nonce, plaintext, ad []byte) []byte
				}
				var err error
				if x {
					ref, err = xchacha.NewX(key)
				} else {
					ref, err = xchacha.New(key)
				}
				require.NoError(t, err)
				secretKey := append([]byte(nil), key...)
				ctgrind.UndefinedBytes(secretKey)
				a := mustNew(t, secretKey, x, b.Name)
				// Leave nothing marked secret for the collector to free and
				// the runtime to reuse unwritten.
				defer func() { a.Wipe(); ctgrind.DefinedBytes(secretKey) }()
				nonce := randBytes(rng, a.NonceSize())
				for i, n := range lengths {
					ad := randBytes(rng, []int{0, 13, 40}[i%3])
					aeadtest.CheckSecretMessage(t, aeadtest.KeyOf[*Encryptor, *Decryptor](a), ref, nonce, randBytes(rng, n), ad)
				}
			})
		}
	}
}
