//go:build vgsim

package aesgcm

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// TestModelInstructionCounts counts, on the model, the instructions of one
// 16 KiB AES-128 seal (13-byte AAD) per assembly backend, and checks that
// each wider width executes fewer than the one below it: the zmm backend
// takes four blocks per instruction and 16 per reduction, the ymm one two
// and 8, the xmm ones one and 16. The counts are in the README. A backend
// VG_CPU_FEATURES leaves out is not counted (logged), and a comparison
// needs both of its backends.
func TestModelInstructionCounts(t *testing.T) {
	pt, aad := make([]byte, 16384), make([]byte, 13)
	dst := make([]byte, 0, len(pt)+TagSize)
	nonce := make([]byte, NonceSize)
	pairs := [][2]string{{"vaes-avx512", "vaes-avx2"}, {"vaes-avx2", "aesni-avx"}}
	aeadtest.CheckFewerInstructions(t, Backends(), pairs, "16 KiB seal", func(name string) uint64 {
		g, err := Prepare(make([]byte, 16), WithBackend(name))
		require.NoError(t, err)
		before := x86sim.Stats.Instructions()
		g.Seal(dst, nonce, pt, aad)
		return x86sim.Stats.Instructions() - before
	})
}
