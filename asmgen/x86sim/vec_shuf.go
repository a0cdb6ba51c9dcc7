package x86sim

import "fmt"

// Shuffles, permutes, unpacks, blends, broadcasts, inserts and extracts.
// Taint moves with the data: an output byte is secret when the source byte
// it took is, or when the control (a shuffle-control byte, a permute index)
// that chose it is.

// idxT returns the taint of an esize-byte output element chosen by index
// element i of idx: all of it when any byte of the index element is secret.
func idxT(idx *vec, i, es int) uint64 {
	if idx.t>>(i*es)&maskBytes(es) != 0 {
		return maskBytes(es) << (i * es)
	}
	return 0
}

// copyElem copies element j of s to element i of r (esize es), with taint.
func copyElem(r *vec, i int, s *vec, j, es int) { r.copyBytes(i*es, s, j*es, es) }

func init() {
	// PSHUFB: per 128-bit lane, byte i = bit 7 of control byte i ? 0 :
	// src[control & 15]. SSE "ctl, x" shuffles x; VEX "ctl, src, dst".
	pshufb := vbinary(vinfo{sse: true, vex: true, evex: true, esize: 1, nofs: true}, false, false, func(_, s1V, s2V vec, n int, _ uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		for l := 0; l < n; l += 16 {
			for i := l; i < l+16; i++ {
				c := s2.b[i]
				if c&0x80 == 0 {
					r.copyBytes(i, s1, l+int(c&15), 1)
				}
			}
		}
		r.t |= s2.t & maskBytes(n)
		return
	})
	ops["PSHUFB"] = pshufb
	ops["VPSHUFB"] = pshufb

	// PSHUFD $imm, src, dst: per lane, dword i = src dword imm[2i+1:2i].
	pshufd := vunary(vinfo{sse: true, vex: true, evex: true, esize: 4, bcst: 4, nofs: true}, true, func(sV vec, n int, imm uint8) (rV vec) {
		r, s := &rV, &sV
		for l := 0; l < n/4; l += 4 {
			for i := 0; i < 4; i++ {
				copyElem(r, l+i, s, l+int(imm>>(2*i)&3), 4)
			}
		}
		return
	})
	ops["PSHUFD"] = pshufd
	ops["VPSHUFD"] = pshufd
	// PSHUFHW/PSHUFLW: the same on the high or low four words of each lane.
	for _, op := range []string{"PSHUFHW", "PSHUFLW"} {
		off := 0
		if op == "PSHUFHW" {
			off = 4
		}
		b := vunary(vinfo{sse: true, vex: true, evex: true, esize: 2, nofs: true}, true, func(sV vec, n int, imm uint8) (rV vec) {
			r, s := &rV, &sV
			*r = *s
			r.t &= maskBytes(n)
			for l := 0; l < n/2; l += 8 {
				for i := 0; i < 4; i++ {
					copyElem(r, l+off+i, s, l+off+int(imm>>(2*i)&3), 2)
				}
			}
			return
		})
		ops[op] = b
		ops["V"+op] = b
	}

	// Unpacks: per 128-bit lane, interleave the low (L) or high (H)
	// elements of s1 (even positions) and s2 (odd positions).
	for _, u := range []struct {
		sse, v string
		es     int
		hi     bool
	}{
		{"PUNPCKLBW", "VPUNPCKLBW", 1, false}, {"PUNPCKLWL", "VPUNPCKLWD", 2, false}, {"PUNPCKLLQ", "VPUNPCKLDQ", 4, false}, {"PUNPCKLQDQ", "VPUNPCKLQDQ", 8, false},
		{"PUNPCKHBW", "VPUNPCKHBW", 1, true}, {"PUNPCKHWL", "VPUNPCKHWD", 2, true}, {"PUNPCKHLQ", "VPUNPCKHDQ", 4, true}, {"PUNPCKHQDQ", "VPUNPCKHQDQ", 8, true},
	} {
		es := u.es
		base := 0
		if u.hi {
			base = 8 / es
		}
		vi := vinfo{sse: true, vex: true, evex: true, esize: es, nofs: true}
		if es >= 4 {
			vi.bcst = es
		}
		b := vbinary(vi, false, false, func(_, s1V, s2V vec, n int, _ uint8) (rV vec) {
			r, s1, s2 := &rV, &s1V, &s2V
			per := 16 / es
			for l := 0; l < n/es; l += per {
				for i := 0; i < per/2; i++ {
					copyElem(r, l+2*i, s1, l+base+i, es)
					copyElem(r, l+2*i+1, s2, l+base+i, es)
				}
			}
			return
		})
		ops[u.sse] = b
		ops[u.v] = b
	}

	// VPBLENDD $imm, s2, s1, dst (VEX): dword i = imm bit i%8 ? s2 : s1.
	ops["VPBLENDD"] = vbinary(vinfo{vex: true}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		for i := 0; i < n/4; i++ {
			if imm>>(i%8)&1 != 0 {
				copyElem(r, i, s2, i, 4)
			} else {
				copyElem(r, i, s1, i, 4)
			}
		}
		return
	})
	// PBLENDW/VPBLENDW: the same on words, imm bit i%8 per lane.
	pblendw := vbinary(vinfo{sse: true, vex: true}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		for i := 0; i < n/2; i++ {
			if imm>>(i%8)&1 != 0 {
				copyElem(r, i, s2, i, 2)
			} else {
				copyElem(r, i, s1, i, 2)
			}
		}
		return
	})
	ops["PBLENDW"] = pblendw
	ops["VPBLENDW"] = pblendw

	// VPERM2I128 $imm, s2, s1, dst (VEX.256): lane j from {s1 low, s1
	// high, s2 low, s2 high}[imm[4j+1:4j]], zero when imm bit 4j+3.
	perm2 := vbinary(vinfo{vex: true, lens: lenY}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		for j := 0; j < 2; j++ {
			c := imm >> (4 * j)
			if c&8 != 0 {
				continue
			}
			s := s1
			if c&2 != 0 {
				s = s2
			}
			r.copyBytes(16*j, s, 16*int(c&1), 16)
		}
		return
	})
	ops["VPERM2I128"] = perm2
	ops["VPERM2F128"] = perm2

	// VSHUFI32X4/VSHUFI64X2 $imm, s2, s1, [K,] dst (EVEX 256/512): the low
	// half of the lanes from s1, the high half from s2, each chosen by imm.
	for _, op := range []string{"VSHUFI32X4", "VSHUFI64X2", "VSHUFF32X4", "VSHUFF64X2"} {
		es := 4
		if op[len(op)-2:] == "X2" {
			es = 8
		}
		ops[op] = vbinary(vinfo{evex: true, lens: lenY | lenZ, esize: es, bcst: es, nofs: true}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
			r, s1, s2 := &rV, &s1V, &s2V
			nl := n / 16
			bits, mk := 2, uint8(3)
			if nl == 2 {
				bits, mk = 1, 1
			}
			for j := 0; j < nl; j++ {
				s := s1
				if j >= nl/2 {
					s = s2
				}
				r.copyBytes(16*j, s, 16*int(imm>>(bits*j)&mk), 16)
			}
			return
		})
	}

	// VALIGND/VALIGNQ $imm, s2, s1, [K,] dst: elements imm.. of s1:s2 (s1
	// high), imm modulo the element count.
	for _, op := range []string{"VALIGND", "VALIGNQ"} {
		es := 4
		if op == "VALIGNQ" {
			es = 8
		}
		ops[op] = vbinary(vinfo{evex: true, esize: es, bcst: es, nofs: true}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
			r, s1, s2 := &rV, &s1V, &s2V
			ne := n / es
			k := int(imm) & (ne - 1)
			for i := 0; i < ne; i++ {
				j := i + k
				if j < ne {
					copyElem(r, i, s2, j, es)
				} else {
					copyElem(r, i, s1, j-ne, es)
				}
			}
			return
		})
	}

	// VPERMQ/VPERMPD $imm, src, [K,] dst (256/512): per 256-bit half, qword
	// i = src qword imm[2i+1:2i] of that half. VPERMQ table, idx, [K,] dst
	// (EVEX): qword i = table[idx[i] mod count].
	permqImm := vunary(vinfo{vex: true, evex: true, lens: lenY | lenZ, esize: 8, bcst: 8, nofs: true}, true, func(sV vec, n int, imm uint8) (rV vec) {
		r, s := &rV, &sV
		for h := 0; h < n/8; h += 4 {
			for i := 0; i < 4; i++ {
				copyElem(r, h+i, s, h+int(imm>>(2*i)&3), 8)
			}
		}
		return
	})
	permVar := func(es int, vi vinfo) binder {
		return vbinary(vi, false, false, func(_, idxV, tblV vec, n int, _ uint8) (rV vec) {
			r, idx, tbl := &rV, &idxV, &tblV
			ne := n / es
			for i := 0; i < ne; i++ {
				copyElem(r, i, tbl, int(idx.elemGet(i, es))&(ne-1), es)
				r.t |= idxT(idx, i, es)
			}
			return
		})
	}
	permqVar := permVar(8, vinfo{evex: true, lens: lenY | lenZ, esize: 8, bcst: 8, nofs: true})
	for _, op := range []string{"VPERMQ", "VPERMPD"} {
		ops[op] = func(in *inst) error {
			if len(in.args) > 0 && isImm(in.args[0]) {
				return permqImm(in)
			}
			return permqVar(in)
		}
	}
	ops["VPERMD"] = permVar(4, vinfo{vex: true, evex: true, lens: lenY | lenZ, esize: 4, bcst: 4, nofs: true})
	ops["VPERMPS"] = ops["VPERMD"]
	ops["VPERMW"] = permVar(2, vinfo{evex: true, esize: 2, nofs: true})
	ops["VPERMB"] = permVar(1, vinfo{evex: true, esize: 1, nofs: true})

	// VPERMI2x tbl2, tbl1, [K,] idx/dst and VPERMT2x tbl2, idx, [K,]
	// tbl1/dst: element i = (idx[i] bit log2(count) ? tbl2 : tbl1)[idx[i]
	// mod count].
	for _, p := range []struct {
		es int
		bw bool
		sf string
	}{{1, true, "B"}, {2, true, "W"}, {4, false, "D"}, {8, false, "Q"}} {
		es := p.es
		vi := vinfo{evex: true, esize: es, nofs: true}
		if !p.bw {
			vi.bcst = es
		}
		ops["VPERMI2"+p.sf] = vbinary(vi, false, true, func(d, s1, s2 vec, n int, _ uint8) (r vec) {
			permTwo(&r, &d, &s1, &s2, n, es)
			return
		})
		ops["VPERMT2"+p.sf] = vbinary(vi, false, true, func(d, s1, s2 vec, n int, _ uint8) (r vec) {
			permTwo(&r, &s1, &d, &s2, n, es)
			return
		})
	}

	// Broadcasts of a 128- or 256-bit memory block.
	for _, b := range []struct {
		op   string
		blk  int
		es   int
		lens uint8
		vex  bool
	}{
		{"VBROADCASTI128", 16, 0, lenY, true}, {"VBROADCASTF128", 16, 0, lenY, true},
		{"VBROADCASTI32X4", 16, 4, lenY | lenZ, false}, {"VBROADCASTI64X2", 16, 8, lenY | lenZ, false},
		{"VBROADCASTF32X4", 16, 4, lenY | lenZ, false}, {"VBROADCASTF64X2", 16, 8, lenY | lenZ, false},
		{"VBROADCASTI32X8", 32, 4, lenZ, false}, {"VBROADCASTI64X4", 32, 8, lenZ, false},
		{"VBROADCASTF32X8", 32, 4, lenZ, false}, {"VBROADCASTF64X4", 32, 8, lenZ, false},
	} {
		blk, es := b.blk, b.es
		vi := vinfo{vex: b.vex, evex: !b.vex, lens: b.lens, esize: es}
		ops[b.op] = func(in *inst) error {
			if err := prep(in, 2, vi); err != nil {
				return err
			}
			if !isMem(in.args[0]) || !isV(in.args[1]) {
				return fmt.Errorf("operands: want memory, vector register")
			}
			in.exec = func(m *Machine, in *inst) {
				n := in.w
				var s, r vec
				if in.kmask != 0 && !m.inRegion(m.addr(&in.args[0]), blk) {
					// Fault suppression: the elements of the block
					// the mask enables in some copy.
					k := m.k[in.kmask]
					var any uint64
					for c := 0; c < n/blk; c++ {
						any |= k >> (c * blk / es)
					}
					save := m.k[in.kmask]
					m.k[in.kmask] = any
					m.vmaskedLoad(in, &in.args[0], &s, blk, es)
					m.k[in.kmask] = save
				} else {
					s = m.vread(in, &in.args[0], blk)
				}
				for c := 0; c < n; c += blk {
					r.copyBytes(c, &s, 0, blk)
				}
				m.vwriteMasked(in, &in.args[1], &r, n, max(es, 1))
			}
			return nil
		}
	}

	// Element broadcasts VPBROADCASTB/W/D/Q: from the low element of an xmm
	// register, from memory, or (EVEX) from a general register.
	for _, b := range []struct {
		op string
		es int
		bw bool
	}{{"VPBROADCASTB", 1, true}, {"VPBROADCASTW", 2, true}, {"VPBROADCASTD", 4, false}, {"VPBROADCASTQ", 8, false}, {"VBROADCASTSS", 4, false}, {"VBROADCASTSD", 8, false}} {
		es := b.es
		vi := vinfo{vex: true, evex: true, esize: es}
		ops[b.op] = func(in *inst) error {
			if err := prep(in, 2, vi); err != nil {
				return err
			}
			s := in.args[0]
			if !(isVsz(s, 16) || isMem(s) || isGP(s) && b.op[1] == 'P') {
				return fmt.Errorf("source must be an xmm register, memory or a general register")
			}
			if !isV(in.args[1]) {
				return fmt.Errorf("destination must be a vector register")
			}
			in.w = in.args[1].size
			in.exec = func(m *Machine, in *inst) {
				n := in.w
				s := m.vread(in, &in.args[0], es)
				var r vec
				for i := 0; i < n; i += es {
					r.copyBytes(i, &s, 0, es)
				}
				m.vwriteMasked(in, &in.args[1], &r, n, es)
			}
			return nil
		}
	}

	// Inserts of a 128- or 256-bit block: "$imm, src(v/m), s1, [K,] dst".
	for _, b := range []struct {
		op   string
		blk  int
		es   int
		lens uint8
		vex  bool
	}{
		{"VINSERTI128", 16, 0, lenY, true}, {"VINSERTF128", 16, 0, lenY, true},
		{"VINSERTI32X4", 16, 4, lenY | lenZ, false}, {"VINSERTI64X2", 16, 8, lenY | lenZ, false},
		{"VINSERTF32X4", 16, 4, lenY | lenZ, false}, {"VINSERTF64X2", 16, 8, lenY | lenZ, false},
		{"VINSERTI32X8", 32, 4, lenZ, false}, {"VINSERTI64X4", 32, 8, lenZ, false},
		{"VINSERTF32X8", 32, 4, lenZ, false}, {"VINSERTF64X4", 32, 8, lenZ, false},
	} {
		blk, es := b.blk, b.es
		vi := vinfo{vex: b.vex, evex: !b.vex, lens: b.lens, esize: es}
		ops[b.op] = func(in *inst) error {
			if err := prepVec(in, 4); err != nil {
				return err
			}
			a := in.args
			if !isImm(a[0]) || !isVMsz(a[1], blk) || !isV(a[2]) || !isV(a[3]) || a[2].size != a[3].size {
				return fmt.Errorf("operands")
			}
			in.w = a[3].size
			if err := vi.check(in); err != nil {
				return err
			}
			pos := blk * (int(a[0].imm) & (a[3].size/blk - 1))
			in.exec = func(m *Machine, in *inst) {
				n := in.w
				r := m.vread(in, &in.args[2], n)
				s := m.src(in, &in.args[1], blk, 0, 0)
				r.copyBytes(pos, &s, 0, blk)
				m.vwriteMasked(in, &in.args[3], &r, n, max(es, 1))
			}
			return nil
		}
	}

	// Extracts of a 128- or 256-bit block: "$imm, src, [K,] dst(v/m)".
	for _, b := range []struct {
		op   string
		blk  int
		es   int
		lens uint8
		vex  bool
	}{
		{"VEXTRACTI128", 16, 0, lenY, true}, {"VEXTRACTF128", 16, 0, lenY, true},
		{"VEXTRACTI32X4", 16, 4, lenY | lenZ, false}, {"VEXTRACTI64X2", 16, 8, lenY | lenZ, false},
		{"VEXTRACTF32X4", 16, 4, lenY | lenZ, false}, {"VEXTRACTF64X2", 16, 8, lenY | lenZ, false},
		{"VEXTRACTI32X8", 32, 4, lenZ, false}, {"VEXTRACTI64X4", 32, 8, lenZ, false},
		{"VEXTRACTF32X8", 32, 4, lenZ, false}, {"VEXTRACTF64X4", 32, 8, lenZ, false},
	} {
		blk, es := b.blk, b.es
		vi := vinfo{vex: b.vex, evex: !b.vex, lens: b.lens, esize: es}
		ops[b.op] = func(in *inst) error {
			if err := prepVec(in, 3); err != nil {
				return err
			}
			a := in.args
			if !isImm(a[0]) || !isV(a[1]) || !isVMsz(a[2], blk) {
				return fmt.Errorf("operands")
			}
			if in.zeroing && isMem(a[2]) {
				return fmt.Errorf("zeroing into memory")
			}
			in.w = a[1].size
			if err := vi.check(in); err != nil {
				return err
			}
			pos := blk * (int(a[0].imm) & (a[1].size/blk - 1))
			in.exec = func(m *Machine, in *inst) {
				s := m.vread(in, &in.args[1], in.w)
				var r vec
				r.copyBytes(0, &s, pos, blk)
				m.vwriteMasked(in, &in.args[2], &r, blk, max(es, 1))
			}
			return nil
		}
	}
}

// permTwo is the two-table permute of VPERMI2/VPERMT2 on es-byte elements.
func permTwo(r, idx, t1, t2 *vec, n, es int) {
	ne := n / es
	for i := 0; i < ne; i++ {
		x := int(idx.elemGet(i, es))
		t := t1
		if x&ne != 0 {
			t = t2
		}
		copyElem(r, i, t, x&(ne-1), es)
		r.t |= idxT(idx, i, es)
	}
}
