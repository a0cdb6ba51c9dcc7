package x86sim

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Scalar moves between vector registers, general registers and memory
// (MOVQ/MOVL, VMOVQ/VMOVD, MOVHPS and relatives), element inserts and
// extracts, PMOVMSKB, zero extensions, VZEROUPPER and VZEROALL.

func init() {
	bindVecMove = func(in *inst) error {
		switch in.op {
		case "MOVQ":
			return vmovScalar(8)(in)
		case "MOVL":
			return vmovScalar(4)(in)
		}
		return fmt.Errorf("vector form not modeled")
	}
	ops["VMOVQ"] = vmovScalar(8)
	ops["VMOVD"] = vmovScalar(4)

	// MOVHPS/MOVLPS m64, x and x, m64; MOVHLPS/MOVLHPS x, x.
	for _, op := range []string{"MOVHPS", "MOVLPS", "MOVHPD", "MOVLPD"} {
		hi := 0
		if op[3] == 'H' {
			hi = 8
		}
		ops[op] = func(in *inst) error {
			if err := prep(in, 2, vinfo{sse: true}); err != nil {
				return err
			}
			s, d := in.args[0], in.args[1]
			switch {
			case isMem(s) && isV(d):
				in.exec = func(m *Machine, in *inst) {
					var r vec
					r.t = m.load(m.addr(&in.args[0]), r.b[:8])
					ri := in.args[1].reg
					copy(m.vec[ri][hi:hi+8], r.b[:8])
					m.vT[ri] = m.vT[ri]&^(0xff<<hi) | r.t<<hi
				}
			case isV(s) && isMem(d):
				in.exec = func(m *Machine, in *inst) {
					ri := in.args[0].reg
					m.store(m.addr(&in.args[1]), m.vec[ri][hi:hi+8], m.vT[ri]>>hi&0xff)
				}
			default:
				return fmt.Errorf("operands: want m64, x or x, m64")
			}
			return nil
		}
	}
	for _, op := range []string{"MOVHLPS", "MOVLHPS"} {
		from, to := 8, 0
		if op == "MOVLHPS" {
			from, to = 0, 8
		}
		ops[op] = func(in *inst) error {
			if err := prep(in, 2, vinfo{sse: true}); err != nil {
				return err
			}
			if !isV(in.args[0]) || !isV(in.args[1]) {
				return fmt.Errorf("operands")
			}
			in.exec = func(m *Machine, in *inst) {
				s, d := in.args[0].reg, in.args[1].reg
				var tmp [8]byte
				copy(tmp[:], m.vec[s][from:from+8])
				t := m.vT[s] >> from & 0xff
				copy(m.vec[d][to:to+8], tmp[:])
				m.vT[d] = m.vT[d]&^(0xff<<to) | t<<to
			}
			return nil
		}
	}
	// VMOVHPS/VMOVLPS m64, s1, dst (dst = s1 with the high or low qword
	// from memory) and x, m64.
	for _, op := range []string{"VMOVHPS", "VMOVLPS", "VMOVHPD", "VMOVLPD"} {
		hi := 0
		if op[4] == 'H' {
			hi = 8
		}
		ops[op] = func(in *inst) error {
			if err := prepVec(in, -1); err != nil {
				return err
			}
			if err := (vinfo{vex: true, evex: true, lens: lenX}).check(in); err != nil {
				return err
			}
			a := in.args
			switch {
			case len(a) == 2 && isVsz(a[0], 16) && isMem(a[1]):
				in.exec = func(m *Machine, in *inst) {
					ri := in.args[0].reg
					m.store(m.addr(&in.args[1]), m.vec[ri][hi:hi+8], m.vT[ri]>>hi&0xff)
				}
			case len(a) == 3 && isMem(a[0]) && isVsz(a[1], 16) && isVsz(a[2], 16):
				in.exec = func(m *Machine, in *inst) {
					r := m.vread(in, &in.args[1], 16)
					var q [8]byte
					t := m.load(m.addr(&in.args[0]), q[:])
					copy(r.b[hi:hi+8], q[:])
					r.t = r.t&^(0xff<<hi) | t<<hi
					m.vwrite(in, &in.args[2], &r, 16)
				}
			default:
				return fmt.Errorf("operands")
			}
			return nil
		}
	}
	// VMOVHLPS s2, s1, dst: dst = s1 high : s2 high; VMOVLHPS: s2 low :
	// s1 low.
	for _, op := range []string{"VMOVHLPS", "VMOVLHPS"} {
		lh := op == "VMOVLHPS"
		ops[op] = vbinary(vinfo{vex: true, evex: true, lens: lenX}, false, false, func(_, s1V, s2V vec, n int, _ uint8) (rV vec) {
			r, s1, s2 := &rV, &s1V, &s2V
			if lh {
				r.copyBytes(0, s1, 0, 8)
				r.copyBytes(8, s2, 0, 8)
			} else {
				r.copyBytes(0, s2, 8, 8)
				r.copyBytes(8, s1, 8, 8)
			}
			return
		})
	}

	// Extracts: "$imm, x, r/m"; a register destination is written with 32
	// bits (zero-extended) for B, W, D and 64 for Q.
	for _, e := range []struct {
		sf string
		w  int
	}{{"B", 1}, {"W", 2}, {"D", 4}, {"Q", 8}} {
		w := e.w
		b := func(in *inst) error {
			if err := prep(in, 3, vinfo{sse: true, vex: true, evex: true, lens: lenX}); err != nil {
				return err
			}
			a := in.args
			if !isImm(a[0]) || !isVsz(a[1], 16) || !(isGP(a[2]) || isMem(a[2])) {
				return fmt.Errorf("operands")
			}
			off := w * (int(a[0].imm) & (16/w - 1))
			in.exec = func(m *Machine, in *inst) {
				ri := in.args[1].reg
				var buf [8]byte
				copy(buf[:w], m.vec[ri][off:off+w])
				v := binary.LittleEndian.Uint64(buf[:])
				t := uint8(m.vT[ri] >> off & maskBytes(w))
				if isGP(in.args[2]) {
					m.wr(&in.args[2], max(w, 4), v, t)
				} else {
					m.storeN(m.addr(&in.args[2]), w, v, t)
				}
			}
			return nil
		}
		ops["PEXTR"+e.sf] = b
		ops["VPEXTR"+e.sf] = b

		// Inserts: SSE "$imm, r/m, x", VEX "$imm, r/m, s1, dst".
		ins := func(in *inst) error {
			if err := prepVec(in, -1); err != nil {
				return err
			}
			want := 4
			if !in.vex {
				want = 3
			}
			if len(in.args) != want {
				return fmt.Errorf("want %d operands", want)
			}
			if err := (vinfo{sse: true, vex: true, evex: true, lens: lenX}).check(in); err != nil {
				return err
			}
			a := in.args
			s1i, di := len(a)-2, len(a)-1
			if !in.vex {
				s1i = di
			}
			if !isImm(a[0]) || !(isGP(a[1]) || isMem(a[1])) || !isVsz(a[di], 16) || !isVsz(a[s1i], 16) {
				return fmt.Errorf("operands")
			}
			off := w * (int(a[0].imm) & (16/w - 1))
			in.exec = func(m *Machine, in *inst) {
				r := m.vread(in, &in.args[s1i], 16)
				v, t := m.rd(&in.args[1], w)
				var buf [8]byte
				binary.LittleEndian.PutUint64(buf[:], v)
				copy(r.b[off:off+w], buf[:w])
				r.t = r.t&^(maskBytes(w)<<off) | uint64(t)<<off
				m.vwrite(in, &in.args[di], &r, 16)
			}
			return nil
		}
		ops["PINSR"+e.sf] = ins
		ops["VPINSR"+e.sf] = ins
	}

	// PMOVMSKB x, r / VPMOVMSKB x/y, r: the bytes' sign bits into r32
	// (zero-extended); the 32-bit result is secret if any source byte is.
	pmovmskb := func(in *inst) error {
		if err := prep(in, 2, vinfo{sse: true, vex: true}); err != nil {
			return err
		}
		if !isV(in.args[0]) || !isGP(in.args[1]) {
			return fmt.Errorf("operands")
		}
		in.exec = func(m *Machine, in *inst) {
			n := in.w
			ri := in.args[0].reg
			var r uint64
			for i := 0; i < n; i++ {
				r |= uint64(m.vec[ri][i]>>7) << i
			}
			var t uint8
			if m.vT[ri]&maskBytes(n) != 0 {
				t = 0xf
			}
			m.wr(&in.args[1], 4, r, t)
		}
		return nil
	}
	ops["PMOVMSKB"] = pmovmskb
	ops["VPMOVMSKB"] = pmovmskb

	ops["VZEROUPPER"] = func(in *inst) error {
		if err := wantArgs(in, 0); err != nil {
			return err
		}
		in.exec = func(m *Machine, in *inst) {
			for r := 0; r < 16; r++ {
				clear(m.vec[r][16:])
				m.vT[r] &= 0xffff
			}
		}
		return nil
	}
	ops["VZEROALL"] = func(in *inst) error {
		if err := wantArgs(in, 0); err != nil {
			return err
		}
		in.exec = func(m *Machine, in *inst) {
			for r := 0; r < 16; r++ {
				clear(m.vec[r][:])
				m.vT[r] = 0
			}
		}
		return nil
	}

	// Zero and sign extensions PMOVZX/PMOVSX{BW,BD,BQ,WD,WQ,DQ}: "src(x/y/m),
	// [K,] dst".
	for _, sx := range []bool{false, true} {
		for _, c := range []struct {
			sf     string
			sw, dw int
		}{{"BW", 1, 2}, {"BD", 1, 4}, {"BQ", 1, 8}, {"WD", 2, 4}, {"WQ", 2, 8}, {"DQ", 4, 8}} {
			sw, dw := c.sw, c.dw
			sign := sx
			name := "PMOVZX" + c.sf
			if sx {
				name = "PMOVSX" + c.sf
			}
			vi := vinfo{sse: true, vex: true, evex: true, esize: dw}
			b := func(in *inst) error {
				if err := prepVec(in, 2); err != nil {
					return err
				}
				s, d := in.args[0], in.args[1]
				if !isV(d) || !isVM(s) {
					return fmt.Errorf("operands")
				}
				in.w = d.size
				if err := vi.check(in); err != nil {
					return err
				}
				sn := in.w * sw / dw
				if isV(s) && s.size != max(16, sn) {
					return fmt.Errorf("source register size")
				}
				in.exec = func(m *Machine, in *inst) {
					n := in.w
					var s vec
					if o := &in.args[0]; o.kind == kMem {
						a := m.addr(o)
						if in.kmask != 0 && !m.inRegion(a, sn) {
							// Fault suppression: only the source elements
							// of enabled destination elements are read.
							if m.kT[in.kmask] != 0 {
								m.failf("masked load under a secret mask K%d (the addresses touched depend on it)", in.kmask)
							}
							k := m.k[in.kmask]
							for i := 0; i < n/dw; i++ {
								if k>>i&1 != 0 {
									s.t |= m.load(a+uint64(i*sw), s.b[i*sw:(i+1)*sw]) << (i * sw)
								}
							}
						} else {
							s.t = m.load(a, s.b[:sn])
						}
					} else {
						s = m.vread(in, &in.args[0], sn)
					}
					var r vec
					for i := 0; i < n/dw; i++ {
						x := s.elemGet(i, sw)
						if sign {
							sh := 64 - 8*sw
							x = uint64(int64(x<<sh) >> sh)
						}
						r.elemSet(i, dw, x)
						st := s.t >> (i * sw) & maskBytes(sw)
						if sign && st>>(sw-1) != 0 {
							// The sign bit fills the upper bytes.
							st = maskBytes(dw)
						}
						r.t |= st << (i * dw)
					}
					m.vwriteMasked(in, &in.args[1], &r, n, dw)
				}
				return nil
			}
			ops[name] = b
			ops["V"+name] = b
		}
	}
}

// vmovScalar binds MOVQ/MOVL (w 8, 4) and VMOVQ/VMOVD between an xmm
// register and a general register or memory, and MOVQ/VMOVQ xmm to xmm: the
// low w bytes move, an xmm destination gets zeros in bytes w..15 (and above:
// VEX/EVEX zero to the full register, SSE keeps bits 511:128).
func vmovScalar(w int) binder {
	return func(in *inst) error {
		in.vex = strings.HasPrefix(in.op, "V")
		if err := wantArgs(in, 2); err != nil {
			return err
		}
		if in.zeroing || in.bcst {
			return fmt.Errorf("no masking or broadcast")
		}
		s, d := in.args[0], in.args[1]
		for _, a := range in.args {
			if a.kind == kReg && a.cls == cVec && (a.size != 16 || !in.vex && a.reg >= 16) {
				return fmt.Errorf("register %s", a.String())
			}
			if isK(a) {
				return fmt.Errorf("opmask register")
			}
		}
		if isGP(s) && s.size != 0 || isGP(d) && d.size != 0 {
			return fmt.Errorf("general register by its 64-bit name")
		}
		in.w = 16
		switch {
		case isV(d) && (isGP(s) || isMem(s) || isV(s) && w == 8):
			in.exec = func(m *Machine, in *inst) {
				var r vec
				o := &in.args[0]
				switch {
				case o.kind == kMem:
					r.t = m.load(m.addr(o), r.b[:w])
				case o.cls == cGP:
					binary.LittleEndian.PutUint64(r.b[:], m.gp[o.reg])
					r.t = uint64(m.gpT[o.reg])
				default:
					copy(r.b[:8], m.vec[o.reg][:8])
					r.t = m.vT[o.reg]
				}
				clear(r.b[w:16])
				r.t &= maskBytes(w)
				m.vwrite(in, &in.args[1], &r, 16)
			}
		case isV(s) && (isGP(d) || isMem(d)):
			in.exec = func(m *Machine, in *inst) {
				ri := in.args[0].reg
				v := binary.LittleEndian.Uint64(m.vec[ri][:8])
				t := uint8(m.vT[ri])
				m.wr(&in.args[1], w, v&wmask(w), t&tmask(w))
			}
		default:
			return fmt.Errorf("operands")
		}
		return nil
	}
}
