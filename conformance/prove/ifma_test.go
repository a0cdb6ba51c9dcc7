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

// TestAmmIFMACatchesDefects proves amm20IFMA's digit loop, then copies with
// one defect each, which the proof must refuse: lane 0's carry not added
// after the shift, the quotient taken from lane 8 instead of lane 0, the
// next digit's low product not added ahead, and a high product of the last
// digit dropped.
func TestAmmIFMACatchesDefects(t *testing.T) {
	src, err := os.ReadFile("../../rsa/asm_ifma_amd64.s")
	require.NoError(t, err)
	p, err := x86sim.Load("ifma.s", src)
	require.NoError(t, err)
	require.NoError(t, AmmIFMA(p, "amm20IFMA", 20, false))
	for _, d := range []struct{ name, old, new, want string }{
		{"lane 0's carry", "\tVPADDQ           Z7, Z9, K1, Z9\n", "", "digit 0: the accumulator"},
		{"the quotient's lane", "\tVPMADD52LUQ.BCST k0+32(FP), Z2, Z6\n", "\tVPMADD52LUQ.BCST k0+32(FP), Z3, Z6\n", "digit 0: the accumulator"},
		{"the next digit's low product", "\tVPMADD52LUQ      64(AX), Z8, Z10\n", "", "digit 0: the accumulator"},
		{"the last digit's high product", "\tVPMADD52HUQ      128(DX), Z1, Z16\n", "", "digit 19: the accumulator"},
	} {
		t.Run(d.name, func(t *testing.T) {
			require.Contains(t, string(src), d.old)
			bad, err := x86sim.Load("ifma.s", []byte(strings.Replace(string(src), d.old, d.new, 1)))
			require.NoError(t, err)
			require.ErrorContains(t, AmmIFMA(bad, "amm20IFMA", 20, false), d.want)
		})
	}
}

// TestAmmDualIFMACatchesDefects proves ammDual20IFMA's digit loop, then a
// copy whose second multiplication drops lane 0's carry after the shift:
// the proof must refuse that multiplication.
func TestAmmDualIFMACatchesDefects(t *testing.T) {
	src, err := os.ReadFile("../../rsa/asm_ifma_amd64.s")
	require.NoError(t, err)
	p, err := x86sim.Load("ifma.s", src)
	require.NoError(t, err)
	require.NoError(t, AmmIFMA(p, "ammDual20IFMA", 20, true))
	at := strings.Index(string(src), "TEXT ·ammDual20IFMA")
	require.Positive(t, at)
	old := "\tVPADDQ           Z14, Z18, K1, Z18\n"
	require.Contains(t, string(src[at:]), old)
	bad, err := x86sim.Load("ifma.s", []byte(string(src[:at])+strings.Replace(string(src[at:]), old, "", 1)))
	require.NoError(t, err)
	require.ErrorContains(t, AmmIFMA(bad, "ammDual20IFMA", 20, true), "the multiplication of xb: digit 0")
}
