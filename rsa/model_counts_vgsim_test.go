//go:build vgsim && amd64 && !purego

package rsa

import (
	"crypto"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestModelInstructionCounts counts, on the model, the assembly
// instructions of one 2048-bit PKCS #1 v1.5 sign (SHA-256) per assembly
// backend (the CRT exponentiations, the s^e check; Go code is not counted)
// and of the private operation alone, and checks that ifma executes fewer
// than adx. The counts are in the README.
func TestModelInstructionCounts(t *testing.T) {
	requireIFMA(t)
	counts := map[string]uint64{}
	d := sha256.Sum256([]byte("count"))
	for _, name := range []string{"adx", "ifma"} {
		priv, err := NewPrivateKey(loadKey(t, "2048"), WithBackend(name))
		require.NoError(t, err)
		w := priv.sk.w
		xp, xq := make([]uint64, w), make([]uint64, w)
		xp[0], xq[0] = 12345, 67890
		before := x86sim.Stats.Instructions()
		priv.sk.impl.expCRT(make([]uint64, w), make([]uint64, w), xp, xq)
		crt := x86sim.Stats.Instructions() - before
		before = x86sim.Stats.Instructions()
		_, err = priv.Sign(nil, d[:], crypto.SHA256)
		require.NoError(t, err)
		counts[name] = x86sim.Stats.Instructions() - before
		t.Logf("%s: %d instructions per 2048-bit sign, %d in expCRT", name, counts[name], crt)
	}
	assert.Less(t, counts["ifma"], counts["adx"])
}
