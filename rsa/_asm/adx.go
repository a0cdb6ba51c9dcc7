package main

import (
	"fmt"
	"strconv"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// mulWidths are the limb counts with a fixed-size multiplication kernel:
// 8, 16, 24, 32 for the CRT halves of 1024- to 4096-bit keys, 32, 48, 64
// and 128 for public moduli of 2048 to 8192 bits. Other widths run on the
// next larger kernel with the modulus zero-padded (R grows, the arithmetic
// stays exact); the rsa package chooses.
var mulWidths = []int{8, 16, 24, 32, 48, 64, 128}

// sqrWidths are the limb counts with a dedicated squaring kernel: the CRT
// halves, where squarings are five sixths of the work. The squaring's
// cross-product triangle is unrolled whole (n²/2 limb steps), so the larger
// public widths square with the multiplication kernel instead, which keeps
// the code within the instruction cache.
var sqrWidths = []int{8, 16, 24, 32}

// adx declares every function of the adx backend.
func adx(g *asmgen.Generator) {
	g.Package("rsa")
	for _, n := range mulWidths {
		montMul(g, n)
	}
	for _, n := range sqrWidths {
		montSqr(g, n)
	}
	gather5(g)
}

// limbs declares the extent of the limb-array arguments names: n limbs
// each, for the model's bounds check.
func limbs(n int, names ...string) asmgen.Option {
	var opts []asmgen.Option
	for _, name := range names {
		opts = append(opts, asmgen.Len(name, strconv.Itoa(n)))
	}
	return asmgen.Options(opts...)
}

// limb returns the memory operand of limb i at base.
func limb(base reg.Register, i int) operand.Mem {
	return operand.Mem{Base: base, Disp: 8 * i}
}

// row emits one row of a product: t[j] (+)= a(j) * RDX for j < n, as one
// pass of MULX. The high word of each product is carried into the next
// limb on the CF chain (ADCX), the accumulator's limb is added on the OF
// chain (ADOX, only when add is set; otherwise t is written, not read). Both
// flags must be clear on entry (XOR of zero with itself). Limb 0 is stored
// unless skipFirst (a reduction row, whose limb 0 is zero by construction).
// It returns the register holding the last high word; the two carries still
// pending in CF and OF belong to limb n with it.
//
// In Go, with c1 the CF chain and c2 the OF chain:
//
//	for j := range n {
//		hi, lo := bits.Mul64(a[j], rdx)
//		lo, c1 = bits.Add64(lo, hiPrev, c1)
//		t[j], c2 = bits.Add64(lo, t[j], c2)
//		hiPrev = hi
//	}
//	// limb n: hiPrev + c1 + c2
func row(g *asmgen.Generator, a func(j int) operand.Mem, t func(j int) operand.Mem, n int, add, skipFirst bool) reg.GPVirtual {
	lo := g.GP64()
	his := [2]reg.GPVirtual{g.GP64(), g.GP64()}
	for j := range n {
		hi := his[j%2]
		g.MULXQ(a(j), lo, hi)
		if j > 0 {
			g.ADCXQ(his[(j+1)%2], lo)
		}
		if add {
			g.ADOXQ(t(j), lo)
		}
		if j > 0 || !skipFirst {
			g.MOVQ(lo, t(j))
		}
	}
	return his[(n-1)%2]
}

// montMul declares montMul<n>ADX: the product x*y (2n limbs, row by row)
// into stack scratch, then the Montgomery reduction (reduce).
func montMul(g *asmgen.Generator, n int) {
	name := fmt.Sprintf("montMul%dADX", n)
	fn := g.Func(name, "func(z, x, y, m *uint64, m0inv uint64)",
		asmgen.Doc(
			fmt.Sprintf("%s sets z to a value below R = 2^%d congruent to x*y/R modulo m, for x, y < R and an odd", name, 64*n),
			fmt.Sprintf("m < R with m0inv = -m^-1 mod 2^64, all of %d limbs (almost Montgomery multiplication:", n),
			"the result is not reduced below m). z may alias x or y."),
		asmgen.Secret("z", "x", "y", "m", "m0inv"), limbs(n, "z", "x", "y", "m"), asmgen.Scratch(16*n))
	T := fn.Scratch()
	at := func(j int) operand.Mem { return T.Offset(8 * j) }
	xp, yp := g.GP64(), g.GP64()
	g.Load(g.Param("x"), xp)
	g.Load(g.Param("y"), yp)
	x := func(j int) operand.Mem { return limb(xp, j) }
	zero := g.GP64()

	fn.Phase("product, row 0: T[0..n] = x * y[0]")
	g.MOVQ(limb(yp, 0), reg.RDX)
	g.XORQ(zero, zero)
	hi := row(g, x, at, n, false, false)
	g.ADCXQ(zero, hi)
	g.MOVQ(hi, at(n))

	fn.Phase("product, rows 1..n-1: T[i..i+n] += x * y[i], T[i+n] written fresh")
	tp, cnt := g.GP64(), g.GP64()
	g.LEAQ(T.Offset(8), tp)
	g.MOVQ(operand.U32(n-1), cnt)
	loop := fn.Label("mulrow")
	g.Label(loop)
	g.ADDQ(operand.U8(8), yp)
	g.MOVQ(limb(yp, 0), reg.RDX)
	g.XORQ(zero, zero)
	hi = row(g, x, func(j int) operand.Mem { return limb(tp, j) }, n, true, false)
	g.ADCXQ(zero, hi)
	g.ADOXQ(zero, hi)
	g.MOVQ(hi, limb(tp, n))
	g.ADDQ(operand.U8(8), tp)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))

	reduce(g, fn, n, T)
	fn.Ret()
}

// montSqr declares montSqr<n>ADX: the square with each cross product
// computed once (the triangle above the diagonal, unrolled), then doubled
// while the squares of the diagonal are added on the other carry chain,
// then the Montgomery reduction (reduce).
func montSqr(g *asmgen.Generator, n int) {
	name := fmt.Sprintf("montSqr%dADX", n)
	fn := g.Func(name, "func(z, x, m *uint64, m0inv uint64)",
		asmgen.Doc(
			fmt.Sprintf("%s sets z to a value below R = 2^%d congruent to x*x/R modulo m, for x < R and an odd", name, 64*n),
			fmt.Sprintf("m < R with m0inv = -m^-1 mod 2^64, all of %d limbs (almost Montgomery squaring). z may alias x.", n)),
		asmgen.Secret("z", "x", "m", "m0inv"), limbs(n, "z", "x", "m"), asmgen.Scratch(16*n))
	T := fn.Scratch()
	at := func(j int) operand.Mem { return T.Offset(8 * j) }
	xp := g.GP64()
	g.Load(g.Param("x"), xp)
	zero := g.GP64()
	sq := squaring{g: g, xp: xp, T: T, zero: zero}

	if n < splitSqr {
		fn.Phase("cross products: T[1..2n-2] = sum of x[i]*x[j] for i < j, row i at T[2i+1..i+n]")
		sq.triangle(0, 0, n, true)
	} else {
		// With x = L + H*2^(64h), h = n/2: the triangles of L and of H
		// unrolled, and L*H in between as h looped rows of h limbs. In
		// this order every row adds only to limbs already written and
		// writes its carry limb fresh, as in the single triangle, and the
		// code stays a quarter of the size.
		h := n / 2
		fn.Phase("cross products of the low half: T[1..n-2]")
		sq.triangle(0, 0, h, true)
		g.MOVQ(zero, at(n-1))
		fn.Phase("cross products, low half times high half: T[h..n+h-1] += L*H, row i writing T[n+i] fresh")
		tp, yp, cnt := g.GP64(), g.GP64(), g.GP64()
		g.LEAQ(at(h), tp)
		g.LEAQ(limb(xp, h), yp)
		g.MOVQ(operand.U32(h), cnt)
		loop := fn.Label("sqrrow")
		g.Label(loop)
		g.MOVQ(limb(yp, 0), reg.RDX)
		g.XORQ(zero, zero)
		hi := row(g, func(j int) operand.Mem { return limb(xp, j) }, func(j int) operand.Mem { return limb(tp, j) }, h, true, false)
		g.ADCXQ(zero, hi)
		g.ADOXQ(zero, hi)
		g.MOVQ(hi, limb(tp, h))
		g.ADDQ(operand.U8(8), yp)
		g.ADDQ(operand.U8(8), tp)
		g.DECQ(cnt)
		g.JNZ(operand.LabelRef(loop))
		fn.Phase("cross products of the high half: T[n+1..2n-2]")
		sq.triangle(h, n, h, false)
	}

	fn.Phase("squares: double the cross products (CF chain) and add x[i]^2 at T[2i] (OF chain)")
	g.XORQ(zero, zero)
	lo, hi, a := g.GP64(), g.GP64(), g.GP64()
	for i := range n {
		g.MOVQ(limb(xp, i), reg.RDX)
		g.MULXQ(reg.RDX, lo, hi)
		if i == 0 {
			// T[0] is zero: the square's low word is the limb.
			g.MOVQ(lo, at(0))
		} else {
			g.MOVQ(at(2*i), a)
			g.ADCXQ(a, a)
			g.ADOXQ(lo, a)
			g.MOVQ(a, at(2*i))
		}
		if i == n-1 {
			// T[2n-1] is zero; both chains end here (the square fits).
			g.MOVQ(operand.U32(0), a)
		} else {
			g.MOVQ(at(2*i+1), a)
		}
		g.ADCXQ(a, a)
		g.ADOXQ(hi, a)
		g.MOVQ(a, at(2*i+1))
	}

	reduce(g, fn, n, T)
	fn.Ret()
}

// splitSqr is the width from which the squaring's triangle is split in
// halves (see montSqr).
const splitSqr = 24

// squaring is what the steps of a squaring kernel share: x's pointer xp,
// the product's scratch T and the zero register.
type squaring struct {
	g    *asmgen.Generator
	xp   reg.Register
	T    operand.Mem
	zero reg.Register
}

// triangle emits the cross products of the size limbs of x from limb xOff,
// added at T[tOff...]: row i is x[xOff+i] * x[xOff+i+1..xOff+size-1] at
// T[tOff+2i+1..], its carry limb written fresh at T[tOff+i+size]. Row 0
// writes instead of adding when fresh is set.
func (s squaring) triangle(xOff, tOff, size int, fresh bool) {
	g, xp, T, zero := s.g, s.xp, s.T, s.zero
	for i := 0; i < size-1; i++ {
		g.MOVQ(limb(xp, xOff+i), reg.RDX)
		g.XORQ(zero, zero)
		add := i > 0 || !fresh
		hi := row(g, func(j int) operand.Mem { return limb(xp, xOff+i+1+j) },
			func(j int) operand.Mem { return T.Offset(8 * (tOff + 2*i + 1 + j)) }, size-1-i, add, false)
		g.ADCXQ(zero, hi)
		if add {
			g.ADOXQ(zero, hi)
		}
		g.MOVQ(hi, T.Offset(8*(tOff+i+size)))
	}
}

// reduce emits the Montgomery reduction of the 2n-limb T (< R²) and the
// store of the result to z: n rows T += m * q_i * 2^(64i) with q_i = T[i] *
// m0inv mod 2^64, each clearing limb i, the carry out of row i added at limb
// i+n together with the one-bit carry top pending from the previous row.
// T[n..2n) + top*R is then below R + m; m is subtracted once, masked by top
// (as m*top, with MULX, which leaves the flags alone), so z < R.
func reduce(g *asmgen.Generator, fn *asmgen.Func, n int, T operand.Mem) {
	mp, m0inv := g.GP64(), g.GP64()
	g.Load(g.Param("m"), mp)
	g.Load(g.Param("m0inv"), m0inv)
	m := func(j int) operand.Mem { return limb(mp, j) }
	tp, cnt, top, zero := g.GP64(), g.GP64(), g.GP64(), g.GP64()

	fn.Phase("Montgomery reduction: one row per limb of T")
	g.LEAQ(T, tp)
	g.MOVQ(operand.U32(n), cnt)
	g.XORQ(top, top)
	loop := fn.Label("redrow")
	g.Label(loop)
	g.MOVQ(limb(tp, 0), reg.RDX)
	g.IMULQ(m0inv, reg.RDX)
	g.XORQ(zero, zero)
	hi := row(g, m, func(j int) operand.Mem { return limb(tp, j) }, n, true, true)
	// Limb i+n gets the row's carries and the previous top on the two
	// chains; their carries out (at most one of them is set: the sum
	// stays below 2^65) make the new top.
	g.ADCXQ(limb(tp, n), hi)
	g.ADOXQ(top, hi)
	g.MOVQ(hi, limb(tp, n))
	g.MOVQ(operand.U32(0), top) // MOV keeps the flags
	g.ADCXQ(zero, top)
	g.ADOXQ(zero, top)
	g.ADDQ(operand.U8(8), tp)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))

	fn.Phase("final subtraction: z = T[n..2n) - m*top")
	a := g.GP64()
	zp := g.GP64()
	g.Load(g.Param("z"), zp)
	g.MOVQ(top, reg.RDX)
	lo, dead := g.GP64(), g.GP64()
	for j := range n {
		g.MULXQ(m(j), lo, dead)
		g.MOVQ(T.Offset(8*(n+j)), a)
		if j == 0 {
			g.SUBQ(lo, a)
		} else {
			g.SBBQ(lo, a)
		}
		g.MOVQ(a, limb(zp, j))
	}
}

// gather5 declares gather5ADX: z = entry k of a 32-entry table of n-limb
// numbers stored interleaved (word j of entry i at table[32j+i]), reading
// every entry. The 16 masks (one 128-bit mask per pair of entries 2p, 2p+1:
// all ones in the lane of the entry equal to k) are computed once into
// stack scratch with PCMPEQL on k broadcast to every 32-bit lane (k < 32, so
// each 64-bit lane compares equal in both halves or in neither); then for
// each limb the 16 pairs are loaded, masked and ORed, and the two lanes
// folded. SSE2 only.
func gather5(g *asmgen.Generator) {
	fn := g.Func("gather5ADX", "func(z *uint64, table *uint64, n int, k uint64)",
		asmgen.Doc("gather5ADX sets z[j] = table[32*j+k] for j < n (n > 0, k < 32), reading all 32*n words of table."),
		asmgen.Secret("z", "table", "k"), asmgen.Public("n"), asmgen.Len("z", "n"), asmgen.Len("table", "32*n"), asmgen.Scratch(256))
	masks := fn.Scratch()
	idx := g.Table("gather5Index", []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	step := g.Table("gather5Step", []byte{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0})

	v := g.Vec()
	kx, cur, two, t := g.XMM(), g.XMM(), g.XMM(), g.XMM()
	kr := g.GP64()
	fn.Phase("masks: one per pair of entries, all ones in the lane of entry k")
	g.Load(g.Param("k"), kr)
	v.MovQ(kr, kx)
	v.ShufD(0, kx, kx)
	v.Mov(idx, cur)
	v.Mov(step, two)
	for p := range 16 {
		v.CmpEqD(kx, cur, t)
		v.Mov(t, masks.Offset(16*p))
		if p < 15 {
			v.AddD(two, cur, cur)
		}
	}

	fn.Phase("gather: every entry of each limb, masked and ORed")
	zp, tab, cnt := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("z"), zp)
	g.Load(g.Param("table"), tab)
	g.Load(g.Param("n"), cnt)
	acc := [2]reg.VecVirtual{g.XMM(), g.XMM()}
	ent, mk := [2]reg.VecVirtual{g.XMM(), g.XMM()}, [2]reg.VecVirtual{g.XMM(), g.XMM()}
	loop := fn.Label("gather")
	g.Label(loop)
	v.Zero(acc[0])
	v.Zero(acc[1])
	for p := range 16 {
		s := p % 2
		v.Mov(operand.Mem{Base: tab, Disp: 16 * p}, ent[s])
		v.Mov(masks.Offset(16*p), mk[s])
		v.And(mk[s], ent[s], ent[s])
		v.Or(ent[s], acc[s], acc[s])
	}
	v.Or(acc[1], acc[0], acc[0])
	v.ShufD(0x4e, acc[0], acc[1])
	v.Or(acc[1], acc[0], acc[0])
	v.MovQ(acc[0], operand.Mem{Base: zp})
	g.ADDQ(operand.U8(8), zp)
	g.ADDQ(operand.U32(256), tab)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
	fn.Ret()
}
