package x86sim

import "encoding/binary"

// AES round instructions (AES-NI, VAES): AESENC, AESENCLAST, AESDEC,
// AESDECLAST, AESIMC, AESKEYGENASSIST, from FIPS-197's transformations in the
// order the Intel SDM applies them. Byte i of a 128-bit lane is byte i of
// the FIPS-197 input block: state[r][c] is byte r+4c.
//
// Taint is per 128-bit lane: the whole lane of the result is secret when any
// byte of that lane of the state or of the round key is.

var (
	sbox, invSbox [256]byte
	// gmul2 ... gmul14 multiply by a constant in GF(2^8).
	gmul2, gmul3, gmul9, gmul11, gmul13, gmul14 [256]byte
)

// gfMul multiplies in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
func gfMul(a, b byte) byte {
	var p byte
	for b != 0 {
		if b&1 != 0 {
			p ^= a
		}
		hi := a & 0x80
		a <<= 1
		if hi != 0 {
			a ^= 0x1b
		}
		b >>= 1
	}
	return p
}

func init() {
	// The S-box: the multiplicative inverse in GF(2^8) (0 maps to 0),
	// then the affine map b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^
	// rotl(b,4) ^ 0x63.
	rotl := func(b byte, k uint) byte { return b<<k | b>>(8-k) }
	for x := 0; x < 256; x++ {
		var inv byte
		if x != 0 {
			// x^254 = x^-1.
			inv = 1
			p := byte(x)
			for e := 254; e > 0; e >>= 1 {
				if e&1 != 0 {
					inv = gfMul(inv, p)
				}
				p = gfMul(p, p)
			}
		}
		s := inv ^ rotl(inv, 1) ^ rotl(inv, 2) ^ rotl(inv, 3) ^ rotl(inv, 4) ^ 0x63
		sbox[x] = s
		invSbox[s] = byte(x)
	}
	for x := 0; x < 256; x++ {
		b := byte(x)
		gmul2[x] = gfMul(b, 2)
		gmul3[x] = gfMul(b, 3)
		gmul9[x] = gfMul(b, 9)
		gmul11[x] = gfMul(b, 11)
		gmul13[x] = gfMul(b, 13)
		gmul14[x] = gfMul(b, 14)
	}
	for x := range 256 {
		s := uint32(sbox[x])
		s2, s3 := uint32(gmul2[sbox[x]]), uint32(gmul3[sbox[x]])
		te[0][x] = s2 | s<<8 | s<<16 | s3<<24
		te[1][x] = s3 | s2<<8 | s<<16 | s<<24
		te[2][x] = s | s3<<8 | s2<<16 | s<<24
		te[3][x] = s | s<<8 | s3<<16 | s2<<24
	}

	const (
		aesEnc = iota
		aesEncLast
		aesDec
		aesDecLast
	)
	for op, kind := range map[string]int{"AESENC": aesEnc, "AESENCLAST": aesEncLast, "AESDEC": aesDec, "AESDECLAST": aesDecLast} {
		kind := kind
		b := vbinary(vinfo{sse: true, vex: true, evex: true}, false, false, func(_, s1V, s2V vec, n int, _ uint8) (rV vec) {
			r, s1, s2 := &rV, &s1V, &s2V
			for l := 0; l < n; l += 16 {
				var st [16]byte
				copy(st[:], s1.b[l:l+16])
				switch kind {
				case aesEnc:
					st = encRound(&st)
				case aesEncLast:
					st = subBytes(shiftRows(st), &sbox)
				case aesDec:
					st = invMixColumns(subBytes(invShiftRows(st), &invSbox))
				case aesDecLast:
					st = subBytes(invShiftRows(st), &invSbox)
				}
				for i := 0; i < 16; i++ {
					r.b[l+i] = st[i] ^ s2.b[l+i]
				}
			}
			r.t = elemSpread(s1.t|s2.t, 16) & maskBytes(n)
			return
		})
		ops[op] = b
		ops["V"+op] = b
	}
	aesimc := vunary(vinfo{sse: true, vex: true, lens: lenX}, false, func(sV vec, n int, _ uint8) (rV vec) {
		r, s := &rV, &sV
		var st [16]byte
		copy(st[:], s.b[:16])
		st = invMixColumns(st)
		copy(r.b[:16], st[:])
		r.t = elemSpread(s.t, 16) & 0xffff
		return
	})
	ops["AESIMC"] = aesimc
	ops["VAESIMC"] = aesimc
	// AESKEYGENASSIST $rcon, src, dst: dword 0 = SubWord(X1), 1 =
	// RotWord(SubWord(X1)) ^ rcon, 2 = SubWord(X3), 3 = RotWord(SubWord(X3))
	// ^ rcon, where Xi is dword i of src.
	keygen := vunary(vinfo{sse: true, vex: true, lens: lenX}, true, func(sV vec, n int, imm uint8) (rV vec) {
		r, s := &rV, &sV
		sub := func(x uint32) uint32 {
			return uint32(sbox[x&0xff]) | uint32(sbox[x>>8&0xff])<<8 | uint32(sbox[x>>16&0xff])<<16 | uint32(sbox[x>>24])<<24
		}
		rot := func(x uint32) uint32 { return x>>8 | x<<24 }
		x1, x3 := sub(s.u32(1)), sub(s.u32(3))
		r.setU32(0, x1)
		r.setU32(1, rot(x1)^uint32(imm))
		r.setU32(2, x3)
		r.setU32(3, rot(x3)^uint32(imm))
		r.t = elemSpread(s.t, 16) & 0xffff
		return
	})
	ops["AESKEYGENASSIST"] = keygen
	ops["VAESKEYGENASSIST"] = keygen
}

// shiftRows: row r rotates left by r: state[r][c] = in[r][(c+r) mod 4].
func shiftRows(in [16]byte) [16]byte {
	var out [16]byte
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			out[r+4*c] = in[r+4*((c+r)%4)]
		}
	}
	return out
}

func invShiftRows(in [16]byte) [16]byte {
	var out [16]byte
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			out[r+4*((c+r)%4)] = in[r+4*c]
		}
	}
	return out
}

func subBytes(in [16]byte, box *[256]byte) [16]byte {
	for i := range in {
		in[i] = box[in[i]]
	}
	return in
}

// te[r][x] is the column MixColumns makes of S(x) in row r and zeroes
// elsewhere, row 0 in the low byte: the tables of encRound, filled by init
// after the S-box and the GF(2^8) products.
var te [4][256]uint32

// encRound is mixColumns(subBytes(shiftRows(in), &sbox)), AESENC before its
// round key, a column at a time from the tables te (TestEncRound checks
// them against the three steps).
func encRound(in *[16]byte) (out [16]byte) {
	for c := range 4 {
		col := te[0][in[4*c]] ^ te[1][in[1+4*((c+1)%4)]] ^ te[2][in[2+4*((c+2)%4)]] ^ te[3][in[3+4*((c+3)%4)]]
		binary.LittleEndian.PutUint32(out[4*c:], col)
	}
	return out
}

func mixColumns(in [16]byte) [16]byte {
	var out [16]byte
	for c := 0; c < 16; c += 4 {
		a0, a1, a2, a3 := in[c], in[c+1], in[c+2], in[c+3]
		out[c] = gmul2[a0] ^ gmul3[a1] ^ a2 ^ a3
		out[c+1] = a0 ^ gmul2[a1] ^ gmul3[a2] ^ a3
		out[c+2] = a0 ^ a1 ^ gmul2[a2] ^ gmul3[a3]
		out[c+3] = gmul3[a0] ^ a1 ^ a2 ^ gmul2[a3]
	}
	return out
}

func invMixColumns(in [16]byte) [16]byte {
	var out [16]byte
	for c := 0; c < 16; c += 4 {
		a0, a1, a2, a3 := in[c], in[c+1], in[c+2], in[c+3]
		out[c] = gmul14[a0] ^ gmul11[a1] ^ gmul13[a2] ^ gmul9[a3]
		out[c+1] = gmul9[a0] ^ gmul14[a1] ^ gmul11[a2] ^ gmul13[a3]
		out[c+2] = gmul13[a0] ^ gmul9[a1] ^ gmul14[a2] ^ gmul11[a3]
		out[c+3] = gmul11[a0] ^ gmul13[a1] ^ gmul9[a2] ^ gmul14[a3]
	}
	return out
}
