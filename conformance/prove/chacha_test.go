package prove

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// program loads a generated file of the checkout (relative to its root).
// long skips a test that runs proofs under -short: the proof step (go run
// ./conformance/cmd/prove) runs them all, and the test matrix's -short runs
// (a configuration each, the model, arm64 under emulation) would only run
// the same symbolic code again.
func long(t *testing.T) {
	if testing.Short() {
		t.Skip("runs proofs: the proof step and the full test run cover it")
	}
}

func program(t *testing.T, file string) *x86sim.Program {
	p, err := Load("../..", file)
	require.NoError(t, err)
	return p
}

// chachaBackends are the generated ChaCha20-Poly1305 files and their
// functions' suffix.
var chachaBackends = []struct{ file, suffix string }{
	{"chacha20poly1305/asm_ssse3_amd64.s", "SSSE3"},
	{"chacha20poly1305/asm_avx2_amd64.s", "AVX2"},
	{"chacha20poly1305/asm_avx512_amd64.s", "AVX512"},
}

// The tests prove at a few lengths; the proof step (go run
// ./conformance/cmd/prove) runs every length Proofs lists.

func TestXORBlocks(t *testing.T) {
	long(t)
	for _, b := range chachaBackends {
		p, fn := program(t, b.file), "xorBlocks"+b.suffix
		n, err := p.CheckSymbolic(4, 2, fn)
		require.NoError(t, err)
		t.Logf("%s: %d instructions agree with the model", fn, n)
		for _, k := range []int{0, 1, 5} {
			require.NoError(t, XORBlocks(p, fn, k), "%s %d", fn, k)
		}
	}
}

func TestChaChaText(t *testing.T) {
	long(t)
	for _, b := range chachaBackends {
		p := program(t, b.file)
		for _, n := range []int{0, 1, 64, 100} {
			require.NoError(t, ChaChaText(p, "sealShort"+b.suffix, n, 13, false, true), "%s %d", b.suffix, n)
			require.NoError(t, ChaChaText(p, "openShort"+b.suffix, n, 13, true, true), "%s %d", b.suffix, n)
		}
	}
}
