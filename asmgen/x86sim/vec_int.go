package x86sim

import (
	"math/bits"
	"strings"
)

// Element-wise integer arithmetic: adds, subtracts, multiplies, the 52-bit
// multiply-adds of AVX-512 IFMA and the compares into vector registers. The
// taint is per element: a result element is secret when any byte of the
// input elements it is computed from is.

const (
	iOther = iota
	iAdd
	iSub
)

// ielem binds an element-wise two-source op on esize-byte elements; tmask
// selects the bytes of each input element the result depends on (all when
// ^0).
func ielem(vi vinfo, es int, tmask uint64, f func(x, y uint64) uint64, kind int) binder {
	// Adds and subtracts of dwords and qwords, the common ones, run
	// without a call per element.
	add := es >= 4 && kind == iAdd
	sub := es >= 4 && kind == iSub
	return vbinary(vi, false, false, func(_, s1V, s2V vec, n int, _ uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		switch {
		case es == 8 && add:
			for i := 0; i < n/8; i++ {
				r.setU64(i, s1.u64(i)+s2.u64(i))
			}
		case es == 4 && add:
			for i := 0; i < n/4; i++ {
				r.setU32(i, s1.u32(i)+s2.u32(i))
			}
		case es == 8 && sub:
			for i := 0; i < n/8; i++ {
				r.setU64(i, s1.u64(i)-s2.u64(i))
			}
		case es == 4 && sub:
			for i := 0; i < n/4; i++ {
				r.setU32(i, s1.u32(i)-s2.u32(i))
			}
		}
		switch {
		case add || sub:
		case es == 8:
			for i := 0; i < n/8; i++ {
				r.setU64(i, f(s1.u64(i), s2.u64(i)))
			}
		case es == 4:
			for i := 0; i < n/4; i++ {
				r.setU32(i, uint32(f(uint64(s1.u32(i)), uint64(s2.u32(i)))))
			}
		case es == 2:
			for i := 0; i < n/2; i++ {
				r.setU16(i, uint16(f(uint64(s1.u16(i)), uint64(s2.u16(i)))))
			}
		case es == 1:
			for i := 0; i < n; i++ {
				r.b[i] = byte(f(uint64(s1.b[i]), uint64(s2.b[i])))
			}
		}
		r.t = elemSpread((s1.t|s2.t)&tmask, es) & maskBytes(n)
		return
	})
}

func init() {
	type arith struct {
		sse, v string
		es     int
		bw     bool // AVX-512BW (byte/word elements: masks, no broadcast)
		f      func(x, y uint64) uint64
		same   bool
		tmask  uint64
		vexNo  bool // EVEX only
	}
	add := func(x, y uint64) uint64 { return x + y }
	sub := func(x, y uint64) uint64 { return x - y }
	all := ^uint64(0)
	list := []arith{
		{"PADDB", "VPADDB", 1, true, add, false, all, false},
		{"PADDW", "VPADDW", 2, true, add, false, all, false},
		{"PADDL", "VPADDD", 4, false, add, false, all, false},
		{"PADDQ", "VPADDQ", 8, false, add, false, all, false},
		{"PSUBB", "VPSUBB", 1, true, sub, true, all, false},
		{"PSUBW", "VPSUBW", 2, true, sub, true, all, false},
		{"PSUBL", "VPSUBD", 4, false, sub, true, all, false},
		{"PSUBQ", "VPSUBQ", 8, false, sub, true, all, false},
		// PMULUDQ: the low dwords of each qword, unsigned, 64-bit product.
		{"PMULULQ", "VPMULUDQ", 8, false, func(x, y uint64) uint64 { return uint64(uint32(x)) * uint64(uint32(y)) }, false, 0x0f0f0f0f0f0f0f0f, false},
		// PMULDQ: signed low dwords.
		{"PMULDQ", "VPMULDQ", 8, false, func(x, y uint64) uint64 { return uint64(int64(int32(x)) * int64(int32(y))) }, false, 0x0f0f0f0f0f0f0f0f, false},
		{"PMULLD", "VPMULLD", 4, false, func(x, y uint64) uint64 { return uint64(uint32(x) * uint32(y)) }, false, all, false},
		{"", "VPMULLQ", 8, false, func(x, y uint64) uint64 { return x * y }, false, all, true},
		{"PMULLW", "VPMULLW", 2, true, func(x, y uint64) uint64 { return uint64(uint16(x * y)) }, false, all, false},
		{"PMINUD", "VPMINUD", 4, false, func(x, y uint64) uint64 { return min(x, y) }, false, all, false},
		{"PMAXUD", "VPMAXUD", 4, false, func(x, y uint64) uint64 { return max(x, y) }, false, all, false},
		{"", "VPMINUQ", 8, false, func(x, y uint64) uint64 { return min(x, y) }, false, all, true},
		{"", "VPMAXUQ", 8, false, func(x, y uint64) uint64 { return max(x, y) }, false, all, true},
	}
	for _, a := range list {
		vi := vinfo{sse: a.sse != "", vex: !a.vexNo, evex: true, esize: a.es, sameConst: a.same}
		if !a.bw {
			vi.bcst = a.es
		}
		kind := iOther
		switch {
		case strings.Contains(a.v, "PADD"):
			kind = iAdd
		case strings.Contains(a.v, "PSUB"):
			kind = iSub
		}
		b := ielem(vi, a.es, a.tmask, a.f, kind)
		if a.sse != "" {
			ops[a.sse] = b
		}
		ops[a.v] = b
	}

	// Compares into a vector register (SSE and VEX; the EVEX forms write an
	// opmask and are in vec_mask.go): all ones where true. A register
	// compared with itself gives a constant.
	eq := func(x, y uint64) uint64 {
		if x == y {
			return ^uint64(0)
		}
		return 0
	}
	gt := func(es int) func(x, y uint64) uint64 {
		sh := uint(64 - 8*es)
		return func(x, y uint64) uint64 {
			if int64(x<<sh) > int64(y<<sh) {
				return ^uint64(0)
			}
			return 0
		}
	}
	for _, c := range []struct {
		sse, v string
		es     int
		eq     bool
	}{
		{"PCMPEQB", "VPCMPEQB", 1, true}, {"PCMPEQW", "VPCMPEQW", 2, true}, {"PCMPEQL", "VPCMPEQD", 4, true}, {"PCMPEQQ", "VPCMPEQQ", 8, true},
		{"PCMPGTB", "VPCMPGTB", 1, false}, {"PCMPGTW", "VPCMPGTW", 2, false}, {"PCMPGTL", "VPCMPGTD", 4, false}, {"PCMPGTQ", "VPCMPGTQ", 8, false},
	} {
		f := eq
		if !c.eq {
			f = gt(c.es)
		}
		b := ielem(vinfo{sse: true, vex: true, sameConst: true}, c.es, ^uint64(0), f, iOther)
		ops[c.sse] = b
		vecCmp[c.v] = b
	}

	// VPMADD52LUQ/HUQ: dst + the low or high 52 bits of the 104-bit product
	// of the sources' low 52 bits, per qword.
	for _, op := range []string{"VPMADD52LUQ", "VPMADD52HUQ"} {
		hi := op == "VPMADD52HUQ"
		ops[op] = vbinary(vinfo{vex: true, evex: true, esize: 8, bcst: 8}, false, true, func(dV, s1V, s2V vec, n int, _ uint8) (rV vec) {
			r, d, s1, s2 := &rV, &dV, &s1V, &s2V
			const m52 = 1<<52 - 1
			for i := 0; i < n/8; i++ {
				ph, pl := bits.Mul64(s1.u64(i)&m52, s2.u64(i)&m52)
				var p uint64
				if hi {
					p = (ph<<12 | pl>>52) & m52
				} else {
					p = pl & m52
				}
				r.setU64(i, d.u64(i)+p)
			}
			r.t = elemSpread(d.t|(s1.t|s2.t)&0x7f7f7f7f7f7f7f7f, 8) & maskBytes(n)
			return
		})
	}
}

// vecCmp holds the vector-destination binders of the VPCMPEQ/VPCMPGT
// mnemonics; vec_mask.go binds the mnemonic and picks this form or the
// opmask one by the destination.
var vecCmp = map[string]binder{}
