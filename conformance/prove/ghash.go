package prove

import (
	spec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// The key table's GHASH entries, as a GHASH proof will need them: the table
// holds H, H^2, ..., H^npow, each as encPower(H^k) with its Karatsuba half
// (TestTableLayout checks this against every backend's gcmInit on the
// model).

// xInv is x^-1 in GF(2^128) (x^127 + x^6 + x + 1), and xElem is x.
var (
	xInv  = [16]byte{0: 0xc2, 15: 0x01}
	xElem = [16]byte{0: 0x40}
)

// encPower is how the key table holds the element f: f·x^-1 with its bytes
// reversed.
func encPower(f [16]byte) (e [16]byte) {
	g := spec.Mul(f, xInv)
	for i := range e {
		e[i] = g[15-i]
	}
	return e
}

// decPower inverts encPower.
func decPower(e [16]byte) [16]byte {
	var g [16]byte
	for i := range g {
		g[i] = e[15-i]
	}
	return spec.Mul(g, xElem)
}

// karatsuba is the Karatsuba half of an entry: the XOR of its qwords, in
// both.
func karatsuba(e [16]byte) (k [16]byte) {
	for i := 0; i < 8; i++ {
		k[i] = e[i] ^ e[i+8]
		k[i+8] = k[i]
	}
	return k
}

// gcmLayout is where a backend's table holds H^m and its Karatsuba half.
type gcmLayout struct{ npow int }

func (l gcmLayout) pow(m int) int { return gcmPowers + 16*(l.npow-m) }
func (l gcmLayout) kar(m int) int { return gcmPowers + 16*l.npow + 16*(l.npow-m) }

// gcmPowers is the offset of the key powers in the table, after fifteen
// round keys.
const gcmPowers = 15 * 16
