package asmgen

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The shared building blocks. Each emits code into the function being
// generated, uses only SSE2 (so every amd64 backend may use it), branches
// only on lengths and counts (public), and uses virtual registers, so the
// calling generator's register allocation stays free. Pointer and length
// arguments are general-purpose 64-bit registers.

// SliceHeaderSize is the size of a []byte header (pointer, length,
// capacity) in a descriptor array.
const SliceHeaderSize = 24

// CopyBytes emits the gather copy loop: copy n bytes from src to dst, 64 bytes
// at a time, then 16, then 1. It advances dst and src by n and leaves n zero.
// It reads exactly [src, src+n) and writes exactly [dst, dst+n).
func (fn *Func) CopyBytes(dst, src, n reg.Register) {
	g := fn.g
	l64, l16, l1, done := fn.Label("copy64"), fn.Label("copy16"), fn.Label("copy1"), fn.Label("copydone")
	x := [4]reg.VecVirtual{g.XMM(), g.XMM(), g.XMM(), g.XMM()}

	g.Label(l64)
	g.CMPQ(n, operand.U8(64))
	g.JB(operand.LabelRef(l16))
	for k := range x {
		g.MOVOU(operand.Mem{Base: src, Disp: 16 * k}, x[k])
	}
	for k := range x {
		g.MOVOU(x[k], operand.Mem{Base: dst, Disp: 16 * k})
	}
	g.ADDQ(operand.U8(64), src)
	g.ADDQ(operand.U8(64), dst)
	g.SUBQ(operand.U8(64), n)
	g.JMP(operand.LabelRef(l64))

	g.Label(l16)
	g.CMPQ(n, operand.U8(16))
	g.JB(operand.LabelRef(l1))
	g.MOVOU(operand.Mem{Base: src}, x[0])
	g.MOVOU(x[0], operand.Mem{Base: dst})
	g.ADDQ(operand.U8(16), src)
	g.ADDQ(operand.U8(16), dst)
	g.SUBQ(operand.U8(16), n)
	g.JMP(operand.LabelRef(l16))

	g.Label(l1)
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	b := g.GP32()
	g.MOVBLZX(operand.Mem{Base: src}, b)
	g.MOVB(b.As8(), operand.Mem{Base: dst})
	g.INCQ(src)
	g.INCQ(dst)
	g.DECQ(n)
	g.JMP(operand.LabelRef(l1))

	g.Label(done)
}

// XORBytes emits dst[i] = a[i] ^ b[i] for i < n: 16 bytes at a time, then
// bytes. It advances dst, a and b by n and leaves n zero. dst may equal a or
// b; it must not overlap them otherwise.
func (fn *Func) XORBytes(dst, a, b, n reg.Register) {
	g := fn.g
	l16, l1, done := fn.Label("xor16"), fn.Label("xor1"), fn.Label("xordone")
	x, y := g.XMM(), g.XMM()

	g.Label(l16)
	g.CMPQ(n, operand.U8(16))
	g.JB(operand.LabelRef(l1))
	g.MOVOU(operand.Mem{Base: a}, x)
	g.MOVOU(operand.Mem{Base: b}, y)
	g.PXOR(y, x)
	g.MOVOU(x, operand.Mem{Base: dst})
	g.ADDQ(operand.U8(16), a)
	g.ADDQ(operand.U8(16), b)
	g.ADDQ(operand.U8(16), dst)
	g.SUBQ(operand.U8(16), n)
	g.JMP(operand.LabelRef(l16))

	g.Label(l1)
	g.TESTQ(n, n)
	g.JZ(operand.LabelRef(done))
	t, u := g.GP32(), g.GP32()
	g.MOVBLZX(operand.Mem{Base: a}, t)
	g.MOVBLZX(operand.Mem{Base: b}, u)
	g.XORL(u, t)
	g.MOVB(t.As8(), operand.Mem{Base: dst})
	g.INCQ(a)
	g.INCQ(b)
	g.INCQ(dst)
	g.DECQ(n)
	g.JMP(operand.LabelRef(l1))

	g.Label(done)
}

// LoadPartial emits a load of n bytes (0 <= n < 16) from src into the low
// bytes of the 128-bit register x, zeroing its other bytes. It reads exactly
// [src, src+n), never past it, so it is safe at the end of a buffer and a
// page. src and n are not modified.
func (fn *Func) LoadPartial(x reg.VecVirtual, src, n reg.Register) {
	g := fn.g
	big, loop, done := fn.Label("ldpart8"), fn.Label("ldpartloop"), fn.Label("ldpartdone")
	p, cnt, lo, t, b := g.GP64(), g.GP64(), g.GP64(), g.GP64(), g.GP64()
	hi := g.XMM()

	g.MOVQ(src, p)
	g.MOVQ(n, cnt)
	g.XORQ(lo, lo)
	g.CMPQ(cnt, operand.U8(8))
	g.JB(operand.LabelRef(loop))
	g.MOVQ(operand.Mem{Base: p}, lo)
	g.ADDQ(operand.U8(8), p)
	g.SUBQ(operand.U8(8), cnt)

	// t = the remaining cnt (< 8) bytes, little-endian, read from the end.
	g.Label(loop)
	g.XORQ(t, t)
	inner := fn.Label("ldpartbyte")
	g.Label(inner)
	g.TESTQ(cnt, cnt)
	g.JZ(operand.LabelRef(done))
	g.SHLQ(operand.U8(8), t)
	g.MOVBQZX(operand.Mem{Base: p, Index: cnt, Scale: 1, Disp: -1}, b)
	g.ORQ(b, t)
	g.DECQ(cnt)
	g.JMP(operand.LabelRef(inner))

	g.Label(done)
	g.CMPQ(n, operand.U8(8))
	g.JAE(operand.LabelRef(big))
	g.MOVQ(t, lo)
	g.XORQ(t, t)
	g.Label(big)
	g.MOVQ(lo, x)
	g.MOVQ(t, hi)
	g.PUNPCKLQDQ(hi, x)
}

// StorePartial emits a store of the low n bytes (0 <= n < 16) of the 128-bit
// register x to dst. It writes exactly [dst, dst+n), never past it. dst, n
// and x are not modified.
func (fn *Func) StorePartial(dst reg.Register, x reg.VecVirtual, n reg.Register) {
	g := fn.g
	small, loop, done := fn.Label("stpartsmall"), fn.Label("stpartloop"), fn.Label("stpartdone")
	p, cnt, t := g.GP64(), g.GP64(), g.GP64()
	hi := g.XMM()

	g.MOVQ(dst, p)
	g.MOVQ(n, cnt)
	g.MOVQ(x, t)
	g.CMPQ(cnt, operand.U8(8))
	g.JB(operand.LabelRef(small))
	g.MOVQ(t, operand.Mem{Base: p})
	g.ADDQ(operand.U8(8), p)
	g.SUBQ(operand.U8(8), cnt)
	g.MOVOU(x, hi)
	g.PSRLDQ(operand.U8(8), hi)
	g.MOVQ(hi, t)

	g.Label(small)
	g.Label(loop)
	g.TESTQ(cnt, cnt)
	g.JZ(operand.LabelRef(done))
	g.MOVB(t.As8(), operand.Mem{Base: p})
	g.SHRQ(operand.U8(8), t)
	g.INCQ(p)
	g.DECQ(cnt)
	g.JMP(operand.LabelRef(loop))
	g.Label(done)
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

// GatherCopy emits the gather: copy the bytes of count slices described at
// descs (see [Func.ForEachSlice]) one after the other to dst, with the copy
// loop of [Func.CopyBytes]. dst is advanced past the bytes written.
func (fn *Func) GatherCopy(dst, descs, count reg.Register) {
	fn.ForEachSlice(descs, count, func(ptr, n reg.GPVirtual) {
		fn.CopyBytes(dst, ptr, n)
	})
}
