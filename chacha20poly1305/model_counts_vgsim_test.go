//go:build vgsim

package chacha20poly1305

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestModelInstructionCounts logs the instructions the model executes for
// a Seal of 1 KiB and of 16 KiB on each assembly backend, the design
// figure the README quotes (per 1 KiB: the 16 KiB count over 16), and
// checks that each wider backend executes fewer. A backend VG_CPU_FEATURES
// leaves out is not counted (logged), and a comparison needs both of its
// backends.
func TestModelInstructionCounts(t *testing.T) {
	nonce, ad := make([]byte, NonceSize), make([]byte, 13)
	compared := 0
	for _, n := range []int{1024, 16384} {
		pt := make([]byte, n)
		dst := make([]byte, 0, n+TagSize)
		counts := map[string]uint64{}
		for _, b := range Backends() {
			if b.Name == "generic" {
				continue
			}
			if !b.Available {
				t.Logf("%s: not counted: VG_CPU_FEATURES leaves out some of %s", b.Name, b.Requires)
				continue
			}
			a, err := Prepare(make([]byte, KeySize), WithBackend(b.Name))
			require.NoError(t, err)
			before := x86sim.Stats.Instructions()
			a.Seal(dst, nonce, pt, ad)
			counts[b.Name] = x86sim.Stats.Instructions() - before
			t.Logf("%s: %d instructions per %d-byte seal (%.0f per KiB)", b.Name, counts[b.Name], n, float64(counts[b.Name])*1024/float64(n))
		}
		for _, pair := range [][2]string{{"avx512", "avx2"}, {"avx2", "ssse3"}} {
			wide, narrow := counts[pair[0]], counts[pair[1]]
			if wide == 0 || narrow == 0 {
				continue
			}
			assert.Less(t, wide, narrow, "%s against %s, %d bytes", pair[0], pair[1], n)
			compared++
		}
	}
	if compared == 0 {
		t.Skipf("no pair of backends to compare: VG_CPU_FEATURES=%q enables fewer than two assembly backends", os.Getenv("VG_CPU_FEATURES"))
	}
}
