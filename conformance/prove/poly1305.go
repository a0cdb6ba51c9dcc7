package prove

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/chacha20poly1305"
)

// p1305 is the Poly1305 prime 2^130 - 5.
var p1305 = new(big.Int).Sub(pow2(130), big.NewInt(5))

// h2Bits is the width of the accumulator's top limb every Poly1305 kernel
// takes and leaves: h below 2^131, partially reduced.
const h2Bits = 3

// clampedR is r as 16 bytes of variables with the clamp's bits zero: the
// variables are the runs of bits the clamp keeps, so the integer reading
// sees r as their weighted sum.
func clampedR(ctx *sym.Ctx, name string) []*sym.Word {
	var bits []*sym.Word
	run := 0
	flush := func() {
		if run > 0 {
			bits = append(bits, ctx.Var(fmt.Sprintf("%s.%d", name, len(bits)), run))
			run = 0
		}
	}
	for i := 0; i < 128; i++ {
		if spec.ClampR[i/8]>>(i%8)&1 == 1 {
			run++
			continue
		}
		flush()
		bits = append(bits, sym.Zero(1))
	}
	flush()
	return sym.Concat(bits...).Bytes()
}

// polyNumbers reads the blocks of spec.PolyBlocks (msg with 0x01 bytes) as
// little-endian numbers.
func (z *zreader) polyNumbers(msg []*sym.Word) []zmod {
	var ns []zmod
	for _, b := range spec.PolyBlocks(msg, sym.Const(8, 1)) {
		ns = append(ns, zmod{z.leNumber(b), p1305})
	}
	return ns
}

// PolyBlocks proves a Poly1305 block function with the signature
// func(p *[7]uint64, msg *byte, n int) — h = p[0..2], r = p[3..4], s =
// p[5..6]; for each 16-byte block m of msg[:n], h = (h + m + 2^128)·r mod p,
// partially reduced — equal to spec.PolyAccumulate for every accumulator
// whose top limb is below 2^h2Bits, every clamped r and every message: the
// value the function leaves is congruent to the specification's modulo
// 2^130 - 5, its top limb is again below 2^h2Bits, and r and s are kept.
//
// The loop at label (one block a turn, h in three general registers) is
// cut at each turn: the registers that held h's limbs when the loop was
// first reached are replaced by fresh variables once it is shown that the
// words they hold are congruent to one more step of the specification's
// loop from the previous turn's variables, the top limb in range. So each
// turn is proven for every h in range, and the turns chain to the
// specification's loop over all of msg.
func PolyBlocks(p *x86sim.Program, fn, label string, n int) error {
	ctx := sym.NewCtx()
	h := [3]*sym.Word{ctx.Var("h0", 64), ctx.Var("h1", 64), sym.Concat(ctx.Var("h2", h2Bits), sym.Zero(64-h2Bits))}
	r := clampedR(ctx, "r")
	state := append(append(sym.Concat(h[:]...).Bytes(), r...), ctx.Var("s", 128).Bytes()...)
	st := &x86sim.SymMem{Name: "p", Bytes: append([]*sym.Word(nil), state...)}
	msg := &x86sim.SymMem{Name: "msg", Bytes: vars(ctx, "m", n), ReadOnly: true}
	what := fmt.Sprintf("%s, n=%d", fn, n)
	numbers := func(z *zreader) []zmod { return z.polyNumbers(msg.Bytes) }
	chain := &limbChain{ctx: ctx, h: h, r: r, numbers: numbers}
	if _, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: st}, {Mem: msg}, {Word: sym.Const(64, uint64(n))}},
		x86sim.SymCut{Label: label, Visit: chain.visit}); err != nil {
		return err
	}
	if chain.err != nil {
		return fmt.Errorf("%s: %w", what, chain.err)
	}
	if chain.turns != n/16+1 {
		return fmt.Errorf("%s: the loop was reached %d times, not %d", what, chain.turns, n/16+1)
	}
	if err := sameBytes("r and s", st.Bytes[24:], state[24:]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := sameBytes("h", st.Bytes[:24], sym.Concat(chain.h[:]...).Bytes()); err != nil {
		return fmt.Errorf("%s: h is not what the loop left: %w", what, err)
	}
	return nil
}

// A limbChain cuts a scalar Poly1305 loop: h's three 64-bit limbs in
// general registers, one block a turn.
type limbChain struct {
	ctx     *sym.Ctx
	h       [3]*sym.Word // the limbs at the last turn: variables
	r       []*sym.Word
	numbers func(z *zreader) []zmod
	regs    [3]int
	turns   int
	err     error
}

func (c *limbChain) visit(t int, gp *[16]*sym.Word) {
	c.turns++
	if c.err != nil {
		return
	}
	if t == 0 {
		for i, w := range c.h {
			c.regs[i] = slices.IndexFunc(gp[:], func(x *sym.Word) bool { return sym.Equal(x, w) })
			if c.regs[i] < 0 {
				c.err = fmt.Errorf("no register holds h's limb %d when the loop starts", i)
				return
			}
		}
		return
	}
	var got [3]*sym.Word
	for i, reg := range c.regs {
		got[i] = gp[reg]
	}
	z := newZReader(append(append(got[:], c.h[:]...), c.r...)...)
	v := z.word(sym.Concat(got[:]...))
	if top := z.word(got[2]).hi; top.Cmp(ones(h2Bits)) > 0 {
		c.err = fmt.Errorf("turn %d: the top limb may reach %v, above 2^%d", t, top, h2Bits)
		return
	}
	prev := zmod{z.word(sym.Concat(c.h[:]...)).p, p1305}
	want := spec.PolyAccumulate(prev, c.numbers(z)[t-1:t], zmod{z.leNumber(c.r), p1305})
	if err := z.congruent(v.p, want.p, p1305); err != nil {
		c.err = fmt.Errorf("turn %d: h is not one more step of the specification's loop modulo 2^130-5: %w", t, err)
		return
	}
	c.h = [3]*sym.Word{c.ctx.Var(fmt.Sprintf("h0.%d", t), 64), c.ctx.Var(fmt.Sprintf("h1.%d", t), 64),
		sym.Concat(c.ctx.Var(fmt.Sprintf("h2.%d", t), h2Bits), sym.Zero(64-h2Bits))}
	for i, reg := range c.regs {
		gp[reg] = c.h[i]
	}
}
