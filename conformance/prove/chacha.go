package prove

import (
	"fmt"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/chacha20poly1305"
)

// word is a symbolic 32-bit word as the specification's spec.Word.
type word struct {
	ctx *sym.Ctx
	w   *sym.Word
}

func (a word) Add(b word) word         { return word{a.ctx, a.ctx.Add(a.w, b.w)} }
func (a word) AddUint32(k uint32) word { return word{a.ctx, a.ctx.Add(a.w, sym.Const(32, uint64(k)))} }
func (a word) Xor(b word) word         { return word{a.ctx, sym.Xor(a.w, b.w)} }
func (a word) RotateLeft(k int) word   { return word{a.ctx, a.w.RotateLeft(k)} }
func vars(ctx *sym.Ctx, name string, n int) []*sym.Word {
	b := make([]*sym.Word, n)
	for i := range b {
		b[i] = ctx.Var(fmt.Sprintf("%s[%d]", name, i), 8)
	}
	return b
}

// leWords reads bytes as little-endian 32-bit words, sixteen to a block.
func leWords(ctx *sym.Ctx, b []*sym.Word) [][16]word {
	out := make([][16]word, len(b)/64)
	for j := range out {
		for i := range out[j] {
			out[j][i] = word{ctx, sym.Concat(b[64*j+4*i : 64*j+4*i+4]...)}
		}
	}
	return out
}

// XORBlocks proves a ChaCha20 keystream function with the signature
// func(st *[16]uint32, dst, src *byte, n int) — dst[:n] = src[:n] XOR n/64
// keystream blocks of the state st from its counter st[12] on, st[12]
// advanced by n/64 — equal to spec.XORBlocksWords for n = 64·blocks, for
// every state and text, with dst and src apart and with dst == src.
func XORBlocks(p *x86sim.Program, fn string, blocks int) error {
	for _, alias := range []bool{false, true} {
		ctx := sym.NewCtx()
		n := 64 * blocks
		st := &x86sim.SymMem{Name: "st", Bytes: vars(ctx, "st", 64)}
		src := &x86sim.SymMem{Name: "src", Bytes: vars(ctx, "src", n)}
		dst := &x86sim.SymMem{Name: "dst", Bytes: vars(ctx, "dst", n)}
		if alias {
			dst = src
		}
		stIn := append([]*sym.Word(nil), st.Bytes...)
		srcIn := append([]*sym.Word(nil), src.Bytes...)
		_, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: st}, {Mem: dst}, {Mem: src}, {Word: sym.Const(64, uint64(n))}})
		if err != nil {
			return err
		}
		state := leWords(ctx, stIn)[0]
		out, next := spec.XORBlocksWords(state, leWords(ctx, srcIn))
		what := "dst and src apart"
		if alias {
			what = "dst == src"
		}
		for j, o := range out {
			for i, w := range o {
				for k := 0; k < 4; k++ {
					at := 64*j + 4*i + k
					if want, got := w.w.Extract(8*k, 8), dst.Bytes[at]; !sym.Equal(want, got) {
						return fmt.Errorf("%s, %d blocks (%s): dst[%d] differs from the specification's: %s", fn, blocks, what, at, short(sym.Diff(got, want)))
					}
				}
			}
		}
		for i, w := range next {
			for k := 0; k < 4; k++ {
				if want, got := w.w.Extract(8*k, 8), st.Bytes[4*i+k]; !sym.Equal(want, got) {
					return fmt.Errorf("%s, %d blocks (%s): st byte %d is %v after the call, the specification's %v", fn, blocks, what, 4*i+k, got, want)
				}
			}
		}
		if !alias {
			for i := range srcIn {
				if !sym.Equal(srcIn[i], src.Bytes[i]) {
					return fmt.Errorf("%s, %d blocks: src[%d] written", fn, blocks, i)
				}
			}
		}
	}
	return nil
}

// short cuts a description to a readable length.
func short(s string) string {
	if len(s) > 1500 {
		return s[:1500] + " ..."
	}
	return s
}
