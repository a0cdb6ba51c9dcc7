package prove

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestIFMAConversionsCatchDefects proves toDigits20IFMA, fromDigits20IFMA
// and gatherDual20IFMA, then copies with one defect each, which the proofs
// must refuse: a digit shifted one bit short, a limb's second digit not
// merged, and the merge of one register of ta's entries without its mask.
func TestIFMAConversionsCatchDefects(t *testing.T) {
	src, err := os.ReadFile("../../rsa/asm_ifma_amd64.s")
	require.NoError(t, err)
	p, err := x86sim.Load("ifma.s", src)
	require.NoError(t, err)
	require.NoError(t, ToDigitsIFMA(p, "toDigits20IFMA", 20))
	require.NoError(t, FromDigitsIFMA(p, "fromDigits20IFMA", 20))
	require.NoError(t, GatherDualIFMA(p, "gatherDual20IFMA", 20, 5, 17))

	load := func(old, new string) *x86sim.Program {
		require.Contains(t, string(src), old)
		bad, err := x86sim.Load("ifma.s", []byte(strings.Replace(string(src), old, new, 1)))
		require.NoError(t, err)
		return bad
	}
	bad := load("\tSHRQ $0x34, BX\n", "\tSHRQ $0x33, BX\n")
	require.ErrorContains(t, ToDigitsIFMA(bad, "toDigits20IFMA", 20), "z[8] differs")
	bad = load("\tSHLQ $0x34, BX\n\tORQ  BX, DX\n", "\tSHLQ $0x34, BX\n")
	require.ErrorContains(t, FromDigitsIFMA(bad, "fromDigits20IFMA", 20), "z[6] differs")
	bad = load("\tVPORQ     Z10, Z1, K1, Z1\n", "\tVPORQ     Z10, Z1, Z1\n")
	require.ErrorContains(t, GatherDualIFMA(bad, "gatherDual20IFMA", 20, 5, 17), "za[0] differs")
}
