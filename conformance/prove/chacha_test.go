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

func TestChaChaText(t *testing.T) {
	for _, c := range []struct{ file, seal, open string }{
		{"../../chacha20poly1305/asm_ssse3_amd64.s", "sealShortSSSE3", "openShortSSSE3"},
		{"../../chacha20poly1305/asm_avx2_amd64.s", "sealShortAVX2", "openShortAVX2"},
		{"../../chacha20poly1305/asm_avx512_amd64.s", "sealShortAVX512", "openShortAVX512"},
	} {
		src, err := os.ReadFile(c.file)
		require.NoError(t, err)
		p, err := x86sim.Load(c.file, src)
		require.NoError(t, err)
		for _, n := range []int{0, 1, 64, 100} {
			require.NoError(t, ChaChaText(p, c.seal, n, 13, false), "%s %d", c.seal, n)
			require.NoError(t, ChaChaText(p, c.open, n, 13, true), "%s %d", c.open, n)
		}
	}
}
