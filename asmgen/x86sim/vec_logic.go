package x86sim

// VPTERNLOGD/VPTERNLOGQ $imm, s2, s1, [K,] dst (Intel "dst, s1, s2, imm"):
// each result bit is imm bit (dst<<2 | s1<<1 | s2) of the three inputs' bits
// at that position. Taint is per byte, from the inputs the truth table
// depends on (none for the constant tables 0x00 and 0xff).

// ternDeps returns which of (a, b, c) = (dst, s1, s2) the truth table imm
// depends on.
func ternDeps(imm uint8) (a, b, c bool) {
	for i := 0; i < 8; i++ {
		bit := imm >> i & 1
		a = a || bit != imm>>(i^4)&1
		b = b || bit != imm>>(i^2)&1
		c = c || bit != imm>>(i^1)&1
	}
	return
}

// ternlog64 applies truth table imm bitwise to a, b, c.
func ternlog64(imm uint8, a, b, c uint64) uint64 {
	var r uint64
	for i := 0; i < 8; i++ {
		if imm>>i&1 == 0 {
			continue
		}
		x, y, z := ^a, ^b, ^c
		if i&4 != 0 {
			x = a
		}
		if i&2 != 0 {
			y = b
		}
		if i&1 != 0 {
			z = c
		}
		r |= x & y & z
	}
	return r
}

func init() {
	for _, op := range []string{"VPTERNLOGD", "VPTERNLOGQ"} {
		es := 4
		if op == "VPTERNLOGQ" {
			es = 8
		}
		ops[op] = vbinary(vinfo{evex: true, esize: es, bcst: es}, true, true, func(dV, s1V, s2V vec, n int, imm uint8) (rV vec) {
			r, d, s1, s2 := &rV, &dV, &s1V, &s2V
			for i := 0; i < n/8; i++ {
				r.setU64(i, ternlog64(imm, d.u64(i), s1.u64(i), s2.u64(i)))
			}
			da, db, dc := ternDeps(imm)
			if da {
				r.t |= d.t
			}
			if db {
				r.t |= s1.t
			}
			if dc {
				r.t |= s2.t
			}
			r.t &= maskBytes(n)
			return
		})
	}
}
