package prove

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
	spec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// block is a symbolic 128-bit block as the specification's spec.Block: byte
// i of the block is bits 8i..8i+7, as a vector register holds memory.
type block struct {
	ctx *sym.Ctx
	w   *sym.Word
}

func (a block) Xor(b block) block { return block{a.ctx, sym.Xor(a.w, b.w)} }

func (a block) Round(rk block) block {
	return block{a.ctx, sym.Xor(x86sim.AESRound(a.ctx, a.w), rk.w)}
}

func (a block) FinalRound(rk block) block {
	return block{a.ctx, sym.Xor(x86sim.AESFinalRound(a.ctx, a.w), rk.w)}
}

func (a block) Inc32(k uint32) block {
	b := a.w.Bytes()
	c := sym.Concat(b[15], b[14], b[13], b[12]) // the big-endian counter as a word
	c = a.ctx.Add(c, sym.Const(32, uint64(k)))
	cb := c.Bytes()
	return block{a.ctx, sym.Concat(a.w.Extract(0, 96), cb[3], cb[2], cb[1], cb[0])}
}

// blocks reads bytes as blocks, the last padded with zero bytes.
func blocks(ctx *sym.Ctx, b []*sym.Word) []block {
	var out []block
	for i := 0; i < len(b); i += 16 {
		var bs []*sym.Word
		for j := i; j < i+16; j++ {
			if j < len(b) {
				bs = append(bs, b[j])
			} else {
				bs = append(bs, sym.Zero(8))
			}
		}
		out = append(out, block{ctx, sym.Concat(bs...)})
	}
	return out
}

// gcmTableSize is the size of the key table every backend's functions take
// (*[752]byte): the round keys first.
const gcmTableSize = 752

// GCMCiphertext proves the text half of an AES-GCM seal or open function
// with the signature func(t *[752]byte, rounds int, out, in *byte, n int,
// aad *byte, aadLen int, j0 *[16]byte, tag ...): for every key table (its
// round keys, as the code reads them), J0, text and additional data, out[:n]
// is in[:n] XORed with GCTR from inc32(J0) (spec.GCTRBlocks), with out
// apart from in and out == in. The tag is not compared: the GHASH half is
// not covered yet. open is true for the open functions, whose tag argument
// is a pointer and a length.
//
// J0 is public, and the widest backends branch on its last byte (whether
// the low byte of the counter can carry within a pass): when the run with
// J0 a variable is refused for a branch, the proof is made once for each of
// the 256 values of that byte, the other fifteen variables. It reports
// whether it had to.
func GCMCiphertext(p *x86sim.Program, fn string, rounds, n, aadLen int, open bool) (perLastByte bool, err error) {
	return perJ0(func(alias bool, lastByte int) error {
		return gcmText(p, fn, rounds, []int{n}, aadLen, open, false, alias, lastByte)
	})
}

// perJ0 runs a proof with out apart from the text and out == the text,
// each with J0's last byte a variable or, when that run is refused for a
// branch on a variable, once for each of its 256 values.
func perJ0(run func(alias bool, lastByte int) error) (perLastByte bool, err error) {
	for _, alias := range []bool{false, true} {
		err := run(alias, -1)
		var se *x86sim.SymError
		if errors.As(err, &se) && strings.Contains(se.Msg, "not a constant") {
			perLastByte = true
			for c := 0; c < 256; c++ {
				if err = run(alias, c); err != nil {
					return true, fmt.Errorf("J0[15] = %#x: %w", c, err)
				}
			}
		}
		if err != nil {
			return perLastByte, err
		}
	}
	return perLastByte, nil
}

// GCMGatherText proves the text half of an AES-GCM gather seal, func(t
// *[752]byte, rounds int, out *byte, pieces *[]byte, count int, aad *byte,
// aadLen int, j0 *[16]byte, textLen int, tag *[16]byte), as GCMCiphertext
// does a seal's, for the concatenation of pieces of the lengths shape: with
// the pieces apart from out, and each piece its own part of out.
func GCMGatherText(p *x86sim.Program, fn string, rounds int, shape []int, aadLen int) (perLastByte bool, err error) {
	return perJ0(func(alias bool, lastByte int) error {
		return gcmText(p, fn, rounds, shape, aadLen, false, true, alias, lastByte)
	})
}

// gcmText runs one proof of a seal, open or gather seal (gather) of texts of
// the lengths shape (one for seal and open), out apart from the text or the
// same memory (alias), J0's last byte a variable (lastByte < 0) or that
// constant.
func gcmText(p *x86sim.Program, fn string, rounds int, shape []int, aadLen int, open, gather, alias bool, lastByte int) error {
	n := 0
	for _, l := range shape {
		n += l
	}
	ctx := sym.NewCtx()
	t := &x86sim.SymMem{Name: "t", Bytes: vars(ctx, "t", gcmTableSize)}
	in := &x86sim.SymMem{Name: "in", Bytes: vars(ctx, "in", n)}
	out := &x86sim.SymMem{Name: "out", Bytes: vars(ctx, "out", n)}
	if alias {
		out = in
	}
	aad := &x86sim.SymMem{Name: "aad", Bytes: vars(ctx, "aad", aadLen)}
	j0 := &x86sim.SymMem{Name: "j0", Bytes: vars(ctx, "j0", 16)}
	if lastByte >= 0 {
		j0.Bytes[15] = sym.Const(8, uint64(lastByte))
	}
	tag := &x86sim.SymMem{Name: "tag", Bytes: vars(ctx, "tag", 16)}
	inBytes := append([]*sym.Word(nil), in.Bytes...)
	j0Bytes := append([]*sym.Word(nil), j0.Bytes...)
	var args []x86sim.SymArg
	if gather {
		// The pieces: slice headers of consecutive parts of in (which is
		// out when aliased).
		hdr := &x86sim.SymMem{Name: "pieces"}
		off := 0
		for i, l := range shape {
			hdr.Bytes = append(hdr.Bytes, sym.Zero(64).Bytes()...)
			hdr.Bytes = append(hdr.Bytes, sym.Const(64, uint64(l)).Bytes()...)
			hdr.Bytes = append(hdr.Bytes, sym.Const(64, uint64(l)).Bytes()...)
			hdr.Pointers = append(hdr.Pointers, x86sim.SymPointer{At: 24 * i, Mem: in, Off: off})
			off += l
		}
		args = []x86sim.SymArg{{Mem: t}, {Word: sym.Const(64, uint64(rounds))}, {Mem: out}, {Mem: hdr},
			{Word: sym.Const(64, uint64(len(shape)))}, {Mem: aad}, {Word: sym.Const(64, uint64(aadLen))}, {Mem: j0},
			{Word: sym.Const(64, uint64(n))}, {Mem: tag}}
	} else {
		args = []x86sim.SymArg{{Mem: t}, {Word: sym.Const(64, uint64(rounds))}, {Mem: out}, {Mem: in},
			{Word: sym.Const(64, uint64(n))}, {Mem: aad}, {Word: sym.Const(64, uint64(aadLen))}, {Mem: j0}, {Mem: tag}}
		if open {
			args = append(args, x86sim.SymArg{Word: sym.Const(64, 16)})
		}
	}
	if _, err := p.RunSymbolic(ctx, fn, args); err != nil {
		return err
	}
	rks := blocks(ctx, t.Bytes[:16*(rounds+1)])
	icb := blocks(ctx, j0Bytes)[0].Inc32(1)
	var want []*sym.Word
	for _, b := range spec.GCTRBlocks(rks, icb, blocks(ctx, inBytes)) {
		want = append(want, b.w.Bytes()...)
	}
	if err := sameBytes("out", out.Bytes, want[:n]); err != nil {
		return fmt.Errorf("%s, %d rounds, n=%d %v, aadLen=%d (%s): %w", fn, rounds, n, shape, aadLen, arrangement(alias, "out", "in"), err)
	}
	return nil
}

// The stream state's layout (aesgcm's asmStream.st): the next counter block
// byte-reflected, and the keystream of the block left open.
const (
	stCtr = 16
	stKS  = 48
	stLen = 80
)

// GCMStreamText proves the text half of an AES-GCM stream step, func(t
// *[752]byte, rounds int, st *[80]byte, out, in *byte, n, nopen int): for
// every round-key table, stream state and text, out[:n] is in[:n] XORed
// with the stream's keystream: the rest of the open block's keystream in st
// (from byte nopen, when nopen > 0), then the cipher of the counter blocks
// from st's next one on (spec.GCTRBlocks); out apart from in and out == in.
// The state's hash is not compared.
func GCMStreamText(p *x86sim.Program, fn string, rounds, n, nopen int) error {
	for _, alias := range []bool{false, true} {
		ctx := sym.NewCtx()
		t := &x86sim.SymMem{Name: "t", Bytes: vars(ctx, "t", gcmTableSize)}
		st := &x86sim.SymMem{Name: "st", Bytes: vars(ctx, "st", stLen)}
		in := &x86sim.SymMem{Name: "in", Bytes: vars(ctx, "in", n)}
		out := &x86sim.SymMem{Name: "out", Bytes: vars(ctx, "out", n)}
		if alias {
			out = in
		}
		inBytes := append([]*sym.Word(nil), in.Bytes...)
		stBytes := append([]*sym.Word(nil), st.Bytes...)
		_, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: t}, {Word: sym.Const(64, uint64(rounds))}, {Mem: st},
			{Mem: out}, {Mem: in}, {Word: sym.Const(64, uint64(n))}, {Word: sym.Const(64, uint64(nopen))}})
		if err != nil {
			return err
		}
		// The keystream: the open block's rest, then counter blocks.
		var ks []*sym.Word
		if nopen > 0 {
			ks = append(ks, stBytes[stKS+nopen:stKS+16]...)
		}
		ctr := reverseBytes(stBytes[stCtr : stCtr+16])
		rks := blocks(ctx, t.Bytes[:16*(rounds+1)])
		fresh := (max(n-len(ks), 0) + 15) / 16
		zeros := make([]block, fresh)
		for i := range zeros {
			zeros[i] = block{ctx, sym.Zero(128)}
		}
		for _, b := range spec.GCTRBlocks(rks, blocks(ctx, ctr)[0], zeros) {
			ks = append(ks, b.w.Bytes()...)
		}
		want := make([]*sym.Word, n)
		for i := range want {
			want[i] = sym.Xor(inBytes[i], ks[i])
		}
		if err := sameBytes("out", out.Bytes, want); err != nil {
			return fmt.Errorf("%s, %d rounds, n=%d, nopen=%d (%s): %w", fn, rounds, n, nopen, arrangement(alias, "out", "in"), err)
		}
	}
	return nil
}

// reverseBytes is b in reverse order (a byte-reflected block and the block).
func reverseBytes(b []*sym.Word) []*sym.Word {
	r := make([]*sym.Word, len(b))
	for i, x := range b {
		r[len(b)-1-i] = x
	}
	return r
}

// stMask is where the stream state holds E(J0).
const stMask = 32

// GCMStreamStart proves the counter half of an AES-GCM stream start,
// func(t *[752]byte, rounds int, st *[80]byte, aad *byte, aadLen int, j0
// *[16]byte): for every round-key table, J0, state and additional data, the
// state's next counter block is inc32(J0) (byte-reflected) and its mask is
// E(J0) (spec.Cipher). The hash of the additional data is not compared.
func GCMStreamStart(p *x86sim.Program, fn string, rounds, aadLen int) error {
	ctx := sym.NewCtx()
	t := &x86sim.SymMem{Name: "t", Bytes: vars(ctx, "t", gcmTableSize)}
	st := &x86sim.SymMem{Name: "st", Bytes: vars(ctx, "st", stLen)}
	aad := &x86sim.SymMem{Name: "aad", Bytes: vars(ctx, "aad", aadLen)}
	j0 := &x86sim.SymMem{Name: "j0", Bytes: vars(ctx, "j0", 16)}
	j0Bytes := append([]*sym.Word(nil), j0.Bytes...)
	_, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: t}, {Word: sym.Const(64, uint64(rounds))}, {Mem: st},
		{Mem: aad}, {Word: sym.Const(64, uint64(aadLen))}, {Mem: j0}})
	if err != nil {
		return err
	}
	rks := blocks(ctx, t.Bytes[:16*(rounds+1)])
	j := blocks(ctx, j0Bytes)[0]
	ctr := reverseBytes(j.Inc32(1).w.Bytes())
	if err := sameBytes("counter", st.Bytes[stCtr:], ctr); err != nil {
		return fmt.Errorf("%s, %d rounds, aadLen=%d: %w", fn, rounds, aadLen, err)
	}
	if err := sameBytes("E(J0)", st.Bytes[stMask:], spec.Cipher(rks, j).w.Bytes()); err != nil {
		return fmt.Errorf("%s, %d rounds, aadLen=%d: %w", fn, rounds, aadLen, err)
	}
	return nil
}
