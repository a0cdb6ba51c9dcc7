package chacha20poly1305_test

import (
	"github.com/vgcrypto/vg/internal/aeadtest"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
)

// TestLongPassGatherCuts seals long texts gathered from slices that end
// around the boundaries of the long path's passes (pass 0 writes 448
// bytes, each later pass a whole pass of 256 or 512), where the pass that
// runs, and how many blocks it has waiting to hash, changes: each result is
// checked against golang.org/x/crypto and opened again. The avx2 long
// passes leave out the round hooks that no such count reaches; this is the
// check that the counts are the ones their generator assumes.
func TestLongPassGatherCuts(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(21, 22))
	cuts := []int{1, 15, 255, 256, 257, 447, 448, 449, 463, 464, 495, 496, 497, 511, 512, 513, 527, 704, 960, 975, 1007, 1008, 1023, 1024, 1025}
	forEachBackend(t, func(t *testing.T, name string) {
		key := randBytes(rng, chacha20poly1305.KeySize)
		a := mustNew(t, key, false, name)
		ref := xcryptoAEAD(t, key, false)
		for _, n := range []int{1100, 1553, 2053} {
			pt, ad, nonce := randBytes(rng, n), randBytes(rng, n%29), randBytes(rng, chacha20poly1305.NonceSize)
			want := ref.Seal(nil, nonce, pt, ad)
			got, err := a.Open(nil, nonce, want, ad)
			require.NoError(t, err, "Open n=%d", n)
			require.Equal(t, pt, got, "Open n=%d", n)
			for _, c := range cuts {
				for _, shape := range [][]int{{c, n - c}, {c, 1, n - c - 1}, {c, 17, 40, n - c - 57}} {
					require.Equal(t, want, a.SealGather(nil, nonce, aeadtest.Pieces(pt, shape), ad), "SealGather n=%d shape=%v", n, shape)
				}
			}
		}
	})
}
