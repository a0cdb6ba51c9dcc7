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
		what := fmt.Sprintf("%s, %d blocks (%s)", fn, blocks, arrangement(alias, "dst", "src"))
		var want, wantSt []*sym.Word
		for _, o := range out {
			for _, w := range o {
				want = append(want, w.w.Bytes()...)
			}
		}
		for _, w := range next {
			wantSt = append(wantSt, w.w.Bytes()...)
		}
		if err := sameBytes("dst", dst.Bytes, want); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := sameBytes("st", st.Bytes, wantSt); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if !alias {
			if err := sameBytes("src", src.Bytes, srcIn); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
	}
	return nil
}

// ChaChaText proves a ChaCha20-Poly1305 seal or open function with the
// signature func(out, key *[32]byte, nonce *[12]byte, text, n int, ad *byte,
// adLen int, ...): for every key, nonce, text, additional data (and tag, for
// open), out[:n] is the text XORed with the ChaCha20 keystream from block 1
// (spec.XORBlocksWords on the state of key, counter 1 and nonce), with out
// apart from the text and out == the text. An open function's text is src
// *byte, and it takes tag *[16]byte; a seal function's is srcs [][]byte,
// given as one slice here. With tag, the tag is proven too (polyChain): a
// seal's out[n:n+16] is spec.Poly1305's tag of spec.MACData(ad, the
// ciphertext) under the first 32 bytes of the keystream block 0, an open's
// result 1 exactly when its tag argument equals that tag (of ad and the
// text), else 0.
func ChaChaText(p *x86sim.Program, fn string, n, adLen int, open, tag bool) error {
	for _, alias := range []bool{false, true} {
		ctx := sym.NewCtx()
		key := &x86sim.SymMem{Name: "key", Bytes: vars(ctx, "key", 32)}
		nonce := &x86sim.SymMem{Name: "nonce", Bytes: vars(ctx, "nonce", 12)}
		src := &x86sim.SymMem{Name: "src", Bytes: vars(ctx, "src", n)}
		outLen := n
		if !open {
			outLen += 16 // seal writes the tag after the text
		}
		out := &x86sim.SymMem{Name: "out", Bytes: vars(ctx, "out", outLen)}
		if alias {
			if open {
				out = src
			} else {
				src = &x86sim.SymMem{Name: "src", Bytes: out.Bytes[:n]}
			}
		}
		ad := &x86sim.SymMem{Name: "ad", Bytes: vars(ctx, "ad", adLen)}
		adIn := append([]*sym.Word(nil), ad.Bytes...)
		srcIn := append([]*sym.Word(nil), src.Bytes...)
		keyIn := append([]*sym.Word(nil), key.Bytes...)
		nonceIn := append([]*sym.Word(nil), nonce.Bytes...)
		args := []x86sim.SymArg{{Mem: out}, {Mem: key}, {Mem: nonce}}
		tagIn := vars(ctx, "tag", 16)
		if open {
			tagMem := &x86sim.SymMem{Name: "tag", Bytes: append([]*sym.Word(nil), tagIn...)}
			args = append(args, x86sim.SymArg{Mem: src}, x86sim.SymArg{Word: sym.Const(64, uint64(n))},
				x86sim.SymArg{Mem: ad}, x86sim.SymArg{Word: sym.Const(64, uint64(adLen))}, x86sim.SymArg{Mem: tagMem})
		} else {
			// srcs: one slice header (pointer, length, capacity) in a
			// one-element array; the text in place in out when aliased.
			hdr := &x86sim.SymMem{Name: "srcs", Bytes: append(sym.Zero(64).Bytes(), append(sym.Const(64, uint64(n)).Bytes(), sym.Const(64, uint64(n)).Bytes()...)...)}
			if alias {
				hdr.Pointers = []x86sim.SymPointer{{At: 0, Mem: out}}
			} else {
				hdr.Pointers = []x86sim.SymPointer{{At: 0, Mem: src}}
			}
			args = append(args, x86sim.SymArg{Mem: hdr}, x86sim.SymArg{Word: sym.Const(64, 1)}, x86sim.SymArg{Word: sym.Const(64, 1)},
				x86sim.SymArg{Word: sym.Const(64, uint64(n))}, x86sim.SymArg{Mem: ad}, x86sim.SymArg{Word: sym.Const(64, uint64(adLen))})
		}
		// The Poly1305 key, block 0 of the keystream, and the MAC input
		// are the specification's, computed before the run.
		var state [16]word
		for i, c := range spec.Sigma {
			state[i] = word{ctx, sym.Const(32, uint64(c))}
		}
		for i := 0; i < 8; i++ {
			state[4+i] = word{ctx, sym.Concat(keyIn[4*i : 4*i+4]...)}
		}
		state[12] = word{ctx, sym.Const(32, 1)}
		for i := 0; i < 3; i++ {
			state[13+i] = word{ctx, sym.Concat(nonceIn[4*i : 4*i+4]...)}
		}
		var chain *polyChain
		var cuts []x86sim.SymCut
		var polyKey []*sym.Word
		if tag {
			state[12] = word{ctx, sym.Const(32, 0)}
			for _, w := range spec.BlockWords(state) {
				polyKey = append(polyKey, w.w.Bytes()...)
			}
			state[12] = word{ctx, sym.Const(32, 1)}
			r := make([]*sym.Word, 16)
			for i := range r {
				r[i] = ctx.And(polyKey[i], sym.Const(8, uint64(spec.ClampR[i])))
			}
			text := srcIn
			if !open {
				text = sealed(ctx, state, srcIn)
			}
			chain = newPolyChain(ctx, spec.MACData(adIn, text, func(b byte) *sym.Word { return sym.Const(8, uint64(b)) }), r,
				[3]*sym.Word{sym.Zero(64), sym.Zero(64), sym.Zero(64)})
			chain.tagged = true
			cuts = chain.cuts(p, fn)
		}
		res, err := p.RunSymbolic(ctx, fn, args, cuts...)
		if err != nil {
			return err
		}
		want := sealed(ctx, state, srcIn)
		what := fmt.Sprintf("%s, n=%d, adLen=%d (%s)", fn, n, adLen, arrangement(alias, "out", "the text"))
		if err := sameBytes("out", out.Bytes, want); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if !tag {
			continue
		}
		var t []*sym.Word
		if open {
			if t, err = tagCompared(ctx, sym.Concat(res[:8]...), tagIn); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		} else {
			t = out.Bytes[n : n+16]
		}
		if err := chain.tag(t, polyKey[16:32]); err != nil {
			return fmt.Errorf("%s: the tag: %w", what, err)
		}
	}
	return nil
}

// sealed is text XORed with the keystream of state (spec.XORBlocksWords,
// the text zero-padded to whole blocks), as many bytes as text.
func sealed(ctx *sym.Ctx, state [16]word, text []*sym.Word) []*sym.Word {
	padded := append(append([]*sym.Word(nil), text...), make([]*sym.Word, (64-len(text)%64)%64)...)
	for i := len(text); i < len(padded); i++ {
		padded[i] = sym.Zero(8)
	}
	blocks, _ := spec.XORBlocksWords(state, leWords(ctx, padded))
	var out []*sym.Word
	for _, o := range blocks {
		for _, w := range o {
			out = append(out, w.w.Bytes()...)
		}
	}
	return out[:len(text)]
}
