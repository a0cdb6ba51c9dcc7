//go:build amd64 && !purego

package aesgcm

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

const vaesAVX2 = "vaes-avx2"

// skipUnlessVAESAVX2 skips t when the CPU or VG_CPU_FEATURES do not allow
// vaes-avx2 (an invalid VG_CPU_FEATURES fails it).
func skipUnlessVAESAVX2(t *testing.T) {
	require.NoError(t, cpufeat.Err())
	if !cpufeat.MustLookup(cpufeat.AESGCM, vaesAVX2).Available(cpufeat.Enabled()) {
		t.Skipf("%s is not available here", vaesAVX2)
	}
}

// vaesCase runs one message through every entry point of vaes-avx2 and
// compares with crypto/cipher: Seal at the given input and output offsets
// and in place, Open likewise (and of a tampered text), SealGather and the
// Encryptor with the text cut at each of cuts.
type vaesCase struct {
	g     *AEAD
	std   cipher.AEAD
	r     *rand.Rand
	inBuf []byte
}

func (c *vaesCase) rb(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(c.r.Uint32())
	}
	return b
}

func (c *vaesCase) check(t *testing.T, n, aadLen, inOff, outOff int, cuts []int) {
	t.Helper()
	nonce, pt, aad := c.rb(12), c.rb(n), c.rb(aadLen)
	want := c.std.Seal(nil, nonce, pt, aad)
	what := fmt.Sprintf("n=%d aad=%d offsets %d/%d", n, aadLen, inOff, outOff)

	in := make([]byte, inOff+n)
	copy(in[inOff:], pt)
	got := c.g.Seal(make([]byte, outOff, outOff+len(want)), nonce, in[inOff:], aad)
	require.Equal(t, want, got[outOff:], "Seal %s", what)
	buf := append(make([]byte, 0, len(want)), pt...)
	require.Equal(t, want, c.g.Seal(buf[:0], nonce, buf, aad), "Seal in place %s", what)

	ct := make([]byte, inOff+len(want))
	copy(ct[inOff:], want)
	back, err := c.g.Open(make([]byte, outOff), nonce, ct[inOff:], aad)
	require.NoError(t, err, "Open %s", what)
	require.True(t, bytes.Equal(pt, back[outOff:]), "Open %s", what)
	back, err = c.g.Open(ct[inOff:inOff], nonce, ct[inOff:], aad)
	require.NoError(t, err, "Open in place %s", what)
	require.True(t, bytes.Equal(pt, back), "Open in place %s", what)
	ct[inOff+c.r.IntN(len(want))] ^= 1 << c.r.IntN(8)
	_, err = c.g.Open(nil, nonce, ct[inOff:], aad)
	require.Error(t, err, "Open of a tampered text %s", what)

	for _, k := range cuts {
		if k > n {
			break
		}
		ps := [][]byte{pt[:k], pt[k:]}
		require.Equal(t, want, c.g.SealGather(nil, nonce, ps, aad), "SealGather %s cut %d", what, k)
		e := c.g.NewEncryptor(nonce, aad)
		out := e.Encrypt(nil, ps[0])
		out = e.Encrypt(out, ps[1])
		require.Equal(t, want, e.Finish(out), "Encryptor %s cut %d", what, k)
	}
}

func newVAESCase(t *testing.T, r *rand.Rand, keySize int) *vaesCase {
	c := &vaesCase{r: r}
	key := c.rb(keySize)
	g, err := New(key, WithBackend(vaesAVX2))
	require.NoError(t, err)
	require.Equal(t, vaesAVX2, g.Backend())
	blk, err := aes.NewCipher(key)
	require.NoError(t, err)
	std, err := cipher.NewGCM(blk)
	require.NoError(t, err)
	c.g, c.std = g, std
	return c
}

// TestVAESAVX2Edges checks vaes-avx2 against crypto/cipher around every
// path of its assembly, for each key size: every remainder of 0..7 whole
// blocks and 0..15 bytes after 0, 1 and 2 passes of 128 bytes, every
// length 0..1100, every multiple of 16 up to 4 KiB and its neighbours, AAD
// lengths 0..300, and input and output offsets 0..63.
func TestVAESAVX2Edges(t *testing.T) {
	skipUnlessVAESAVX2(t)
	r := rand.New(rand.NewPCG(17, 23))
	cs := []*vaesCase{newVAESCase(t, r, 16), newVAESCase(t, r, 24), newVAESCase(t, r, 32)}
	cuts := []int{1, 15, 16, 17, 100, 128, 129}
	i := 0
	next := func() *vaesCase { i++; return cs[i%3] }
	t.Run("remainders", func(t *testing.T) {
		for passes := 0; passes <= 2; passes++ {
			for blocks := 0; blocks <= 7; blocks++ {
				for part := 0; part <= 15; part++ {
					n := 128*passes + 16*blocks + part
					next().check(t, n, 13, n%16, (n/16)%16, cuts)
				}
			}
		}
	})
	t.Run("lengths", func(t *testing.T) {
		for n := 0; n <= 1100; n++ {
			next().check(t, n, []int{0, 13, 16, 31, 200}[n%5], n%3, n%5, cuts[:3])
		}
	})
	t.Run("multiples", func(t *testing.T) {
		for m := 16; m <= 4096; m += 16 {
			for d := -1; d <= 1; d++ {
				next().check(t, m+d, 13, 0, 0, []int{m / 2, m/2 + 7})
			}
		}
	})
	t.Run("aad", func(t *testing.T) {
		for a := 0; a <= 300; a++ {
			next().check(t, []int{0, 1, 16, 37, 300}[a%5], a, 0, 0, cuts[:2])
		}
	})
	t.Run("offsets", func(t *testing.T) {
		for in := 0; in < 64; in++ {
			for _, out := range []int{0, 1, 31, 63, in, 63 - in} {
				next().check(t, 200+in, 13, in, out, nil)
			}
		}
	})
}

// TestVAESAVX2Gather checks SealGather and the Encryptor with many pieces
// of random sizes (empty ones, blocks split across three pieces) against
// Seal of the concatenation, which the edge test checks against
// crypto/cipher.
func TestVAESAVX2Gather(t *testing.T) {
	skipUnlessVAESAVX2(t)
	r := rand.New(rand.NewPCG(5, 9))
	c := newVAESCase(t, r, 16)
	for iter := 0; iter < 300; iter++ {
		n := r.IntN(2000)
		pt, nonce, aad := c.rb(n), c.rb(12), c.rb(r.IntN(40))
		want := c.std.Seal(nil, nonce, pt, aad)
		var ps [][]byte
		for rest := pt; ; {
			k := min(len(rest), []int{0, 1, 3, 7, 15, 16, 17, 130, 300}[r.IntN(9)])
			ps = append(ps, rest[:k])
			rest = rest[k:]
			if len(rest) == 0 {
				break
			}
		}
		require.Equal(t, want, c.g.SealGather(nil, nonce, ps, aad), "SealGather n=%d pieces=%d", n, len(ps))
		e := c.g.NewEncryptor(nonce, aad)
		var out []byte
		for _, p := range ps {
			out = e.Encrypt(out, p)
		}
		require.Equal(t, want, e.Finish(out), "Encryptor n=%d pieces=%d", n, len(ps))
	}
}

// TestVAESAVX2KeyTable checks the table gcmInitVAES2 completes: the round
// keys in the standard byte order and H^1 (times x^-1, byte-reflected)
// against E(0) computed by crypto/aes, and that Wipe clears it.
func TestVAESAVX2KeyTable(t *testing.T) {
	skipUnlessVAESAVX2(t)
	for _, size := range []int{16, 24, 32} {
		key := bytes.Repeat([]byte{byte(size)}, size)
		g, err := New(key, WithBackend(vaesAVX2))
		require.NoError(t, err)
		k := g.b.(*vaesAVX2Key)
		require.Equal(t, size/4+6, k.rounds)
		require.Equal(t, key[:16], k.t[:16], "round key 0 is the key")
		blk, err := aes.NewCipher(key)
		require.NoError(t, err)
		var h [16]byte
		blk.Encrypt(h[:], h[:])
		var got [16]byte
		for i := range got {
			got[i] = k.t[240+7*16+15-i]
		}
		hi, lo := be64(got[:8]), be64(got[8:])
		if lo&1 == 1 {
			hi ^= 0xc200000000000000
			lo ^= 1
			lo = lo>>1 | hi<<63
			hi = hi>>1 | 1<<63
		} else {
			lo = lo>>1 | hi<<63
			hi >>= 1
		}
		require.Equal(t, be64(h[:8]), hi, "H high half, key size %d", size)
		require.Equal(t, be64(h[8:]), lo, "H low half, key size %d", size)
		g.Wipe()
		require.Equal(t, make([]byte, vaesTableSize), k.t[:], "Wipe left key material")
	}
}

// TestVAESAVX2Stack proves with stackscratch that Seal, Open, SealGather
// and the Encryptor of vaes-avx2 leave no round key, key power, plaintext,
// keystream or E(J0) on the stack they used.
func TestVAESAVX2Stack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	skipUnlessVAESAVX2(t)
	for _, size := range []int{16, 32} {
		key := make([]byte, size)
		for i := range key {
			key[i] = byte(0x41 + 3*i)
		}
		g, err := New(key, WithBackend(vaesAVX2))
		require.NoError(t, err)
		k := g.b.(*vaesAVX2Key)
		nonce := []byte("nonce-12byte")
		for _, n := range []int{5, 16, 40, 77, 200, 1000} {
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(0x80 + 7*i)
			}
			aad := []byte("header-13-by")
			sealed := g.Seal(nil, nonce, pt, aad)
			keystream := make([]byte, n)
			for i := range keystream {
				keystream[i] = pt[i] ^ sealed[i]
			}
			blk, err := aes.NewCipher(key)
			require.NoError(t, err)
			var j0 [16]byte
			copy(j0[:], nonce)
			j0[15] = 1
			blk.Encrypt(j0[:], j0[:])
			patterns := stackscratch.Windows(8, k.t[:16*(k.rounds+1)], k.t[240:], pt, keystream, j0[:])
			dst := make([]byte, 0, n+16)
			scan := func(what string, f func()) {
				res, err := stackscratch.Scan(f, patterns)
				require.NoError(t, err)
				require.Empty(t, res.Findings, "%s n=%d: secrets left on the stack", what, n)
				require.NotZero(t, res.Used)
			}
			scan("Seal", func() { g.Seal(dst, nonce, pt, aad) })
			scan("Open", func() {
				if _, err := g.Open(dst, nonce, sealed, aad); err != nil {
					panic(err)
				}
			})
			ps := [][]byte{pt[:n/2], pt[n/2:], {}}
			scan("SealGather", func() { g.SealGather(dst, nonce, ps, aad) })
			scan("Encryptor", func() {
				e := g.NewEncryptor(nonce, aad)
				out := e.Encrypt(dst, pt[:n/3])
				e.Finish(e.Encrypt(out, pt[n/3:]))
			})
		}
	}
}

// TestVAESAVX2CounterWrap checks the 32-bit counter wrapping inside a
// message (possible with nonces that are not 12 bytes, whose J0 ends in an
// arbitrary counter): vaes-avx2's seal, open, sealGather and stream against
// the generic backend (an independent implementation) for J0 counters just
// below 2^32, across the 8-block passes, the remainder and the short path.
func TestVAESAVX2CounterWrap(t *testing.T) {
	skipUnlessVAESAVX2(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{16, 24, 32} {
		c := &vaesCase{r: r}
		key := c.rb(size)
		v, gen := newVAESAVX2Key(key), newGenericKey(key)
		for _, back := range []uint32{0, 1, 2, 5, 8, 17, 40} {
			for _, n := range []int{0, 5, 16, 31, 47, 100, 128, 300, 1000} {
				var j0 [16]byte
				copy(j0[:12], c.rb(12))
				binary.BigEndian.PutUint32(j0[12:], 0xffffffff-back)
				pt, aad := c.rb(n), c.rb(13)
				want, got := make([]byte, n), make([]byte, n)
				wantTag := gen.seal(want, pt, aad, j0)
				gotTag := v.seal(got, pt, aad, j0)
				what := fmt.Sprintf("key %d counter -%d n=%d", size, back, n)
				require.Equal(t, want, got, "seal %s", what)
				require.Equal(t, wantTag, gotTag, "seal tag %s", what)
				back2 := make([]byte, n)
				require.Equal(t, wantTag, v.open(back2, want, aad, j0), "open tag %s", what)
				require.Equal(t, pt, back2, "open %s", what)
				clear(got)
				k := n / 3
				require.Equal(t, wantTag, v.sealGather(got, [][]byte{pt[:k], pt[k:]}, aad, j0), "sealGather tag %s", what)
				require.Equal(t, want, got, "sealGather %s", what)
				var s streamState
				clear(got)
				v.streamStart(&s, aad, j0)
				v.streamEncrypt(&s, got[:k], pt[:k])
				v.streamEncrypt(&s, got[k:], pt[k:])
				require.Equal(t, wantTag, v.streamFinish(&s), "stream tag %s", what)
				require.Equal(t, want, got, "stream %s", what)
			}
		}
	}
}
