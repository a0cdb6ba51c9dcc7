//go:build valgrind && amd64

package simchecks

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

// Under valgrind (ci/cmd/ctgrind builds these with -tags valgrind), the model
// takes its secrets from memcheck: what the caller's Go code derived from
// memory the test marked undefined. These are the checks of that bridge
// (asmgen/x86sim's valgrind.go), each beside its passing twin.
const vgSrc = `
#include "textflag.h"

// ret = p[k]: a load at the index k (rsa's gather5ADX mutant, reduced).
TEXT ·lookupK(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ k+8(FP), BX
	MOVBQZX (AX)(BX*1), CX
	MOVQ CX, ret+16(FP)
	RET

// p[8..16) = p[0..8), ret = p[0..8): results computed from the region.
TEXT ·copyWord(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ BX, 8(AX)
	MOVQ BX, ret+16(FP)
	RET

// Branches on p[0].
TEXT ·branchOnP(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVBQZX (AX), BX
	TESTQ BX, BX
	JEQ done
done:
	RET
`

var vgProg = load(vgSrc)

// callK runs fn with p (a 64-byte region of the given kind) and k, k's word
// declared Secret when secretK.
func callK(fn string, p *[64]byte, kind x86sim.Kind, k int, secretK bool) (int, error) {
	a := &argsRet{p: p, n: k}
	f := x86sim.Frame{Ptr: unsafe.Pointer(a), Size: unsafe.Sizeof(*a), Results: 16}
	if secretK {
		f.SecretWords = 1 << 1
	}
	err := vgProg.Run(fn, f, x86sim.Region{Name: "p", Ptr: unsafe.Pointer(p), Len: 64, Kind: kind})
	return a.ret, err
}

func requireValgrindModel(t *testing.T) {
	t.Helper()
	if !x86sim.UnderValgrind() {
		t.Skip("not under valgrind: run go run ./ci/cmd/ctgrind ./asmgen/internal/simchecks")
	}
}

// secretIndex returns 5 computed from a byte memcheck holds undefined.
func secretIndex() int {
	key := []byte{5}
	ctgrind.UndefinedBytes(key)
	return int(key[0])
}

// TestCTGrindScalarDeclaredPublic: a scalar the caller computed from a
// secret, in a word not declared Secret, fails the call before it runs,
// naming the argument; declared Secret, the model faults where the function
// uses it as an index; a public index passes.
func TestCTGrindScalarDeclaredPublic(t *testing.T) {
	requireValgrindModel(t)
	p := new([64]byte)
	_, err := callK("lookupK", p, x86sim.Public, secretIndex(), false)
	requireFault(t, err, "argument k (8(FP)) is not declared Secret, but the value its caller passes depends on a secret")
	_, err = callK("lookupK", p, x86sim.Public, secretIndex(), true)
	requireFault(t, err, "address uses secret index register")
	p[5] = 42
	v, err := callK("lookupK", p, x86sim.Public, 5, false)
	require.NoError(t, err)
	require.Equal(t, 42, v)
}

// TestCTGrindResultsRemarked: what the model computes from bytes memcheck
// holds undefined comes back undefined (memory and result slot), the rest
// defined; a Secret region the test did not mark starts public.
func TestCTGrindResultsRemarked(t *testing.T) {
	requireValgrindModel(t)
	p := new([64]byte)
	p[0] = 9
	ctgrind.Undefined(unsafe.Pointer(&p[0]), 8)
	v, err := callK("copyWord", p, x86sim.Secret, 0, false)
	require.NoError(t, err)
	require.False(t, ctgrind.IsDefined(unsafe.Pointer(&p[8]), 8), "p[8..16) computed from undefined bytes")
	require.False(t, ctgrind.IsDefined(unsafe.Pointer(&v), 8), "the result too")
	require.True(t, ctgrind.IsDefined(unsafe.Pointer(&p[16]), 48), "the bytes the call did not touch")
	ctgrind.DefinedBytes(p[:])
	ctgrind.Defined(unsafe.Pointer(&v), 8)
	require.Equal(t, 9, v)

	q := new([64]byte)
	q[0] = 9
	_, err = callK("copyWord", q, x86sim.Secret, 0, false)
	require.NoError(t, err)
	require.True(t, ctgrind.IsDefined(unsafe.Pointer(q), 64), "a Secret region memcheck holds defined stays defined")
}

// TestCTGrindPublicRegionFromSecret: bytes of a Public region memcheck holds
// undefined (a ciphertext not yet declassified) start secret on the model,
// which faults when the function branches on them.
func TestCTGrindPublicRegionFromSecret(t *testing.T) {
	requireValgrindModel(t)
	p := new([64]byte)
	_, err := callK("branchOnP", p, x86sim.Public, 0, false)
	require.NoError(t, err)
	ctgrind.Undefined(unsafe.Pointer(&p[0]), 1)
	_, err = callK("branchOnP", p, x86sim.Public, 0, false)
	requireFault(t, err, "conditional branch on a secret flag")
	require.False(t, ctgrind.IsDefined(unsafe.Pointer(&p[0]), 1), "restored after the fault")
	ctgrind.DefinedBytes(p[:])
}
