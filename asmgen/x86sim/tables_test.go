package x86sim

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// clmulBits is the carry-less product one bit of b at a time, the
// definition clmul64's nibble tables must agree with.
func clmulBits(a, b uint64) (hi, lo uint64) {
	for i := range uint(64) {
		if b>>i&1 != 0 {
			lo ^= a << i
			if i > 0 {
				hi ^= a >> (64 - i)
			}
		}
	}
	return hi, lo
}

// TestClmul64 checks clmul64 against clmulBits on edge and random
// operands.
func TestClmul64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edges := []uint64{0, 1, 2, 0x8000000000000000, ^uint64(0), 0xf, 0xf000000000000000, 0x8000000000000001}
	for _, a := range edges {
		for _, b := range edges {
			wh, wl := clmulBits(a, b)
			gh, gl := clmul64(a, b)
			require.Equal(t, [2]uint64{wh, wl}, [2]uint64{gh, gl}, "%#x·%#x", a, b)
		}
	}
	for range 100000 {
		a, b := r.Uint64(), r.Uint64()
		wh, wl := clmulBits(a, b)
		gh, gl := clmul64(a, b)
		require.Equal(t, [2]uint64{wh, wl}, [2]uint64{gh, gl}, "%#x·%#x", a, b)
	}
}

// TestEncRound checks encRound's tables against ShiftRows, SubBytes and
// MixColumns applied one after another, on every byte value in every
// position and on random states.
func TestEncRound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(st [16]byte) {
		require.Equal(t, mixColumns(subBytes(shiftRows(st), &sbox)), encRound(&st), "%x", st)
	}
	for i := range 16 {
		for x := range 256 {
			var st [16]byte
			for j := range st {
				st[j] = byte(r.Uint32())
			}
			st[i] = byte(x)
			check(st)
		}
	}
	for range 20000 {
		var st [16]byte
		for j := range st {
			st[j] = byte(r.Uint32())
		}
		check(st)
	}
}
