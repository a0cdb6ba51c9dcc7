package main

import (
	"fmt"

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

// frame is a kernel's stack scratch: the 2n-limb accumulator T, then the
// slots of the blocked sweeps (frameExtra bytes): the k multipliers of the
// current block, the carry saved between chunks, the reduction's top carry
// and m0inv.
type frame struct {
	T operand.Mem
	n int
}

// frameExtra is the stack scratch past T, in bytes (a multiple of 16).
const frameExtra = 8*maxBlock + 32

// maxBlock is the largest number of rows a sweep handles per block.
const maxBlock = 8

func (f frame) t(j int) operand.Mem    { return f.T.Offset(8 * j) }
func (f frame) q(r int) operand.Mem    { return f.T.Offset(16*f.n + 8*r) }
func (f frame) cy() operand.Mem        { return f.T.Offset(16*f.n + 8*maxBlock) }
func (f frame) top() operand.Mem       { return f.T.Offset(16*f.n + 8*maxBlock + 8) }
func (f frame) m0invSlot() operand.Mem { return f.T.Offset(16*f.n + 8*maxBlock + 16) }

// blockRows returns the rows per block of a sweep over size limbs with rows
// rows: 8 (the window then takes 9 of the 14 allocatable registers) when
// both are multiples of 8, else 4.
func blockRows(size, rows int) int {
	if size%8 == 0 && rows%8 == 0 {
		return 8
	}
	if size%4 != 0 || rows%4 != 0 {
		panic(fmt.Sprintf("no block size for %d limbs and %d rows", size, rows))
	}
	return 4
}

// sweepKind says where a sweep's multipliers come from and what its last
// window meets.
type sweepKind int

const (
	// productSweep: the multipliers are limbs in memory (their pointer in
	// an XMM register, advanced by block), and the k limbs past each
	// block's last chunk are written fresh.
	productSweep sweepKind = iota
	// reductionSweep: the multipliers are q = T[i]*m0inv, computed in each
	// block's corner; the limbs past the last chunk are added to T
	// together with the top carry of the previous block.
	reductionSweep
)

// sweep emits rows rows of T[tOff+i...] += a * y_i * 2^(64i) over the size
// limbs of a (pointer ap, restored on exit), blocked k = blockRows rows at
// a time so that each limb of T is loaded and stored once per block
// instead of once per row (the structure of OpenSSL's mulx4x and
// sqrx8x_reduction, ALGORITHMS.md §3.2).
//
// A block keeps a window of k limbs of T in registers (k+1 registers,
// rotating: the limb at position p past the chunk start lives in W[p mod
// (k+1)]). Its first chunk (the corner, operand limbs 0..k-1) loads the
// window from T and runs the k rows in turn: row r adds y_r*a[0..k-1] at
// positions r..r+k-1 with the carry limb written fresh at r+k, after which
// position r is final and stored (a reduction's is zero and not stored; its
// q_r, computed from position r just before the row, goes to a stack slot
// for the later chunks). Each later chunk (operand limbs c..c+k-1) adds the
// next k limbs of T to the window (an ADC chain whose carry out, which
// belongs to the first limb of the next chunk, waits in a stack slot) and
// runs the k rows again with the same multipliers. After the last chunk the
// window holds the k limbs past the operand: added to T with the saved
// carries (reduction) or stored fresh (product).
//
// One row, with the window in registers (c1 the CF chain of the low words,
// c2 the OF chain of the high words, w[k] the fresh top limb):
//
//	for j := range k {
//		hi, lo := bits.Mul64(a[c+j], y_r)
//		w[j], c1 = bits.Add64(w[j], lo, c1)
//		if j < k-1 {
//			w[j+1], c2 = bits.Add64(w[j+1], hi, c2)
//		} else {
//			w[k] = hi + c1 + c2 // the row's k+1 limbs hold its sum
//		}
//	}
func sweep(g *asmgen.Generator, fn *asmgen.Func, f frame, kind sweepKind, size, rows, tOff int, ap reg.GPVirtual, yv reg.VecVirtual) {
	k := blockRows(size, rows)
	chunks, blocks := size/k, rows/k
	W := make([]reg.GPVirtual, k+1)
	for i := range W {
		W[i] = g.GP64()
	}
	w := func(p int) reg.GPVirtual { return W[p%(k+1)] }
	lo, hi, tp := g.GP64(), g.GP64(), g.GP64()
	a := func(j int) operand.Mem { return limb(ap, j) }
	t := func(j int) operand.Mem { return limb(tp, j) }
	multiplier := func(r int, corner bool) {
		switch {
		case kind == productSweep:
			g.MOVQ(yv, reg.RDX)
			g.MOVQ(limb(reg.RDX, r), reg.RDX)
		case corner:
			g.MOVQ(w(r), reg.RDX)
			g.IMULQ(f.m0invSlot(), reg.RDX)
			g.MOVQ(reg.RDX, f.q(r))
		default:
			g.MOVQ(f.q(r), reg.RDX)
		}
	}
	// count emits the end of a loop counted in the XMM register c.
	count := func(c reg.VecVirtual, label string) {
		g.MOVQ(c, lo)
		g.DECQ(lo)
		g.MOVQ(lo, c)
		g.JNZ(operand.LabelRef(label))
	}

	g.LEAQ(f.t(tOff), tp)
	if kind == reductionSweep {
		g.MOVQ(operand.U32(0), f.top())
	}
	var blockLabel string
	var bcnt reg.VecVirtual
	if blocks > 1 {
		bcnt = g.XMM()
		g.MOVQ(operand.U32(blocks), lo)
		g.MOVQ(lo, bcnt)
		blockLabel = fn.Label("block")
		g.Label(blockLabel)
	}

	g.Comment(fmt.Sprintf("Corner: %d rows over the first %d limbs, the window loaded from T.", k, k))
	for j := range k {
		g.MOVQ(t(j), W[j])
	}
	for r := range k {
		multiplier(r, true)
		sweepRow(g, a, w, lo, hi, k, r)
		if kind == productSweep {
			g.MOVQ(w(r), t(r))
		}
	}

	if chunks > 1 {
		g.MOVQ(operand.U32(0), f.cy())
		var chunkLabel string
		var ccnt reg.VecVirtual
		if chunks > 2 {
			ccnt = g.XMM()
			g.MOVQ(operand.U32(chunks-1), lo)
			g.MOVQ(lo, ccnt)
			chunkLabel = fn.Label("chunk")
			g.Label(chunkLabel)
		}
		g.Comment("Next chunk: rotate the window back to W[0..k), add the next k limbs of T with the saved carry.")
		g.ADDQ(operand.U32(8*k), ap)
		g.ADDQ(operand.U32(8*k), tp)
		for j := k - 1; j >= 1; j-- {
			g.MOVQ(W[j-1], W[j])
		}
		g.MOVQ(W[k], W[0])
		g.MOVQ(f.cy(), lo)
		g.ADDQ(lo, lo) // CF = saved carry (the slot holds 0 or all ones)
		for j := range k {
			g.ADCQ(t(j), W[j])
		}
		g.SBBQ(lo, lo)
		g.MOVQ(lo, f.cy())
		for r := range k {
			multiplier(r, false)
			sweepRow(g, a, w, lo, hi, k, r)
			g.MOVQ(w(r), t(r))
		}
		if chunks > 2 {
			count(ccnt, chunkLabel)
		}
	}

	g.ADDQ(operand.U32(8*k), tp)
	if kind == reductionSweep {
		g.Comment("Last window: add the next k limbs of T, the saved carry (CF) and the previous block's top (OF).")
		if chunks > 1 {
			g.MOVQ(f.cy(), lo)
		} else {
			g.MOVQ(operand.U32(0), lo)
		}
		g.MOVQ(f.top(), hi)
		g.XORQ(reg.RDX, reg.RDX)
		g.ADCXQ(lo, lo)
		g.ADOXQ(hi, hi)
		for j := range k {
			x := w(k + j)
			g.ADCXQ(t(j), x)
			g.ADOXQ(reg.RDX, x)
			g.MOVQ(x, t(j))
		}
		// The block's value fits in n+k limbs and one bit: at most one
		// of the two carries out is set.
		g.MOVQ(operand.U32(0), lo)
		g.ADCXQ(reg.RDX, lo)
		g.ADOXQ(reg.RDX, lo)
		g.NEGQ(lo)
		g.MOVQ(lo, f.top())
	} else {
		g.Comment("Last window: the saved carry added, stored fresh (the block's sum fits).")
		if chunks > 1 {
			g.MOVQ(f.cy(), lo)
			g.ADDQ(lo, lo)
		}
		for j := range k {
			x := w(k + j)
			if chunks > 1 {
				g.ADCQ(operand.U8(0), x)
			}
			g.MOVQ(x, t(j))
		}
	}
	if chunks > 1 {
		g.SUBQ(operand.U32(8*(size-k)), ap)
	}
	if blocks > 1 {
		if chunks > 1 {
			g.SUBQ(operand.U32(8*(size-k)), tp)
		}
		if kind == productSweep {
			g.MOVQ(yv, lo)
			g.ADDQ(operand.U32(8*k), lo)
			g.MOVQ(lo, yv)
		}
		count(bcnt, blockLabel)
	}
}

// sweepRow emits row r of a chunk (see sweep): window positions r..r+k-1
// += RDX * a[0..k-1], the carry limb written fresh at position r+k. Both
// carries are consumed: the flags are free afterwards.
func sweepRow(g *asmgen.Generator, a func(int) operand.Mem, w func(int) reg.GPVirtual, lo, hi reg.GPVirtual, k, r int) {
	g.XORQ(lo, lo)
	for j := range k {
		if j < k-1 {
			g.MULXQ(a(j), lo, hi)
			g.ADCXQ(lo, w(r+j))
			g.ADOXQ(hi, w(r+j+1))
			continue
		}
		top := w(r + k)
		g.MULXQ(a(j), lo, top)
		g.ADCXQ(lo, w(r+j))
		g.MOVQ(operand.U32(0), hi) // MOV keeps the flags
		g.ADCXQ(hi, top)
		g.ADOXQ(hi, top)
	}
}

// montMul declares montMulADX<n>: the product x*y (2n limbs, blocked
// sweeps) into stack scratch, then the Montgomery reduction (reduce).
func montMul(g *asmgen.Generator, n int) {
	name := fmt.Sprintf("montMulADX%d", n)
	fn := g.Func(name, "func(z, x, y, m *uint64, m0inv uint64)",
		asmgen.Doc(
			fmt.Sprintf("%s sets z to a value below R = 2^%d congruent to x*y/R modulo m, for x, y < R and an odd", name, 64*n),
			fmt.Sprintf("m < R with m0inv = -m^-1 mod 2^64, all of %d limbs (almost Montgomery multiplication:", n),
			"the result is not reduced below m). z may alias x or y."),
		asmgen.Secret("z", "x", "y", "m", "m0inv"), asmgen.Scratch(16*n+frameExtra))
	f := frame{fn.Scratch(), n}
	xp, tmp := g.GP64(), g.GP64()
	yv := g.XMM()
	g.Load(g.Param("x"), xp)
	g.Load(g.Param("y"), tmp)
	g.MOVQ(tmp, yv)
	g.Load(g.Param("m0inv"), tmp)
	g.MOVQ(tmp, f.m0invSlot())

	g.Comment("T[0..n) = 0, then T[0..2n) = x*y in blocks of rows.")
	for j := range n {
		g.MOVQ(operand.U32(0), f.t(j))
	}
	sweep(g, fn, f, productSweep, n, n, 0, xp, yv)

	reduce(g, fn, f)
	fn.Ret()
}

// montSqr declares montSqrADX<n>: the square with each cross product
// computed once (the triangle above the diagonal, unrolled), then doubled
// while the squares of the diagonal are added on the other carry chain,
// then the Montgomery reduction (reduce).
func montSqr(g *asmgen.Generator, n int) {
	name := fmt.Sprintf("montSqrADX%d", n)
	fn := g.Func(name, "func(z, x, m *uint64, m0inv uint64)",
		asmgen.Doc(
			fmt.Sprintf("%s sets z to a value below R = 2^%d congruent to x*x/R modulo m, for x < R and an odd", name, 64*n),
			fmt.Sprintf("m < R with m0inv = -m^-1 mod 2^64, all of %d limbs (almost Montgomery squaring). z may alias x.", n)),
		asmgen.Secret("z", "x", "m", "m0inv"), asmgen.Scratch(16*n+frameExtra))
	f := frame{fn.Scratch(), n}
	T := f.T
	at := f.t
	xp := g.GP64()
	g.Load(g.Param("x"), xp)
	zero := g.GP64()
	g.Load(g.Param("m0inv"), zero)
	g.MOVQ(zero, f.m0invSlot())

	if n < splitSqr {
		g.Comment("Cross products: T[1..2n-2] = sum of x[i]*x[j] for i < j, row i at T[2i+1..i+n].")
		triangle(g, xp, T, zero, 0, 0, n, true)
	} else {
		// With x = L + H*2^(64h), h = n/2: the triangles of L and of H
		// unrolled, and L*H in between as a blocked sweep. In this order
		// every row adds only to limbs already written and writes its
		// carry limbs fresh, as in the single triangle, and the code
		// stays a quarter of the size.
		h := n / 2
		g.Comment("Cross products of the low half: T[1..n-2].")
		triangle(g, xp, T, zero, 0, 0, h, true)
		g.MOVQ(operand.U32(0), at(n-1))
		g.Comment("Low half times high half: T[h..n+h) += L*H, in blocks of rows.")
		yv := g.XMM()
		g.LEAQ(limb(xp, h), zero)
		g.MOVQ(zero, yv)
		sweep(g, fn, f, productSweep, h, h, h, xp, yv)
		g.Comment("Cross products of the high half: T[n+1..2n-2].")
		triangle(g, xp, T, zero, h, n, h, false)
	}

	g.Comment("Double the cross products (CF chain) and add the squares x[i]^2 at T[2i] (OF chain).")
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

	reduce(g, fn, f)
	fn.Ret()
}

// splitSqr is the width from which the squaring's triangle is split in
// halves (see montSqr).
const splitSqr = 24

// triangle emits the cross products of the size limbs of x from limb xOff,
// added at T[tOff...]: row i is x[xOff+i] * x[xOff+i+1..xOff+size-1] at
// T[tOff+2i+1..], its carry limb written fresh at T[tOff+i+size]. Row 0
// writes instead of adding when fresh is set. zero is the zero register.
func triangle(g *asmgen.Generator, xp reg.Register, T operand.Mem, zero reg.Register, xOff, tOff, size int, fresh bool) {
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
// store of the result to z: a reduction sweep adds Q*m to T, with Q =
// sum of q_i*2^(64i), q_i = T[i]*m0inv mod 2^64 computed as the sweep
// reaches limb i, which clears T[0..n). T[n..2n) + top*R is then (T +
// Q*m)/R < R + m; m is subtracted once, masked by top (as m*top, with MULX,
// which leaves the flags alone), so z < R.
func reduce(g *asmgen.Generator, fn *asmgen.Func, f frame) {
	n := f.n
	mp := g.GP64()
	g.Load(g.Param("m"), mp)
	g.Comment("Montgomery reduction: T += Q*m in blocks of rows.")
	sweep(g, fn, f, reductionSweep, n, n, 0, mp, nil)

	g.Comment("z = T[n..2n) - m*top.")
	m := func(j int) operand.Mem { return limb(mp, j) }
	a, zp, lo, dead := g.GP64(), g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("z"), zp)
	g.MOVQ(f.top(), reg.RDX)
	g.NEGQ(reg.RDX) // 0 or 1
	for j := range n {
		g.MULXQ(m(j), lo, dead)
		g.MOVQ(f.t(n+j), a)
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
		asmgen.Secret("z", "table", "k"), asmgen.Public("n"), asmgen.Scratch(256))
	masks := fn.Scratch()
	idx := g.Table("gather5Index", []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	step := g.Table("gather5Step", []byte{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0})

	kx, cur, two, t := g.XMM(), g.XMM(), g.XMM(), g.XMM()
	kr := g.GP64()
	g.Load(g.Param("k"), kr)
	g.MOVQ(kr, kx)
	g.PSHUFD(operand.U8(0), kx, kx)
	g.MOVOU(idx, cur)
	g.MOVOU(step, two)
	for p := range 16 {
		g.MOVOU(cur, t)
		g.PCMPEQL(kx, t)
		g.MOVOU(t, masks.Offset(16*p))
		if p < 15 {
			g.PADDL(two, cur)
		}
	}

	zp, tab, cnt := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("z"), zp)
	g.Load(g.Param("table"), tab)
	g.Load(g.Param("n"), cnt)
	acc := [2]reg.VecVirtual{g.XMM(), g.XMM()}
	v, mk := [2]reg.VecVirtual{g.XMM(), g.XMM()}, [2]reg.VecVirtual{g.XMM(), g.XMM()}
	loop := fn.Label("gather")
	g.Label(loop)
	g.PXOR(acc[0], acc[0])
	g.PXOR(acc[1], acc[1])
	for p := range 16 {
		s := p % 2
		g.MOVOU(operand.Mem{Base: tab, Disp: 16 * p}, v[s])
		g.MOVOU(masks.Offset(16*p), mk[s])
		g.PAND(mk[s], v[s])
		g.POR(v[s], acc[s])
	}
	g.POR(acc[1], acc[0])
	g.PSHUFD(operand.U8(0x4e), acc[0], acc[1])
	g.POR(acc[1], acc[0])
	g.MOVQ(acc[0], operand.Mem{Base: zp})
	g.ADDQ(operand.U8(8), zp)
	g.ADDQ(operand.U32(256), tab)
	g.DECQ(cnt)
	g.JNZ(operand.LabelRef(loop))
	fn.Ret()
}
