package prove

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// A generated is a generated .s file of the repository, loaded, for tests
// that prove its functions and copies of it with a defect.
type generated struct {
	t   *testing.T
	src string
	p   *x86sim.Program
}

// loadGenerated loads file (relative to the repository root).
func loadGenerated(t *testing.T, file string) generated {
	src, err := os.ReadFile("../../" + file)
	require.NoError(t, err)
	p, err := x86sim.Load(file, src)
	require.NoError(t, err)
	return generated{t, string(src), p}
}

// withDefect is the file with the first old in function fn's text replaced
// by new.
func (g generated) withDefect(fn, old, new string) *x86sim.Program {
	at := strings.Index(g.src, "TEXT ·"+fn+"(SB)")
	require.GreaterOrEqual(g.t, at, 0, fn)
	require.Contains(g.t, g.src[at:], old)
	bad, err := x86sim.Load("defect.s", []byte(g.src[:at]+strings.Replace(g.src[at:], old, new, 1)))
	require.NoError(g.t, err)
	return bad
}

// TestMontADXCatchesDefects proves montMul8ADX and then copies of it with
// one defect each, every one of which the proof must refuse: carries
// dropped (in the product, into the pending top, the OF chain's final
// carry), the quotient word not multiplied by m0inv, and a borrow dropped in
// the final subtraction.
func TestMontADXCatchesDefects(t *testing.T) {
	g := loadGenerated(t, "rsa/asm_adx_amd64.s")
	p := g.p
	require.NoError(t, MontADX(p, "montMul8ADX", 8, false, false))
	require.NoError(t, MontADX(p, "montMul8ADX", 8, false, true))
	require.NoError(t, MontADX(p, "montSqr8ADX", 8, true, true))

	for _, d := range []struct{ name, old, new, want string }{
		{"the product's first carry limb", "\tADCXQ BX, R8\n\tMOVQ  R8, 64(SP)\n", "\tMOVQ  R8, 64(SP)\n", "T is not x·y"},
		{"the OF chain's final carry into top", "\tADCXQ R8, DI\n\tADOXQ R8, DI\n", "\tADCXQ R8, DI\n", "no register holds the carry"},
		{"top added to the row's last limb", "\tADOXQ DI, R11\n", "", "no register holds the carry"},
		{"q without m0inv", "\tIMULQ CX, DX\n", "", "the limb it drops"},
		{"a borrow of the final subtraction", "\tMOVQ  72(SP), BX\n\tSBBQ  SI, BX\n", "\tMOVQ  72(SP), BX\n\tSUBQ  SI, BX\n", "z is not S - top·m"},
	} {
		t.Run(d.name, func(t *testing.T) {
			err := MontADX(g.withDefect("montMul8ADX", d.old, d.new), "montMul8ADX", 8, false, false)
			require.ErrorContains(t, err, d.want)
		})
	}
}

// TestGather5ADXCatchesAWrongMask proves gather5ADX, then a copy whose last
// pair's mask is never stored (the stack's old bytes, variables, stand in
// for it): the proof must refuse it.
func TestGather5ADXCatchesAWrongMask(t *testing.T) {
	g := loadGenerated(t, "rsa/asm_adx_amd64.s")
	for k := range 32 {
		require.NoError(t, Gather5ADX(g.p, "gather5ADX", 2, k))
	}
	bad := g.withDefect("gather5ADX", "\tMOVOU   X3, 240(SP)\n", "")
	// The stale mask's bytes are variables: every index reads them.
	for _, k := range []int{0, 30, 31} {
		require.ErrorContains(t, Gather5ADX(bad, "gather5ADX", 2, k), "z[0] differs")
	}
}
