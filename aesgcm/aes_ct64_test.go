package aesgcm

import (
	"crypto/aes"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// refSBox computes the AES S-box from its definition (FIPS 197 section
// 5.1.1): inversion in GF(2^8), then the affine map.
func refSBox() [256]byte {
	mul := func(a, b byte) byte {
		var p byte
		for ; b != 0; b >>= 1 {
			if b&1 != 0 {
				p ^= a
			}
			a = a<<1 ^ 0x1b*(a>>7)
		}
		return p
	}
	var s [256]byte
	for x := 0; x < 256; x++ {
		var inv byte
		for y := 1; y < 256; y++ {
			if mul(byte(x), byte(y)) == 1 {
				inv = byte(y)
			}
		}
		var out byte
		for i := 0; i < 8; i++ {
			bit := (inv>>i ^ inv>>((i+4)%8) ^ inv>>((i+5)%8) ^ inv>>((i+6)%8) ^ inv>>((i+7)%8) ^ 0x63>>i) & 1
			out |= bit << i
		}
		s[x] = out
	}
	return s
}

func TestSBoxCircuit(t *testing.T) {
	ref := refSBox()
	for x := 0; x < 256; x++ {
		// Four different bytes per word, so lane mixing would show.
		w := uint32(x) | uint32(x^0x5a)<<8 | uint32(x^0xa5)<<16 | uint32(255-x)<<24
		got := subWord(w)
		want := uint32(ref[x]) | uint32(ref[x^0x5a])<<8 | uint32(ref[x^0xa5])<<16 | uint32(ref[255-x])<<24
		require.Equal(t, want, got, "x=%#x", x)
	}
}

func TestBitsliceLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 1000; i++ {
		lo, hi := rng.Uint64(), rng.Uint64()
		w0, w1 := loadWords(lo, hi)
		l2, h2 := storeWords(w0, w1)
		require.Equal(t, [2]uint64{lo, hi}, [2]uint64{l2, h2})
		var q, q0 [8]uint64
		for j := range q {
			q[j] = rng.Uint64()
		}
		q0 = q
		ortho(&q)
		ortho(&q)
		require.Equal(t, q0, q)
	}
	// Byte (row r, column c) of block k lands in bit 16r+4c+k of word j
	// for each bit j of the byte.
	var src [64]byte
	for k := 0; k < 4; k++ {
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				src[16*k+4*c+r] = 0xff
				var q [8]uint64
				for kk := 0; kk < 4; kk++ {
					q[kk], q[4+kk] = loadWords(binary.LittleEndian.Uint64(src[16*kk:]), binary.LittleEndian.Uint64(src[16*kk+8:]))
				}
				ortho(&q)
				for j := 0; j < 8; j++ {
					require.Equal(t, uint64(1)<<(16*r+4*c+k), q[j], "k=%d c=%d r=%d j=%d", k, c, r, j)
				}
				src[16*k+4*c+r] = 0
			}
		}
	}
}

// FIPS 197 Appendix C, in all four block slots.
func TestAESFIPS197(t *testing.T) {
	pt, _ := hex.DecodeString("00112233445566778899aabbccddeeff")
	for _, tc := range []struct{ key, ct string }{
		{"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
		{"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
		{"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"},
	} {
		key, _ := hex.DecodeString(tc.key)
		var c aesCT
		c.expandKey(key)
		var blocks [64]byte
		for k := 0; k < 4; k++ {
			copy(blocks[16*k:], pt)
		}
		c.encryptBlocks(&blocks, &blocks)
		for k := 0; k < 4; k++ {
			require.Equal(t, tc.ct, hex.EncodeToString(blocks[16*k:16*k+16]))
		}
	}
}

func TestAESAgainstStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var key [32]byte
	for i := 0; i < 300; i++ {
		n := []int{16, 24, 32}[i%3]
		for j := range key {
			key[j] = byte(rng.Uint32())
		}
		var c aesCT
		c.expandKey(key[:n])
		ref, err := aes.NewCipher(key[:n])
		require.NoError(t, err)
		var src, dst [64]byte
		for j := range src {
			src[j] = byte(rng.Uint32())
		}
		c.encryptBlocks(&dst, &src)
		for k := 0; k < 4; k++ {
			var want [16]byte
			ref.Encrypt(want[:], src[16*k:])
			require.Equal(t, want[:], dst[16*k:16*k+16])
		}
		// ctr4, with counters that wrap.
		ctr := rng.Uint32()
		if i%4 == 0 {
			ctr = 0xfffffffe
		}
		c.ctr4(&dst, binary.LittleEndian.Uint64(src[:]), uint64(binary.LittleEndian.Uint32(src[8:])), ctr)
		for k := 0; k < 4; k++ {
			var block, want [16]byte
			copy(block[:12], src[:12])
			binary.BigEndian.PutUint32(block[12:], ctr+uint32(k))
			ref.Encrypt(want[:], block[:])
			require.Equal(t, want[:], dst[16*k:16*k+16])
		}
	}
}
