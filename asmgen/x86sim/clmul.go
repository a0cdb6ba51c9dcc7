package x86sim

// Carry-less multiplication: PCLMULQDQ $imm, s2, x and VPCLMULQDQ $imm, s2,
// s1, dst. Per 128-bit lane, the qword of s1 that imm bit 0 selects times the
// qword of s2 that imm bit 4 selects, as polynomials over GF(2).
//
// Taint: the whole 128-bit result lane is secret when either selected qword
// has a secret byte.

// clmul64 returns the 128-bit carry-less product of a and b.
func clmul64(a, b uint64) (hi, lo uint64) {
	// t[k] = a·k for every 4-bit k, 67 bits (low 64 in tl, high 3 in
	// th); then Horner over b's nibbles from the top.
	var tl, th [16]uint64
	for k := 1; k < 16; k++ {
		if k&1 == 0 {
			tl[k], th[k] = tl[k>>1]<<1, th[k>>1]<<1|tl[k>>1]>>63
		} else {
			tl[k], th[k] = tl[k-1]^a, th[k-1]
		}
	}
	for i := 60; i >= 0; i -= 4 {
		k := b >> uint(i) & 15
		hi, lo = hi<<4|lo>>60^th[k], lo<<4^tl[k]
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
