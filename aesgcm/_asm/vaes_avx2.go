package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// Backend vaes-avx2 (AVX, AVX2, VAES, VPCLMULQDQ): the 8-block design of
// ALGORITHMS.md sections 1.1 and 1.4 on ymm registers, two blocks per
// register. AES and carry-less products exist here only in their 256-bit
// forms (the 128-bit VEX forms need the AES and PCLMULQDQ features, which
// the backend does not declare), so single blocks run in the low lane of a
// ymm register whose high lane is zero; everything else uses VEX.128 AVX
// instructions where one block is enough.
//
// Key table (the Go side's vaesTable, any alignment): the 15 round keys in
// the standard byte order (broadcast to both lanes with VBROADCASTI128 as
// they are used), then H^8..H^1 (each times x^-1, byte-reflected) so that a
// 32-byte load at power i gives the pair (H^(8-i), H^(7-i)) for two
// consecutive blocks, then the Karatsuba halves of each power in the same
// order. The layout is this file's own, computed by gcmInitVAESAVX2.
const (
	vOffRK   = 0
	vOffPow  = 15 * 16
	vOffKar  = vOffPow + 8*16
	vTabSize = vOffKar + 8*16 // 496
)

// Stream state (the Go side's streamState.ni, 80 bytes).
const (
	vStY    = 0  // GHASH accumulator, byte-reflected
	vStCtr  = 16 // next counter block, byte-reflected (counter in dword 0)
	vStMask = 32 // E(J0)
	vStKS   = 48 // keystream of the block left open
	vStOpen = 64 // ciphertext of the block left open, zero padded
	vStSize = 80
)

// vaesAVX2 declares the functions of backend vaes-avx2, suffix VAESAVX2.
func vaesAVX2(g *asmgen.Generator) {
	g.Package("aesgcm")
	v := &vx{emitter: &emitter{Generator: g, avx: true, c: newConsts(g)}}
	dup := func(b []byte) []byte { return append(append([]byte(nil), b...), b...) }
	bs := make([]byte, 16)
	for i := range bs {
		bs[i] = byte(15 - i)
	}
	v.bswap = g.Table("vBswap", dup(bs))
	v.poly = g.Table("vPoly", dup(le64(1, 0xc200000000000000)))
	v.x1 = g.Table("vXInvCarry", le64(1, 0xc200000000000001))
	// ctr lanes: +0/+1, then +2, +4, +6, +8 in both lanes.
	inc := append(le64(0, 0), le64(1, 0)...)
	for _, d := range []uint64{2, 4, 6, 8} {
		inc = append(inc, dup(le64(d, 0))...)
	}
	v.incs = g.Table("vCtrIncs", inc)
	v.initFunc("gcmInitVAESAVX2")
	v.nonceFunc("gcmNonceVAESAVX2")
	v.sealFunc("gcmSealVAESAVX2")
	v.openFunc("gcmOpenVAESAVX2")
	v.streamStartFunc("gcmStreamStartVAESAVX2")
	v.streamEncryptFunc("gcmStreamEncryptVAESAVX2")
	v.streamFinishFunc("gcmStreamFinishVAESAVX2")
}

// vx emits the vaes-avx2 functions. It embeds the AES-NI emitter in its
// VEX mode for the shared partial-block helpers (loadPartial,
// storePartial, lengthsBlock), which use only AVX instructions.
type vx struct {
	*emitter
	bswap, poly, x1, incs operand.Mem
}

// vkey are the key registers: the table, the number of rounds and rkm =
// t + 16*(rounds-10), so that the last nine middle round keys are at
// rkm+16..rkm+144 and the last one at rkm+160 for every key size.
type vkey struct{ t, rounds, rkm reg.GPVirtual }

func (v *vx) loadKey(tName, roundsName string) vkey {
	k := vkey{v.GP64(), v.GP64(), v.GP64()}
	v.Load(v.Param(tName), k.t)
	v.Load(v.Param(roundsName), k.rounds)
	v.MOVQ(k.rounds, k.rkm)
	v.SHLQ(operand.U8(4), k.rkm)
	v.ADDQ(k.t, k.rkm)
	v.SUBQ(operand.U32(160), k.rkm)
	return k
}

func (v *vx) ymm() reg.VecVirtual { return v.YMM() }

// zy returns a new ymm register set to zero. A register whose low lane is
// written first by a VEX.128 instruction (which clears the high lane) must
// start here: avo's liveness sees only a partial write and would keep the
// high lane live from the function's entry.
func (v *vx) zy() reg.VecVirtual {
	r := v.ymm()
	v.VPXOR(r, r, r)
	return r
}

func lo(y reg.VecVirtual) reg.VecVirtual { return y.AsX().(reg.VecVirtual) }

// rk broadcasts the round key at m to both lanes of a new register.
func (v *vx) rk(m operand.Mem) reg.VecVirtual {
	r := v.ymm()
	v.VBROADCASTI128(m, r)
	return r
}

// rounds runs AES rounds 1..rounds-1 on s, emitting hook(j) after the j-th
// of the nine rounds every key size has.
func (v *vx) rounds(k vkey, s []reg.VecVirtual, hook func(j int)) {
	mid := v.label("vmid")
	v.CMPQ(k.rounds, operand.U8(10))
	v.JE(ref(mid))
	extra := func(r int) {
		key := v.rk(mem(k.t, vOffRK+16*r))
		for _, x := range s {
			v.VAESENC(key, x, x)
		}
	}
	extra(1)
	extra(2)
	v.CMPQ(k.rounds, operand.U8(12))
	v.JE(ref(mid))
	extra(3)
	extra(4)
	v.Label(mid)
	for j := 1; j <= 9; j++ {
		key := v.rk(mem(k.rkm, 16*j))
		for _, x := range s {
			v.VAESENC(key, x, x)
		}
		if hook != nil {
			hook(j)
		}
	}
}

// encrypt encrypts the registers of s in place (both lanes).
func (v *vx) encrypt(k vkey, s []reg.VecVirtual) {
	k0 := v.rk(mem(k.t, vOffRK))
	for _, x := range s {
		v.VPXOR(k0, x, x)
	}
	v.rounds(k, s, nil)
	kl := v.rk(mem(k.rkm, 160))
	for _, x := range s {
		v.VAESENCLAST(kl, x, x)
	}
}

// ctrBlocks sets s[i] to the counter blocks ctr+2i, ctr+2i+1 (ctr holds
// [c, c+1] byte-reflected) XOR round key 0.
func (v *vx) ctrBlocks(k vkey, ctr reg.VecVirtual, s []reg.VecVirtual) {
	k0 := v.rk(mem(k.t, vOffRK))
	for i, x := range s {
		if i == 0 {
			v.VPSHUFB(v.bswap, ctr, x)
		} else {
			v.VPADDD(v.incs.Offset(32*i), ctr, x)
			v.VPSHUFB(v.bswap, x, x)
		}
		v.VPXOR(k0, x, x)
	}
}

// ySum is an unreduced sum of Karatsuba products, per lane.
type ySum struct{ lo, mi, hi reg.VecVirtual }

func (v *vx) newSum() ySum {
	s := ySum{v.ymm(), v.ymm(), v.ymm()}
	v.VPXOR(s.lo, s.lo, s.lo)
	v.VPXOR(s.mi, s.mi, s.mi)
	v.VPXOR(s.hi, s.hi, s.hi)
	return s
}

// mulAcc adds x times the powers pw (halves kw) to s lane by lane; with
// first it sets s instead. x is preserved.
func (v *vx) mulAcc(s ySum, first bool, x reg.VecVirtual, pw, kw operand.Op) {
	if first {
		v.VPCLMULQDQ(operand.U8(0x00), pw, x, s.lo)
		v.VPCLMULQDQ(operand.U8(0x11), pw, x, s.hi)
		v.VPSHUFD(operand.U8(0x4e), x, s.mi)
		v.VPXOR(x, s.mi, s.mi)
		v.VPCLMULQDQ(operand.U8(0x00), kw, s.mi, s.mi)
		return
	}
	t := v.ymm()
	v.VPCLMULQDQ(operand.U8(0x00), pw, x, t)
	v.VPXOR(t, s.lo, s.lo)
	v.VPCLMULQDQ(operand.U8(0x11), pw, x, t)
	v.VPXOR(t, s.hi, s.hi)
	v.VPSHUFD(operand.U8(0x4e), x, t)
	v.VPXOR(x, t, t)
	v.VPCLMULQDQ(operand.U8(0x00), kw, t, t)
	v.VPXOR(t, s.mi, s.mi)
}

// mulAcc1 adds the block in x's low lane (high lane zero) times the
// single power at pw (halves at kw) to s: the power is broadcast, so the
// high lane's product is zero.
func (v *vx) mulAcc1(s ySum, first bool, x reg.VecVirtual, pw, kw operand.Mem) {
	p, q := v.ymm(), v.ymm()
	v.VBROADCASTI128(pw, p)
	v.VBROADCASTI128(kw, q)
	v.mulAcc(s, first, x, p, q)
}

func (v *vx) reduce0(s ySum) {
	v.VPXOR(s.lo, s.mi, s.mi)
	v.VPXOR(s.hi, s.mi, s.mi)
	t := v.ymm()
	v.VPCLMULQDQ(operand.U8(0x10), v.poly, s.lo, t)
	v.VPSHUFD(operand.U8(0x4e), s.lo, s.lo)
	v.VPXOR(s.lo, s.mi, s.mi)
	v.VPXOR(t, s.mi, s.mi)
}

func (v *vx) reduce1(s ySum) {
	t := v.ymm()
	v.VPCLMULQDQ(operand.U8(0x10), v.poly, s.mi, t)
	v.VPSHUFD(operand.U8(0x4e), s.mi, s.mi)
	v.VPXOR(s.mi, s.hi, s.hi)
	v.VPXOR(t, s.hi, s.hi)
}

// fold XORs the two lanes of s.hi (each a reduced product) into the low
// lane of acc, whose high lane stays zero.
func (v *vx) fold(s ySum, acc reg.VecVirtual) {
	t := v.ymm()
	v.VEXTRACTI128(operand.U8(1), s.hi, lo(t))
	v.VPXOR(lo(t), lo(s.hi), lo(t))
	v.VPXOR(lo(t), lo(acc), lo(acc))
}

// ghash8 hashes the 8 blocks at src+disp into acc with H^8..H^1 and one
// reduction.
func (v *vx) ghash8(t reg.Register, acc reg.VecVirtual, src reg.Register, disp int) {
	s := ySum{v.ymm(), v.ymm(), v.ymm()}
	for i := 0; i < 4; i++ {
		x := v.ymm()
		v.VMOVDQU(mem(src, disp+32*i), x)
		v.VPSHUFB(v.bswap, x, x)
		if i == 0 {
			v.VPXOR(acc, x, x)
		}
		v.mulAcc(s, i == 0, x, mem(t, vOffPow+32*i), mem(t, vOffKar+32*i))
	}
	v.reduce0(s)
	v.reduce1(s)
	v.VPXOR(acc, acc, acc)
	v.fold(s, acc)
}

// ghashBytes hashes the n bytes at src into acc: 8 blocks at a time with
// one reduction each, then the rest (pairs, a single block, a zero-padded
// partial block) with one reduction. src and n are consumed.
func (v *vx) ghashBytes(t reg.Register, acc reg.VecVirtual, src, n reg.GPVirtual) {
	loop, rest, done := v.label("vgh8"), v.label("vghrest"), v.label("vghdone")
	v.Label(loop)
	v.CMPQ(n, operand.U8(128))
	v.JB(ref(rest))
	v.ghash8(t, acc, src, 0)
	v.ADDQ(operand.U8(128), src)
	v.SUBQ(operand.U8(128), n)
	v.JMP(ref(loop))

	v.Label(rest)
	v.TESTQ(n, n)
	v.JZ(ref(done))
	// hp = t - 16*ceil(n/16): the power of the first block at hp+vOffPow+128.
	hp := v.GP64()
	v.LEAQ(mem(n, 15), hp)
	v.SHRQ(operand.U8(4), hp)
	v.SHLQ(operand.U8(4), hp)
	v.NEGQ(hp)
	v.ADDQ(t, hp)
	s := v.newSum()
	x := v.zy()
	pairs, single, part, red := v.label("vghpair"), v.label("vgh1"), v.label("vghpart"), v.label("vghred")
	v.Label(pairs)
	v.CMPQ(n, operand.U8(32))
	v.JB(ref(single))
	v.VMOVDQU(mem(src, 0), x)
	v.VPSHUFB(v.bswap, x, x)
	v.VPXOR(acc, x, x)
	v.VPXOR(acc, acc, acc)
	v.mulAcc(s, false, x, mem(hp, vOffPow+128), mem(hp, vOffKar+128))
	v.ADDQ(operand.U8(32), src)
	v.ADDQ(operand.U8(32), hp)
	v.SUBQ(operand.U8(32), n)
	v.JMP(ref(pairs))

	v.Label(single)
	v.CMPQ(n, operand.U8(16))
	v.JB(ref(part))
	v.VMOVDQU(mem(src, 0), lo(x))
	v.VPSHUFB(v.c.bswap, lo(x), lo(x))
	v.VPXOR(acc, x, x)
	v.VPXOR(acc, acc, acc)
	v.mulAcc1(s, false, x, mem(hp, vOffPow+128), mem(hp, vOffKar+128))
	v.ADDQ(operand.U8(16), src)
	v.ADDQ(operand.U8(16), hp)
	v.SUBQ(operand.U8(16), n)

	v.Label(part)
	v.TESTQ(n, n)
	v.JZ(ref(red))
	v.loadPartial(src, n, lo(x))
	v.VPSHUFB(v.c.bswap, lo(x), lo(x))
	v.VPXOR(acc, x, x)
	v.VPXOR(acc, acc, acc)
	v.mulAcc1(s, false, x, mem(hp, vOffPow+128), mem(hp, vOffKar+128))
	v.Label(red)
	v.reduce0(s)
	v.reduce1(s)
	v.fold(s, acc)
	v.Label(done)
}

// mul1 sets acc to (acc ^ x) * H for the block in the xmm register x.
func (v *vx) mul1(t reg.Register, acc, x reg.VecVirtual) {
	y := v.zy()
	v.VPXOR(x, lo(acc), lo(y))
	s := ySum{v.ymm(), v.ymm(), v.ymm()}
	v.mulAcc1(s, true, y, mem(t, vOffPow+112), mem(t, vOffKar+112))
	v.reduce0(s)
	v.reduce1(s)
	v.VMOVDQA(lo(s.hi), lo(acc)) // both lanes of the product: high is zero
}

// initFunc computes H = E(0), times x^-1, and its powers H^2..H^8 with
// their Karatsuba halves, into the table after the round keys.
func (v *vx) initFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, rounds int)",
		asmgen.Doc(name+" computes the GHASH key powers of the key table t from its round keys: H^8..H^1, each times x^-1, byte-reflected, and their Karatsuba halves."),
		asmgen.Secret("t"), asmgen.Public("rounds"))
	k := v.loadKey("t", "rounds")
	h := v.ymm()
	v.VPXOR(h, h, h)
	v.encrypt(k, []reg.VecVirtual{h})
	hx := lo(h)
	v.VPSHUFB(v.c.bswap, hx, hx) // high lane cleared
	t := v.XMM()
	v.VPSHUFD(operand.U8(0xd3), hx, t)
	v.VPSRAD(operand.U8(31), t, t)
	v.VPADDQ(hx, hx, hx)
	v.VPAND(v.x1, t, t)
	v.VPXOR(t, hx, hx)
	hk := v.zy()
	v.VPSHUFD(operand.U8(0x4e), hx, lo(hk))
	v.VPXOR(hx, lo(hk), lo(hk))
	v.VMOVDQU(hx, mem(k.t, vOffPow+7*16))
	v.VMOVDQU(lo(hk), mem(k.t, vOffKar+7*16))
	cur := v.zy()
	v.VMOVDQA(hx, lo(cur))
	for i := 6; i >= 0; i-- {
		s := ySum{v.ymm(), v.ymm(), v.ymm()}
		v.mulAcc(s, true, cur, h, hk)
		v.reduce0(s)
		v.reduce1(s)
		v.VMOVDQA(lo(s.hi), lo(cur))
		ck := v.XMM()
		v.VPSHUFD(operand.U8(0x4e), lo(cur), ck)
		v.VPXOR(lo(cur), ck, ck)
		v.VMOVDQU(lo(cur), mem(k.t, vOffPow+16*i))
		v.VMOVDQU(ck, mem(k.t, vOffKar+16*i))
	}
	v.fn.Ret()
}

func (v *vx) gp(name string) reg.GPVirtual {
	r := v.GP64()
	v.Load(v.Param(name), r)
	return r
}

// nonceFunc: J0 for a nonce that is not 12 bytes.
func (v *vx) nonceFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, nonce *byte, n int, j0 *[16]byte)",
		asmgen.Doc(name+" sets j0 to GHASH(nonce || zero padding || 0^64 || bitlen(nonce)) for the n > 0 bytes at nonce."),
		asmgen.Secret("t"), asmgen.Public("nonce", "n"), asmgen.Output("j0"), asmgen.Len("nonce", "n"))
	t := v.gp("t")
	p, n := v.gp("nonce"), v.gp("n")
	acc := v.ymm()
	v.VPXOR(acc, acc, acc)
	v.ghashBytes(t, acc, p, n)
	zero := v.GP64()
	v.XORQ(zero, zero)
	l := v.lengthsBlock(zero, v.gp("n"))
	v.mul1(t, acc, l)
	v.VPSHUFB(v.c.bswap, lo(acc), lo(acc))
	v.VMOVDQU(lo(acc), mem(v.gp("j0"), 0))
	v.fn.Ret()
}

// start hashes the AAD and sets up the state at st: y, the first counter,
// E(J0).
func (v *vx) start(k vkey, st operand.Mem, aad, aadLen, j0 reg.GPVirtual) {
	j, ctr := v.zy(), v.XMM()
	v.loadJ0(j0, lo(j))
	v.VPSHUFB(v.c.bswap, lo(j), ctr)
	v.VPADDD(v.incs.Offset(16), ctr, ctr)
	v.VMOVDQU(ctr, st.Offset(vStCtr))
	v.encrypt(k, []reg.VecVirtual{j})
	v.VMOVDQU(lo(j), st.Offset(vStMask))
	acc := v.aadHash(k, aad, aadLen)
	v.VMOVDQU(lo(acc), st.Offset(vStY))
}

// aadHash returns GHASH(aad) in the low lane of a new register: the TLS
// record header (13 bytes) and any AAD under a block with one partial load
// and one multiplication, longer AAD 8 blocks at a time.
func (v *vx) aadHash(k vkey, aad, aadLen reg.GPVirtual) reg.VecVirtual {
	acc := v.ymm()
	v.VPXOR(acc, acc, acc)
	long, done := v.label("vaadlong"), v.label("vaaddone")
	v.TESTQ(aadLen, aadLen)
	v.JZ(ref(done))
	v.CMPQ(aadLen, operand.U8(16))
	v.JAE(ref(long))
	x := v.XMM()
	v.loadPartial(aad, aadLen, x)
	v.VPSHUFB(v.c.bswap, x, x)
	v.mul1(k.t, acc, x)
	v.JMP(ref(done))
	v.Label(long)
	v.ghashBytes(k.t, acc, aad, aadLen)
	v.Label(done)
	return acc
}

// lengthsBlock returns the byte-reflected block of the two bit lengths:
// aadBits in the high qword, textBits in the low one.
func (v *vx) lengthsBlock(aadLen, textLen reg.Register) reg.VecVirtual {
	a, b := v.GP64(), v.GP64()
	v.MOVQ(aadLen, a)
	v.SHLQ(operand.U8(3), a)
	v.MOVQ(textLen, b)
	v.SHLQ(operand.U8(3), b)
	x, y := v.XMM(), v.XMM()
	v.VMOVQ(b, x)
	v.VMOVQ(a, y)
	v.VPUNPCKLQDQ(y, x, x)
	return x
}

// short seals (dec false) or opens a whole message of n < 32 bytes with
// no loop and no state in memory: E(J0) and the keystream of both text
// blocks in one AES pass of two registers ([J0, J0+1], [J0+2, J0+3]), the
// AAD hashed meanwhile, then the text blocks and the lengths block each
// times its own power (H^m..H^1) and one reduction.
//
// in is emitted by inAt after the AES rounds and the AAD (as in the aesni
// short path): a gathered text's join overlaps them.
func (v *vx) short(k vkey, inAt func() reg.GPVirtual, out, n, aad, aadLen, j0 reg.GPVirtual, tagOut func(reg.VecVirtual), dec bool) {
	ctr := v.ymm()
	v.loadJ0(j0, lo(ctr))
	v.VINSERTI128(operand.U8(1), lo(ctr), ctr, ctr)
	v.VPSHUFB(v.bswap, ctr, ctr)
	v.VPADDD(v.incs, ctr, ctr)
	a, b := v.ymm(), v.ymm()
	v.ctrBlocks(k, ctr, []reg.VecVirtual{a, b})
	v.rounds(k, []reg.VecVirtual{a, b}, nil)
	kl := v.rk(mem(k.rkm, 160))
	v.VAESENCLAST(kl, a, a)
	v.VAESENCLAST(kl, b, b)
	al := v.GP64() // aadHash consumes its length
	v.MOVQ(aadLen, al)
	acc := v.aadHash(k, aad, al)
	// hp: the power of the first block (of m = ceil(n/16) + 1) is at
	// hp+vOffPow+128.
	hp, nr := v.GP64(), v.GP64()
	v.LEAQ(mem(n, 31), hp)
	v.SHRQ(operand.U8(4), hp)
	v.SHLQ(operand.U8(4), hp)
	v.NEGQ(hp)
	v.ADDQ(k.t, hp)
	v.MOVQ(n, nr)
	s := v.newSum()
	ksP := v.XMM()
	lt16, part, lens := v.label("vslt16"), v.label("vspart"), v.label("vslens")
	hash := func(x, y reg.VecVirtual) {
		h := y
		if dec {
			h = x
		}
		v.VPSHUFB(v.c.bswap, lo(h), lo(h))
		v.VPXOR(acc, h, h)
		v.VPXOR(acc, acc, acc)
		v.mulAcc1(s, false, h, mem(hp, vOffPow+128), mem(hp, vOffKar+128))
		v.ADDQ(operand.U8(16), hp)
	}
	in := inAt()
	v.CMPQ(nr, operand.U8(16))
	v.JB(ref(lt16))
	{
		x, y := v.zy(), v.zy()
		v.VEXTRACTI128(operand.U8(1), a, ksP)
		v.VMOVDQU(mem(in, 0), lo(x))
		v.VPXOR(ksP, lo(x), lo(y))
		v.VMOVDQU(lo(y), mem(out, 0))
		hash(x, y)
		v.VMOVDQA(lo(b), ksP)
		v.ADDQ(operand.U8(16), in)
		v.ADDQ(operand.U8(16), out)
		v.SUBQ(operand.U8(16), nr)
		v.JMP(ref(part))
	}
	v.Label(lt16)
	v.VEXTRACTI128(operand.U8(1), a, ksP)
	v.Label(part)
	v.TESTQ(nr, nr)
	v.JZ(ref(lens))
	{
		x, y := v.zy(), v.zy()
		v.loadPartial(in, nr, lo(x))
		v.VPXOR(ksP, lo(x), lo(y))
		if !dec {
			o := v.GP64()
			v.LEAQ(v.c.ones, o)
			v.SUBQ(nr, o)
			v.VPAND(mem(o, 16), lo(y), lo(y))
		}
		v.storePartial(out, nr, lo(y))
		hash(x, y)
	}
	v.Label(lens)
	l := v.lengthsBlock(aadLen, n)
	y := v.zy()
	v.VPXOR(l, lo(acc), lo(y))
	v.mulAcc1(s, false, y, mem(hp, vOffPow+128), mem(hp, vOffKar+128))
	v.reduce0(s)
	v.reduce1(s)
	v.VPXOR(acc, acc, acc)
	v.fold(s, acc)
	v.VPSHUFB(v.c.bswap, lo(acc), lo(acc))
	v.VPXOR(lo(a), lo(acc), lo(acc))
	tagOut(lo(acc))
}

// finish hashes the block left open (nopen bytes at st's open) and the
// lengths, and stores the tag. A nil nopen means no block is ever open
// there (one-shot open): the open-block branch is not emitted.
func (v *vx) finish(t reg.Register, st operand.Mem, nopen, aadLen, textLen reg.Register, tagOut func(reg.VecVirtual)) {
	acc := v.zy()
	v.VMOVDQU(st.Offset(vStY), lo(acc))
	l := v.lengthsBlock(aadLen, textLen)
	if nopen == nil {
		v.mul1(t, acc, l)
		v.finishTag(st, acc, tagOut)
		return
	}
	one, done := v.label("vfin1"), v.label("vfindone")
	v.TESTQ(nopen, nopen)
	v.JZ(ref(one))
	// [open ^ acc, lengths] times [H^2, H^1], one reduction.
	o := v.zy()
	v.VMOVDQU(st.Offset(vStOpen), lo(o))
	v.VPSHUFB(v.c.bswap, lo(o), lo(o))
	v.VPXOR(lo(acc), lo(o), lo(o))
	v.VINSERTI128(operand.U8(1), l, o, o)
	s := ySum{v.ymm(), v.ymm(), v.ymm()}
	v.mulAcc(s, true, o, mem(t, vOffPow+96), mem(t, vOffKar+96))
	v.reduce0(s)
	v.reduce1(s)
	v.VPXOR(acc, acc, acc)
	v.fold(s, acc)
	v.JMP(ref(done))
	v.Label(one)
	v.mul1(t, acc, l)
	v.Label(done)
	v.finishTag(st, acc, tagOut)
}

// finishTag hands E(J0) ^ the hash in acc to tagOut.
func (v *vx) finishTag(st operand.Mem, acc reg.VecVirtual, tagOut func(reg.VecVirtual)) {
	v.VPSHUFB(v.c.bswap, lo(acc), lo(acc))
	v.VPXOR(st.Offset(vStMask), lo(acc), lo(acc))
	tagOut(lo(acc))
}

// aes8 runs one 8-block CTR pass from in to out (4 registers of 2
// blocks); with acc set it also hashes the 8 blocks at src+disp, one
// Karatsuba multiply of a register pair per AES round, the two folds after
// rounds 5 and 6.
func (v *vx) aes8(k vkey, ctr reg.VecVirtual, in, out reg.Register, acc reg.VecVirtual, src reg.Register, disp int) {
	s := make([]reg.VecVirtual, 4)
	for i := range s {
		s[i] = v.ymm()
	}
	v.ctrBlocks(k, ctr, s)
	v.VPADDD(v.incs.Offset(32*4), ctr, ctr)
	var hook func(j int)
	if acc != nil {
		sum := ySum{v.ymm(), v.ymm(), v.ymm()}
		hook = func(j int) {
			switch {
			case j <= 4:
				i := j - 1
				x := v.ymm()
				v.VMOVDQU(mem(src, disp+32*i), x)
				v.VPSHUFB(v.bswap, x, x)
				if i == 0 {
					v.VPXOR(acc, x, x)
				}
				v.mulAcc(sum, i == 0, x, mem(k.t, vOffPow+32*i), mem(k.t, vOffKar+32*i))
			case j == 5:
				v.reduce0(sum)
			case j == 6:
				v.reduce1(sum)
			case j == 7:
				v.VPXOR(acc, acc, acc)
				v.fold(sum, acc)
			}
		}
	}
	v.rounds(k, s, hook)
	last := v.rk(mem(k.rkm, 160))
	for i, x := range s {
		d := v.ymm()
		v.VPXOR(mem(in, 32*i), last, d)
		v.VAESENCLAST(d, x, x)
		v.VMOVDQU(x, mem(out, 32*i))
	}
}

// remainder handles the last n bytes (least <= n <= most, least >= 1) of a run: the
// keystream of 2*nk blocks in one batch, then pairs of blocks, then one
// block, then the partial block, each with its own key powers, unreduced,
// and one reduction. Decrypting, the partial block is hashed too (the
// message ends there); encrypting, it is left open in st (its keystream
// and its zero-padded ciphertext). ctr's low lane is advanced past the
// blocks used; in and out are advanced past the whole blocks and n is left
// at the partial length. The first least/32 pairs are whole for every
// such n: they are not tested; n <= most (public, at most 32*nk), and a
// pair past most is never whole: it is not emitted.
func (v *vx) remainder(k vkey, ctr, acc reg.VecVirtual, in, out, n reg.GPVirtual, dec bool, st operand.Mem, nk, least, most int) {
	ks := make([]reg.VecVirtual, nk)
	for i := range ks {
		ks[i] = v.ymm()
	}
	v.ctrBlocks(k, ctr, ks)
	v.rounds(k, ks, nil)
	kl := v.rk(mem(k.rkm, 160))
	for _, x := range ks {
		v.VAESENCLAST(kl, x, x)
	}
	// ctr += ceil(n/16), low lane
	nb := v.GP64()
	v.LEAQ(mem(n, 15), nb)
	v.SHRQ(operand.U8(4), nb)
	c := v.XMM()
	v.VMOVQ(nb, c)
	v.VPADDD(c, lo(ctr), lo(ctr))
	// hp: the power of the first hashed block is at hp+vOffPow+128.
	hp := v.GP64()
	if dec {
		v.SHLQ(operand.U8(4), nb)
		v.MOVQ(nb, hp)
	} else {
		v.MOVQ(n, hp)
		v.ANDQ(operand.I8(-16), hp)
	}
	v.NEGQ(hp)
	v.ADDQ(k.t, hp)
	s := v.newSum()
	single := make([]string, nk)
	part := make([]string, nk)
	for p := range single {
		single[p], part[p] = v.label("vr1"), v.label("vrpart")
	}
	common, red := v.label("vrcommon"), v.label("vrred")
	// hash: x is the text block(s) read, y the ones written; the
	// ciphertext is x decrypting, y encrypting.
	hash := func(x, y reg.VecVirtual) reg.VecVirtual {
		if dec {
			return x
		}
		return y
	}
	whole := true // the last pair can be whole: n may be 32*nk
	for p := 0; p < nk; p++ {
		if 32*(p+1) > most {
			// No n of the class makes this pair whole: on to its
			// single block (next when it is the last pair).
			if p < nk-1 {
				v.JMP(ref(single[p]))
			}
			whole = false
			break
		}
		if 32*(p+1) > least {
			v.CMPQ(n, operand.U8(32))
			v.JB(ref(single[p]))
		}
		x, y := v.ymm(), v.ymm()
		v.VMOVDQU(mem(in, 0), x)
		v.VPXOR(ks[p], x, y)
		v.VMOVDQU(y, mem(out, 0))
		h := hash(x, y)
		v.VPSHUFB(v.bswap, h, h)
		v.VPXOR(acc, h, h)
		v.VPXOR(acc, acc, acc)
		v.mulAcc(s, false, h, mem(hp, vOffPow+128+32*p), mem(hp, vOffKar+128+32*p))
		v.ADDQ(operand.U8(32), in)
		v.ADDQ(operand.U8(32), out)
		v.SUBQ(operand.U8(32), n)
	}
	if whole {
		v.JMP(ref(red)) // n was 32*nk: nothing left
	}
	ksP := v.XMM()
	hpP := v.GP64()
	full := min(least/32, nk-1) // pairs always whole: no single after fewer
	for p := nk - 1; p >= full; p-- {
		v.Label(single[p])
		v.CMPQ(n, operand.U8(16))
		v.JB(ref(part[p]))
		x, y := v.zy(), v.zy()
		v.VMOVDQU(mem(in, 0), lo(x))
		v.VPXOR(lo(ks[p]), lo(x), lo(y))
		v.VMOVDQU(lo(y), mem(out, 0))
		h := hash(x, y)
		v.VPSHUFB(v.c.bswap, lo(h), lo(h))
		v.VPXOR(acc, h, h)
		v.VPXOR(acc, acc, acc)
		v.mulAcc1(s, false, h, mem(hp, vOffPow+128+32*p), mem(hp, vOffKar+128+32*p))
		v.ADDQ(operand.U8(16), in)
		v.ADDQ(operand.U8(16), out)
		v.SUBQ(operand.U8(16), n)
		v.VEXTRACTI128(operand.U8(1), ks[p], ksP)
		v.LEAQ(mem(hp, 32*p+16), hpP)
		v.JMP(ref(common))
		v.Label(part[p])
		v.VMOVDQA(lo(ks[p]), ksP)
		v.LEAQ(mem(hp, 32*p), hpP)
		if p > full {
			v.JMP(ref(common))
		}
	}
	v.Label(common)
	v.TESTQ(n, n)
	v.JZ(ref(red))
	x, y := v.zy(), v.zy()
	v.loadPartial(in, n, lo(x))
	v.VPXOR(ksP, lo(x), lo(y))
	if dec {
		v.storePartial(out, n, lo(y))
		v.VPSHUFB(v.c.bswap, lo(x), lo(x))
		v.VPXOR(acc, x, x)
		v.VPXOR(acc, acc, acc)
		v.mulAcc1(s, false, x, mem(hpP, vOffPow+128), mem(hpP, vOffKar+128))
	} else {
		o := v.GP64()
		v.LEAQ(v.c.ones, o)
		v.SUBQ(n, o)
		v.VPAND(mem(o, 16), lo(y), lo(y))
		v.storePartial(out, n, lo(y))
		v.VMOVDQU(lo(y), st.Offset(vStOpen))
		v.VMOVDQU(ksP, st.Offset(vStKS))
	}
	v.Label(red)
	v.reduce0(s)
	v.reduce1(s)
	v.fold(s, acc)
}

// remainderAny dispatches a remainder of 1 <= n < 128 bytes to the
// smallest batch that covers it: 2 blocks up to 32 bytes, 4 up to 64, else
// 8.
func (v *vx) remainderAny(k vkey, ctr, acc reg.VecVirtual, in, out, n reg.GPVirtual, dec bool, st operand.Mem) {
	r4, r8, done := v.label("vrem4"), v.label("vrem8"), v.label("vremdone")
	v.CMPQ(n, operand.U8(32))
	v.JA(ref(r4))
	v.remainder(k, ctr, acc, in, out, n, dec, st, 1, 1, 32)
	v.JMP(ref(done))
	v.Label(r4)
	v.CMPQ(n, operand.U8(64))
	v.JA(ref(r8))
	v.remainder(k, ctr, acc, in, out, n, dec, st, 2, 33, 64)
	v.JMP(ref(done))
	v.Label(r8)
	v.remainder(k, ctr, acc, in, out, n, dec, st, 4, 65, 127)
	v.Label(done)
}

// loadCtr loads the counter at st into both lanes as [c, c+1].
func (v *vx) loadCtr(st operand.Mem) reg.VecVirtual {
	ctr := v.ymm()
	v.VBROADCASTI128(st.Offset(vStCtr), ctr)
	v.VPADDD(v.incs, ctr, ctr)
	return ctr
}

// encPiece encrypts the n bytes at in to out, continuing the stream at st
// whose open block has nopen bytes (updated). in, out and n are consumed.
func (v *vx) encPiece(k vkey, st operand.Mem, out, in, n, nopen reg.GPVirtual) {
	done, bulk := v.label("vpdone"), v.label("vpbulk")
	v.TESTQ(n, n)
	v.JZ(ref(done))
	v.TESTQ(nopen, nopen)
	v.JZ(ref(bulk))
	{
		// Finish the open block with m = min(16-nopen, n) bytes, in
		// registers.
		m := v.GP64()
		v.MOVQ(operand.U32(16), m)
		v.SUBQ(nopen, m)
		v.CMPQ(n, m)
		v.CMOVQLT(n, m)
		x, ks, msk := v.XMM(), v.XMM(), v.XMM()
		v.loadPartial(in, m, x)
		v.VMOVDQU(st.Offset(vStKS), ks)
		v.slideMask(nopen, 0, false, msk)
		v.VPSHUFB(msk, ks, ks)
		v.VPXOR(ks, x, x)
		o := v.GP64()
		v.LEAQ(v.c.ones, o)
		v.SUBQ(m, o)
		v.VPAND(mem(o, 16), x, x)
		v.storePartial(out, m, x)
		v.slideMask(nopen, 0, true, msk)
		v.VPSHUFB(msk, x, x)
		op := v.XMM()
		v.VMOVDQU(st.Offset(vStOpen), op)
		v.VPOR(x, op, op)
		v.ADDQ(m, nopen)
		v.ADDQ(m, in)
		v.ADDQ(m, out)
		v.SUBQ(m, n)
		full := v.label("vopenfull")
		v.CMPQ(nopen, operand.U8(16))
		v.JE(ref(full))
		v.VMOVDQU(op, st.Offset(vStOpen))
		v.JMP(ref(done)) // n is 0: the piece ended inside the block
		v.Label(full)
		acc := v.zy()
		v.VMOVDQU(st.Offset(vStY), lo(acc))
		v.VPSHUFB(v.c.bswap, op, op)
		v.mul1(k.t, acc, op)
		v.VMOVDQU(lo(acc), st.Offset(vStY))
		v.VPXOR(op, op, op)
		v.VMOVDQU(op, st.Offset(vStOpen))
		v.XORQ(nopen, nopen)
	}
	v.Label(bulk)
	v.TESTQ(n, n)
	v.JZ(ref(done))
	acc := v.zy()
	v.VMOVDQU(st.Offset(vStY), lo(acc))
	ctr := v.loadCtr(st)
	rem := v.label("vprem")
	v.CMPQ(n, operand.U8(128))
	v.JB(ref(rem))
	// The first 8 blocks are only encrypted; each later pass encrypts 8
	// and hashes the 8 before; the last 8 are hashed after the loop.
	v.aes8(k, ctr, in, out, nil, nil, 0)
	v.ADDQ(operand.U8(128), in)
	v.ADDQ(operand.U8(128), out)
	v.SUBQ(operand.U8(128), n)
	loop, tail := v.label("vploop"), v.label("vptail")
	v.Label(loop)
	v.CMPQ(n, operand.U8(128))
	v.JB(ref(tail))
	v.aes8(k, ctr, in, out, acc, out, -128)
	v.ADDQ(operand.U8(128), in)
	v.ADDQ(operand.U8(128), out)
	v.SUBQ(operand.U8(128), n)
	v.JMP(ref(loop))
	v.Label(tail)
	v.ghash8(k.t, acc, out, -128)
	v.Label(rem)
	save := v.label("vpsave")
	v.TESTQ(n, n)
	v.JZ(ref(save))
	v.remainderAny(k, ctr, acc, in, out, n, false, st)
	// remainder left the partial block open: nopen = n mod 16
	v.MOVQ(n, nopen)
	v.ADDQ(n, in)
	v.ADDQ(n, out)
	v.Label(save)
	v.VMOVDQU(lo(acc), st.Offset(vStY))
	v.VMOVDQU(lo(ctr), st.Offset(vStCtr))
	v.Label(done)
}

// sealFunc: one-shot seal of a gathered text, state in stack scratch.
func (v *vx) sealFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, rounds int, out *byte, pieces *[]byte, count int, aad *byte, aadLen int, j0 *[16]byte, textLen int, tag *[16]byte)",
		asmgen.Doc(name+" encrypts the concatenation of the count slices at pieces (textLen bytes) to out and sets tag to E(J0) ^ GHASH(aad, out), reading each piece in place."),
		asmgen.Secret("t", "aad"), asmgen.SecretSlices("pieces"), asmgen.Output("out", "tag"),
		asmgen.Public("rounds", "count", "aadLen", "j0", "textLen"),
		asmgen.Len("out", "textLen"), asmgen.Len("pieces", "count"), asmgen.Len("aad", "aadLen"), asmgen.Scratch(vStSize))
	st := v.fn.Scratch()
	k := v.loadKey("t", "rounds")
	out, descs, count := v.gp("out"), v.gp("pieces"), v.gp("count")
	// Under 32 bytes (every short Seal, and a short gathered text joined
	// in out first, as on aesni): the short path.
	general := v.label("vsgeneral")
	textLen := v.gp("textLen")
	v.CMPQ(textLen, operand.U8(32))
	v.JAE(ref(general))
	join := func() reg.GPVirtual { return v.fn.JoinSlicesMax(descs, count, out, 31) }
	v.short(k, join, out, textLen, v.gp("aad"), v.gp("aadLen"), v.gp("j0"), v.tagStore(), false)
	v.fn.Ret()
	v.Label(general)
	v.start(k, st, v.gp("aad"), v.gp("aadLen"), v.gp("j0"))
	nopen := v.GP64()
	v.XORQ(nopen, nopen)
	z := v.XMM()
	v.VPXOR(z, z, z)
	v.VMOVDQU(z, st.Offset(vStOpen))
	v.fn.ForEachSlice(descs, count, func(ptr, n reg.GPVirtual) {
		v.encPiece(k, st, out, ptr, n, nopen)
	})
	v.finish(k.t, st, nopen, v.gp("aadLen"), v.gp("textLen"), v.tagStore())
	v.fn.Ret()
}

// openFunc: one-shot open; hashes the ciphertext in the same pass.
func (v *vx) openFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, rounds int, out, in *byte, n int, aad *byte, aadLen int, j0 *[16]byte, tag *byte, tagLen int) int",
		asmgen.Doc(name+" decrypts the n bytes at in to out and returns 1 if the tagLen (12..16) bytes at tag are the first bytes of E(J0) ^ GHASH(aad, in), else 0 (compared in constant time)."),
		asmgen.Secret("t", "out", "in", "aad"),
		asmgen.Public("rounds", "n", "aadLen", "j0", "tag", "tagLen"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"), asmgen.Len("aad", "aadLen"), asmgen.Len("tag", "tagLen"), asmgen.Scratch(vStSize))
	st := v.fn.Scratch()
	k := v.loadKey("t", "rounds")
	out, in, n := v.gp("out"), v.gp("in"), v.gp("n")
	general := v.label("vogeneral")
	v.CMPQ(n, operand.U8(32))
	v.JAE(ref(general))
	v.short(k, func() reg.GPVirtual { return in }, out, n, v.gp("aad"), v.gp("aadLen"), v.gp("j0"), v.tagCheck(), true)
	v.fn.Ret()
	v.Label(general)
	v.start(k, st, v.gp("aad"), v.gp("aadLen"), v.gp("j0"))
	acc := v.zy()
	v.VMOVDQU(st.Offset(vStY), lo(acc))
	ctr := v.loadCtr(st)
	loop, rem, fin := v.label("voloop"), v.label("vorem"), v.label("vofin")
	v.Label(loop)
	v.CMPQ(n, operand.U8(128))
	v.JB(ref(rem))
	v.aes8(k, ctr, in, out, acc, in, 0)
	v.ADDQ(operand.U8(128), in)
	v.ADDQ(operand.U8(128), out)
	v.SUBQ(operand.U8(128), n)
	v.JMP(ref(loop))
	v.Label(rem)
	v.TESTQ(n, n)
	v.JZ(ref(fin))
	v.remainderAny(k, ctr, acc, in, out, n, true, st)
	v.Label(fin)
	v.VMOVDQU(lo(acc), st.Offset(vStY))
	v.finish(k.t, st, nil, v.gp("aadLen"), v.gp("n"), v.tagCheck())
	v.fn.Ret()
}

func (v *vx) streamStartFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, rounds int, st *[80]byte, aad *byte, aadLen int, j0 *[16]byte)",
		asmgen.Doc(name+" starts a stream at st: hashes aad, sets the first counter and E(J0), clears the open block."),
		asmgen.Secret("t", "st", "aad"), asmgen.Public("rounds", "aadLen", "j0"), asmgen.Len("aad", "aadLen"))
	k := v.loadKey("t", "rounds")
	st := mem(v.gp("st"), 0)
	v.start(k, st, v.gp("aad"), v.gp("aadLen"), v.gp("j0"))
	z := v.XMM()
	v.VPXOR(z, z, z)
	v.VMOVDQU(z, st.Offset(vStOpen))
	v.VMOVDQU(z, st.Offset(vStKS))
	v.fn.Ret()
}

func (v *vx) streamEncryptFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, rounds int, st *[80]byte, out, in *byte, n int, nopen int)",
		asmgen.Doc(name+" encrypts the next n bytes of the stream at st from in to out; nopen is the length of the stream so far mod 16."),
		asmgen.Secret("t", "st", "in"), asmgen.Output("out"), asmgen.Public("rounds", "n", "nopen"),
		asmgen.Len("out", "n"), asmgen.Len("in", "n"))
	k := v.loadKey("t", "rounds")
	st := mem(v.gp("st"), 0)
	v.encPiece(k, st, v.gp("out"), v.gp("in"), v.gp("n"), v.gp("nopen"))
	v.fn.Ret()
}

func (v *vx) streamFinishFunc(name string) {
	v.fn = v.Func(name, "func(t *[496]byte, st *[80]byte, nopen int, aadLen int, textLen int, tag *[16]byte)",
		asmgen.Doc(name+" sets tag to the tag of the stream at st (textLen bytes, the last nopen of them in the open block)."),
		asmgen.Secret("t", "st"), asmgen.Output("tag"), asmgen.Public("nopen", "aadLen", "textLen"))
	t := v.gp("t")
	st := mem(v.gp("st"), 0)
	v.finish(t, st, v.gp("nopen"), v.gp("aadLen"), v.gp("textLen"), v.tagStore())
	v.fn.Ret()
}
