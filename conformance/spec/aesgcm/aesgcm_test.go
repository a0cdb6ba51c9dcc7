package aesgcm

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// FIPS 197 Appendix C.
func TestFIPS197(t *testing.T) {
	pt := [16]byte(unhex("00112233445566778899aabbccddeeff"))
	for _, tc := range []struct{ key, ct string }{
		{"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
		{"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
		{"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"},
	} {
		got := EncryptBlock(unhex(tc.key), pt)
		require.Equal(t, tc.ct, hex.EncodeToString(got[:]))
	}
	require.Equal(t, byte(0x63), sbox[0])
	require.Equal(t, byte(0x16), sbox[0xff])
	require.Equal(t, byte(0xed), sbox[0x53]) // FIPS 197 section 5.1.1 example
}

// Test cases 1-6 of McGrew and Viega's GCM specification (the SP 800-38D
// validation examples).
func TestGCMSpecVectors(t *testing.T) {
	const p = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
	const k = "feffe9928665731c6d6a8f9467308308"
	const a = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
	for i, tc := range []struct{ key, iv, pt, aad, ct, tag string }{
		{"00000000000000000000000000000000", "000000000000000000000000", "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
		{"00000000000000000000000000000000", "000000000000000000000000", "00000000000000000000000000000000", "", "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"},
		{k, "cafebabefacedbaddecaf888", p, "", "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985", "4d5c2af327cd64a62cf35abd2ba6fab4"},
		{k, "cafebabefacedbaddecaf888", p[:120], a, "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", "5bc94fbc3221a5db94fae95ae7121a47"},
		{k, "cafebabefacedbad", p[:120], a, "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598", "3612d2e79e3b0785561be14aaca2fccb"},
		{k, "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b", p[:120], a, "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5", "619cc5aefffe0bfa462af43c1699d050"},
	} {
		sealed := Seal(unhex(tc.key), unhex(tc.iv), unhex(tc.pt), unhex(tc.aad), 16)
		require.Equal(t, tc.ct+tc.tag, hex.EncodeToString(sealed), "case %d", i+1)
		pt, err := Open(unhex(tc.key), unhex(tc.iv), sealed, unhex(tc.aad), 16)
		require.NoError(t, err)
		require.Equal(t, tc.pt, hex.EncodeToString(pt))
		sealed[0] ^= 1
		_, err = Open(unhex(tc.key), unhex(tc.iv), sealed, unhex(tc.aad), 16)
		require.ErrorIs(t, err, ErrAuth)
	}
}

// The reference agrees with crypto/cipher (an independent implementation)
// on random inputs, including nonce and tag sizes other than the defaults.
func TestAgainstStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rnd := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	for i := 0; i < 60; i++ {
		key := rnd([]int{16, 24, 32}[i%3])
		nonceSize := []int{12, 1, 8, 16, 60}[i%5]
		tagSize := 12 + i%5
		pt, aad, iv := rnd(rng.IntN(100)), rnd(rng.IntN(40)), rnd(nonceSize)
		b, err := aes.NewCipher(key)
		require.NoError(t, err)
		var g cipher.AEAD
		switch {
		case nonceSize != 12:
			g, err = cipher.NewGCMWithNonceSize(b, nonceSize)
			tagSize = 16
		default:
			g, err = cipher.NewGCMWithTagSize(b, tagSize)
		}
		require.NoError(t, err)
		require.Equal(t, g.Seal(nil, iv, pt, aad), Seal(key, iv, pt, aad, tagSize))
	}
}

// GCTRBlocks, the block form the proofs run symbolically, is gctr on whole
// blocks, counters that wrap included.
func TestGCTRBlocksIsGCTR(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, last := range []uint32{0, 0xfffffffe, rng.Uint32()} {
		key := make([]byte, 16)
		var icb [16]byte
		x := make([]byte, 16*4)
		for _, b := range [][]byte{key, icb[:12], x} {
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
		}
		icb[12], icb[13], icb[14], icb[15] = byte(last>>24), byte(last>>16), byte(last>>8), byte(last)
		rks := expandKey(key)
		brks := make([]Bytes16, len(rks))
		for i := range rks {
			brks[i] = rks[i]
		}
		blocks := make([]Bytes16, len(x)/16)
		for i := range blocks {
			blocks[i] = Bytes16(x[16*i:])
		}
		var got []byte
		for _, b := range GCTRBlocks(brks, Bytes16(icb), blocks) {
			got = append(got, b[:]...)
		}
		require.Equal(t, gctr(rks, icb, x), got, "counter %#x", last)
	}
}

// GHASHExpanded, the form the proofs run symbolically, is GHASH: the sum
// of the blocks times the powers of H equals Algorithm 2's chain.
func TestGHASHExpandedIsGHASH(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for m := 1; m <= 17; m += 4 {
		var h [16]byte
		x := make([]byte, 16*m)
		for _, b := range [][]byte{h[:], x} {
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
		}
		powers := [][16]byte{h}
		for len(powers) < m {
			powers = append(powers, Mul(powers[len(powers)-1], h))
		}
		blocks := make([]Bytes16, m)
		for i := range blocks {
			blocks[i] = Bytes16(x[16*i:])
		}
		got := GHASHExpanded(powers, blocks)
		require.Equal(t, ghash(h, [16]byte{}, x), [16]byte(got), "%d blocks", m)
	}
}
