package prove

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIFMAConversionsCatchDefects proves toDigits20IFMA, fromDigits20IFMA
// and gatherDual20IFMA, then copies with one defect each, which the proofs
// must refuse: a digit shifted one bit short, a limb's second digit not
// merged, and the merge of one register of ta's entries without its mask.
func TestIFMAConversionsCatchDefects(t *testing.T) {
	g := loadGenerated(t, "rsa/asm_ifma_amd64.s")
	require.NoError(t, ToDigitsIFMA(g.p, "toDigits20IFMA", 20))
	require.NoError(t, FromDigitsIFMA(g.p, "fromDigits20IFMA", 20))
	require.NoError(t, GatherDualIFMA(g.p, "gatherDual20IFMA", 20, 5, 17))

	bad := g.withDefect("toDigits20IFMA", "\tSHRQ $0x34, BX\n", "\tSHRQ $0x33, BX\n")
	require.ErrorContains(t, ToDigitsIFMA(bad, "toDigits20IFMA", 20), "z[8] differs")
	bad = g.withDefect("fromDigits20IFMA", "\tSHLQ $0x34, BX\n\tORQ  BX, DX\n", "\tSHLQ $0x34, BX\n")
	require.ErrorContains(t, FromDigitsIFMA(bad, "fromDigits20IFMA", 20), "z[6] differs")
	bad = g.withDefect("gatherDual20IFMA", "\tVPORQ     Z10, Z1, K1, Z1\n", "\tVPORQ     Z10, Z1, Z1\n")
	require.ErrorContains(t, GatherDualIFMA(bad, "gatherDual20IFMA", 20, 5, 17), "za[0] differs")
}

// TestAmmIFMACatchesDefects proves amm20IFMA's digit loop, then copies with
// one defect each, which the proof must refuse: lane 0's carry not added
// after the shift, the quotient taken from lane 8 instead of lane 0, the
// next digit's low product not added ahead, and a high product of the last
// digit dropped.
func TestAmmIFMACatchesDefects(t *testing.T) {
	g := loadGenerated(t, "rsa/asm_ifma_amd64.s")
	require.NoError(t, AmmIFMA(g.p, "amm20IFMA", 20, false))
	for _, d := range []struct{ name, old, new, want string }{
		{"lane 0's carry", "\tVPADDQ           Z7, Z9, K1, Z9\n", "", "digit 0: the accumulator"},
		{"the quotient's lane", "\tVPMADD52LUQ.BCST k0+32(FP), Z2, Z6\n", "\tVPMADD52LUQ.BCST k0+32(FP), Z3, Z6\n", "digit 0: the accumulator"},
		{"the next digit's low product", "\tVPMADD52LUQ      64(AX), Z8, Z10\n", "", "digit 0: the accumulator"},
		{"the last digit's high product", "\tVPMADD52HUQ      128(DX), Z1, Z16\n", "", "digit 19: the accumulator"},
	} {
		t.Run(d.name, func(t *testing.T) {
			require.ErrorContains(t, AmmIFMA(g.withDefect("amm20IFMA", d.old, d.new), "amm20IFMA", 20, false), d.want)
		})
	}
}

// TestAmmDualIFMACatchesDefects proves ammDual20IFMA's digit loop, then a
// copy whose second multiplication drops lane 0's carry after the shift:
// the proof must refuse that multiplication.
func TestAmmDualIFMACatchesDefects(t *testing.T) {
	g := loadGenerated(t, "rsa/asm_ifma_amd64.s")
	require.NoError(t, AmmIFMA(g.p, "ammDual20IFMA", 20, true))
	bad := g.withDefect("ammDual20IFMA", "\tVPADDQ           Z14, Z18, K1, Z18\n", "")
	require.ErrorContains(t, AmmIFMA(bad, "ammDual20IFMA", 20, true), "the multiplication of xb: digit 0")
}
