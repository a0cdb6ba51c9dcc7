package simchecks

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// The functions below take (p *[64]byte, n int) or return an int; p is the
// region under test.
const src = `
#include "textflag.h"

// A secret byte stored 16 bytes below SP, loaded back and branched on.
TEXT ·belowSPBranch(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ BX, -16(SP)
	MOVQ -16(SP), CX
	MOVQ $0, -16(SP)
	TESTQ CX, CX
	JEQ done
done:
	RET

// The same round trip with the branch on the public length instead.
TEXT ·belowSPClean(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ BX, -16(SP)
	MOVQ -16(SP), CX
	MOVQ $0, -16(SP)
	MOVQ n+8(FP), DX
	TESTQ DX, DX
	JEQ done
done:
	RET

// A secret left below SP at return.
TEXT ·belowSPLeft(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ BX, -16(SP)
	RET

// Through a general-register copy of SP: stored, reloaded, branched on.
TEXT ·spCopyBranch(SB), NOSPLIT, $16-16
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ SP, R8
	MOVQ BX, 8(R8)
	MOVQ 8(R8), CX
	MOVQ $0, 8(R8)
	CMPQ CX, $7
	JB done
done:
	RET

// Through a copy of SP, left in the frame at return (the wipe misses it).
TEXT ·spCopyLeft(SB), NOSPLIT, $16-16
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ SP, R8
	MOVQ BX, 8(R8)
	RET

// Through an argument slot: a secret parked in the public slot n.
TEXT ·argSlot(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ BX, n+8(FP)
	MOVQ n+8(FP), CX
	RET

// A result slot may receive a value computed from secrets.
TEXT ·resultSlot(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ (AX), BX
	MOVQ BX, ret+16(FP)
	RET

// A load whose index is a secret byte.
TEXT ·secretIndex(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVBQZX (AX), BX
	ANDQ $0x0f, BX
	MOVBQZX 16(AX)(BX*1), CX
	RET

// The same load with the public length as the index.
TEXT ·publicIndex(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), BX
	ANDQ $0x0f, BX
	MOVBQZX 16(AX)(BX*1), CX
	RET

// Reads the 8 bytes at p+n: past the end when n > 56.
TEXT ·readAt(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), BX
	MOVQ (AX)(BX*1), CX
	RET

// Loads key bytes into X0 and wipes X0 only when n != 0.
TEXT ·keyLeftOnOnePath(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVOU (AX), X0
	MOVQ n+8(FP), BX
	TESTQ BX, BX
	JEQ keep
	PXOR X0, X0
	RET
keep:
	RET
`

// srcBT and srcMasked need BMI2 and AVX-512 forms; they are loaded by their
// own tests.
const srcBT = `
// BT with a memory base: the bit offset selects the byte address.
TEXT ·btSecretOffset(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVBQZX (AX), BX
	ANDQ $0x3f, BX
	BTQ BX, 8(AX)
	RET

TEXT ·btPublicOffset(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), BX
	ANDQ $0x3f, BX
	BTQ BX, 8(AX)
	RET

`

const srcMasked = `
// Loads the first n bytes of p under a BZHI mask.
TEXT ·maskedTail(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), BX
	MOVQ $-1, CX
	BZHIQ BX, CX, CX
	KMOVQ CX, K1
	VMOVDQU8.Z (AX), K1, Z0
	VPXORQ Z0, Z0, Z0
	KXORQ K1, K1, K1
	RET

`

var prog = load(src)

func load(s string) *x86sim.Program {
	p, err := x86sim.Load("simchecks.s", []byte(s))
	if err != nil {
		panic(err)
	}
	return p
}

type args struct {
	p *[64]byte
	n int
}

type argsRet struct {
	p   *[64]byte
	n   int
	ret int
}

// run calls fn of prog with p (of the given kind, in a 64-byte region) and n.
func run(fn string, kind x86sim.Kind, n int) error { return runIn(prog, fn, kind, n, 64) }

// runIn calls fn of prog with a region of size bytes at p.
func runIn(prog *x86sim.Program, fn string, kind x86sim.Kind, n int, size uintptr) error {
	buf := new([64]byte)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	a := &args{p: buf, n: n}
	return prog.Run(fn, x86sim.Frame{Ptr: unsafe.Pointer(a), Size: unsafe.Sizeof(*a), Results: unsafe.Sizeof(*a)},
		x86sim.Region{Name: "p", Ptr: unsafe.Pointer(buf), Len: size, Kind: kind})
}

func requireFault(t *testing.T, err error, want string) {
	t.Helper()
	require.Error(t, err)
	var f *x86sim.Fault
	require.ErrorAs(t, err, &f)
	require.Contains(t, f.Msg, want)
	t.Log(err)
}

func TestStackBelowSP(t *testing.T) {
	requireFault(t, run("belowSPBranch", x86sim.Secret, 1), "conditional branch on a secret flag")
	require.NoError(t, run("belowSPClean", x86sim.Secret, 1))
	requireFault(t, run("belowSPLeft", x86sim.Secret, 1), "secret bytes left on its stack at -16(SP)")
	// Public data may stay there.
	require.NoError(t, run("belowSPLeft", x86sim.Public, 1))
}

func TestStackThroughSPCopy(t *testing.T) {
	requireFault(t, run("spCopyBranch", x86sim.Secret, 1), "conditional branch on a secret flag")
	requireFault(t, run("spCopyLeft", x86sim.Secret, 1), "secret bytes left on its stack at 8(SP)")
	require.NoError(t, run("spCopyLeft", x86sim.Public, 1))
}

func TestArgumentSlot(t *testing.T) {
	requireFault(t, run("argSlot", x86sim.Secret, 1), "into public input argument slots")
	require.NoError(t, run("argSlot", x86sim.Public, 1))
	buf := new([64]byte)
	a := &argsRet{p: buf}
	require.NoError(t, prog.Run("resultSlot", x86sim.Frame{Ptr: unsafe.Pointer(a), Size: unsafe.Sizeof(*a), Results: unsafe.Offsetof(a.ret)},
		x86sim.Region{Name: "p", Ptr: unsafe.Pointer(buf), Len: 64, Kind: x86sim.Secret}))
}

func TestSecretIndexedLoad(t *testing.T) {
	requireFault(t, run("secretIndex", x86sim.Secret, 3), "address uses secret index register BX")
	require.NoError(t, run("secretIndex", x86sim.Public, 3))
	require.NoError(t, run("publicIndex", x86sim.Secret, 3))
}

func TestBTSecretOffset(t *testing.T) {
	p, err := x86sim.Load("simchecks_bt.s", []byte(srcBT))
	require.NoError(t, err)
	requireFault(t, runIn(p, "btSecretOffset", x86sim.Secret, 3, 64), "secret")
	require.NoError(t, runIn(p, "btPublicOffset", x86sim.Secret, 3, 64))
}

func TestReadPastInput(t *testing.T) {
	require.NoError(t, run("readAt", x86sim.Public, 56))
	requireFault(t, run("readAt", x86sim.Public, 57), "offset 57..64 of p (64 bytes long): 1 bytes past its end")
}

func TestMaskedTailOneLaneTooMany(t *testing.T) {
	p, err := x86sim.Load("simchecks_masked.s", []byte(srcMasked))
	require.NoError(t, err)
	// p is a 40-byte input: a mask of 40 lanes reads all of it, one of 41
	// reads one byte past it.
	require.NoError(t, runIn(p, "maskedTail", x86sim.Secret, 40, 40))
	require.NoError(t, runIn(p, "maskedTail", x86sim.Secret, 0, 40))
	requireFault(t, runIn(p, "maskedTail", x86sim.Secret, 41, 40), "offset 40 of p (40 bytes long), past its end")
}

func TestKeyLeftInVectorRegister(t *testing.T) {
	require.NoError(t, run("keyLeftOnOnePath", x86sim.Secret, 1))
	requireFault(t, run("keyLeftOnOnePath", x86sim.Secret, 0), "returns with secrets in Z0")
	require.NoError(t, run("keyLeftOnOnePath", x86sim.Public, 0))
}

// A secret re-declared Public: the model trusts the annotation for taint,
// but a test that names its secret buffer has the call refused before it
// runs.
func TestSecretDeclaredPublic(t *testing.T) {
	key := new([64]byte)
	for i := range key {
		key[i] = byte(i*7 + 1)
	}
	call := func(kind x86sim.Kind) error {
		a := &args{p: key, n: 3}
		return prog.Run("publicIndex", x86sim.Frame{Ptr: unsafe.Pointer(a), Size: unsafe.Sizeof(*a), Results: unsafe.Sizeof(*a)},
			x86sim.Region{Name: "p", Ptr: unsafe.Pointer(key), Len: 64, Kind: kind})
	}
	// Before the test names it, a Public key passes.
	require.NoError(t, call(x86sim.Public))
	forget := x86sim.NameSecretBytes("the key schedule", key[16:48])
	requireFault(t, call(x86sim.Public), "argument p is declared Public, but bytes 16..47 of its 64 hold bytes 0..31 of the key schedule, which the test named secret")
	// Declared Secret (or Output) it passes.
	require.NoError(t, call(x86sim.Secret))
	require.NoError(t, call(x86sim.Output))
	forget()
	require.NoError(t, call(x86sim.Public))
}
