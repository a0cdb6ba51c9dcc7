package main

import (
	"encoding/binary"
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
)

// The ifma backend (the design of the rsaz-avx512 code of AWS-LC and
// OpenSSL, read for its strategy, not ported): numbers of n 52-bit
// digits, one per 64-bit lane of zmm registers (n rounded up to a multiple
// of 8 lanes, the padding lanes zero), multiplied with VPMADD52LUQ and
// VPMADD52HUQ, which add the low or the high 52 bits of the 104-bit product
// of two lanes' low 52 bits to a 64-bit accumulator lane.

// ifmaDigits are the digit counts of the kernels: 20, 30 and 40 digits of
// 52 bits hold the primes of 2048-, 3072- and 4096-bit keys with the two
// spare bits almost Montgomery multiplication needs (4m < R' = 2^(52n)).
var ifmaDigits = []int{20, 30, 40}

// ifmaLanes returns the lane count of an n-digit number: n rounded up to
// whole zmm registers.
func ifmaLanes(n int) int { return (n + 7) / 8 * 8 }

// ifmaLimbs returns the 64-bit limb count that holds n digits.
func ifmaLimbs(n int) int { return (52*n + 63) / 64 }

const mask52 = 1<<52 - 1

// ifma declares every function of the ifma backend.
func ifma(g *asmgen.Generator) {
	g.Package("rsa")
	var m52, ones [64]byte
	for i := range 8 {
		binary.LittleEndian.PutUint64(m52[8*i:], mask52)
		binary.LittleEndian.PutUint64(ones[8*i:], 1)
	}
	t := ifmaTables{mask: g.Table("ifmaMask52", m52[:]), ones: g.Table("ifmaOnes", ones[:])}
	for _, n := range ifmaDigits {
		toDigits(g, n)
		fromDigits(g, n)
		amm(g, t, n, 1)
		amm(g, t, n, 2)
		gatherDual(g, t, n)
	}
}

type ifmaTables struct{ mask, ones operand.Mem }

// toDigits declares toDigits<n>IFMA: the ifmaLimbs(n) 64-bit limbs of x as
// n 52-bit digits, zero-padded to ifmaLanes(n).
func toDigits(g *asmgen.Generator, n int) {
	name := fmt.Sprintf("toDigits%dIFMA", n)
	L, N := ifmaLimbs(n), ifmaLanes(n)
	fn := g.Func(name, "func(z, x *uint64)",
		asmgen.Doc(fmt.Sprintf("%s sets the %d digits z (52 bits each, %d zero lanes after them) to the %d-limb x (< 2^%d).", name, n, N-n, L, 52*n)),
		asmgen.Secret("z", "x"), asmgen.Len("z", fmt.Sprint(N)), asmgen.Len("x", fmt.Sprint(L)))
	zp, xp := g.GP64(), g.GP64()
	g.Load(g.Param("z"), zp)
	g.Load(g.Param("x"), xp)
	mk := g.GP64()
	g.MOVQ(operand.U64(mask52), mk)
	for i := range n {
		b := 52 * i
		l, s := b/64, b%64
		d := g.GP64()
		g.MOVQ(limb(xp, l), d)
		if s > 0 {
			g.SHRQ(operand.U8(s), d)
		}
		if s > 12 && l+1 < L {
			u := g.GP64()
			g.MOVQ(limb(xp, l+1), u)
			g.SHLQ(operand.U8(64-s), u)
			g.ORQ(u, d)
		}
		g.ANDQ(mk, d)
		g.MOVQ(d, limb(zp, i))
	}
	if N > n {
		zero := g.GP64()
		g.XORQ(zero, zero)
		for i := n; i < N; i++ {
			g.MOVQ(zero, limb(zp, i))
		}
	}
	fn.Ret()
}

// fromDigits declares fromDigits<n>IFMA: the n digits of x (each below
// 2^52) as ifmaLimbs(n) 64-bit limbs.
func fromDigits(g *asmgen.Generator, n int) {
	name := fmt.Sprintf("fromDigits%dIFMA", n)
	L, N := ifmaLimbs(n), ifmaLanes(n)
	fn := g.Func(name, "func(z, x *uint64)",
		asmgen.Doc(fmt.Sprintf("%s sets the %d limbs z to the %d digits x, each below 2^52.", name, L, n)),
		asmgen.Secret("z", "x"), asmgen.Len("z", fmt.Sprint(L)), asmgen.Len("x", fmt.Sprint(N)))
	zp, xp := g.GP64(), g.GP64()
	g.Load(g.Param("z"), zp)
	g.Load(g.Param("x"), xp)
	for j := range L {
		acc := g.GP64()
		first := true
		for i := range n {
			lo, hi := 52*i, 52*i+52
			if hi <= 64*j || lo >= 64*j+64 {
				continue
			}
			d := acc
			if !first {
				d = g.GP64()
			}
			g.MOVQ(limb(xp, i), d)
			switch {
			case lo > 64*j:
				g.SHLQ(operand.U8(lo-64*j), d)
			case lo < 64*j:
				g.SHRQ(operand.U8(64*j-lo), d)
			}
			if !first {
				g.ORQ(d, acc)
			}
			first = false
		}
		g.MOVQ(acc, limb(zp, j))
	}
	fn.Ret()
}

// ammStream is the registers of one multiplication of amm.
type ammStream struct {
	xp, yp, mp reg.GPVirtual
	k0m        operand.Mem // k0 in the argument frame, for a broadcast operand
	acc        []reg.VecVirtual
	b, y, zz   reg.VecVirtual
	lane0      reg.OpmaskVirtual
	z          string
	split      int // registers whose high halves go through a fresh register (ammSplit)
}

// ammSplit is the number of accumulator registers (from the lowest) whose
// y-digit-independent products and high halves are gathered in a fresh
// register each digit and added after the shift, which takes them off the
// register's chain of multiply-adds (VALIGNQ, add, one VPMADD52LUQ by q,
// VALIGNQ). The single kernels take it for every register (faster, as the
// module README says); the dual ones for the lowest only: more gained
// nothing at 20 digits, and more registers fail avo's allocation at 30 and
// 40 digits.
func ammSplit(R, streams int) int {
	if streams == 2 {
		return 1
	}
	return R
}

// ammDigit emits one iteration of amm's digit loop for every stream. On
// entry the stream's b holds the digit y[i] broadcast and acc[0] already
// includes lo52(x[0..7] * y[i]) (from the previous iteration, or the
// prologue): the quotient digit depends on lane 0 only, so the iteration
// keeps what lane 0 of the next one needs off the accumulator's chain of
// multiply-adds. The chain is q (one VPMADD52LUQ of acc[0] by k0, then a
// broadcast of lane 0), lo52(m[0..7] * q) into a fresh register, one add,
// the carry of lane 0, the shift (VALIGNQ) and one add of v, where v (also
// fresh) gathers hi52(m[0..7] * q), hi52(x[0..7] * y[i]), lo52(x[0..7] *
// y[i+1]) and the carry; the other registers take their products directly.
// last drops the next digit (y[n] does not exist).
func ammDigit(g *asmgen.Generator, ss []*ammStream, R int, idx reg.GPVirtual, last bool) {
	vec := func(p reg.Register, k int) operand.Mem { return operand.Mem{Base: p, Disp: 64 * k} }
	type tmp struct {
		yv, bn, p reg.VecVirtual
		h         []reg.VecVirtual
	}
	ts := make([]tmp, len(ss))
	for i, st := range ss {
		t := &ts[i]
		t.yv, t.p = g.ZMM(), g.ZMM()
		g.VPXORQ(t.yv, t.yv, t.yv)
		g.VPMADD52LUQ_BCST(st.k0m, st.acc[0], t.yv)
		g.VPBROADCASTQ(t.yv.AsX(), st.y)
	}
	for i, st := range ss {
		t := &ts[i]
		if !last {
			t.bn = g.ZMM()
			g.VPBROADCASTQ(operand.Mem{Base: st.yp, Index: idx, Scale: 8, Disp: 8}, t.bn)
		}
		for k := range st.split {
			h := g.ZMM()
			t.h = append(t.h, h)
			g.VPXORQ(h, h, h)
			g.VPMADD52HUQ(vec(st.xp, k), st.b, h)
			if !last {
				g.VPMADD52LUQ(vec(st.xp, k), t.bn, h)
			}
		}
		for k := st.split; k < R; k++ {
			g.VPMADD52LUQ(vec(st.xp, k), st.b, st.acc[k])
		}
	}
	for i, st := range ss {
		t := &ts[i]
		g.VPXORQ(t.p, t.p, t.p)
		g.VPMADD52LUQ(vec(st.mp, 0), st.y, t.p)
		g.VPMADD52HUQ(vec(st.mp, 0), st.y, t.h[0])
		for k := 1; k < R; k++ {
			g.VPMADD52LUQ(vec(st.mp, k), st.y, st.acc[k])
			if k < st.split {
				g.VPMADD52HUQ(vec(st.mp, k), st.y, t.h[k])
			}
		}
	}
	for i, st := range ss {
		t := &ts[i]
		g.VPADDQ(t.p, st.acc[0], st.acc[0])
		g.VPSRLQ(operand.U8(52), st.acc[0], t.p)
		g.VPADDQ(t.p, t.h[0], st.lane0, t.h[0])
		for k := range R {
			next := st.zz
			if k+1 < R {
				next = st.acc[k+1]
			}
			g.VALIGNQ(operand.U8(1), st.acc[k], next, st.acc[k])
		}
		for k := range st.split {
			g.VPADDQ(t.h[k], st.acc[k], st.acc[k])
		}
	}
	for i, st := range ss {
		for k := st.split; k < R; k++ {
			g.VPMADD52HUQ(vec(st.xp, k), st.b, st.acc[k])
			g.VPMADD52HUQ(vec(st.mp, k), st.y, st.acc[k])
		}
		if !last {
			g.VMOVDQU64(ts[i].bn, st.b)
		}
	}
}

// amm declares amm<n>IFMA (streams 1) or ammDual<n>IFMA (streams 2, two
// independent multiplications, each with its own modulus and k0, advanced
// together so that one's dependency chain fills the other's latency).
//
// Almost Montgomery multiplication, one digit b = y[i] of y per iteration,
// the accumulator A (n lanes of 64 bits, not normalized) in registers:
//
//	A += lo52(x * b)              // lane j: bits 0..51 of x[j]*b
//	q  = (A[0] * k0) mod 2^52     // k0 = -m^-1 mod 2^52
//	A += lo52(m * q)              // now A[0] = 0 mod 2^52
//	A  = A >> 64 (one lane), A[0] += old A[0] >> 52
//	A += hi52(x * b) + hi52(m * q) // bits 52..103, one digit up: lane j
//
// Each iteration adds less than 2^54 to a lane, so after 40 iterations a
// lane is below 2^60: no overflow, and no normalization inside the loop.
// The result (x*y + Q*m)/R' with R' = 2^(52n) is below 2m for x, y < 2m
// (4m < R'), and below R' for x < R', y < 2m. Then normalization, without a
// branch: each lane's carry (>> 52) is added to the next lane (one shift of
// the carries across the registers, VALIGNQ), which leaves lanes below
// 2^53; the carries that are left ripple only through lanes equal to 2^52-1,
// so with G (lanes above 2^52-1) and P (lanes equal to it) as bit masks the
// lanes that receive a carry are ((G|P) + G) ^ P, one addition in a general
// register; those lanes get +1, and every lane is masked to 52 bits.
func amm(g *asmgen.Generator, t ifmaTables, n, streams int) {
	N := ifmaLanes(n)
	R := N / 8
	fn, sfx := ammFunc(g, n, streams)
	ss := ammStreams(g, sfx, R)
	zz := g.ZMM()
	g.VPXORQ(zz, zz, zz)
	lane0 := g.K()
	one := g.GP32()
	g.MOVL(operand.U32(1), one)
	g.KMOVW(one, lane0)
	idx := g.GP64()
	g.XORQ(idx, idx)
	for _, st := range ss {
		st.zz, st.lane0 = zz, lane0
	}

	for _, st := range ss {
		st.split = ammSplit(R, streams)
		g.VPBROADCASTQ(operand.Mem{Base: st.yp}, st.b)
		for k := range st.split {
			g.VPMADD52LUQ(ammVec(st.xp, k), st.b, st.acc[k])
		}
	}

	fn.Phase("digit loop: one digit of y per iteration, the streams interleaved")
	loop := fn.Label("digit")
	g.Label(loop)
	ammDigit(g, ss, R, idx, false)
	g.INCQ(idx)
	g.CMPQ(idx, operand.U32(n-1))
	g.JNE(operand.LabelRef(loop))
	fn.Phase("last digit")
	ammDigit(g, ss, R, idx, true)

	fn.Phase("normalization: carries into the next lane, then the ripple through lanes of 2^52-1")
	ammNormalize(g, t, ss, zz)
	fn.Ret()
}

// ammVec is the memory operand of register k (8 lanes) of the digits at p.
func ammVec(p reg.Register, k int) operand.Mem { return operand.Mem{Base: p, Disp: 64 * k} }

// ammFunc declares amm<n>IFMA (streams 1) or ammDual<n>IFMA (streams 2)
// and returns it with the suffixes of its streams' parameters ("", or "a"
// and "b").
func ammFunc(g *asmgen.Generator, n, streams int) (*asmgen.Func, []string) {
	N := ifmaLanes(n)
	var name, sig string
	var ptrs, secrets []string
	sfx := []string{""}
	if streams == 1 {
		name = fmt.Sprintf("amm%dIFMA", n)
		sig = "func(z, x, y, m *uint64, k0 uint64)"
	} else {
		name = fmt.Sprintf("ammDual%dIFMA", n)
		sig = "func(za, xa, ya, ma *uint64, k0a uint64, zb, xb, yb, mb *uint64, k0b uint64)"
		sfx = []string{"a", "b"}
	}
	for _, s := range sfx {
		ptrs = append(ptrs, "z"+s, "x"+s, "y"+s, "m"+s)
		secrets = append(secrets, "z"+s, "x"+s, "y"+s, "m"+s, "k0"+s)
	}
	doc := []string{
		fmt.Sprintf("%s sets z to a value congruent to x*y/R' modulo m, R' = 2^%d, for an odd m with 4m < R'", name, 52*n),
		fmt.Sprintf("and k0 = -m^-1 mod 2^52 (any k0 = -m^-1 mod 2^64 will do): almost Montgomery multiplication on %d", n),
		fmt.Sprintf("digits of 52 bits (in %d lanes, the last %d zero), below 2m for x, y < 2m, below R' for x < R', y < 2m.", N, N-n),
		"z may alias x or y.",
	}
	if streams == 2 {
		doc = append(doc, "It does two independent multiplications: za from xa, ya, ma, k0a and zb from xb, yb, mb, k0b.")
	}
	return g.Func(name, sig, asmgen.Doc(doc...), asmgen.Secret(secrets...), limbs(N, ptrs...)), sfx
}

// ammStreams loads each stream's pointers (the parameters with suffix sfx)
// and k0's address, and zeroes its R accumulator registers.
func ammStreams(g *asmgen.Generator, sfx []string, R int) []*ammStream {
	ss := make([]*ammStream, len(sfx))
	for i, s := range sfx {
		st := &ammStream{xp: g.GP64(), yp: g.GP64(), mp: g.GP64(), z: "z" + s}
		g.Load(g.Param("x"+s), st.xp)
		g.Load(g.Param("y"+s), st.yp)
		g.Load(g.Param("m"+s), st.mp)
		k0, err := g.Param("k0" + s).Resolve()
		if err != nil {
			panic(err)
		}
		st.k0m = k0.Addr
		st.b, st.y = g.ZMM(), g.ZMM()
		for range R {
			a := g.ZMM()
			g.VPXORQ(a, a, a)
			st.acc = append(st.acc, a)
		}
		ss[i] = st
	}
	return ss
}

// ammNormalize emits the normalization of each stream's accumulator and
// its store to z (see amm); zz is the zero register.
func ammNormalize(g *asmgen.Generator, t ifmaTables, ss []*ammStream, zz reg.VecVirtual) {
	R := len(ss[0].acc)
	m52, ones := g.ZMM(), g.ZMM()
	g.VMOVDQU64(t.mask, m52)
	g.VMOVDQU64(t.ones, ones)
	kg, kp, kc := g.K(), g.K(), g.K()
	for _, st := range ss {
		cs := make([]reg.VecVirtual, R)
		for k := range R {
			cs[k] = g.ZMM()
			g.VPSRLQ(operand.U8(52), st.acc[k], cs[k])
			g.VPANDQ(m52, st.acc[k], st.acc[k])
		}
		for k := R - 1; k >= 0; k-- {
			prev := zz
			if k > 0 {
				prev = cs[k-1]
			}
			g.VALIGNQ(operand.U8(7), prev, cs[k], cs[k])
		}
		G, P, r := g.GP64(), g.GP64(), g.GP64()
		g.XORQ(G, G)
		g.XORQ(P, P)
		for k := range R {
			g.VPADDQ(cs[k], st.acc[k], st.acc[k])
			g.VPCMPUQ(operand.U8(6), m52, st.acc[k], kg) // lane > 2^52-1
			g.VPCMPUQ(operand.U8(0), m52, st.acc[k], kp) // lane = 2^52-1
			g.KMOVW(kg, r.As32())
			if k > 0 {
				g.SHLQ(operand.U8(8*k), r)
			}
			g.ORQ(r, G)
			g.KMOVW(kp, r.As32())
			if k > 0 {
				g.SHLQ(operand.U8(8*k), r)
			}
			g.ORQ(r, P)
		}
		// The lanes that receive a carry: ((G|P) + G) ^ P.
		c := g.GP64()
		g.MOVQ(G, c)
		g.ORQ(P, c)
		g.ADDQ(G, c)
		g.XORQ(P, c)
		zp := g.GP64()
		g.Load(g.Param(st.z), zp)
		for k := range R {
			g.MOVQ(c, r)
			if k > 0 {
				g.SHRQ(operand.U8(8*k), r)
			}
			g.KMOVW(r.As32(), kc)
			g.VPADDQ(ones, st.acc[k], kc, st.acc[k])
			g.VPANDQ(m52, st.acc[k], st.acc[k])
			g.VMOVDQU64(st.acc[k], ammVec(zp, k))
		}
	}
}

// gatherDual declares gatherDual<n>IFMA: entry ka of the 32-entry table ta
// into za and entry kb of tb into zb (entries of ifmaLanes(n) digits, one
// after the other), one pass over both tables reading every entry: per
// entry a compare of its index (a vector counter) with each broadcast k
// into an opmask, and a merge-masked OR of each register of the entry into
// the stream's accumulator. No address or branch depends on ka or kb.
func gatherDual(g *asmgen.Generator, t ifmaTables, n int) {
	name := fmt.Sprintf("gatherDual%dIFMA", n)
	N := ifmaLanes(n)
	R := N / 8
	fn := g.Func(name, "func(za, ta *uint64, ka uint64, zb, tb *uint64, kb uint64)",
		asmgen.Doc(fmt.Sprintf("%s sets za = entry ka of ta and zb = entry kb of tb (ka, kb < 32; entries of %d words), reading every entry of both tables.", name, N)),
		asmgen.Secret("za", "ta", "ka", "zb", "tb", "kb"), limbs(N, "za", "zb"), limbs(32*N, "ta", "tb"))
	type stream struct {
		tp  reg.GPVirtual
		kv  reg.VecVirtual
		k   reg.OpmaskVirtual
		acc []reg.VecVirtual
		z   string
	}
	var ss []*stream
	for _, s := range []string{"a", "b"} {
		st := &stream{tp: g.GP64(), kv: g.ZMM(), k: g.K(), z: "z" + s}
		g.Load(g.Param("t"+s), st.tp)
		kc, err := g.Param("k" + s).Resolve()
		if err != nil {
			panic(err)
		}
		g.VPBROADCASTQ(kc.Addr, st.kv)
		for range R {
			a := g.ZMM()
			g.VPXORQ(a, a, a)
			st.acc = append(st.acc, a)
		}
		ss = append(ss, st)
	}
	cnt, ones, e := g.ZMM(), g.ZMM(), g.ZMM()
	g.VPXORQ(cnt, cnt, cnt)
	g.VMOVDQU64(t.ones, ones)
	left := g.GP64()
	g.MOVQ(operand.U32(32), left)
	fn.Phase("gather: every entry of both tables, merged under the compare masks")
	loop := fn.Label("entry")
	g.Label(loop)
	for _, st := range ss {
		g.VPCMPEQQ(cnt, st.kv, st.k)
	}
	for _, st := range ss {
		for r := range R {
			g.VMOVDQU64(operand.Mem{Base: st.tp, Disp: 64 * r}, e)
			g.VPORQ(e, st.acc[r], st.k, st.acc[r])
		}
		g.ADDQ(operand.U32(8*N), st.tp)
	}
	g.VPADDQ(ones, cnt, cnt)
	g.DECQ(left)
	g.JNZ(operand.LabelRef(loop))
	for _, st := range ss {
		zp := g.GP64()
		g.Load(g.Param(st.z), zp)
		for r := range R {
			g.VMOVDQU64(st.acc[r], operand.Mem{Base: zp, Disp: 64 * r})
		}
	}
	fn.Ret()
}
