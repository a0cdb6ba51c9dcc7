package asmgen

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/cpufeat"
)

// The shared building blocks. Each emits code into the function being
// generated, branches only on lengths and counts (public), and uses virtual
// registers, so the calling generator's register allocation stays free.
// Pointer and length arguments are general-purpose 64-bit registers. Vector
// instructions are [Vec]'s, so VEX wherever the backend allows AVX: a legacy
// SSE instruction after ymm code pays the SSE/AVX transition, which costs
// more than a short seal. Fewer than 16 bytes go through
// general-purpose registers in at most four pieces (8, 4, 2, 1 bytes), never
// byte by byte and never touching memory outside the buffer.

// SliceHeaderSize is the size of a []byte header (pointer, length,
// capacity) in a descriptor array.
const SliceHeaderSize = 24

// CopyBytes emits a copy of n bytes from src to dst with few branches, few
// of them taken on short runs. From 16 bytes: the last 16 bytes of the run
// first, then 64 and 16 bytes at a time from the front while more than 64,
// then 16, bytes remain (the tail store covers the rest; it overlaps the
// stores after it unless n is a multiple of 16). Under 16 bytes: the first
// and the last 8, 4 or 2 bytes (ranges that may overlap), or the one byte.
// Whichever store overlaps another comes first, so a later load of a
// 16-byte block of the run, or of its tail, lies within the youngest store
// to its bytes and is forwarded from it (a load spanning two stores waits
// for both to reach the cache). It reads exactly [src, src+n) and writes
// exactly [dst, dst+n); src may equal dst (bytes rewritten with their own
// value). It advances dst and src by n and leaves n zero.
func (fn *Func) CopyBytes(dst, src, n reg.Register) { fn.CopyBytesMax(dst, src, n, 0) }

// CopyBytesMax is [Func.CopyBytes] for a run known, when generating, to be
// at most max bytes (max 0: no bound): the code no such run reaches is not
// emitted (under 16 bytes, only the small copy; up to 16, the tail store
// alone; up to 64, no 64-byte loop), nor the branches to it.
func (fn *Func) CopyBytesMax(dst, src, n reg.Register, max int) {
	g, v := fn.g, fn.g.Vec()
	l64, l16, small, done := fn.Label("copy64"), fn.Label("copy16"), fn.Label("copysmall"), fn.Label("copydone")
	x := [4]reg.VecVirtual{g.XMM(), g.XMM(), g.XMM(), g.XMM()}
	at := func(p reg.Register, disp int) operand.Mem { return operand.Mem{Base: p, Disp: disp} }
	end := func(p reg.Register, disp int) operand.Mem {
		return operand.Mem{Base: p, Index: n, Scale: 1, Disp: disp}
	}
	step := func(w int) {
		for k := range w / 16 {
			v.Mov(at(src, 16*k), x[k])
		}
		for k := range w / 16 {
			v.Mov(x[k], at(dst, 16*k))
		}
		g.ADDQ(operand.U8(w), src)
		g.ADDQ(operand.U8(w), dst)
		g.SUBQ(operand.U8(w), n)
	}

	switch {
	case max > 0 && max < 16:
	case max > 0 && max <= 16:
		g.CMPQ(n, operand.U8(16))
		g.JB(operand.LabelRef(small))
		v.Mov(end(src, -16), x[0])
		v.Mov(x[0], end(dst, -16))
		g.JMP(operand.LabelRef(done))
	default:
		g.CMPQ(n, operand.U8(16))
		g.JB(operand.LabelRef(small))
		v.Mov(end(src, -16), x[0])
		v.Mov(x[0], end(dst, -16))
		if max == 0 || max > 64 {
			g.CMPQ(n, operand.U8(64))
			g.JA(operand.LabelRef(l64))
		}
		g.Label(l16)
		g.CMPQ(n, operand.U8(16))
		g.JBE(operand.LabelRef(done))
		step(16)
		g.JMP(operand.LabelRef(l16))
		if max == 0 || max > 64 {
			g.Label(l64)
			step(64)
			g.CMPQ(n, operand.U8(64))
			g.JA(operand.LabelRef(l64))
			g.JMP(operand.LabelRef(l16))
		}
	}

	g.Label(small)
	fn.copySmall(dst, src, n, done)
	g.Label(done)
	g.ADDQ(n, src)
	g.ADDQ(n, dst)
	g.XORQ(n, n)
}

// copySmall emits the copy of n < 16 bytes from src to dst, then a jump to
// done: the two ends of width w when n >= w, the last first; one byte falls
// through with a single taken branch.
func (fn *Func) copySmall(dst, src, n reg.Register, done string) {
	g := fn.g
	at := func(p reg.Register, disp int) operand.Mem { return operand.Mem{Base: p, Disp: disp} }
	end := func(p reg.Register, disp int) operand.Mem {
		return operand.Mem{Base: p, Index: n, Scale: 1, Disp: disp}
	}
	t, u := g.GP64(), g.GP64()
	ge8, ge4, ge2 := fn.Label("copyge8"), fn.Label("copyge4"), fn.Label("copyge2")
	ends := func(w int) {
		fn.pieceOp(w, "MOV", end(src, -w), t)
		fn.pieceOp(w, "MOV", at(src, 0), u)
		fn.pieceOp(w, "MOV", t, end(dst, -w))
		fn.pieceOp(w, "MOV", u, at(dst, 0))
		g.JMP(operand.LabelRef(done))
	}
	g.CMPQ(n, operand.U8(4))
	g.JAE(operand.LabelRef(ge4))
	g.CMPQ(n, operand.U8(2))
	g.JAE(operand.LabelRef(ge2))
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	fn.pieceOp(1, "MOV", at(src, 0), t)
	fn.pieceOp(1, "MOV", t, at(dst, 0))
	g.JMP(operand.LabelRef(done))
	g.Label(ge2)
	ends(2)
	g.Label(ge4)
	g.CMPQ(n, operand.U8(8))
	g.JAE(operand.LabelRef(ge8))
	ends(4)
	g.Label(ge8)
	ends(8)
}

// XORBytes emits dst[i] = a[i] ^ b[i] for i < n: where the backend has
// AVX512BW and BMI2, 256 bytes (four zmm registers) at a time, then 64, then
// one 32- and one 16-byte step, then the last bytes in one step under an
// opmask (BZHI of the count); else where it has AVX2,
// 128 bytes (four ymm registers) at a time, then 32, then one 16-byte step;
// otherwise 16 bytes at a time; then the rest in pieces of 8, 4, 2 and 1
// bytes by the bits of the count, through one general register. It
// advances dst, a and b by n and leaves n zero. dst may equal a or b; it
// must not overlap them otherwise. Neither input needs alignment.
func (fn *Func) XORBytes(dst, a, b, n reg.Register) {
	g, v := fn.g, fn.g.Vec()
	l16, tail := fn.Label("xor16"), fn.Label("xortail")
	step := func(w int, x reg.VecVirtual) {
		size := int(x.Size())
		at := func(p reg.Register, k int) operand.Mem { return operand.Mem{Base: p, Disp: k * size} }
		for k := range w / size {
			v.Mov(at(a, k), x)
			v.XorU(at(b, k), x, x)
			v.Mov(x, at(dst, k))
		}
		for _, p := range []reg.Register{a, b, dst} {
			g.ADDQ(operand.U32(w), p)
		}
		g.SUBQ(operand.U32(w), n)
	}
	loop := func(w int, label, next string, x reg.VecVirtual) {
		g.Label(label)
		g.CMPQ(n, operand.U32(w))
		g.JB(operand.LabelRef(next))
		step(w, x)
		g.JMP(operand.LabelRef(label))
	}
	if fn.g.Has(cpufeat.AVX512BW) && fn.g.Has(cpufeat.BMI2) {
		l256, l64, l32, done := fn.Label("xor256"), fn.Label("xor64"), fn.Label("xor32"), fn.Label("xordone")
		loop(256, l256, l64, g.ZMM())
		loop(64, l64, l32, g.ZMM())
		// Below 64 bytes: a 32- and a 16-byte step, whose plain stores a
		// later 8-byte load of the output (Poly1305 over a ciphertext)
		// forwards from, where from a masked store it waits for the cache
		// (Zen 4); then the last n < 16 bytes in one step under a byte
		// mask, the masked-off bytes neither read nor written.
		for _, w := range []struct {
			n     int
			label string
			next  string
			x     reg.VecVirtual
		}{{32, l32, l16, g.YMM()}, {16, l16, tail, g.XMM()}} {
			g.Label(w.label)
			g.CMPQ(n, operand.U8(w.n))
			g.JB(operand.LabelRef(w.next))
			step(w.n, w.x)
		}
		g.Label(tail)
		fn.xorMasked(dst, a, b, n, done)
		g.Label(done)
		return
	}
	if fn.g.Has(cpufeat.AVX2) {
		l128, l32 := fn.Label("xor128"), fn.Label("xor32")
		loop(128, l128, l32, g.YMM())
		loop(32, l32, l16, g.YMM())
		// Below 32 bytes: at most one 16-byte step.
		g.Label(l16)
		g.CMPQ(n, operand.U8(16))
		g.JB(operand.LabelRef(tail))
		step(16, g.XMM())
	} else {
		loop(16, l16, tail, g.XMM())
	}

	g.Label(tail)
	t := g.GP64()
	fn.byPieces(n, []reg.Register{a, b, dst}, func(w int) {
		fn.pieceOp(w, "MOV", operand.Mem{Base: a}, t)
		fn.pieceOp(w, "XOR", operand.Mem{Base: b}, t)
		fn.pieceOp(w, "MOV", t, operand.Mem{Base: dst})
	})
	g.XORQ(n, n)
}

// xorMasked emits XORBytes's last n < 16 bytes in one step under a byte
// mask (BZHI of the count), the masked-off bytes neither read nor
// written, or a jump to done when n is zero.
func (fn *Func) xorMasked(dst, a, b, n reg.Register, done string) {
	g, v := fn.g, fn.g.Vec()
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	ones, m := g.GP64(), g.GP64()
	g.MOVQ(operand.I32(-1), ones)
	g.BZHIQ(n, ones, m)
	k := g.K()
	g.KMOVQ(m, k)
	x, y := g.ZMM(), g.ZMM()
	g.VMOVDQU8_Z(operand.Mem{Base: a}, k, x)
	g.VMOVDQU8_Z(operand.Mem{Base: b}, k, y)
	v.Xor(y, x, x)
	g.VMOVDQU8(x, k, operand.Mem{Base: dst})
	for _, p := range []reg.Register{a, b, dst} {
		g.ADDQ(n, p)
	}
	g.XORQ(n, n)
}

// byPieces emits the last n < 16 bytes as pieces of 8, 4, 2 and 1 bytes,
// one for each bit set in n: body(w) for a piece of w bytes at the pointers,
// then each pointer in ptrs advanced by w. n is not modified.
func (fn *Func) byPieces(n reg.Register, ptrs []reg.Register, body func(w int)) {
	g := fn.g
	for _, w := range []int{8, 4, 2, 1} {
		skip := fn.Label("piece")
		g.TESTQ(operand.U32(w), n)
		g.JZ(operand.LabelRef(skip))
		body(w)
		for _, p := range ptrs {
			g.ADDQ(operand.U8(w), p)
		}
		g.Label(skip)
	}
}

// pieceOp emits the w-byte form (w = 8, 4, 2 or 1) of MOV or XOR between
// src and dst; a general register operand is used at width w.
func (fn *Func) pieceOp(w int, op string, src, dst operand.Op) {
	g := fn.g
	sized := func(o operand.Op) operand.Op {
		r, ok := o.(reg.GPVirtual)
		if !ok {
			return o
		}
		switch w {
		case 4:
			return r.As32()
		case 2:
			return r.As16()
		case 1:
			return r.As8()
		}
		return r
	}
	src, dst = sized(src), sized(dst)
	forms := map[string][4]func(operand.Op, operand.Op){
		"MOV": {g.MOVB, g.MOVW, g.MOVL, g.MOVQ},
		"XOR": {g.XORB, g.XORW, g.XORL, g.XORQ},
	}
	idx := map[int]int{1: 0, 2: 1, 4: 2, 8: 3}[w]
	forms[op][idx](src, dst)
}

// LoadPartialGP returns the n < 16 bytes at src, little-endian, zero-padded,
// in two registers (lo holds bytes 0-7), reading exactly [src, src+n): the
// first 8 bytes in one load when n >= 8, then the rest as the last byte (if
// the count is odd), a 2-byte piece and a 4-byte piece, each shifted in
// below the ones before. src and n are kept.
func (fn *Func) LoadPartialGP(src, n reg.Register) (lo, hi reg.GPVirtual) {
	g := fn.g
	lo, hi = g.GP64(), g.GP64()
	p, c := g.GP64(), g.GP64()
	small := fn.Label("ldsmall")
	g.XORQ(lo, lo)
	g.XORQ(hi, hi)
	g.MOVQ(src, p)
	g.MOVQ(n, c)
	g.CMPQ(n, operand.U8(8))
	g.JB(operand.LabelRef(small))
	g.MOVQ(operand.Mem{Base: src}, lo)
	g.ADDQ(operand.U8(8), p)
	g.SUBQ(operand.U8(8), c)
	g.Label(small)
	t := fn.loadUpTo7(p, c)
	hiDst, end := fn.Label("ldhi"), fn.Label("lddone")
	g.CMPQ(n, operand.U8(8))
	g.JAE(operand.LabelRef(hiDst))
	g.MOVQ(t, lo)
	g.JMP(operand.LabelRef(end))
	g.Label(hiDst)
	g.MOVQ(t, hi)
	g.Label(end)
	return lo, hi
}

// loadUpTo7 returns the c < 8 bytes at p, little-endian, zero-extended:
// the last byte if c is odd, then the 2-byte piece, then the 4-byte piece at
// p, each shifted in below the ones before. p and c are kept.
func (fn *Func) loadUpTo7(p, c reg.Register) reg.GPVirtual {
	g := fn.g
	t, u, q := g.GP64(), g.GP64(), g.GP64()
	no1, no2, no4 := fn.Label("ldno1"), fn.Label("ldno2"), fn.Label("ldno4")
	g.XORQ(t, t)
	g.TESTQ(operand.U32(1), c)
	g.JZ(operand.LabelRef(no1))
	g.MOVBQZX(operand.Mem{Base: p, Index: c, Scale: 1, Disp: -1}, t)
	g.Label(no1)
	g.TESTQ(operand.U32(2), c)
	g.JZ(operand.LabelRef(no2))
	g.MOVQ(c, q)
	g.ANDQ(operand.U8(4), q)
	g.MOVWQZX(operand.Mem{Base: p, Index: q, Scale: 1}, u)
	g.SHLQ(operand.U8(16), t)
	g.ORQ(u, t)
	g.Label(no2)
	g.TESTQ(operand.U32(4), c)
	g.JZ(operand.LabelRef(no4))
	g.MOVL(operand.Mem{Base: p}, u.As32())
	g.SHLQ(operand.U8(32), t)
	g.ORQ(u, t)
	g.Label(no4)
	return t
}

// StorePartialGP writes the low n < 16 bytes of lo, hi (little-endian, lo
// holding bytes 0-7) to dst, writing exactly [dst, dst+n): 8 bytes when
// n >= 8, then 4, 2 and 1 as the count needs. dst and n are kept; lo and hi
// are clobbered.
func (fn *Func) StorePartialGP(dst, n reg.Register, lo, hi reg.GPVirtual) {
	g := fn.g
	p := g.GP64()
	g.MOVQ(dst, p)
	fn.byPieces(n, []reg.Register{p}, func(w int) {
		fn.pieceOp(w, "MOV", lo, operand.Mem{Base: p})
		switch {
		case w == 8:
			g.MOVQ(hi, lo)
		case w > 1:
			g.SHRQ(operand.U8(8*w), lo)
		}
	})
}

// LoadPartial emits a load of n bytes (0 <= n < 16) from src into the low
// bytes of the 128-bit register x, zeroing its other bytes, through
// [Func.LoadPartialGP]. It reads exactly [src, src+n), never past it, so it
// is safe at the end of a buffer and a page. src and n are not modified.
func (fn *Func) LoadPartial(x reg.VecVirtual, src, n reg.Register) {
	v := fn.g.Vec()
	lo, hi := fn.LoadPartialGP(src, n)
	v.MovQ(lo, x)
	v.InsertQ1(hi, x)
}

// StorePartial emits a store of the low n bytes (0 <= n < 16) of the 128-bit
// register x to dst, through [Func.StorePartialGP]. It writes exactly
// [dst, dst+n), never past it. dst, n and x are not modified.
func (fn *Func) StorePartial(dst reg.Register, x reg.VecVirtual, n reg.Register) {
	v := fn.g.Vec()
	lo, hi := fn.g.GP64(), fn.g.GP64()
	v.MovQ(x, lo)
	v.ExtractQ1(x, hi)
	fn.StorePartialGP(dst, n, lo, hi)
}

// ForEachSlice emits the walk over a descriptor array: count slice headers
// ([]byte: pointer, length, capacity; [SliceHeaderSize] bytes each) starting
// at descs. For each, body is emitted with registers holding the slice's
// pointer and length; body may modify both. descs is advanced past the array
// and count is left zero.
func (fn *Func) ForEachSlice(descs, count reg.Register, body func(ptr, n reg.GPVirtual)) {
	g := fn.g
	loop, done := fn.Label("slices"), fn.Label("slicesdone")
	g.Label(loop)
	g.TESTQ(count, count)
	g.JZ(operand.LabelRef(done))
	ptr, n := g.GP64(), g.GP64()
	g.MOVQ(operand.Mem{Base: descs}, ptr)
	g.MOVQ(operand.Mem{Base: descs, Disp: 8}, n)
	body(ptr, n)
	g.ADDQ(operand.U8(SliceHeaderSize), descs)
	g.DECQ(count)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
}

// JoinSlicesMax returns a register pointing at the text of count (public)
// slices described at descs as one run of bytes: the only slice's pointer
// when count is 1, else dst after the slices are copied there one after the
// other (none when count is 0), with [Func.CopyBytesMax] for a text known,
// when generating, to be at most max bytes (max 0: no bound). For a short
// text one copy costs less than handling the slices one by one. The caller
// must make sure the copy cannot clobber a slice not yet read: every slice
// is either exactly its own part of dst or disjoint from it. descs, count
// and dst are kept.
func (fn *Func) JoinSlicesMax(descs, count, dst reg.Register, max int) reg.GPVirtual {
	g := fn.g
	ptr := g.GP64()
	copyIn, done := fn.Label("join"), fn.Label("joined")
	g.CMPQ(count, operand.U8(1))
	g.JNE(operand.LabelRef(copyIn))
	g.MOVQ(operand.Mem{Base: descs}, ptr)
	g.JMP(operand.LabelRef(done))
	g.Label(copyIn)
	d, ds, c := g.GP64(), g.GP64(), g.GP64()
	g.MOVQ(dst, d)
	g.MOVQ(descs, ds)
	g.MOVQ(count, c)
	fn.ForEachSlice(ds, c, func(p, n reg.GPVirtual) {
		fn.CopyBytesMax(d, p, n, max)
	})
	g.MOVQ(dst, ptr)
	g.Label(done)
	return ptr
}

// ForEachSliceGathered is [Func.ForEachSlice] with a shortcut for short
// texts: when there is at least one slice and their total length textLen
// (public, the sum of the lengths) is at most limit, body runs once, on
// the text joined by [Func.JoinSlicesMax] (copied to dst unless it is one
// slice) and textLen; the caller's duty is JoinSlicesMax's. descs is advanced
// past the array when it is walked; count is kept.
func (fn *Func) ForEachSliceGathered(descs, count, dst, textLen reg.Register, limit int, body func(ptr, n reg.GPVirtual)) {
	g := fn.g
	ptr, n, cnt := g.GP64(), g.GP64(), g.GP64()
	loop, run, done := fn.Label("gslices"), fn.Label("gslicebody"), fn.Label("gslicesdone")
	g.MOVQ(count, cnt)
	g.TESTQ(cnt, cnt)
	g.JZ(operand.LabelRef(done))
	g.CMPQ(textLen, operand.U32(limit))
	g.JA(operand.LabelRef(loop))
	g.MOVQ(fn.JoinSlicesMax(descs, cnt, dst, limit), ptr)
	g.MOVQ(textLen, n)
	g.MOVQ(operand.U32(1), cnt)
	g.JMP(operand.LabelRef(run))

	g.Label(loop)
	g.TESTQ(cnt, cnt)
	g.JZ(operand.LabelRef(done))
	g.MOVQ(operand.Mem{Base: descs}, ptr)
	g.MOVQ(operand.Mem{Base: descs, Disp: 8}, n)
	g.Label(run)
	body(ptr, n)
	g.ADDQ(operand.U8(SliceHeaderSize), descs)
	g.DECQ(cnt)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
}

// GatherCopy emits the gather: copy the bytes of count slices described at
// descs (see [Func.ForEachSlice]) one after the other to dst, with the copy
// loop of [Func.CopyBytes]. dst is advanced past the bytes written.
func (fn *Func) GatherCopy(dst, descs, count reg.Register) {
	fn.ForEachSlice(descs, count, func(ptr, n reg.GPVirtual) {
		fn.CopyBytes(dst, ptr, n)
	})
}
