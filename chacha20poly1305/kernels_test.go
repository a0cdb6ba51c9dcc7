package chacha20poly1305

import (
	"bytes"
	"encoding/binary"
	"math/big"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/chacha20"
)

// TestChaCha20RFC8439 is the encryption test vector of RFC 8439, section
// 2.4.2, run through every implemented block kernel: the whole blocks with
// xorBlocks, the last partial block with the keystream of one more.
func TestChaCha20RFC8439(t *testing.T) {
	key := unhex(t, `00:01:02:03:04:05:06:07:08:09:0a:0b:0c:0d:0e:0f:10:11:12:13:14:15:16:17:18:19:1a:1b:1c:1d:1e:1f`)
	nonce := unhex(t, `00:00:00:00:00:00:00:4a:00:00:00:00`)
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	want := unhex(t, `6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81
		e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b
		f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57
		16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8
		07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e
		52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36
		5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42
		87 4d`)
	for _, b := range enabledBackends() {
		var st [16]uint32
		initState(&st, (*[KeySize]byte)(key), (*[NonceSize]byte)(nonce))
		st[counterIndex] = 1
		got := make([]byte, len(plaintext))
		whole := len(plaintext) &^ 63
		b.xorBlocks(&st, got[:whole], plaintext[:whole])
		b.xorTail(&st, got[whole:], plaintext[whole:])
		assert.Equal(t, want, got, b.String())
		assert.Equal(t, uint32(3), st[counterIndex], b.String())
	}
}

// TestXChaChaDraft is the XChaCha20-Poly1305 example of
// draft-irtf-cfrg-xchacha-03, appendix A.3.1, and its HChaCha20 test vector
// of section 2.2.1.
func TestXChaChaDraft(t *testing.T) {
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	aad := unhex(t, "50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7")
	key := unhex(t, `80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
		90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`)
	nonce := unhex(t, `40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f
		50 51 52 53 54 55 56 57`)
	ciphertext := unhex(t, `bd 6d 17 9d 3e 83 d4 3b 95 76 57 94 93 c0 e9 39
		57 2a 17 00 25 2b fa cc be d2 90 2c 21 39 6c bb
		73 1c 7f 1b 0b 4a a6 44 0b f3 a8 2f 4e da 7e 39
		ae 64 c6 70 8c 54 c2 16 cb 96 b7 2e 12 13 b4 52
		2f 8c 9b a4 0d b5 d9 45 b1 1b 69 b9 82 c1 bb 9e
		3f 3f ac 2b c3 69 48 8f 76 b2 38 35 65 d3 ff f9
		21 f9 66 4c 97 63 7d a9 76 88 12 f6 15 c6 8b 13
		b5 2e`)
	tag := unhex(t, "c0:87:59:24:c1:c7:98:79:47:de:af:d8:78:0a:cf:49")
	want := append(append([]byte(nil), ciphertext...), tag...)

	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, key, true, name)
		assert.Equal(t, NonceSizeX, a.NonceSize())
		got := a.Seal(nil, nonce, plaintext, aad)
		assert.Equal(t, want, got)
		got = a.SealGather(nil, nonce, [][]byte{plaintext[:64], plaintext[64:]}, aad)
		assert.Equal(t, want, got)
		pt, err := a.Open(nil, nonce, want, aad)
		require.NoError(t, err)
		assert.Equal(t, plaintext, pt)
	})

	// draft-irtf-cfrg-xchacha-03, section 2.2.1.
	hkey := unhex(t, `00:01:02:03:04:05:06:07:08:09:0a:0b:0c:0d:0e:0f:10:11:12:13:14:15:16:17:18:19:1a:1b:1c:1d:1e:1f`)
	hnonce := unhex(t, `00:00:00:09:00:00:00:4a:00:00:00:00:31:41:59:27`)
	hwant := unhex(t, `82413b42 27b27bfe d30e4250 8a877d73 a0f9e4d5 8a74a853 c12ec413 26d3ecdc`)
	var out [KeySize]byte
	hChaCha20(&out, (*[KeySize]byte)(hkey), (*[16]byte)(hnonce))
	assert.Equal(t, hwant, out[:])
}

// TestChaCha20Counter compares the block kernels with
// golang.org/x/crypto/chacha20 at counters around the 32-bit limit and over
// runs of many blocks, in place and out of place.
func TestChaCha20Counter(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(11, 12))
	for _, b := range enabledBackends() {
		for _, start := range []uint32{0, 1, 7, 1<<31 - 1, 1 << 31, 1<<32 - 20, 1<<32 - 2} {
			for _, blocks := range []int{1, 2, 3, 4, 5, 8, 9, 17} {
				if uint64(start)+uint64(blocks) > 1<<32-1 {
					continue
				}
				key := randBytes(rng, KeySize)
				nonce := randBytes(rng, NonceSize)
				src := randBytes(rng, blocks*64)

				ref, err := chacha20.NewUnauthenticatedCipher(key, nonce)
				require.NoError(t, err)
				ref.SetCounter(start)
				want := make([]byte, len(src))
				ref.XORKeyStream(want, src)

				var st [16]uint32
				initState(&st, (*[KeySize]byte)(key), (*[NonceSize]byte)(nonce))
				st[counterIndex] = start
				got := make([]byte, len(src))
				b.xorBlocks(&st, got, src)
				require.Equal(t, want, got, "%s start=%d blocks=%d", b, start, blocks)
				require.Equal(t, start+uint32(blocks), st[counterIndex])

				st[counterIndex] = start
				b.xorBlocks(&st, src, src)
				require.Equal(t, want, src, "%s in place", b)
			}
		}
	}
}

// TestPoly1305RFC8439 is the Poly1305 test vector of RFC 8439, section
// 2.5.2. Its 34-byte message ends in a partial block, which the AEAD never
// hashes, so the kernels hash the two whole blocks and the last one goes
// through the reference bigPoly, checked to agree with the kernels on whole
// blocks below.
func TestPoly1305RFC8439(t *testing.T) {
	key := unhex(t, `85:d6:be:78:57:55:6d:33:7f:44:52:fe:42:d5:06:a8:01:03:80:8a:fb:0d:b2:fd:4a:bf:f6:af:41:49:f5:1b`)
	msg := []byte("Cryptographic Forum Research Group")
	want := unhex(t, `a8:06:1d:c1:30:51:36:c6:c2:2b:8b:af:0c:01:27:a9`)
	assert.Equal(t, want, bigPoly(key, msg))
	for _, b := range enabledBackends() {
		var p polyState
		p.init((*[32]byte)(key))
		b.polyBlocks(&p, msg[:32])
		assert.Equal(t, bigPolyState(key, msg[:32]), stateInt(&p), b.String())
	}
}

// TestPoly1305Edges compares the kernels and the final reduction with the
// math/big reference on inputs that drive the limbs to their bounds: keys
// with every r bit the clamp allows, blocks of all ones, and accumulators
// near 2¹³⁰-5.
func TestPoly1305Edges(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(13, 14))
	type polyCase struct{ key, msg []byte }
	ff := bytes.Repeat([]byte{0xff}, 32)
	cases := []polyCase{
		{ff, bytes.Repeat([]byte{0xff}, 16*40)},
		{ff, make([]byte, 16*3)},
		{make([]byte, 32), randBytes(rng, 16*5)},
		{randBytes(rng, 32), bytes.Repeat([]byte{0xff}, 16*25)},
	}
	// Messages that make h land on or around the prime, below and above
	// 2¹³⁰: with r = 1 (key byte 0 = 1, the rest 0) h is the sum of the
	// blocks with their 2¹²⁸ bits. Three blocks m1, m2, m3 = 0 with
	// (m1 + 2¹²⁸) + (m2 + 2¹²⁸) + 2¹²⁸ = p + delta.
	rOne := make([]byte, 32)
	rOne[0] = 1
	for _, delta := range []int64{-1, 0, 1, 4, 5, 6, 1000} {
		sum := new(big.Int).Add(prime1305, big.NewInt(delta))
		sum.Sub(sum, new(big.Int).Mul(big.NewInt(3), new(big.Int).Lsh(big.NewInt(1), 128)))
		m1 := new(big.Int).Lsh(big.NewInt(1), 127)
		m2 := new(big.Int).Sub(sum, m1)
		require.True(t, m2.Sign() >= 0 && m2.BitLen() <= 128)
		msg := append(append(leBytes16(m1), leBytes16(m2)...), make([]byte, 16)...)
		cases = append(cases, polyCase{rOne, msg})
	}
	for _, b := range enabledBackends() {
		for i, c := range cases {
			var p polyState
			p.init((*[32]byte)(c.key))
			b.polyBlocks(&p, c.msg)
			var tag [TagSize]byte
			polyFinish(&p, &tag)
			assert.Equal(t, bigPoly(c.key, c.msg), tag[:], "%s case %d", b, i)
		}
		for range 200 {
			key := randBytes(rng, 32)
			msg := randBytes(rng, 16*rng.IntN(20))
			var p polyState
			p.init((*[32]byte)(key))
			// Hash in two calls, to cover state carried between calls.
			cut := 16 * rng.IntN(len(msg)/16+1)
			b.polyBlocks(&p, msg[:cut])
			b.polyBlocks(&p, msg[cut:])
			var tag [TagSize]byte
			polyFinish(&p, &tag)
			require.Equal(t, bigPoly(key, msg), tag[:], "%s", b)
		}
	}
}

var prime1305 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))

// bigPolyState is the Poly1305 accumulator after msg, with math/big, fully
// reduced: RFC 8439 section 2.5.1, each 16-byte (or shorter, final) block
// read little-endian with one byte 0x01 appended.
func bigPolyState(key, msg []byte) *big.Int {
	rb := append([]byte(nil), key[:16]...)
	for _, i := range []int{3, 7, 11, 15} {
		rb[i] &= 15
	}
	for _, i := range []int{4, 8, 12} {
		rb[i] &= 252
	}
	r := leInt(rb)
	h := new(big.Int)
	for len(msg) > 0 {
		n := min(16, len(msg))
		block := append(append([]byte(nil), msg[:n]...), 1)
		h.Add(h, leInt(block))
		h.Mul(h, r)
		h.Mod(h, prime1305)
		msg = msg[n:]
	}
	return h
}

// bigPoly is the Poly1305 tag of msg with math/big.
func bigPoly(key, msg []byte) []byte {
	h := bigPolyState(key, msg)
	h.Add(h, leInt(key[16:32]))
	return leBytes16(h)
}

// stateInt returns the kernel's accumulator fully reduced.
func stateInt(p *polyState) *big.Int {
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], p.h[0])
	binary.LittleEndian.PutUint64(b[8:], p.h[1])
	binary.LittleEndian.PutUint64(b[16:], p.h[2])
	return new(big.Int).Mod(leInt(b[:]), prime1305)
}

func leInt(b []byte) *big.Int {
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	return new(big.Int).SetBytes(be)
}

// leBytes16 returns x mod 2¹²⁸ as 16 little-endian bytes.
func leBytes16(x *big.Int) []byte {
	m := new(big.Int).And(x, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1)))
	be := m.FillBytes(make([]byte, 16))
	out := make([]byte, 16)
	for i := range be {
		out[15-i] = be[i]
	}
	return out
}
