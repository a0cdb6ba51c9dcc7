package prove

import (
	"errors"
	"fmt"
	"slices"
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
func GCMCiphertext(p *x86sim.Program, fn string, l gcmLayout, rounds, n, aadLen int, open bool, tag TagAt) (perLastByte bool, err error) {
	return perJ0(func(alias bool, lastByte int) error {
		return gcmText(p, fn, gcmCase{l, rounds, []int{n}, aadLen, open, false, tag(lastByte), 16}, alias, lastByte)
	})
}

// GCMOpenTag proves an AES-128 open function as GCMCiphertext does, with a
// tag of tagLen bytes (12 to 16): its result is 1 exactly when the tagLen
// bytes given equal the first tagLen bytes of E(J0) XOR GHASH_H(additional
// data, in), else 0.
func GCMOpenTag(p *x86sim.Program, fn string, l gcmLayout, n, aadLen, tagLen int) (perLastByte bool, err error) {
	return perJ0(func(alias bool, lastByte int) error {
		return gcmText(p, fn, gcmCase{l, 10, []int{n}, aadLen, true, false, true, tagLen}, alias, lastByte)
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
func GCMGatherText(p *x86sim.Program, fn string, l gcmLayout, rounds int, shape []int, aadLen int, tag TagAt) (perLastByte bool, err error) {
	return perJ0(func(alias bool, lastByte int) error {
		return gcmText(p, fn, gcmCase{l, rounds, shape, aadLen, false, true, tag(lastByte), 16}, alias, lastByte)
	})
}

// A TagAt says which runs of a proof over J0's last byte compare the tag
// too: those it returns true for (lastByte -1 when J0 is a variable).
type TagAt func(lastByte int) bool

// EveryTag compares the tag in every run.
func EveryTag(int) bool { return true }

// NoTag compares no tag.
func NoTag(int) bool { return false }

// TagAtBytes compares the tag where J0 is a variable and where its last
// byte is one of bs.
func TagAtBytes(bs ...int) TagAt {
	return func(lastByte int) bool { return lastByte < 0 || slices.Contains(bs, lastByte) }
}

// A gcmCase is the public parameters of one seal, open or gather seal
// proof: the table's layout, the round count, the text's lengths (shape:
// one for seal and open, the pieces' for gather), the additional data's,
// whether the tag is compared, and an open's tag length.
type gcmCase struct {
	l            gcmLayout
	rounds       int
	shape        []int
	aadLen       int
	open, gather bool
	tag          bool
	tagLen       int
}

// gcmText runs one proof of a seal, open or gather seal (gather) of texts of
// the lengths shape (one for seal and open), out apart from the text or the
// same memory (alias), J0's last byte a variable (lastByte < 0) or that
// constant.
func gcmText(p *x86sim.Program, fn string, c gcmCase, alias bool, lastByte int) error {
	l, rounds, shape, aadLen, open, gather := c.l, c.rounds, c.shape, c.aadLen, c.open, c.gather
	n := 0
	for _, l := range shape {
		n += l
	}
	ctx, t, x, powers := keyedTable(l)
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
	aadBytes := append([]*sym.Word(nil), aad.Bytes...)
	tagBytes := append([]*sym.Word(nil), tag.Bytes...)
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
			args = append(args, x86sim.SymArg{Word: sym.Const(64, uint64(c.tagLen))})
		}
	}
	res, err := p.RunSymbolic(ctx, fn, args)
	if err != nil {
		return err
	}
	rks := blocks(ctx, t.Bytes[:16*(rounds+1)])
	j := blocks(ctx, j0Bytes)[0]
	var want []*sym.Word
	for _, b := range spec.GCTRBlocks(rks, j.Inc32(1), blocks(ctx, inBytes)) {
		want = append(want, b.w.Bytes()...)
	}
	where := func(err error) error {
		if open && c.tagLen != 16 {
			return fmt.Errorf("%s, %d rounds, n=%d, aadLen=%d, tagLen=%d (%s): %w", fn, rounds, n, aadLen, c.tagLen, arrangement(alias, "out", "in"), err)
		}
		return fmt.Errorf("%s, %d rounds, n=%d %v, aadLen=%d (%s): %w", fn, rounds, n, shape, aadLen, arrangement(alias, "out", "in"), err)
	}
	if err := sameBytes("out", out.Bytes, want[:n]); err != nil {
		return where(err)
	}
	if !c.tag {
		return nil
	}
	// The tag: E(J0) XOR GHASH(aad, ciphertext).
	ct := want[:n]
	if open {
		ct = inBytes
	}
	hashed := append(hashWords(ctx, aadBytes), hashWords(ctx, ct)...)
	g, err := newGHASHChain(x, elem{}, append(hashed, lengthsBlock(aadLen, n)), powers)
	if err != nil {
		return where(err)
	}
	x.chain = g
	mask := spec.Cipher(rks, j).w
	if open {
		err = g.openResult(x, res[0], sym.Concat(tagBytes...), mask, c.tagLen)
	} else {
		err = g.final(x, sym.Concat(tag.Bytes...), mask)
	}
	if err != nil {
		return where(fmt.Errorf("tag: %w", err))
	}
	return nil
}

// The stream state's layout (aesgcm's asmStream.st): the GHASH state
// byte-reflected, the next counter block byte-reflected, E(J0), and the
// keystream and ciphertext (zero padded) of the block left open.
const (
	stY    = 0
	stCtr  = 16
	stMask = 32
	stKS   = 48
	stOpen = 64
	stLen  = 80
)

// streamState is a stream state of variables, except that the open block's
// bytes past the nopen written are zero, as every stream function leaves
// them (the code ORs the next bytes in).
func streamState(ctx *sym.Ctx, nopen int) *x86sim.SymMem {
	st := &x86sim.SymMem{Name: "st", Bytes: vars(ctx, "st", stLen)}
	for i := stOpen + nopen; i < stLen; i++ {
		st.Bytes[i] = sym.Zero(8)
	}
	return st
}

// GCMStreamText proves an AES-GCM stream step, func(t *[752]byte, rounds
// int, st *[80]byte, out, in *byte, n, nopen int): for every key H (the
// table holding its powers), round-key table, stream state and text,
//   - out[:n] is in[:n] XORed with the stream's keystream: the rest of the
//     open block's keystream in st (from byte nopen, when nopen > 0), then
//     the cipher of the counter blocks from st's next one on
//     (spec.GCTRBlocks);
//   - the state's hash is GHASH_H continued from the state's over the whole
//     blocks of the open block's nopen bytes then out[:n];
//   - the open block holds the bytes of those left over, zero padded;
//
// with out apart from in and out == in. The hash and the open block are
// compared when hash is true.
func GCMStreamText(p *x86sim.Program, fn string, l gcmLayout, rounds, n, nopen int, hash bool) error {
	for _, alias := range []bool{false, true} {
		ctx, t, x, powers := keyedTable(l)
		st := streamState(ctx, nopen)
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
		where := func(err error) error {
			return fmt.Errorf("%s, %d rounds, n=%d, nopen=%d (%s): %w", fn, rounds, n, nopen, arrangement(alias, "out", "in"), err)
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
			return where(err)
		}
		if !hash {
			continue
		}
		// The hash over the whole blocks, and the bytes left open.
		text := append(append([]*sym.Word(nil), stBytes[stOpen:stOpen+nopen]...), want...)
		whole := len(text) / 16 * 16
		left := append(append([]*sym.Word(nil), text[whole:]...), sym.Zero(8*(16-len(text)+whole)).Bytes()...)
		if err := sameBytes("open block", st.Bytes[stOpen:stLen], left); err != nil {
			return where(err)
		}
		if whole == 0 {
			if err := sameBytes("hash", st.Bytes[stY:stY+16], stBytes[stY:stY+16]); err != nil {
				return where(err)
			}
			continue
		}
		y0, err := x.linearElem(sym.Concat(reverseBytes(stBytes[stY : stY+16])...))
		if err != nil {
			return where(err)
		}
		g, err := newGHASHChain(x, y0, hashWords(ctx, text[:whole]), powers)
		if err != nil {
			return where(err)
		}
		x.chain = g
		if err := g.final(x, sym.Concat(reverseBytes(st.Bytes[stY:stY+16])...), nil); err != nil {
			return where(fmt.Errorf("hash: %w", err))
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

// GCMStreamStart proves an AES-GCM stream start, func(t *[752]byte, rounds
// int, st *[80]byte, aad *byte, aadLen int, j0 *[16]byte): for every key H
// (the table holding its powers), round-key table, J0, state and additional
// data, the state's next counter block is inc32(J0) (byte-reflected), its
// mask E(J0) (spec.Cipher), its hash GHASH_H of the additional data
// (byte-reflected) and its open block zero.
func GCMStreamStart(p *x86sim.Program, fn string, l gcmLayout, rounds, aadLen int) error {
	ctx, t, x, powers := keyedTable(l)
	st := &x86sim.SymMem{Name: "st", Bytes: vars(ctx, "st", stLen)}
	aad := &x86sim.SymMem{Name: "aad", Bytes: vars(ctx, "aad", aadLen)}
	j0 := &x86sim.SymMem{Name: "j0", Bytes: vars(ctx, "j0", 16)}
	j0Bytes := append([]*sym.Word(nil), j0.Bytes...)
	aadBytes := append([]*sym.Word(nil), aad.Bytes...)
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
	if err := sameBytes("E(J0)", st.Bytes[stMask:stMask+16], spec.Cipher(rks, j).w.Bytes()); err != nil {
		return fmt.Errorf("%s, %d rounds, aadLen=%d: %w", fn, rounds, aadLen, err)
	}
	if err := sameBytes("open block", st.Bytes[stOpen:stLen], sym.Zero(128).Bytes()); err != nil {
		return fmt.Errorf("%s, %d rounds, aadLen=%d: %w", fn, rounds, aadLen, err)
	}
	hashed := hashWords(ctx, aadBytes)
	if len(hashed) == 0 {
		err = sameBytes("hash", st.Bytes[stY:stY+16], sym.Zero(128).Bytes())
	} else {
		var g *ghashChain
		g, err = newGHASHChain(x, elem{}, hashed, powers)
		if err == nil {
			x.chain = g
			err = g.final(x, sym.Concat(reverseBytes(st.Bytes[stY:stY+16])...), nil)
		}
	}
	if err != nil {
		return fmt.Errorf("%s, %d rounds, aadLen=%d: hash: %w", fn, rounds, aadLen, err)
	}
	return nil
}

// GCMStreamFinish proves an AES-GCM stream's tag, func(t *[752]byte, st
// *[80]byte, nopen, aadLen, textLen int, tag *[16]byte): for every key H
// (the table holding its powers) and stream state, tag is E(J0) (the
// state's mask) XOR GHASH_H continued from the state's hash over the open
// block (when nopen > 0) and the lengths block.
func GCMStreamFinish(p *x86sim.Program, fn string, l gcmLayout, nopen, aadLen, textLen int) error {
	ctx, t, x, powers := keyedTable(l)
	st := streamState(ctx, nopen)
	tag := &x86sim.SymMem{Name: "tag", Bytes: vars(ctx, "tag", 16)}
	stBytes := append([]*sym.Word(nil), st.Bytes...)
	_, err := p.RunSymbolic(ctx, fn, []x86sim.SymArg{{Mem: t}, {Mem: st}, {Word: sym.Const(64, uint64(nopen))},
		{Word: sym.Const(64, uint64(aadLen))}, {Word: sym.Const(64, uint64(textLen))}, {Mem: tag}})
	if err != nil {
		return err
	}
	y0, err := x.linearElem(sym.Concat(reverseBytes(stBytes[stY : stY+16])...))
	if err != nil {
		return err
	}
	var hashed []*sym.Word
	if nopen > 0 {
		hashed = append(hashed, sym.Concat(stBytes[stOpen:stLen]...))
	}
	g, err := newGHASHChain(x, y0, append(hashed, lengthsBlock(aadLen, textLen)), powers)
	if err != nil {
		return err
	}
	x.chain = g
	if err := g.final(x, sym.Concat(tag.Bytes...), sym.Concat(stBytes[stMask:stMask+16]...)); err != nil {
		return fmt.Errorf("%s, nopen=%d, aadLen=%d, textLen=%d: tag: %w", fn, nopen, aadLen, textLen, err)
	}
	return nil
}
