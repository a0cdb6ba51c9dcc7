package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Tails under opmasks (zmm): the last register
// of a run, its partial block included, is read, written and hashed in one
// step under byte masks built with BZHI from the public length. Masked-off
// bytes are neither read nor written (AVX-512 suppresses their faults), and
// the masked loads zero them, so that a zero block times any power adds
// nothing.

// byteMask returns an opmask of the first n bytes (0 <= n <= 64) of a
// register. n is not modified.
func (e *gcm) byteMask(n reg.Register) reg.OpmaskVirtual {
	ones, m := e.GP64(), e.GP64()
	e.MOVQ(operand.I32(-1), ones)
	e.BZHIQ(n, ones, m)
	k := e.K()
	e.KMOVQ(m, k)
	return k
}

// constMask returns an opmask of the first n bytes (0 <= n <= 64).
func (e *gcm) constMask(n int) reg.OpmaskVirtual {
	m := e.GP64()
	e.MOVQ(operand.U64(^uint64(0)>>(64-n)), m)
	k := e.K()
	e.KMOVQ(m, k)
	return k
}

// blockMask returns an opmask of the first ceil(n/16) (up) or floor(n/16)
// blocks of a register, in bytes.
func (e *gcm) blockMask(n reg.Register, up bool) reg.OpmaskVirtual {
	b := e.GP64()
	if up {
		e.LEAQ(mem(n, 15), b)
		e.ANDQ(operand.I8(-16), b)
	} else {
		e.MOVQ(n, b)
		e.ANDQ(operand.I8(-16), b)
	}
	return e.byteMask(b)
}

// loadZ loads the bytes of m under k into a new register, zeroing the rest.
func (e *gcm) loadZ(m operand.Mem, k reg.OpmaskVirtual) reg.VecVirtual {
	x := e.vreg()
	e.VMOVDQU8_Z(m, k, x)
	return x
}

// maskedMulAcc adds the blocks of x (zero where not hashed) times the key
// powers at base+pow(0) under the block mask kp to s: the powers past the
// blocks hashed are not read.
func (e *gcm) maskedMulAcc(s sum, x reg.VecVirtual, base reg.Register, kp reg.OpmaskVirtual) {
	e.mulAcc(s, false, x, e.loadZ(mem(base, e.pow(0)), kp), e.loadZ(mem(base, e.kar(0)), kp))
}

// maskedTail is the end of remainderN on zmm: the last n bytes (0 < n <
// 64) of the run, whose keystream is ks and whose first block's key power
// is at hp+pow(0), added to rc's sum. Decrypting, every block is hashed
// (the partial one zero padded); encrypting, the whole blocks, the partial
// block being left open in st. in and out are advanced past the whole
// blocks and n is left at the partial length.
func (e *gcm) maskedTail(rc remClass, ks reg.VecVirtual, hp reg.Register) {
	s, acc, in, out, n, dec, st := rc.s, rc.acc, rc.in, rc.out, rc.n, rc.dec, rc.st
	km := e.byteMask(n)
	x := e.loadZ(mem(in, 0), km)
	y := e.vreg()
	e.Xor(ks, x, y)
	e.VMOVDQU8(y, km, mem(out, 0))
	whole := e.GP64() // the bytes of the whole blocks
	e.MOVQ(n, whole)
	e.ANDQ(operand.I8(-16), whole)
	if dec {
		e.ShufB(e.c.bswap, x, x)
		e.Xor(acc, x, x)
		e.Zero(acc)
		e.maskedMulAcc(s, x, hp, e.blockMask(n, true))
	} else {
		// Only the whole blocks are hashed; under a block nothing is,
		// and acc stays as it is.
		none := e.label("mnone")
		e.TESTQ(whole, whole)
		e.JZ(ref(none))
		kw := e.byteMask(whole)
		h := e.vreg()
		e.VMOVDQU8_Z(y, kw, h)
		e.ShufB(e.c.bswap, h, h)
		e.Xor(acc, h, h)
		e.Zero(acc)
		e.maskedMulAcc(s, h, hp, kw)
		e.Label(none)
		// The open block: lane n/16 of the keystream and of the
		// ciphertext zeroed past n, moved to lane 0 by VPERMQ with the
		// lane's index vector (n is public).
		p := e.GP64()
		e.MOVQ(whole, p)
		e.SHLQ(operand.U8(2), p)
		sel := e.GP64()
		e.LEAQ(e.c.laneSel, sel)
		e.ADDQ(sel, p)
		idx := e.vreg()
		e.Mov(mem(p, 0), idx)
		yz := e.vreg()
		e.VMOVDQU8_Z(y, km, yz)
		o, k := e.vreg(), e.vreg()
		e.VPERMQ(yz, idx, o)
		e.VPERMQ(ks, idx, k)
		e.Mov(lo(o), st.Offset(stOpen))
		e.Mov(lo(k), st.Offset(stKS))
	}
	e.ADDQ(whole, in)
	e.ADDQ(whole, out)
	e.ANDQ(operand.U8(15), n)
}

// maskedHash hashes the last n bytes (0 < n < 64) at src into s, zero
// padded, with the key powers from hp+pow(0); acc joins the first block.
func (e *gcm) maskedHash(s sum, acc reg.VecVirtual, src, n reg.GPVirtual, hp reg.Register) {
	x := e.loadZ(mem(src, 0), e.byteMask(n))
	e.ShufB(e.c.bswap, x, x)
	e.Xor(acc, x, x)
	e.Zero(acc)
	e.maskedMulAcc(s, x, hp, e.blockMask(n, true))
}
