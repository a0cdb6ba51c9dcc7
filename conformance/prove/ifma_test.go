package prove

import (
	"math/rand/v2"
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

// TestAmmIFMACatchesDefects proves amm20IFMA, then copies with one defect
// each, which the proof must refuse. In the digit loop: lane 0's carry not
// added after the shift, the quotient taken from lane 8 instead of lane 0,
// the next digit's low product not added ahead, and a high product of the
// last digit dropped. In the normalization: a compare of ≥ where the lanes
// that generate a carry are those > 2^52-1 (wrong only when a lane after
// the carry shift is exactly 2^52-1), a register's carries not shifted up,
// the lookahead without P, a mask register's bits taken one lane off, a
// +1 in every lane, and a lane's bits above 52 kept.
func TestAmmIFMACatchesDefects(t *testing.T) {
	g := loadGenerated(t, "rsa/asm_ifma_amd64.s")
	require.NoError(t, AmmIFMA(g.p, "amm20IFMA", 20, false))
	for _, d := range []struct{ name, old, new, want string }{
		{"lane 0's carry", "\tVPADDQ           Z7, Z9, K1, Z9\n", "", "digit 0: the accumulator"},
		{"the quotient's lane", "\tVPMADD52LUQ.BCST k0+32(FP), Z2, Z6\n", "\tVPMADD52LUQ.BCST k0+32(FP), Z3, Z6\n", "digit 0: the accumulator"},
		{"the next digit's low product", "\tVPMADD52LUQ      64(AX), Z8, Z10\n", "", "digit 0: the accumulator"},
		{"the last digit's high product", "\tVPMADD52HUQ      128(DX), Z1, Z16\n", "", "digit 19: the accumulator"},
		{"a compare of ≥", "\tVPCMPUQ   $0x06, Z0, Z3, K1\n", "\tVPCMPUQ   $0x05, Z0, Z3, K1\n", "+1 is not under bit"},
		{"a carry shift dropped", "\tVALIGNQ   $0x07, Z6, Z7, Z7\n", "", "z is not the accumulator"},
		{"the lookahead without P", "\tORQ       CX, BX\n", "", "lane 0's +1 is not under bit 0"},
		{"the mask's shift", "\tSHRQ      $0x10, DX\n", "\tSHRQ      $0x0f, DX\n", "lane 16's +1"},
		{"a +1 in every lane", "\tVPADDQ    Z1, Z3, K1, Z3\n", "\tVPADDQ    Z1, Z3, Z3\n", "z[8] is not the low 52 bits"},
		{"a lane not masked", "\tVPANDQ    Z0, Z4, Z4\n\tVMOVDQU64 Z4, 128(AX)\n", "\tVMOVDQU64 Z4, 128(AX)\n", "z[16]'s bits above 52"},
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

// TestLookaheadLemma checks the lemma AmmIFMA's normalization rests on
// (ammChain.normalized) for every value of four lanes of 3 bits, each below
// 2^4-1 as the lemma requires, and for random 52-bit lanes with many equal
// to 2^52-1: with G_j = [L_j > 2^w-1], P_j = [L_j = 2^w-1] and
// c = ((G|P) + G) ^ P, bit 0 of c is 0 and bit j+1 is ⌊(L_j + c_j)/2^w⌋.
func TestLookaheadLemma(t *testing.T) {
	check := func(w uint, L []uint64) {
		var G, P uint64
		for j, l := range L {
			if l > 1<<w-1 {
				G |= 1 << j
			}
			if l == 1<<w-1 {
				P |= 1 << j
			}
		}
		c := ((G | P) + G) ^ P
		require.Zero(t, c&1, "lanes %v", L)
		for j := range len(L) - 1 {
			require.Equal(t, (L[j]+c>>j&1)>>w, c>>(j+1)&1, "lanes %v, lane %d", L, j)
		}
	}
	L := make([]uint64, 4)
	for v := range 15 * 15 * 15 * 15 {
		for j, x := 0, v; j < 4; j, x = j+1, x/15 {
			L[j] = uint64(x % 15)
		}
		check(3, L)
	}
	rng := rand.New(rand.NewPCG(52, 52))
	L = make([]uint64, 63)
	for range 20000 {
		for j := range L {
			switch rng.IntN(3) {
			case 0:
				L[j] = 1<<52 - 1
			case 1:
				L[j] = 1<<52 + rng.Uint64N(1<<52-1)
			default:
				L[j] = rng.Uint64N(1 << 52)
			}
		}
		check(52, L)
	}
}
