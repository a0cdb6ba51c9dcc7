//go:build amd64 && !purego

package probes

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/vgcrypto/vg/cpufeat"
)

// A slot is a piece of a probe's input or output buffer: a register, a flag,
// the flag setup's operands or the memory operand.
type slot struct {
	name      string
	off, size int
	// and masks an input slot's first 8 bytes when non-zero (a write mask
	// that must disable the elements past the end of the buffer).
	and uint64
}

// flagRule says how the flags the SDM defines after a probed instruction are
// found: statically (probe.flags), or from the shift or rotate count in CL.
type flagRule uint8

const (
	ruleStatic flagRule = iota
	ruleShiftCL
	ruleSarCL
	ruleRotateCL
)

// A probe is one generated probe function and its buffers' layout.
type probe struct {
	name string
	fn   func(in, out *byte)
	// form is the probed form (package forms' notation), inst the probed
	// instruction as printed, origin "committed" (a form of the committed
	// assembly) or "added" (one the coming backends will use).
	form, inst, origin string
	// feats are the CPU features the probe needs, its harness's included.
	feats cpufeat.Set
	// harness is the width of the vector loads and stores around the
	// instruction: 64 (zmm), 32 (ymm, a twin for CPUs without AVX-512) or
	// 0.
	harness       int
	inLen, outLen int
	// undef are the flags the SDM leaves undefined after the instruction,
	// bits CF PF ZF SF OF (out bytes 0-4), unless rule says otherwise.
	undef     uint8
	rule      flagRule
	ruleWidth int
	// adx probes set OF apart from CF (flagC, flagD); branch probes store
	// whether the branch was taken.
	adx, branch bool
	// vin and vout are the slots besides the fixed ones; in and out all of
	// them, set by init.
	vin, vout []slot
	in, out   []slot
}

func init() {
	for i := range table {
		p := &table[i]
		p.in = append([]slot(nil), fixedIn...)
		if p.adx {
			p.in = append(p.in, adxIn...)
		}
		p.in = append(p.in, p.vin...)
		p.out = append([]slot(nil), fixedOut...)
		if p.branch {
			p.out = append(p.out, branchOut...)
		}
		p.out = append(p.out, p.vout...)
	}
}

const (
	cfBit, pfBit, zfBit, sfBit, ofBit = 1, 2, 4, 8, 16
	allFlags                          = 0x1f
)

// definedFlags returns the flags the SDM defines after the probe's
// instruction ran on input in.
func (p *probe) definedFlags(in []byte) uint8 {
	if p.rule == ruleStatic {
		return allFlags &^ p.undef
	}
	var cl byte
	for _, s := range p.in {
		if s.name == "CX" {
			cl = in[s.off]
		}
	}
	count := int(cl & 31)
	if p.ruleWidth == 64 {
		count = int(cl & 63)
	}
	m := uint8(allFlags)
	if count > 1 {
		m &^= ofBit
	}
	if p.rule == ruleShiftCL && count >= p.ruleWidth {
		m &^= cfBit
	}
	return m
}

// edge patterns fill a slot with the values where bugs hide: zero, all ones,
// the top bit (sign) of each element, the largest signed value of each
// element, one, all ones but the lowest bit, alternating bits, and the byte
// index (a shuffle's identity). There are 17, a prime: edge input (a, b)
// gives slot s pattern (a + b*s) mod 17, so any two slots see every pair.
var edges = []func(b []byte){
	func(b []byte) { fill(b, 8, 0) },
	func(b []byte) { fill(b, 8, ^uint64(0)) },
	func(b []byte) { fill(b, 1, 0x80) },
	func(b []byte) { fill(b, 2, 0x8000) },
	func(b []byte) { fill(b, 4, 0x80000000) },
	func(b []byte) { fill(b, 8, 1<<63) },
	func(b []byte) { fill(b, 1, 0x7f) },
	func(b []byte) { fill(b, 2, 0x7fff) },
	func(b []byte) { fill(b, 4, 0x7fffffff) },
	func(b []byte) { fill(b, 8, 1<<63-1) },
	func(b []byte) { fill(b, 8, 1) },
	func(b []byte) { fill(b, 4, 1) },
	func(b []byte) { fill(b, 8, ^uint64(1)) },
	func(b []byte) { fill(b, 8, 0x5555555555555555) },
	func(b []byte) { fill(b, 8, 0xaaaaaaaaaaaaaaaa) },
	func(b []byte) { fill(b, 8, 0x00000000ffffffff) },
	func(b []byte) {
		for i := range b {
			b[i] = byte(i)
		}
	},
}

// fill sets every e-byte element of b (and a tail shorter than e) to v.
func fill(b []byte, e int, v uint64) {
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], v)
	for i := range b {
		b[i] = w[i%e]
	}
}

// edgeInput fills in with edge input number n (of len(edges)²).
func (p *probe) edgeInput(in []byte, n int) {
	a, b := n%len(edges), n/len(edges)
	for s, sl := range p.in {
		edges[(a+b*s)%len(edges)](in[sl.off : sl.off+sl.size])
	}
	p.applyAnd(in)
}

// randomInput fills in with random bytes, some of whose elements are
// replaced by edge values (so that carries, sign boundaries and small shift
// counts turn up in random places), and the flag setup's operands often sum
// to zero.
func (p *probe) randomInput(in []byte, rng *rand.Rand) {
	for _, sl := range p.in {
		b := in[sl.off : sl.off+sl.size]
		for i := 0; i < len(b); i += 8 {
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], rng.Uint64())
			copy(b[i:], w[:])
		}
		if rng.IntN(3) == 0 {
			e := 1 << rng.IntN(4)
			top := uint64(1) << (8*e - 1)
			for i := 0; i+e <= len(b); i += e {
				r := rng.Uint64()
				if r&1 == 0 {
					continue
				}
				var v uint64
				switch (r >> 1) % 6 {
				case 0:
				case 1:
					v = ^uint64(0)
				case 2:
					v = top
				case 3:
					v = top - 1
				case 4:
					v = 1
				case 5:
					v = (r >> 8) % uint64(8*e+2)
				}
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], v)
				copy(b[i:i+e], w[:e])
			}
		}
	}
	if rng.IntN(8) == 0 {
		a := binary.LittleEndian.Uint64(in[0:])
		binary.LittleEndian.PutUint64(in[8:], -a)
	}
	p.applyAnd(in)
}

func (p *probe) applyAnd(in []byte) {
	for _, sl := range p.in {
		if sl.and != 0 {
			v := binary.LittleEndian.Uint64(in[sl.off:])
			binary.LittleEndian.PutUint64(in[sl.off:], v&sl.and)
		}
	}
}
