//go:build vgsim

package chacha20poly1305

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// TestModelInstructionCounts logs the instructions the model executes for
// a Seal of 1 KiB and of 16 KiB on each assembly backend, the design
// figure the README quotes (per 1 KiB: the counts over 1 and over 16), and
// checks that each wider backend executes fewer. A backend VG_CPU_FEATURES
// leaves out is not counted (logged), and a comparison needs both of its
// backends.
func TestModelInstructionCounts(t *testing.T) {
	nonce, ad := make([]byte, NonceSize), make([]byte, 13)
	pairs := [][2]string{{"avx512", "avx2"}, {"avx2", "ssse3"}}
	for _, n := range []int{1024, 16384} {
		pt := make([]byte, n)
		dst := make([]byte, 0, n+TagSize)
		aeadtest.CheckFewerInstructions(t, Backends(), pairs, fmt.Sprintf("%d-byte seal", n), func(name string) uint64 {
			a, err := Prepare(make([]byte, KeySize), WithBackend(name))
			require.NoError(t, err)
			before := x86sim.Stats.Instructions()
			a.Seal(dst, nonce, pt, ad)
			return x86sim.Stats.Instructions() - before
		})
	}
}
