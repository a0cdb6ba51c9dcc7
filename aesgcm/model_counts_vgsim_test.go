//go:build vgsim

package aesgcm

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestModelInstructionCounts counts, on the model, the instructions of one
// 16 KiB AES-128 seal (13-byte AAD) per assembly backend, and checks that
// each wider width executes fewer than the one below it: the zmm backend
// takes four blocks per instruction and 16 per reduction, the ymm one two
// and 8, the xmm ones one and 16. The counts are in the README. A backend
// VG_CPU_FEATURES leaves out is not counted (logged), and a comparison
// needs both of its backends.
func TestModelInstructionCounts(t *testing.T) {
	counts := map[string]uint64{}
	pt, aad := make([]byte, 16384), make([]byte, 13)
	dst := make([]byte, 0, len(pt)+TagSize)
	nonce := make([]byte, NonceSize)
	for _, b := range Backends() {
		if b.Name == "generic" {
			continue
		}
		if !b.Available {
			t.Logf("%s: not counted: VG_CPU_FEATURES leaves out some of %s", b.Name, b.Requires)
			continue
		}
		g, err := Prepare(make([]byte, 16), WithBackend(b.Name))
		require.NoError(t, err)
		before := x86sim.Stats.Instructions()
		g.Seal(dst, nonce, pt, aad)
		counts[b.Name] = x86sim.Stats.Instructions() - before
		t.Logf("%s: %d instructions per 16 KiB seal", b.Name, counts[b.Name])
	}
	compared := 0
	for _, pair := range [][2]string{{"vaes-avx512", "vaes-avx2"}, {"vaes-avx2", "aesni-avx"}} {
		wide, narrow := counts[pair[0]], counts[pair[1]]
		if wide == 0 || narrow == 0 {
			continue
		}
		assert.Less(t, wide, narrow, "%s against %s", pair[0], pair[1])
		compared++
	}
	if compared == 0 {
		t.Skipf("no pair of backends to compare: VG_CPU_FEATURES=%q enables only %d assembly backends", os.Getenv("VG_CPU_FEATURES"), len(counts))
	}
}
