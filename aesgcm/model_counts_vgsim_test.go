//go:build vgsim

package aesgcm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestModelInstructionCounts counts, on the model, the instructions of one
// 16 KiB AES-128 seal (13-byte AAD) per assembly backend, and checks that
// each wider width executes fewer than the one below it: the zmm backend
// takes four blocks per instruction and 16 per reduction, the ymm one two
// and 8, the xmm ones one and 16. The counts are in the README.
func TestModelInstructionCounts(t *testing.T) {
	counts := map[string]uint64{}
	pt, aad := make([]byte, 16384), make([]byte, 13)
	dst := make([]byte, 0, len(pt)+TagSize)
	nonce := make([]byte, NonceSize)
	for _, name := range []string{"aesni", "aesni-avx", "vaes-avx2", "vaes-avx512"} {
		g, err := Prepare(make([]byte, 16), WithBackend(name))
		require.NoError(t, err)
		before := x86sim.Stats.Instructions()
		g.Seal(dst, nonce, pt, aad)
		counts[name] = x86sim.Stats.Instructions() - before
		t.Logf("%s: %d instructions per 16 KiB seal", name, counts[name])
	}
	assert.Less(t, counts["vaes-avx512"], counts["vaes-avx2"])
	assert.Less(t, counts["vaes-avx2"], counts["aesni-avx"])
}
