package asmgen

import (
	"testing"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"
	"github.com/stretchr/testify/require"
)

// zeroedAfterBusy builds a function that holds 20 zmm registers, adds them
// up, and only then zeroes 20 others and uses those: at most 21 are live at
// once, but avo's liveness takes each zeroing XOR to read its register, so
// the zeroed ones seem live from the entry and interfere with the first 20.
func zeroedAfterBusy(t *testing.T) *Generator {
	t.Helper()
	g := New(avx512Backend)
	g.Package("alg")
	fn := g.Func("busyVAESAVX512", "func(key *[1280]byte, out *[64]byte)", Doc("busyVAESAVX512 is a test function."), Secret("key"), Output("out"))
	p, o := g.GP64(), g.GP64()
	g.Load(g.Param("key"), p)
	g.Load(g.Param("out"), o)
	v := g.Vec()
	sum := func(rs []reg.VecVirtual) reg.VecVirtual {
		acc := g.ZMM()
		v.Xor(rs[0], rs[1], acc)
		for _, r := range rs[2:] {
			v.Xor(r, acc, acc)
		}
		return acc
	}
	first := make([]reg.VecVirtual, 20)
	for i := range first {
		first[i] = g.ZMM()
		v.Mov(operand.Mem{Base: p, Disp: 64 * i}, first[i])
	}
	a := sum(first)
	second := make([]reg.VecVirtual, 20)
	for i := range second {
		second[i] = g.ZMM()
		v.Zero(second[i])
		v.Xor(operand.Mem{Base: p, Disp: 64 * i}, second[i], second[i])
	}
	b := sum(second)
	v.Xor(a, b, b)
	v.Mov(b, operand.Mem{Base: o})
	fn.Ret()
	return g
}

func TestAllocationAfterZeroing(t *testing.T) {
	t.Run("avo alone fails", func(t *testing.T) {
		saved := compile
		defer func() { compile = saved }()
		compile = pass.Compile
		_, _, err := zeroedAfterBusy(t).Build()
		require.ErrorContains(t, err, "failed to allocate registers")
	})
	t.Run("allocated", func(t *testing.T) {
		asm, _, err := zeroedAfterBusy(t).Build()
		require.NoError(t, err)
		require.Contains(t, string(asm), "TEXT ·busyVAESAVX512(SB)")
	})
}
