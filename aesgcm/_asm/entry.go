package main

import (
	"math/bits"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/cpufeat"
)

// The entry points of every backend, named gcm<Entry><Suffix> (Suffix:
// asmgen's suffix of the backend, AESNI, AESNIAVX, VAESAVX2). The key table
// t is the Go side's asmKey.t (see gcm.go for its layout); st is an
// asmStream's state.

// declareGCM declares every function of g's backend at width w.
func declareGCM(g *asmgen.Generator, w width) {
	g.Package("aesgcm")
	e := &gcm{Generator: g, Vec: g.Vec(), width: w}
	e.declareConsts()
	sfx := g.Suffix()
	e.initFunc("gcmInit" + sfx)
	e.nonceFunc("gcmNonce" + sfx)
	e.sealFunc("gcmSeal" + sfx)
	e.sealGatherFunc("gcmSealGather" + sfx)
	e.openFunc("gcmOpen" + sfx)
	e.streamStartFunc("gcmStreamStart" + sfx)
	e.streamEncryptFunc("gcmStreamEncrypt" + sfx)
	e.streamFinishFunc("gcmStreamFinish" + sfx)
}

// tableSig is the key table's Go type in every signature.
const tableSig = "*[752]byte"

// sealFunc: one-shot seal of n contiguous bytes, state in stack scratch.
func (e *gcm) sealFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", rounds int, out, in *byte, n int, aad *byte, aadLen int, j0 *[16]byte, tag *[16]byte)",
		asmgen.Doc(name+" encrypts the n bytes at in to out (the same memory or disjoint) and sets tag to E(J0) ^ GHASH(aad, out)."),
		asmgen.Secret("t", "in", "aad"), asmgen.Output("out", "tag"),
		asmgen.Public("rounds", "n", "aadLen", "j0"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"), asmgen.Len("aad", "aadLen"), asmgen.Scratch(stSize+e.ctrScratch()))
	st := e.fn.Scratch()
	k := e.loadKey("t", "rounds")
	e.bySmall("n", func(e *gcm, s span) {
		s = e.shortThenStart(oneShot{k: k, src: inPlace, textLen: "n", tagOut: e.tagStore()}, st, s)
		nopen := e.GP64()
		e.XORQ(nopen, nopen)
		e.encPiece(piece{k: k, st: st, cb: st.Offset(stSize), out: e.gp("out"), in: e.gp("in"), n: e.gp("n"), nopen: nopen, len: s, first: true, scratchState: true})
		e.finish(k, st, nopen, e.gp("aadLen"), e.gp("n"), e.tagStore())
		e.fn.Ret()
	})
}

// sealGatherFunc: one-shot seal of a gathered text, reading each piece in
// place (finishing a block split across pieces in registers).
func (e *gcm) sealGatherFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", rounds int, out *byte, pieces *[]byte, count int, aad *byte, aadLen int, j0 *[16]byte, textLen int, tag *[16]byte)",
		asmgen.Doc(name+" encrypts the concatenation of the count slices at pieces (textLen bytes; each piece exactly its own part of out or disjoint from out) to out and sets tag to E(J0) ^ GHASH(aad, out)."),
		asmgen.Secret("t", "aad"), asmgen.SecretSlices("pieces"), asmgen.Output("out", "tag"),
		asmgen.Public("rounds", "count", "aadLen", "j0", "textLen"),
		asmgen.Len("out", "textLen"), asmgen.Len("pieces", "count"), asmgen.Len("aad", "aadLen"), asmgen.Scratch(stSize+e.ctrScratch()))
	st := e.fn.Scratch()
	k := e.loadKey("t", "rounds")
	// The short path joins the pieces in out (for two pieces on xmm only
	// what follows the first one's whole blocks) and seals them there; the
	// rest walks the pieces. On a width with a small one, a text under a
	// batch is walked at the small width, as Seal seals it.
	e.bySmall("textLen", func(e *gcm, s span) {
		count := e.gp("count")
		e.shortThenStart(oneShot{k: k, src: gathered(count), textLen: "textLen", tagOut: e.tagStore()}, st, s)
		out, descs := e.gp("out"), e.gp("pieces")
		nopen := e.GP64()
		e.XORQ(nopen, nopen)
		zero := e.xmm()
		e.Zero(zero)
		e.Mov(zero, st.Offset(stOpen))
		each := func(ptr, n reg.GPVirtual) {
			e.encPiece(piece{k: k, st: st, cb: st.Offset(stSize), out: out, in: ptr, n: n, nopen: nopen, len: span{0, s.max}, scratchState: true})
		}
		if e.gatherMax > 0 {
			e.fn.ForEachSliceGathered(descs, count, out, e.gp("textLen"), e.gatherMax, each)
		} else {
			e.fn.ForEachSlice(descs, count, each)
		}
		e.finish(k, st, nopen, e.gp("aadLen"), e.gp("textLen"), e.tagStore())
		e.fn.Ret()
	})
}

// openFunc: one-shot open; hashes the ciphertext in the same pass.
func (e *gcm) openFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", rounds int, out, in *byte, n int, aad *byte, aadLen int, j0 *[16]byte, tag *byte, tagLen int) int",
		asmgen.Doc(name+" decrypts the n bytes at in to out and returns 1 if the tagLen (12..16) bytes at tag are the first bytes of E(J0) ^ GHASH(aad, in), else 0 (compared in constant time)."),
		asmgen.Secret("t", "out", "in", "aad"),
		asmgen.Public("rounds", "n", "aadLen", "j0", "tag", "tagLen"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"), asmgen.Len("aad", "aadLen"), asmgen.Len("tag", "tagLen"), asmgen.Scratch(stSize+e.ctrScratch()))
	st := e.fn.Scratch()
	k := e.loadKey("t", "rounds")
	e.bySmall("n", func(e *gcm, s span) { e.openBody(k, st, s) })
}

// openBody is openFunc after the key, at the emitter's width, for the text
// lengths s.
func (e *gcm) openBody(k keyRegs, st operand.Mem, s span) {
	s = e.shortThenStart(oneShot{k: k, src: inPlace, textLen: "n", tagOut: e.tagCheck(), dec: true}, st, s)
	out, in, n := e.gp("out"), e.gp("in"), e.gp("n")
	acc := e.zvreg()
	e.Mov(st.Offset(stY), lo(acc))
	ctr := e.loadCtr(st)
	rem, fin := e.label("orem"), e.label("ofin")
	if e.batches(s) {
		e.CMPQ(n, imm(e.bb()))
		e.JB(ref(rem))
		e.phase("main loop")
		c := e.startCounters(k, ctr, st.Offset(stSize), true)
		lk := e.loopKey(k)
		e.bulk(lk, c, bulkText{in, out, n}, bulkHash{acc: acc, src: in, held: e.holdHash(lk, false, true)})
		e.syncCounters(c, st.Offset(stCtr))
	}
	e.Label(rem)
	e.TESTQ(n, n)
	e.JZ(ref(fin))
	e.phase("remainder")
	r := run{k: k, ctr: ctr, acc: acc, in: in, out: out, n: n, dec: true, st: st}
	if e.npow > e.blocks {
		// The remainder hashes the lengths block too, in its one
		// reduction: it needs a power more than a batch's blocks.
		r.lens = e.lengthsBlock(e.gp("aadLen"), e.gp("n"))
		e.remainder(r, e.rest(s))
		e.phase("tag")
		e.ShufB(e.c.bswap, lo(acc), lo(acc))
		e.XorU(st.Offset(stMask), lo(acc), lo(acc))
		e.tagCheck()(lo(acc))
		e.fn.Ret()
	} else {
		e.remainder(r, e.rest(s))
	}
	e.Label(fin)
	e.Mov(lo(acc), st.Offset(stY))
	e.finish(k, st, nil, e.gp("aadLen"), e.gp("n"), e.tagCheck())
	e.fn.Ret()
}

// initFunc: expand the AES key into the table's round keys, then compute
// H = E(0), the powers H^1..H^npow times x^-1 and their Karatsuba halves.
func (e *gcm) initFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", key *byte, keyLen int)",
		asmgen.Doc(name+" fills the key table t for the keyLen-byte AES key at key (16, 24 or 32 bytes): the round keys in the standard byte order, then the GHASH key powers H^1 up to the backend's highest power, each times x^-1, byte-reflected, and their Karatsuba halves."),
		asmgen.Secret("t", "key"), asmgen.Public("keyLen"), asmgen.Len("key", "keyLen"))
	// The key table is built a block at a time: at xmm width over the same
	// table where the backend may use the xmm AES and carry-less multiply
	// instructions (vaes-avx2 has only the ymm ones), since a zmm
	// instruction costs two on Zen 4.
	if e.lanes > 1 && e.Has(cpufeat.AES) && e.Has(cpufeat.PCLMULQDQ) {
		e.at(width{lanes: 1, blocks: e.blocks, npow: e.npow}).initBody()
		return
	}
	e.initBody()
}

// initBody is initFunc after the declaration, at the emitter's width.
func (e *gcm) initBody() {
	e.phase("key expansion")
	tab, key, keyLen := e.GP64(), e.GP64(), e.GP64()
	e.Load(e.Param("t"), tab)
	e.Load(e.Param("key"), key)
	e.Load(e.Param("keyLen"), keyLen)
	done := e.label("expanded")
	l128, l192 := e.label("aes128"), e.label("aes192")
	e.CMPQ(keyLen, operand.U8(16))
	e.JE(ref(l128))
	e.CMPQ(keyLen, operand.U8(24))
	e.JE(ref(l192))
	e.expandKey(tab, key, 8)
	e.JMP(ref(done))
	e.Label(l128)
	e.expandKey(tab, key, 4)
	e.JMP(ref(done))
	e.Label(l192)
	e.expandKey(tab, key, 6)
	e.Label(done)

	e.phase("key setup")
	k := keyRegs{t: tab, rounds: e.GP64(), rkm: e.GP64()}
	e.MOVQ(keyLen, k.rounds) // rounds = keyLen/4 + 6
	e.SHRQ(operand.U8(2), k.rounds)
	e.ADDQ(operand.U8(6), k.rounds)
	e.MOVQ(k.rounds, k.rkm)
	e.SHLQ(operand.U8(4), k.rkm)
	e.ADDQ(k.t, k.rkm)
	e.SUBQ(operand.U32(160), k.rkm)
	h := e.vreg()
	e.Zero(h)
	e.encrypt(k, []reg.VecVirtual{h})
	hx := lo(h)
	e.ShufB(e.c.bswap, hx, hx) // the lanes above are cleared
	// h = h * x^-1: a left shift by one with the carries of each qword and
	// the reduction when bit 127 falls out.
	t := e.xmm()
	e.ShufD(0xd3, hx, t)
	e.SraD(31, t, t)
	e.AddQ(hx, hx, hx)
	e.And(e.c.x1, t, t)
	e.Xor(t, hx, hx)
	hk := e.zvreg()
	e.ShufD(0x4e, hx, lo(hk))
	e.Xor(hx, lo(hk), lo(hk))
	e.Mov(hx, mem(k.t, e.pow(1)))
	e.Mov(lo(hk), mem(k.t, e.kar(1)))
	e.powers(k)
	e.fn.Ret()
}

// powers computes H^2 up to H^npow from H^1 in the table, each stored
// with its Karatsuba half.
func (e *gcm) powers(k keyRegs) {
	for m := 2; m <= e.npow; m++ {
		// H^m = H^a·H^b with b the largest power of two below m: the
		// products of each doubling of the powers computed are
		// independent (H^5..H^8 all from H^4, H^9..H^16 from H^8), four
		// in a row for 16 powers where cur·H would chain fifteen. Each is
		// stored with its Karatsuba half.
		// Each operand is loaded into the low lane of a register (the
		// lanes above cleared), as the products of a sum are lane-wide.
		b := 1 << (bits.Len(uint(m-1)) - 1)
		x, pw, kw := e.vreg(), e.vreg(), e.vreg()
		e.Mov(mem(k.t, e.pow(m-b)), lo(x))
		e.Mov(mem(k.t, e.pow(b)), lo(pw))
		e.Mov(mem(k.t, e.kar(b)), lo(kw))
		s := sum{e.vreg(), e.vreg(), e.vreg()}
		e.mulAcc(s, true, x, pw, kw)
		e.reduce(s)
		ck := e.xmm()
		e.ShufD(0x4e, lo(s.hi), ck)
		e.Xor(lo(s.hi), ck, ck)
		e.Mov(lo(s.hi), mem(k.t, e.pow(m)))
		e.Mov(ck, mem(k.t, e.kar(m)))
	}
}

// expandKey writes the AES key schedule (FIPS 197 section 5.2) of the
// nk-word key at key to the round keys of t, as little-endian words: round
// key r is the 16 bytes at t+16r in the standard byte order. The last nk
// words live in general registers; SubWord is one AESENCLAST with a zero
// round key on the word broadcast to every column (ShiftRows then moves
// nothing), so no table is read and nothing depends on the key but the
// values. The word registers are zeroed at the end.
func (e *gcm) expandKey(t, key reg.GPVirtual, nk int) {
	w := make([]reg.GPVirtual, nk)
	for i := range w {
		w[i] = e.GP32()
		e.MOVL(mem(key, 4*i), w[i])
		e.MOVL(w[i], mem(t, offRK+4*i))
	}
	// At the backend's full width: VAES has no xmm form without AVX-512,
	// and the lanes above the first repeat it.
	zero, x := e.vreg(), e.vreg()
	e.Zero(zero)
	subWord := func(r reg.GPVirtual) {
		e.MovQ(r.As64(), lo(x))
		e.ShufD(0, x, x)
		e.AESEncLast(zero, x)
		e.MovQ(lo(x), r.As64())
	}
	rcon := 1
	total := 4 * (nk + 7)
	for i := nk; i < total; i++ {
		tmp := e.GP32()
		e.MOVL(w[(i-1)%nk], tmp)
		switch {
		case i%nk == 0:
			e.RORL(operand.U8(8), tmp)
			subWord(tmp)
			e.XORL(operand.U32(rcon), tmp)
			rcon <<= 1
			if rcon&0x100 != 0 {
				rcon ^= 0x11b
			}
		case nk > 6 && i%nk == 4:
			subWord(tmp)
		}
		e.XORL(tmp, w[i%nk]) // w[i] = w[i-nk] ^ tmp
		e.MOVL(w[i%nk], mem(t, offRK+4*i))
		e.XORL(tmp, tmp)
	}
	for _, r := range w {
		e.XORL(r, r)
	}
	e.Zero(x)
}

// nonceFunc: J0 for a nonce that is not 12 bytes.
func (e *gcm) nonceFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", nonce *byte, n int, j0 *[16]byte)",
		asmgen.Doc(name+" sets j0 to GHASH(nonce || zero padding || 0^64 || bitlen(nonce)) for the n > 0 bytes at nonce."),
		asmgen.Secret("t"), asmgen.Public("nonce", "n"), asmgen.Output("j0"), asmgen.Len("nonce", "n"))
	t := e.gp("t")
	acc := e.vreg()
	e.Zero(acc)
	e.ghashBytes(t, acc, e.gp("nonce"), e.gp("n"))
	zero := e.GP64()
	e.XORQ(zero, zero)
	e.mul1(t, acc, e.lengthsBlock(zero, e.gp("n")))
	e.ShufB(e.c.bswap, lo(acc), lo(acc))
	e.Mov(lo(acc), mem(e.gp("j0"), 0))
	e.fn.Ret()
}

func (e *gcm) streamStartFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", rounds int, st *[80]byte, aad *byte, aadLen int, j0 *[16]byte)",
		asmgen.Doc(name+" starts a stream at st: hashes aad, sets the first counter and E(J0), clears the open block."),
		asmgen.Secret("t", "st", "aad"), asmgen.Public("rounds", "aadLen", "j0"), asmgen.Len("aad", "aadLen"))
	k := e.loadKey("t", "rounds")
	st := mem(e.gp("st"), 0)
	e.start(k, st, e.gp("aad"), e.gp("aadLen"), e.gp("j0"))
	zero := e.xmm()
	e.Zero(zero)
	e.Mov(zero, st.Offset(stOpen))
	e.Mov(zero, st.Offset(stKS))
	e.fn.Ret()
}

func (e *gcm) streamEncryptFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", rounds int, st *[80]byte, out, in *byte, n int, nopen int)",
		asmgen.Doc(name+" encrypts the next n bytes of the stream at st from in to out; nopen is the length of the stream so far mod 16."),
		asmgen.Secret("t", "st", "in"), asmgen.Output("out"), asmgen.Public("rounds", "n", "nopen"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"), asmgen.Scratch(e.ctrScratch()))
	k := e.loadKey("t", "rounds")
	st := mem(e.gp("st"), 0)
	var cb operand.Mem
	if e.ctrScratch() > 0 {
		cb = e.fn.Scratch()
	}
	e.bySmall("n", func(e *gcm, s span) {
		e.encPiece(piece{k: k, st: st, cb: cb, out: e.gp("out"), in: e.gp("in"), n: e.gp("n"), nopen: e.gp("nopen"), len: s})
		e.fn.Ret()
	})
}

func (e *gcm) streamFinishFunc(name string) {
	e.fn = e.Func(name, "func(t "+tableSig+", st *[80]byte, nopen int, aadLen int, textLen int, tag *[16]byte)",
		asmgen.Doc(name+" sets tag to the tag of the stream at st (textLen bytes, the last nopen of them in the open block)."),
		asmgen.Secret("t", "st"), asmgen.Output("tag"), asmgen.Public("nopen", "aadLen", "textLen"))
	k := keyRegs{t: e.gp("t")}
	st := mem(e.gp("st"), 0)
	e.finish(k, st, e.gp("nopen"), e.gp("aadLen"), e.gp("textLen"), e.tagStore())
	e.fn.Ret()
}

// oneShot is a one-shot seal or open as its short path takes it: the key,
// where the text is read, the parameter holding the text's length, where
// the tag goes (tagStore or tagCheck) and the direction (dec: open).
type oneShot struct {
	k       keyRegs
	src     shortSource
	textLen string
	tagOut  func(reg.VecVirtual)
	dec     bool
}

// shortThenStart emits the short path of the one-shot m for its text
// lengths s, ending in a return, then the start of the general path for
// the messages it does not take, and returns the span of the text lengths
// that go on. The short path is left out when every length of s is longer
// than it takes; one that takes any AAD leaves the general path only the
// texts longer than shortMax (without batches, the remainder has the whole
// text).
func (e *gcm) shortThenStart(m oneShot, st operand.Mem, s span) span {
	if s.min <= e.shortMax() {
		e.shortOrOn(m)
		if e.shortAnyAAD() {
			s = s.from(e.shortMax() + 1)
		}
	}
	e.start(m.k, st, e.gp("aad"), e.gp("aadLen"), e.gp("j0"))
	return s
}

// shortOrOn emits the short path of the one-shot m ending in a return, for
// the messages it takes; the others go on after it.
func (e *gcm) shortOrOn(m oneShot) {
	if e.short.layout == shortNarrower {
		e.at(*e.short.at).shortOrOn(m)
		return
	}
	long := e.label("long")
	e.shortFits(e.gp(m.textLen), e.gp("aadLen"), long)
	e.shortMessage(shortMsg{k: m.k, out: e.gp("out"), src: m.src, n: e.gp(m.textLen), aad: e.gp("aad"), aadLen: e.gp("aadLen"),
		j0: e.gp("j0"), tagOut: m.tagOut, dec: m.dec})
	e.fn.Ret()
	e.Label(long)
}

// start hashes the AAD and sets up the state at st: y, the first counter,
// E(J0).
func (e *gcm) start(k keyRegs, st operand.Mem, aad, aadLen, j0 reg.GPVirtual) {
	j, ctr := e.zvreg(), e.xmm()
	e.loadJ0(j0, lo(j))
	e.ShufB(e.c.bswap, lo(j), ctr)
	e.AddD(e.c.incs.Offset(16), ctr, ctr)
	e.Mov(ctr, st.Offset(stCtr))
	e.encrypt(k, []reg.VecVirtual{j})
	e.Mov(lo(j), st.Offset(stMask))
	acc := e.aadHash(k, aad, aadLen)
	e.Mov(lo(acc), st.Offset(stY))
}

// finish hashes the block left open (nopen bytes at st's open) and the
// lengths, and hands the tag to tagOut. A nil nopen means no block is ever
// open there (one-shot open): the open-block branch is not emitted.
func (e *gcm) finish(k keyRegs, st operand.Mem, nopen, aadLen, textLen reg.Register, tagOut func(reg.VecVirtual)) {
	e.phase("tag")
	acc := e.zvreg()
	e.Mov(st.Offset(stY), lo(acc))
	l := e.lengthsBlock(aadLen, textLen)
	if nopen != nil {
		one, done := e.label("fin1"), e.label("findone")
		e.TESTQ(nopen, nopen)
		e.JZ(ref(one))
		// (open ^ acc)·H^2 ^ lengths·H, one reduction.
		o := e.xmm()
		e.Mov(st.Offset(stOpen), o)
		e.ShufB(e.c.bswap, o, o)
		e.Xor(lo(acc), o, o)
		e.mulBlocks(k.t, acc, 2, o, l)
		e.JMP(ref(done))
		e.Label(one)
		e.mul1(k.t, acc, l)
		e.Label(done)
	} else {
		e.mul1(k.t, acc, l)
	}
	e.ShufB(e.c.bswap, lo(acc), lo(acc))
	e.XorU(st.Offset(stMask), lo(acc), lo(acc))
	tagOut(lo(acc))
}

// mulBlocks sets acc to the sum of the xmm blocks xs times H^top,
// H^(top-1), ..., with one reduction: on wide registers lanes blocks per
// register.
func (e *gcm) mulBlocks(t reg.Register, acc reg.VecVirtual, top int, xs ...reg.VecVirtual) {
	s := e.sumInto(acc)
	for i := 0; i < len(xs); i += e.lanes {
		x := xs[i]
		if e.lanes > 1 {
			x = e.zvreg()
			e.Mov(xs[i], lo(x))
			if i+1 < len(xs) {
				e.Insert128(1, xs[i+1], x, x)
			}
		}
		m := top - i
		var pw, kw operand.Op = mem(t, e.pow(m)), mem(t, e.kar(m))
		if e.lanes == 4 {
			// Only the powers of the blocks there: the register would
			// read past the table.
			k := e.constMask(16 * min(e.lanes, len(xs)-i))
			pw, kw = e.loadZ(mem(t, e.pow(m)), k), e.loadZ(mem(t, e.kar(m)), k)
		}
		e.mulAcc(s, i == 0, x, pw, kw)
	}
	e.reduce(s)
	e.setFold(s, acc)
}
