package aesgcm

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func clmulBitwise(x, y uint64) (hi, lo uint64) {
	for i := 0; i < 64; i++ {
		if x>>i&1 == 1 {
			lo ^= y << i
			if i > 0 {
				hi ^= y >> (64 - i)
			}
		}
	}
	return
}

func TestClmul64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	edge := []uint64{0, 1, 0xF, 0x10, ^uint64(0), 0x8000000000000000, 0x1111111111111111, 0x8888888888888888, 0xFFFFFFFFFFFFFFF0}
	for _, x := range edge {
		for _, y := range edge {
			h, l := clmul64(x, y)
			hw, lw := clmulBitwise(x, y)
			require.Equal(t, [2]uint64{hw, lw}, [2]uint64{h, l}, "%#x * %#x", x, y)
		}
	}
	for i := 0; i < 200000; i++ {
		x, y := rng.Uint64(), rng.Uint64()
		// Dense operands make the longest columns.
		if i%2 == 0 {
			x |= rng.Uint64() | rng.Uint64()
			y |= rng.Uint64() | rng.Uint64()
		}
		h, l := clmul64(x, y)
		hw, lw := clmulBitwise(x, y)
		require.Equal(t, [2]uint64{hw, lw}, [2]uint64{h, l}, "%#x * %#x", x, y)
	}
}

// gfMulBitwise is SP 800-38D Algorithm 1 on the (hi, lo) representation.
func gfMulBitwise(x, y ghashElem) ghashElem {
	var z ghashElem
	v := y
	for i := 0; i < 128; i++ {
		var bit uint64
		if i < 64 {
			bit = x.hi >> (63 - i) & 1
		} else {
			bit = x.lo >> (127 - i) & 1
		}
		if bit == 1 {
			z.hi ^= v.hi
			z.lo ^= v.lo
		}
		lsb := v.lo & 1
		v.lo = v.lo>>1 | v.hi<<63
		v.hi >>= 1
		if lsb == 1 {
			v.hi ^= 0xe1 << 56
		}
	}
	return z
}

func TestGFMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		x := ghashElem{rng.Uint64(), rng.Uint64()}
		y := ghashElem{rng.Uint64(), rng.Uint64()}
		if i == 0 {
			x, y = ghashElem{^uint64(0), ^uint64(0)}, ghashElem{^uint64(0), ^uint64(0)}
		}
		p := newPower(y)
		require.Equal(t, gfMulBitwise(x, y), gfMul(x, &p))
	}
}

// The four-block aggregated update equals block-by-block Horner.
func TestGHASHAggregation(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for n := 0; n < 300; n++ {
		var k ghashKey
		h := ghashElem{rng.Uint64(), rng.Uint64()}
		k.init(h)
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		y0 := ghashElem{rng.Uint64(), rng.Uint64()}
		got := y0
		k.update(&got, data)
		want := y0
		for i := 0; i < n; i += 16 {
			var block [16]byte
			copy(block[:], data[i:])
			x := loadElem(block[:])
			want = gfMulBitwise(ghashElem{want.hi ^ x.hi, want.lo ^ x.lo}, h)
		}
		require.Equal(t, want, got, "n=%d", n)
	}
}
