package prove

import (
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// TestZReaderCarries reads a 64-bit sum and its carry: together they are
// the sum of the arguments exactly, alone the low word is not.
func TestZReaderCarries(t *testing.T) {
	ctx := sym.NewCtx()
	x, y := ctx.Var("x", 64), ctx.Var("y", 64)
	lo := ctx.Add(x, y)
	cf := ctx.Add(x.ZeroExtend(65), y.ZeroExtend(65)).Extract(64, 1)
	z := newZReader(lo, cf, x, y)
	sum := zsum(z.word(x).p, z.word(y).p)
	got := z.word(lo).p.clone()
	got.addScaled(z.word(cf).p, pow2(64))
	big3 := big.NewInt(3) // any modulus: the identity is exact
	require.NoError(t, z.congruent(got, sum, big3))
	require.NoError(t, z.congruent(got, sum, pow2(200)))
	require.Error(t, z.congruent(z.word(lo).p, sum, pow2(200)))
	// The top bit of a sum of two 63-bit values is a carry the range shows
	// zero: the 64-bit sum is the sum.
	a, b := sym.Concat(ctx.Var("a", 63), sym.Zero(1)), sym.Concat(ctx.Var("b", 63), sym.Zero(1))
	z = newZReader(a, b)
	require.NoError(t, z.congruent(z.word(ctx.Add(a, b)).p, zsum(z.word(a).p, z.word(b).p), pow2(200)))
}

func TestPolyBlocks(t *testing.T) {
	for _, b := range chachaBackends {
		p := program(t, b.file)
		for _, n := range []int{0, 16, 48} {
			require.NoError(t, PolyBlocks(p, "polyBlocks"+b.suffix, n), "%s n=%d", b.suffix, n)
		}
	}
}

// TestPolyBlocksCatchesADroppedCarry removes the carry out of h's middle
// limb after the fold (wrong only when that limb is all ones as the low
// limb carries): the proof must fail.
func TestPolyBlocksCatchesADroppedCarry(t *testing.T) {
	src, err := os.ReadFile("../../chacha20poly1305/asm_avx2_amd64.s")
	require.NoError(t, err)
	s := string(src)
	start := strings.Index(s, "TEXT ·polyBlocksAVX2")
	fold := "\tADCQ  $0x00, R11\n\tADCQ  $0x00, R12\n\tADDQ  $0x10, BX\n"
	i := strings.Index(s[start:], fold)
	require.GreaterOrEqual(t, i, 0, "the fold's carries in polyBlocksAVX2")
	s = s[:start+i] + "\tADCQ  $0x00, R11\n\tADDQ  $0x10, BX\n" + s[start+i+len(fold):]
	p, err := x86sim.Load("mutated.s", []byte(s))
	require.NoError(t, err)
	require.NoError(t, PolyBlocks(p, "polyBlocksAVX2", 0))
	err = PolyBlocks(p, "polyBlocksAVX2", 16)
	require.ErrorContains(t, err, "not one more step of the specification's loop")
}

// TestTagCatchesAWrongReduction swaps the final reduction's choice (h - p
// kept when h < p, h when h ≥ p) in sealShortAVX2, and drops the carry of
// the final addition of s in openShortAVX2: the tag proofs must fail, the
// text proofs still pass.
func TestTagCatchesAWrongReduction(t *testing.T) {
	src, err := os.ReadFile("../../chacha20poly1305/asm_avx2_amd64.s")
	require.NoError(t, err)
	for _, c := range []struct {
		fn, from, to string
		open         bool
	}{
		{"sealShortAVX2", "\tCMOVQNE ", "\tCMOVQEQ ", false},
		{"openShortAVX2", "\tADCQ    360(", "\tADDQ    360(", true},
	} {
		s := string(src)
		start := strings.Index(s, "TEXT ·"+c.fn)
		end := start + strings.Index(s[start:], "\tRET\n")
		body := s[start:end]
		require.True(t, strings.Contains(body, c.from), "%s has no %q", c.fn, c.from)
		s = s[:start] + strings.ReplaceAll(body, c.from, c.to) + s[end:]
		p, err := x86sim.Load("mutated.s", []byte(s))
		require.NoError(t, err)
		require.NoError(t, ChaChaText(p, c.fn, 17, 13, c.open, false), c.fn)
		require.ErrorContains(t, ChaChaText(p, c.fn, 17, 13, c.open, true), "the tag", c.fn)
	}
}

// TestZReaderXORSlices reads an XOR of two variables' bytes (a ciphertext
// byte) whole and in two slices: the slices add up to the whole.
func TestZReaderXORSlices(t *testing.T) {
	ctx := sym.NewCtx()
	x := sym.Xor(ctx.Var("k", 8), ctx.Var("m", 8))
	lo, hi := x.Extract(0, 2), x.Extract(2, 6)
	z := newZReader(x, lo, hi)
	got := z.word(lo).p.clone()
	got.addScaled(z.word(hi).p, pow2(2))
	require.NoError(t, z.congruent(got, z.word(x).p, nil))
	require.Error(t, z.congruent(z.word(lo).p, z.word(x).p, nil))
}

// TestPolyBlocksZmmCatches mutates avx512's zmm Poly1305 (polyVec): the
// fold of the top limb's carry into limb 0 (5·c as 3·c), a lane's power
// (the exit's r^8 row read as r^7's), a block limb added to the wrong
// limb, the lanes' sum's fold (h2 kept to 3 bits), and a key power's limb
// stored in another lane. Each proof must fail; the code as generated
// passes.
func TestPolyBlocksZmmCatches(t *testing.T) {
	src, err := os.ReadFile("../../chacha20poly1305/asm_avx512_amd64.s")
	require.NoError(t, err)
	s := string(src)
	start := strings.Index(s, "TEXT ·polyBlocksAVX512")
	end := start + strings.Index(s[start:], "\tRET\n")
	p, err := x86sim.Load("asm_avx512_amd64.s", src)
	require.NoError(t, err)
	require.NoError(t, PolyBlocks(p, "polyBlocksAVX512", 384))
	for _, c := range []struct{ from, to, fails string }{
		{"VPSLLQ      $0x02, Z2, Z2", "VPSLLQ      $0x01, Z2, Z2", "after turn 1"},
		{"VPMULUDQ      (DI), Z2, Z1", "VPMULUDQ      8(DI), Z2, Z1", "after the lanes' loop"},
		{"VPADDQ      Z17, Z5, Z5", "VPADDQ      Z17, Z4, Z4", "after turn 1"},
		{"ANDQ          $0x03, R10", "ANDQ          $0x07, R10", "after the lanes' loop"},
		{"MOVQ  DX, 120(DI)", "MOVQ  DX, 112(DI)", "after the lanes' loop"},
	} {
		body := s[start:end]
		i := strings.Index(body, c.from)
		require.GreaterOrEqual(t, i, 0, "polyBlocksAVX512 has no %q", c.from)
		body = body[:i] + c.to + body[i+len(c.from):]
		p, err := x86sim.Load("mutated.s", []byte(s[:start]+body+s[end:]))
		require.NoError(t, err)
		require.ErrorContains(t, PolyBlocks(p, "polyBlocksAVX512", 384), c.fails, c.from)
	}
}
