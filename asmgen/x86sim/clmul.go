package x86sim

// Carry-less multiplication: PCLMULQDQ $imm, s2, x and VPCLMULQDQ $imm, s2,
// s1, dst. Per 128-bit lane, the qword of s1 that imm bit 0 selects times the
// qword of s2 that imm bit 4 selects, as polynomials over GF(2).
//
// Taint: the whole 128-bit result lane is secret when either selected qword
// has a secret byte.

// clmul64 returns the 128-bit carry-less product of a and b.
func clmul64(a, b uint64) (hi, lo uint64) {
	for i := uint(0); i < 64; i++ {
		m := -(b >> i & 1)
		lo ^= a << i & m
		if i > 0 {
			hi ^= a >> (64 - i) & m
		}
	}
	return hi, lo
}

func init() {
	b := vbinary(vinfo{sse: true, vex: true, evex: true}, true, false, func(_, s1V, s2V vec, n int, imm uint8) (rV vec) {
		r, s1, s2 := &rV, &s1V, &s2V
		q1, q2 := int(imm&1), int(imm>>4&1)
		for l := 0; l < n/8; l += 2 {
			hi, lo := clmul64(s1.u64(l+q1), s2.u64(l+q2))
			r.setU64(l, lo)
			r.setU64(l+1, hi)
			if s1.t>>(8*(l+q1))&0xff|s2.t>>(8*(l+q2))&0xff != 0 {
				r.t |= 0xffff << (8 * l)
			}
		}
		return
	})
	ops["PCLMULQDQ"] = b
	ops["VPCLMULQDQ"] = b
}
