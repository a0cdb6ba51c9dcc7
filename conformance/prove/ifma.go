package prove

import (
	"fmt"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// ifmaLanes and ifmaLimbs are the ifma kernels' sizes for n 52-bit
// digits: lanes rounded up to whole zmm registers, and the 64-bit limbs
// that hold 52·n bits.
func ifmaLanes(n int) int { return (n + 7) / 8 * 8 }
func ifmaLimbs(n int) int { return (52*n + 63) / 64 }

// ToDigitsIFMA proves toDigits<n>IFMA, func(z, x *uint64): for every x of
// ifmaLimbs(n) limbs, digit i of z is bits [52i, 52i+52) of x for i < n
// and the padding lanes are zero (bits of x from 52n up are not read into
// any digit).
func ToDigitsIFMA(p *x86sim.Program, fn string, n int) error {
	ctx := sym.NewCtx()
	L, N := ifmaLimbs(n), ifmaLanes(n)
	x := &x86sim.SymMem{Name: "x", Bytes: vars(ctx, "x", 8*L), ReadOnly: true}
	z := &x86sim.SymMem{Name: "z", Bytes: vars(ctx, "z", 8*N)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: z}, {Mem: x}}); err != nil {
		return err
	}
	xs := sym.Concat(x.Bytes...)
	var want []*sym.Word
	for i := range N {
		d := sym.Zero(64)
		if i < n {
			d = xs.Extract(52*i, 52).ZeroExtend(64)
		}
		want = append(want, d.Bytes()...)
	}
	if err := sameBytes("z", z.Bytes, want); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// FromDigitsIFMA proves fromDigits<n>IFMA, func(z, x *uint64): for every
// x of n digits below 2^52 (the padding lanes anything), z's ifmaLimbs(n)
// limbs are the digits' bits in order, zero above bit 52n.
func FromDigitsIFMA(p *x86sim.Program, fn string, n int) error {
	ctx := sym.NewCtx()
	L, N := ifmaLimbs(n), ifmaLanes(n)
	var digits, xb []*sym.Word
	for i := range N {
		d := ctx.Var(fmt.Sprintf("d%d", i), 52)
		if i < n {
			digits = append(digits, d)
		}
		xb = append(xb, d.ZeroExtend(64).Bytes()...)
	}
	x := &x86sim.SymMem{Name: "x", Bytes: xb, ReadOnly: true}
	z := &x86sim.SymMem{Name: "z", Bytes: vars(ctx, "z", 8*L)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: z}, {Mem: x}}); err != nil {
		return err
	}
	if err := sameBytes("z", z.Bytes, sym.Concat(digits...).ZeroExtend(64*L).Bytes()); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// GatherDualIFMA proves gatherDual<n>IFMA, func(za, ta *uint64, ka uint64,
// zb, tb *uint64, kb uint64), for one pair of indexes: za = entry ka of ta
// and zb = entry kb of tb (entries of ifmaLanes(n) words), every table.
func GatherDualIFMA(p *x86sim.Program, fn string, n, ka, kb int) error {
	ctx := sym.NewCtx()
	N := ifmaLanes(n)
	table := func(name string) (*x86sim.SymMem, []*sym.Word) {
		t := &x86sim.SymMem{Name: name, ReadOnly: true, Bytes: vars(ctx, name, 8*32*N)}
		return t, t.Bytes
	}
	ta, tab := table("ta")
	tb, tbb := table("tb")
	za := &x86sim.SymMem{Name: "za", Bytes: vars(ctx, "za", 8*N)}
	zb := &x86sim.SymMem{Name: "zb", Bytes: vars(ctx, "zb", 8*N)}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: za}, {Mem: ta}, {Word: sym.Const(64, uint64(ka))},
		{Mem: zb}, {Mem: tb}, {Word: sym.Const(64, uint64(kb))}}); err != nil {
		return err
	}
	what := fmt.Sprintf("%s, ka=%d, kb=%d", fn, ka, kb)
	if err := sameBytes("za", za.Bytes, tab[8*N*ka:8*N*(ka+1)]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := sameBytes("zb", zb.Bytes, tbb[8*N*kb:8*N*(kb+1)]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
