package x86sim

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

const symTestSrc = `
DATA rot8<>+0(SB)/8, $0x0605040702010003
DATA rot8<>+8(SB)/8, $0x0e0d0c0f0a09080b
GLOBL rot8<>(SB), RODATA|NOPTR, $16

// func rot(p *[16]byte, n int)
TEXT ·rot(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX

	// phase: load the block
	MOVOU (AX), X0
loop:
	MOVOU X0, X1
	PSLLL $0x0c, X0
	PSRLL $0x14, X1
	POR X1, X0
	PSHUFB rot8<>+0(SB), X0
	PSHUFD $0x39, X0, X0
	DECQ CX
	JNZ loop
	MOVOU X0, (AX)
	RET
`

// TestRunSymbolic runs a loop of rotations and a lane rotation over a
// variable block and checks the words it leaves against ones built
// directly: rotations by 12 and 8 (20 in all) and a dword rotation, n times.
func TestRunSymbolic(t *testing.T) {
	p, err := Load("rot.s", []byte(symTestSrc))
	require.NoError(t, err)
	for _, n := range []int{1, 3} {
		ctx := sym.NewCtx()
		mem := &SymMem{Name: "p"}
		for i := 0; i < 16; i++ {
			mem.Bytes = append(mem.Bytes, ctx.Var("b"+string(rune('a'+i)), 8))
		}
		lanes := sym.Concat(mem.Bytes...).Lanes(32)
		_, err := p.RunSymbolic(ctx, "rot", []SymArg{{Mem: mem}, {Word: sym.Const(64, uint64(n))}})
		require.NoError(t, err)
		for r := 0; r < n; r++ {
			for i := range lanes {
				lanes[i] = lanes[i].RotateLeft(20)
			}
			lanes = append(lanes[1:], lanes[0])
		}
		require.True(t, sym.Equal(sym.Concat(lanes...), sym.Concat(mem.Bytes...)), "n=%d: %s", n, sym.Concat(mem.Bytes...))
	}
}

// TestSymCutMem cuts the rotation loop at a phase, its label (replacing X0
// before the second turn), its exit and its RET: each visit is seen once, the
// run ends with two turns from the replaced X0, Mem loads what the run
// left at the address AX holds, and its store at RET is what the caller's
// memory ends with.
func TestSymCutMem(t *testing.T) {
	p, err := Load("rot.s", []byte(symTestSrc))
	require.NoError(t, err)
	ctx := sym.NewCtx()
	mem := &SymMem{Name: "p"}
	for i := 0; i < 16; i++ {
		mem.Bytes = append(mem.Bytes, ctx.Var("b"+string(rune('a'+i)), 8))
	}
	in := sym.Concat(mem.Bytes...)
	var loops, exits, phases []int
	var atRet *sym.Word
	fresh, turn1 := ctx.Var("fresh", 128), ctx.Var("turn1", 128)
	_, err = p.RunSymbolic(ctx, "rot", []SymArg{{Mem: mem}, {Word: sym.Const(64, 3)}},
		SymCut{Label: "loop", Mem: func(n int, gp *[16]*sym.Word, m SymMemory) {
			a, ok := gp[rAX].Uint64()
			require.True(t, ok)
			require.True(t, sym.Equal(in, m.Load(a, 16)), "the loop leaves memory alone")
			loops = append(loops, n)
		}, Vec: func(n int, vec *[32]*sym.Word, _ *[8]*sym.Word) {
			if n == 1 {
				// The second turn starts from a fresh X0: the run ends
				// with two turns of rotation of it.
				vec[0] = sym.Concat(turn1, vec[0].Extract(128, 384))
			}
		}},
		SymCut{Label: "phase: load", Visit: func(n int, gp *[16]*sym.Word) {
			phases = append(phases, n)
			c, _ := gp[rCX].Uint64()
			require.EqualValues(t, 3, c, "the phase starts before the loop")
		}},
		SymCut{Label: "loop", Exit: true, Visit: func(n int, gp *[16]*sym.Word) {
			exits = append(exits, n)
			c, _ := gp[rCX].Uint64()
			require.Zero(t, c, "the exit comes after the last turn")
		}},
		SymCut{Label: SymReturn, Mem: func(n int, gp *[16]*sym.Word, m SymMemory) {
			a, _ := gp[rAX].Uint64()
			atRet = m.Load(a, 16)
			m.Store(a, fresh)
		}})
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2}, loops)
	require.Equal(t, []int{0}, exits)
	require.Equal(t, []int{0}, phases)
	lanes := turn1.Lanes(32)
	for range 2 {
		for i := range lanes {
			lanes[i] = lanes[i].RotateLeft(20)
		}
		lanes = append(lanes[1:], lanes[0])
	}
	require.True(t, sym.Equal(sym.Concat(lanes...), atRet))
	require.True(t, sym.Equal(fresh, sym.Concat(mem.Bytes...)))
}

// TestRunSymbolicRefusesVariableControl: a loop count from a variable is
// refused, not guessed.
func TestRunSymbolicRefusesVariableControl(t *testing.T) {
	p, err := Load("rot.s", []byte(symTestSrc))
	require.NoError(t, err)
	ctx := sym.NewCtx()
	mem := &SymMem{Name: "p", Bytes: sym.Zero(128).Bytes()}
	_, err = p.RunSymbolic(ctx, "rot", []SymArg{{Mem: mem}, {Word: ctx.Var("n", 64)}})
	require.ErrorContains(t, err, "not a constant")
}

// TestSymCutStop: a run stopped at a cut before the loop's variable branch
// succeeds, with the state the cut saw.
func TestSymCutStop(t *testing.T) {
	p, err := Load("rot.s", []byte(symTestSrc))
	require.NoError(t, err)
	ctx := sym.NewCtx()
	in := ctx.Var("block", 128)
	mem := &SymMem{Name: "p", Bytes: in.Bytes()}
	var x0 *sym.Word
	res, err := p.RunSymbolic(ctx, "rot", []SymArg{{Mem: mem}, {Word: ctx.Var("n", 64)}},
		SymCut{Label: "loop", Stop: true, Vec: func(_ int, vec *[32]*sym.Word, _ *[8]*sym.Word) { x0 = vec[0].Extract(0, 128) }})
	require.NoError(t, err)
	require.Nil(t, res)
	require.True(t, sym.Equal(in, x0))
}

// TestSymCutsAtOnePlace: two cuts at one instruction both run, in the
// order given, and the second sees what the first replaced.
func TestSymCutsAtOnePlace(t *testing.T) {
	p, err := Load("rot.s", []byte(symTestSrc))
	require.NoError(t, err)
	ctx := sym.NewCtx()
	mem := &SymMem{Name: "p", Bytes: ctx.Var("block", 128).Bytes()}
	fresh := ctx.Var("fresh", 64)
	var seen []string
	_, err = p.RunSymbolic(ctx, "rot", []SymArg{{Mem: mem}, {Word: sym.Const(64, 2)}},
		SymCut{Label: "loop", Visit: func(n int, gp *[16]*sym.Word) {
			seen = append(seen, fmt.Sprintf("first %d", n))
			gp[rBX] = fresh
		}},
		SymCut{Label: "loop", Visit: func(n int, gp *[16]*sym.Word) {
			seen = append(seen, fmt.Sprintf("second %d %v", n, sym.Equal(gp[rBX], fresh)))
		}})
	require.NoError(t, err)
	require.Equal(t, []string{"first 0", "second 0 true", "first 1", "second 1 true"}, seen)
}

// TestCheckSymbolicCatchesWrongSemantics: CheckSymbolic passes on the
// semantics as they are and fails when one is wrong (PSHUFD reading its
// immediate's fields in the wrong order).
func TestCheckSymbolicCatchesWrongSemantics(t *testing.T) {
	p, err := Load("rot.s", []byte(symTestSrc))
	require.NoError(t, err)
	n, err := p.CheckSymbolic(8, 1, "rot")
	require.NoError(t, err)
	require.Equal(t, 10, n)

	good := symOps["PSHUFD"]
	defer func() { symOps["PSHUFD"] = good }()
	symOps["PSHUFD"] = func(m *symMachine, in *inst) {
		imm, s2, _, d := vops(in)
		x := m.read(s2, in.w).Lanes(32)
		r := make([]*sym.Word, len(x))
		for i := range r {
			r[i] = x[imm>>(2*(3-i))&3]
		}
		m.vwrite(in, d, sym.Concat(r...), 4)
	}
	_, err = p.CheckSymbolic(8, 1, "rot")
	require.ErrorContains(t, err, "PSHUFD")
}

const symCarrySrc = `
// func carry(p *[4]uint64)
TEXT ·carry(SB), NOSPLIT, $0-8
	MOVQ    p+0(FP), BX
	MOVQ    (BX), AX
	MULQ    8(BX)
	ADDQ    16(BX), AX
	ADCQ    $0x00, DX
	SUBQ    24(BX), AX
	SBBQ    $0x00, DX
	MOVQ    DX, CX
	SHRQ    $0x02, CX
	CMOVQNE AX, DX
	CMPQ    AX, DX
	CMOVQHI CX, AX
	MOVQ    $0x05, SI
	IMULQ   AX, SI
	TESTQ   SI, DX
	CMOVQEQ SI, CX
	CMPQ    BX, $0x10
	CMOVQLT BX, CX
	CMOVQGE BX, DX
	MOVQ    AX, (BX)
	MOVQ    CX, 8(BX)
	MOVQ    DX, 16(BX)
	RET
`

// TestCheckSymbolicCarries checks the carry-chain, product and
// conditional-move semantics against the model.
func TestCheckSymbolicCarries(t *testing.T) {
	p, err := Load("carry.s", []byte(symCarrySrc))
	require.NoError(t, err)
	n, err := p.CheckSymbolic(64, 3, "carry")
	require.NoError(t, err)
	require.Equal(t, 21, n)
}

const symMaskSrc = `
// func masks(p *[16]uint64)
TEXT ·masks(SB), NOSPLIT, $0-8
	MOVQ      p+0(FP), BX
	VPCMPUQ   $0x06, Z1, Z2, K1
	VPCMPUQ   $0x00, Z1, Z2, K2
	VPCMPQ    $0x01, Z3, Z2, K3, K4
	VPCMPUD   $0x05, (BX), Z2, K5
	VPCMPUQ   $0x02, Z2, Z2, K6
	VPADDQ    Z1, Z2, K1, Z2
	VPADDQ.Z  Z1, Z3, K2, Z4
	VPANDQ    Z1, Z2, K3, Z5
	VMOVDQU64 Z2, K1, (BX)
	RET
`

// TestCheckSymbolicMasks checks the compares into opmasks and the writes
// under a mask, constant or not, against the model.
func TestCheckSymbolicMasks(t *testing.T) {
	p, err := Load("masks.s", []byte(symMaskSrc))
	require.NoError(t, err)
	n, err := p.CheckSymbolic(64, 5, "masks")
	require.NoError(t, err)
	require.Equal(t, 9, n)
}

// TestSymSelectAndCompare: SymSelect picks by its bit, SymCompare called
// twice gives one atom, and both fold what constants decide.
func TestSymSelectAndCompare(t *testing.T) {
	ctx := sym.NewCtx()
	a, b := ctx.Var("a", 64), ctx.Var("b", 64)
	c := SymCompare(ctx, 6, false, a, b)
	require.True(t, sym.Equal(c, SymCompare(ctx, 6, false, a, b)))
	require.Equal(t, 1, c.Width())
	s := SymSelect(ctx, c, ctx.Add(a, b), a)
	for _, v := range [][2]uint64{{5, 3}, {3, 5}, {7, 7}, {1 << 63, 1}} {
		got := sym.Eval(s, func(n string) *big.Int { return new(big.Int).SetUint64(v[map[string]int{"a": 0, "b": 1}[n]]) })
		want := v[0]
		if v[0] > v[1] {
			want = v[0] + v[1]
		}
		require.Equal(t, want, got.Uint64(), "a=%d b=%d", v[0], v[1])
	}
	require.True(t, sym.Equal(SymCompare(ctx, 5, false, a, a), sym.Const(1, 1)))
	require.True(t, sym.Equal(SymCompare(ctx, 1, true, sym.Const(64, 1<<63), sym.Const(64, 1)), sym.Const(1, 1)))
	require.True(t, sym.Equal(SymSelect(ctx, sym.Zero(1), a, b), b))
}
