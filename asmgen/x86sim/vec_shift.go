package x86sim

import "fmt"

// Element shifts and rotates (by immediate, by an xmm count, by per-element
// counts) and the byte shifts and byte alignment of 128-bit lanes.
//
// Taint of a shift by a public count s moves with the bits: an output byte
// is secret when an input byte some of whose bits it receives is. A secret
// count makes the whole element secret.

const (
	shSLL = iota
	shSRL
	shSRA
	shROL
	shROR
)

// shiftElem shifts the w-bit value x by s.
func shiftElem(kind int, x, s uint64, w uint) uint64 {
	mk := ^uint64(0) >> (64 - w)
	x &= mk
	switch kind {
	case shSLL:
		if s >= uint64(w) {
			return 0
		}
		return x << s & mk
	case shSRL:
		if s >= uint64(w) {
			return 0
		}
		return x >> s
	case shSRA:
		if s >= uint64(w) {
			s = uint64(w) - 1
		}
		sx := int64(x<<(64-w)) >> (64 - w)
		return uint64(sx>>s) & mk
	case shROL:
		s %= uint64(w)
		if s == 0 {
			return x
		}
		return (x<<s | x>>(uint64(w)-s)) & mk
	case shROR:
		s %= uint64(w)
		if s == 0 {
			return x
		}
		return (x>>s | x<<(uint64(w)-s)) & mk
	}
	panic("shift kind")
}

// shiftT is the taint of shiftElem for a w-byte element with byte taint t.
func shiftT(kind int, t, s uint64, w int) uint64 {
	if t == 0 {
		return 0
	}
	nb := uint64(8 * w)
	mk := maskBytes(w)
	switch kind {
	case shSLL:
		if s >= nb {
			return 0
		}
		return (t<<(s/8) | t<<((s+7)/8)) & mk
	case shSRL:
		if s >= nb {
			return 0
		}
		return t>>(s/8) | t>>((s+7)/8)
	case shSRA:
		if t>>(w-1)&1 != 0 {
			return mk
		}
		if s >= nb {
			return 0
		}
		return t>>(s/8) | t>>((s+7)/8)
	case shROR:
		s = (nb - s%nb) % nb
		fallthrough
	case shROL:
		s %= nb
		return rotBytes(t, int(s/8), w) | rotBytes(t, int((s+7)/8)%w, w)
	}
	panic("shift kind")
}

// shiftVec shifts every element of s by cnt (cnt[i] for element i when cnt is
// per element) into r.
func shiftVec(kind int, r, s *vec, n, es int, cnt uint64) {
	w := uint(8 * es)
	for i := 0; i < n/es; i++ {
		r.elemSet(i, es, shiftElem(kind, s.elemGet(i, es), cnt, w))
		r.t |= shiftT(kind, s.t>>(i*es)&maskBytes(es), cnt, es) << (i * es)
	}
}

func init() {
	type sh struct {
		sse, v string
		kind   int
		es     int
		bw     bool // word elements: AVX-512BW, no broadcast
		evex   bool // EVEX only
	}
	list := []sh{
		{"PSLLW", "VPSLLW", shSLL, 2, true, false}, {"PSLLL", "VPSLLD", shSLL, 4, false, false}, {"PSLLQ", "VPSLLQ", shSLL, 8, false, false},
		{"PSRLW", "VPSRLW", shSRL, 2, true, false}, {"PSRLL", "VPSRLD", shSRL, 4, false, false}, {"PSRLQ", "VPSRLQ", shSRL, 8, false, false},
		{"PSRAW", "VPSRAW", shSRA, 2, true, false}, {"PSRAL", "VPSRAD", shSRA, 4, false, false}, {"", "VPSRAQ", shSRA, 8, false, true},
		{"", "VPROLD", shROL, 4, false, true}, {"", "VPROLQ", shROL, 8, false, true},
		{"", "VPRORD", shROR, 4, false, true}, {"", "VPRORQ", shROR, 8, false, true},
	}
	for _, s := range list {
		vi := vinfo{sse: s.sse != "", vex: !s.evex, evex: true, esize: s.es}
		if !s.bw {
			vi.bcst = s.es
		}
		rotate := s.kind == shROL || s.kind == shROR
		b := shiftBinder(vi, s.kind, s.es, rotate)
		if s.sse != "" {
			ops[s.sse] = b
		}
		ops[s.v] = b
	}

	// Per-element counts: "count(v/m), src, [K,] dst".
	for _, s := range []struct {
		op   string
		kind int
		es   int
		vex  bool
		bw   bool
	}{
		{"VPSLLVD", shSLL, 4, true, false}, {"VPSLLVQ", shSLL, 8, true, false},
		{"VPSRLVD", shSRL, 4, true, false}, {"VPSRLVQ", shSRL, 8, true, false},
		{"VPSRAVD", shSRA, 4, true, false}, {"VPSRAVQ", shSRA, 8, false, false},
		{"VPSLLVW", shSLL, 2, false, true}, {"VPSRLVW", shSRL, 2, false, true}, {"VPSRAVW", shSRA, 2, false, true},
		{"VPROLVD", shROL, 4, false, false}, {"VPROLVQ", shROL, 8, false, false},
		{"VPRORVD", shROR, 4, false, false}, {"VPRORVQ", shROR, 8, false, false},
	} {
		kind, es := s.kind, s.es
		vi := vinfo{vex: s.vex, evex: true, esize: es}
		if !s.bw {
			vi.bcst = es
		}
		w := uint(8 * es)
		ops[s.op] = vbinary(vi, false, false, func(_, srcV, cntV vec, n int, _ uint8) (rV vec) {
			r, src, cnt := &rV, &srcV, &cntV
			ct := elemSpread(cnt.t, es)
			for i := 0; i < n/es; i++ {
				c := cnt.elemGet(i, es)
				r.elemSet(i, es, shiftElem(kind, src.elemGet(i, es), c, w))
				r.t |= shiftT(kind, src.t>>(i*es)&maskBytes(es), c, es) << (i * es)
			}
			r.t = (r.t | ct) & maskBytes(n)
			return
		})
	}

	// Byte shifts of each 128-bit lane: SSE "$imm, x", VEX/EVEX "$imm,
	// src, dst" (no mask); an imm above 15 clears the lane.
	for _, op := range []string{"PSLLDQ", "PSRLDQ", "VPSLLDQ", "VPSRLDQ"} {
		left := op[len(op)-4] == 'L'
		ops[op] = func(in *inst) error {
			if err := prepVec(in, -1); err != nil {
				return err
			}
			if in.vex && len(in.args) == 2 || !in.vex && len(in.args) != 2 {
				return fmt.Errorf("operand count")
			}
			if err := (vinfo{sse: true, vex: true, evex: true}).check(in); err != nil {
				return err
			}
			if !isImm(in.args[0]) || !isVM(in.args[1]) || !isV(in.args[len(in.args)-1]) || len(in.args) > 3 {
				return fmt.Errorf("operands")
			}
			if in.args[1].kind == kMem && !needsEVEX(in) {
				return fmt.Errorf("memory source needs the EVEX form")
			}
			k := int(imm8(in.args[0]))
			si, di := 1, len(in.args)-1
			in.exec = func(m *Machine, in *inst) {
				n := in.w
				s := m.src(in, &in.args[si], n, 0, 0)
				var r vec
				for l := 0; l < n; l += 16 {
					if k > 15 {
						continue
					}
					if left {
						r.copyBytes(l+k, &s, l, 16-k)
					} else {
						r.copyBytes(l, &s, l+k, 16-k)
					}
				}
				m.vwrite(in, &in.args[di], &r, n)
			}
			return nil
		}
	}

	// PALIGNR/VPALIGNR: per 128-bit lane, bytes imm.. of s1:s2 (s1 high).
	ops["PALIGNR"] = vbinary(vinfo{sse: true, vex: true, evex: true, esize: 1, nofs: true}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		k := int(imm)
		for l := 0; l < n; l += 16 {
			for i := 0; i < 16; i++ {
				j := i + k
				switch {
				case j < 16:
					r.copyBytes(l+i, s2, l+j, 1)
				case j < 32:
					r.copyBytes(l+i, s1, l+j-16, 1)
				}
			}
		}
		return
	})
	ops["VPALIGNR"] = ops["PALIGNR"]
}

// shiftBinder binds the shifts by immediate and by an xmm count: SSE
// "$imm, x" and "count, x" (x shifted in place), VEX/EVEX "$imm, src, [K,]
// dst" and "count, src, [K,] dst" (count an xmm register or m128, its low
// qword the count for every element). Rotates have the immediate form only.
func shiftBinder(vi vinfo, kind, es int, rotate bool) binder {
	return func(in *inst) error {
		if err := prepVec(in, -1); err != nil {
			return err
		}
		want := 3
		if !in.vex {
			want = 2
		}
		if len(in.args) != want {
			return fmt.Errorf("want %d operands, have %d", want, len(in.args))
		}
		if err := vi.check(in); err != nil {
			return err
		}
		a := in.args
		di := len(a) - 1
		si := di
		if in.vex {
			si = 1
		}
		if !isV(a[di]) || !isVM(a[si]) {
			return fmt.Errorf("operands")
		}
		if isImm(a[0]) {
			if isMem(a[si]) && !needsEVEX(in) {
				return fmt.Errorf("memory source needs the EVEX form")
			}
			cnt := uint64(imm8(a[0]))
			in.exec = func(m *Machine, in *inst) {
				n := in.w
				s := m.src(in, &in.args[si], n, es, es)
				var r vec
				shiftVec(kind, &r, &s, n, es, cnt)
				m.vwriteMasked(in, &in.args[di], &r, n, es)
			}
			return nil
		}
		if rotate || !isVM(a[0]) || a[0].kind == kReg && a[0].size != 16 || in.bcst || in.vex && isMem(a[si]) {
			return fmt.Errorf("operands")
		}
		in.exec = func(m *Machine, in *inst) {
			n := in.w
			c := m.src(in, &in.args[0], 16, 0, 0)
			s := m.vread(in, &in.args[si], n)
			var r vec
			shiftVec(kind, &r, &s, n, es, c.u64(0))
			if c.t&0xff != 0 {
				r.t = maskBytes(n)
			}
			m.vwriteMasked(in, &in.args[di], &r, n, es)
		}
		return nil
	}
}
