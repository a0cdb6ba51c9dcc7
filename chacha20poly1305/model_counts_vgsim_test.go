//go:build vgsim

package chacha20poly1305

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestModelInstructionCounts logs the instructions the model executes for
// a Seal of 1 KiB and of 16 KiB on each assembly backend, the design
// figure the README quotes (per 1 KiB: the 16 KiB count over 16), and
// checks that each wider backend executes fewer.
func TestModelInstructionCounts(t *testing.T) {
	nonce, ad := make([]byte, NonceSize), make([]byte, 13)
	counts := map[string]uint64{}
	for _, n := range []int{1024, 16384} {
		pt := make([]byte, n)
		dst := make([]byte, 0, n+TagSize)
		for _, name := range []string{"ssse3", "avx2", "avx512"} {
			a, err := Prepare(make([]byte, KeySize), WithBackend(name))
			require.NoError(t, err)
			before := x86sim.Stats.Instructions()
			a.Seal(dst, nonce, pt, ad)
			counts[name] = x86sim.Stats.Instructions() - before
			t.Logf("%s: %d instructions per %d-byte seal (%.0f per KiB)", name, counts[name], n, float64(counts[name])*1024/float64(n))
		}
		assert.Less(t, counts["avx512"], counts["avx2"], "%d bytes", n)
		assert.Less(t, counts["avx2"], counts["ssse3"], "%d bytes", n)
	}
}
