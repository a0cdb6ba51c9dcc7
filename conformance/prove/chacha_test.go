package prove

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

func TestXORBlocks(t *testing.T) {
	for _, c := range []struct{ file, fn string }{
		{"../../chacha20poly1305/asm_ssse3_amd64.s", "xorBlocksSSSE3"},
		{"../../chacha20poly1305/asm_avx2_amd64.s", "xorBlocksAVX2"},
		{"../../chacha20poly1305/asm_avx512_amd64.s", "xorBlocksAVX512"},
	} {
		src, err := os.ReadFile(c.file)
		require.NoError(t, err)
		p, err := x86sim.Load(c.file, src)
		require.NoError(t, err)
		// A few counts here; the proof step (go run ./conformance/cmd/prove)
		// runs every count Proofs lists.
		for _, b := range []int{0, 1, 5} {
			require.NoError(t, XORBlocks(p, c.fn, b), "%s %d", c.fn, b)
		}
	}
}

func TestSemanticsAgree(t *testing.T) {
	for _, c := range []struct{ file, fn string }{
		{"../../chacha20poly1305/asm_ssse3_amd64.s", "xorBlocksSSSE3"},
		{"../../chacha20poly1305/asm_avx2_amd64.s", "xorBlocksAVX2"},
		{"../../chacha20poly1305/asm_avx512_amd64.s", "xorBlocksAVX512"},
	} {
		src, err := os.ReadFile(c.file)
		require.NoError(t, err)
		p, err := x86sim.Load(c.file, src)
		require.NoError(t, err)
		n, err := p.CheckSymbolic(4, 2, c.fn)
		require.NoError(t, err)
		t.Logf("%s: %d instructions", c.fn, n)
	}
}
