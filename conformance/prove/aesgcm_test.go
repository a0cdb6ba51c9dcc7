package prove

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// TestAESRoundIsTheSpecification ties the atoms the proofs share to the
// standard: the model's AES round and final round, which the probes check
// against AESENC and AESENCLAST on the CPU, equal the specification's
// FIPS 197 rounds on random states.
func TestAESRoundIsTheSpecification(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ctx := sym.NewCtx()
	x := ctx.Var("x", 128)
	round, final := x86sim.AESRound(ctx, x), x86sim.AESFinalRound(ctx, x)
	for i := 0; i < 1000; i++ {
		var s spec.Bytes16
		for j := range s {
			s[j] = byte(rng.Uint32())
		}
		le := make([]byte, 16)
		for j := range le {
			le[j] = s[15-j]
		}
		val := func(string) *big.Int { return new(big.Int).SetBytes(le) }
		for _, c := range []struct {
			w    *sym.Word
			want spec.Bytes16
		}{{round, s.Round(spec.Bytes16{})}, {final, s.FinalRound(spec.Bytes16{})}} {
			got := sym.Eval(c.w, val).FillBytes(make([]byte, 16))
			for j := range got[:8] {
				got[j], got[15-j] = got[15-j], got[j]
			}
			require.Equal(t, c.want[:], got)
		}
	}
}

func TestGCMCiphertext(t *testing.T) {
	long(t)
	for _, b := range gcmBackends {
		p := program(t, b.file)
		l := gcmLayout{npow: b.npow}
		for _, n := range []int{0, 17, 100} {
			_, err := GCMCiphertext(p, "gcmSeal"+b.suffix, l, 10, n, 5, false, EveryTag)
			require.NoError(t, err, "%s n=%d", b.suffix, n)
			_, err = GCMCiphertext(p, "gcmOpen"+b.suffix, l, 10, n, 5, true, EveryTag)
			require.NoError(t, err, "%s n=%d", b.suffix, n)
		}
	}
}

func TestGCMGatherText(t *testing.T) {
	long(t)
	p := program(t, "aesgcm/asm_aesni_amd64.s")
	for _, shape := range [][]int{{}, {17}, {5, 12, 100}} {
		_, err := GCMGatherText(p, "gcmSealGatherAESNI", gcmLayout{npow: 16}, 10, shape, 5, EveryTag)
		require.NoError(t, err, "%v", shape)
	}
}

func TestGCMStreamText(t *testing.T) {
	long(t)
	for _, b := range gcmBackends {
		p := program(t, b.file)
		l := gcmLayout{npow: b.npow}
		for _, c := range [][2]int{{0, 0}, {17, 0}, {5, 3}, {13, 3}, {40, 15}, {100, 1}} {
			require.NoError(t, GCMStreamText(p, "gcmStreamEncrypt"+b.suffix, l, 10, c[0], c[1], true), "%s n=%d nopen=%d", b.suffix, c[0], c[1])
		}
		require.NoError(t, GCMStreamStart(p, "gcmStreamStart"+b.suffix, l, 10, 17), b.suffix)
		for _, c := range [][3]int{{0, 0, 0}, {0, 13, 32}, {5, 13, 37}, {15, 0, 15}} {
			require.NoError(t, GCMStreamFinish(p, "gcmStreamFinish"+b.suffix, l, c[0], c[1], c[2]), "%s %v", b.suffix, c)
		}
	}
}

// TestGCMOpenShortTags proves gcmOpenAESNI with tags of 12 and 15 bytes,
// then copies with one defect each, which the proof must refuse: the
// computed tag not masked to tagLen bytes (the given tag's zero padding
// compared with the computed tag's last bytes: a right tag rejected), and
// the mask one byte short (the computed tag's byte 11 zeroed, so that a
// 12-byte tag is accepted exactly when its last byte is zero).
func TestGCMOpenShortTags(t *testing.T) {
	long(t)
	g := loadGenerated(t, "aesgcm/asm_aesni_amd64.s")
	l := gcmLayout{npow: 16}
	for _, tagLen := range []int{12, 15} {
		_, err := GCMOpenTag(g.p, "gcmOpenAESNI", l, 17, 13, tagLen)
		require.NoError(t, err, "tagLen %d", tagLen)
	}
	bad := g.withDefect("gcmOpenAESNI", "\tPAND      X1, X7\n\tJMP       tagloaded_2\n", "\tJMP       tagloaded_2\n")
	_, err := GCMOpenTag(bad, "gcmOpenAESNI", l, 17, 13, 12)
	require.ErrorContains(t, err, "compares 16 bytes, not the tag's 12")
	bad = g.withDefect("gcmOpenAESNI", "\tMOVOU     16(AX), X1\n\tPAND      X1, X7\n", "\tMOVOU     17(AX), X1\n\tPAND      X1, X7\n")
	_, err = GCMOpenTag(bad, "gcmOpenAESNI", l, 17, 13, 12)
	require.ErrorContains(t, err, "bit 88 (SP 800-38D's order) of the hash differs")
}
