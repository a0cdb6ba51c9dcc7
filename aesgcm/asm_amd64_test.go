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
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// The tests of the assembly backends. The checks every assembly backend
// must pass (edges, the short path, gathers, counter wrap, stack proofs)
// run once per backend that Backends lists, except generic, as subtests
// named by the backend; the key-table layouts differ, so their checks are
// per backend (TestAESNIKeyTable, TestVAESAVX2KeyTable).

// asmBackendNames returns the names of the assembly backends Backends
// lists: every one but generic, available here or not.
func asmBackendNames(t *testing.T) []string {
	var names []string
	for _, b := range Backends() {
		if b.Name != cpufeat.GenericBackend {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names, "Backends lists no assembly backend")
	return names
}

// forEachOf runs f as a subtest for each of names, skipping those the CPU
// and VG_CPU_FEATURES do not allow (an invalid VG_CPU_FEATURES fails it).
func forEachOf(t *testing.T, names []string, f func(t *testing.T, name string)) {
	require.NoError(t, cpufeat.Err())
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if !cpufeat.MustLookup(cpufeat.AESGCM, name).Available(cpufeat.Enabled()) {
				t.Skipf("%s is not available here", name)
			}
			f(t, name)
		})
	}
}

// forEachAsm runs f as a subtest for each assembly backend available here.
func forEachAsm(t *testing.T, f func(t *testing.T, name string)) {
	forEachOf(t, asmBackendNames(t), f)
}

// asmPowers is the number of GHASH key powers in each assembly backend's
// table (see _asm/gcm.go).
var asmPowers = map[string]int{"aesni": 16, "aesni-avx": 16, "vaes-avx2": 16, "vaes-avx512": 16}

// asmBatch is the number of bytes each assembly backend's bulk loop takes
// per batch (see _asm/gcm.go).
var asmBatch = map[string]int{"aesni": 128, "aesni-avx": 128, "vaes-avx2": 256, "vaes-avx512": 256}

// asmKeyTable returns the part of g's key table its backend uses and its
// number of rounds: the round keys in the standard byte order, then at byte
// 240 the GHASH key powers and their halves.
func asmKeyTable(t *testing.T, g *AEAD) ([]byte, int) {
	t.Helper()
	if k, ok := g.k.impl.(interface{ key() *asmKey }); ok {
		require.Contains(t, asmPowers, g.Backend(), "no table layout known for the backend")
		return k.key().table()[:15*16+32*asmPowers[g.Backend()]], k.key().rounds
	}
	t.Fatalf("%s: no key table accessor for %T", g.Backend(), g.k.impl)
	return nil, 0
}

// newBackendKey returns the key of the backend name for key, without the
// checks of New.
func newBackendKey(t *testing.T, name string, key []byte) keyImpl {
	t.Helper()
	for _, im := range registrations {
		if im.Name == name {
			return im.Value(key)
		}
	}
	t.Fatalf("%s is not implemented", name)
	return nil
}

// asmCase runs messages through every entry point of one backend's key and
// compares with crypto/cipher.
type asmCase struct {
	g       *AEAD
	std     cipher.AEAD
	r       *rand.Rand
	keySize int
}

func (c *asmCase) rb(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(c.r.Uint32())
	}
	return b
}

func newAsmCase(t *testing.T, r *rand.Rand, name string, keySize int) *asmCase {
	c := &asmCase{r: r, keySize: keySize}
	key := c.rb(keySize)
	g, err := Prepare(key, WithBackend(name))
	require.NoError(t, err)
	require.Equal(t, name, g.Backend())
	blk, err := aes.NewCipher(key)
	require.NoError(t, err)
	std, err := cipher.NewGCM(blk)
	require.NoError(t, err)
	c.g, c.std = g, std
	return c
}

// check runs one message of n bytes with aadLen bytes of AAD: Seal at the
// given input and output offsets and in place, Open likewise, Open of a
// text with the low bit of its middle byte flipped and of one with a random
// bit flipped, and SealGather and the Encryptor with the text cut at each
// of cuts (up to the first larger than n).
func (c *asmCase) check(t *testing.T, n, aadLen, inOff, outOff int, cuts []int) {
	t.Helper()
	nonce, pt, aad := c.rb(12), c.rb(n), c.rb(aadLen)
	want := c.std.Seal(nil, nonce, pt, aad)
	what := fmt.Sprintf("n=%d aad=%d key=%d offsets %d/%d", n, aadLen, c.keySize, inOff, outOff)

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

	copy(ct[inOff:], want) // Open in place overwrote the text
	ct[inOff+n/2] ^= 1
	_, err = c.g.Open(nil, nonce, ct[inOff:], aad)
	require.Error(t, err, "Open of a text with byte %d flipped %s", n/2, what)
	copy(ct[inOff:], want)
	pos, bit := c.r.IntN(len(want)), c.r.IntN(8)
	ct[inOff+pos] ^= 1 << bit
	_, err = c.g.Open(nil, nonce, ct[inOff:], aad)
	require.Error(t, err, "Open of a text with byte %d bit %d flipped %s", pos, bit, what)

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

// edgeLengths are the lengths at the edges of the AES-NI assembly's paths:
// around the 8-block (128-byte) batches, their pairs (256 bytes, hashed
// with one reduction) and the first and last iterations,
// around the 4-block (64-byte) and 8-block remainder batches, and every
// partial block length after 0, 1, 7 and 8 whole blocks.
func edgeLengths() []int {
	var ls []int
	for _, base := range []int{0, 16, 48, 64, 112, 128, 256, 384, 1024} {
		for d := -1; d <= 17; d++ {
			if n := base + d; n >= 0 {
				ls = append(ls, n)
			}
		}
	}
	for _, n := range []int{127, 143, 191, 192, 193, 239, 240, 241, 255, 257, 383, 385, 511, 512, 513, 767, 768, 769, 2047, 2048, 2049, 16384 + 3, 65536 + 1} {
		ls = append(ls, n)
	}
	return ls
}

// TestAsmEdges checks Seal, Open, SealGather and the Encryptor of every
// assembly backend against crypto/cipher around every path of the
// assemblies, for each key size:
//   - edges: the edgeLengths, each with a fresh key, AAD lengths at their
//     own edges (0, 13, 15, 16, 17, 127, 128, 129, 300), input and output
//     offsets 0..15, cuts around blocks and the 8-block pass;
//   - remainders: every remainder of whole blocks under a batch (0..7,
//     0..15 on zmm) and 0..15 bytes, with each key size, after up to 512
//     bytes of batches: 0..4 passes of 128 bytes (the xmm bulk loops hash
//     pairs of passes with one reduction and a last odd pass alone, so this
//     covers no pair, one pair, and a pair followed by an odd pass), 0..2
//     of 256 on zmm;
//   - lengths: every length 0..1100;
//   - multiples: every multiple of 16 up to 4 KiB and its neighbours;
//   - aad: AAD lengths 0..300;
//   - offsets: input and output offsets 0..63.
func TestAsmEdges(t *testing.T) {
	forEachAsm(t, func(t *testing.T, name string) {
		t.Run("edges", func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 11))
			aadLens := []int{0, 13, 15, 16, 17, 127, 128, 129, 300}
			cuts := []int{1, 13, 15, 16, 17, 127, 128, 129}
			for i, n := range edgeLengths() {
				c := newAsmCase(t, r, name, []int{16, 24, 32}[i%3])
				c.check(t, n, aadLens[i%len(aadLens)], i%16, (i*7)%16, cuts)
			}
		})

		r := rand.New(rand.NewPCG(17, 23))
		cs := []*asmCase{newAsmCase(t, r, name, 16), newAsmCase(t, r, name, 24), newAsmCase(t, r, name, 32)}
		cuts := []int{1, 15, 16, 17, 100, 128, 129}
		i := 0
		next := func() *asmCase { i++; return cs[i%3] }
		t.Run("remainders", func(t *testing.T) {
			// Every remainder of whole blocks under a batch, times every
			// partial block, after 0, 1 and 2 batches, with each key size.
			batch := asmBatch[name]
			for passes := 0; passes <= 512/batch; passes++ {
				for blocks := 0; blocks < batch/16; blocks++ {
					for part := 0; part <= 15; part++ {
						n := batch*passes + 16*blocks + part
						for _, c := range cs {
							c.check(t, n, 13, n%16, (n/16)%16, cuts)
						}
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
	})
}

// TestAsmShort checks the one-shot short paths (on xmm text up to 80 bytes
// and AAD up to 16, on ymm text under 32 bytes) and their edges against
// crypto/cipher: every text length 0..82 with every AAD length 0..17, each
// key size, Seal and Open (and a tampered tag).
func TestAsmShort(t *testing.T) {
	forEachAsm(t, func(t *testing.T, name string) {
		r := rand.New(rand.NewPCG(3, 5))
		for _, keySize := range []int{16, 24, 32} {
			c := newAsmCase(t, r, name, keySize)
			for n := 0; n <= 82; n++ {
				for aadLen := 0; aadLen <= 17; aadLen++ {
					nonce, pt, aad := c.rb(12), c.rb(n), c.rb(aadLen)
					want := c.std.Seal(nil, nonce, pt, aad)
					what := fmt.Sprintf("n=%d aad=%d key=%d", n, aadLen, keySize)
					require.Equal(t, want, c.g.Seal(nil, nonce, pt, aad), "Seal %s", what)
					back, err := c.g.Open(nil, nonce, want, aad)
					require.NoError(t, err, "Open %s", what)
					require.True(t, bytes.Equal(pt, back), "Open %s", what)
					want[len(want)-1] ^= 1
					_, err = c.g.Open(nil, nonce, want, aad)
					require.Error(t, err, "Open of a tampered tag %s", what)
				}
			}
		}
	})
}

// TestAsmGather checks SealGather and the Encryptor with many pieces of
// random sizes (empty ones, blocks split across three pieces) against
// crypto/cipher.
func TestAsmGather(t *testing.T) {
	forEachAsm(t, func(t *testing.T, name string) {
		r := rand.New(rand.NewPCG(5, 9))
		c := newAsmCase(t, r, name, 16)
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
	})
}

// TestAsmCounterWrap checks the 32-bit counter wrapping inside a message
// (possible with nonces that are not 12 bytes, whose J0 ends in an
// arbitrary counter): each assembly backend's seal, open, sealGather and
// stream against the generic backend (an independent implementation) for
// J0 counters just below 2^32, across the 8-block passes, the remainder and
// the short path.
func TestAsmCounterWrap(t *testing.T) {
	forEachAsm(t, func(t *testing.T, name string) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, size := range []int{16, 24, 32} {
			c := &asmCase{r: r}
			key := c.rb(size)
			v, gen := newBackendKey(t, name, key), newKeyGeneric(key)
			for _, back := range []uint32{0, 1, 2, 5, 8, 17, 40} {
				for _, n := range []int{0, 5, 16, 31, 47, 100, 128, 300, 1000} {
					var b [16]byte
					copy(b[:12], c.rb(12))
					binary.BigEndian.PutUint32(b[12:], 0xffffffff-back)
					j0 := counterOf(&b)
					pt, aad := c.rb(n), c.rb(13)
					want, got := make([]byte, n), make([]byte, n)
					var wantTag, gotTag [16]byte
					gen.seal(want, pt, aad, j0, wantTag[:])
					v.seal(got, pt, aad, j0, gotTag[:])
					what := fmt.Sprintf("key %d counter -%d n=%d", size, back, n)
					require.Equal(t, want, got, "seal %s", what)
					require.Equal(t, wantTag, gotTag, "seal tag %s", what)
					back2 := make([]byte, n)
					require.True(t, v.open(back2, want, aad, j0, wantTag[:]), "open tag %s", what)
					require.Equal(t, pt, back2, "open %s", what)
					// Every tag length, and a wrong byte at each position of it.
					for tl := MinTagSize; tl <= TagSize; tl++ {
						require.True(t, v.open(back2, want, aad, j0, wantTag[:tl]), "open tag[:%d] %s", tl, what)
						bad := wantTag
						bad[(n+tl)%tl] ^= 0x80
						require.False(t, v.open(back2, want, aad, j0, bad[:tl]), "open bad tag[:%d] %s", tl, what)
					}
					clear(got)
					k := n / 3
					var gatherTag [16]byte
					v.sealGather(got, [][]byte{pt[:k], pt[k:]}, aad, j0, gatherTag[:])
					require.Equal(t, wantTag, gatherTag, "sealGather tag %s", what)
					require.Equal(t, want, got, "sealGather %s", what)
					short := make([]byte, 12)
					v.seal(got, pt, aad, j0, short)
					require.Equal(t, wantTag[:12], short, "seal 12-byte tag %s", what)
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
	})
}

// TestAsmCounterLowByte starts the counter at every value of its lowest
// byte, for texts whose bulk batches begin at every position relative to a
// carry out of that byte (600 bytes: a batch of 16 blocks and a remainder
// sealing, two batches opening, on ymm and zmm): the bulk loops step their
// counters big-endian only while no lane's lowest byte can carry within a
// batch and the step after it, and swap bytes around the others.
func TestAsmCounterLowByte(t *testing.T) {
	forEachAsm(t, func(t *testing.T, name string) {
		r := rand.New(rand.NewPCG(5, 6))
		c := &asmCase{r: r}
		key := c.rb(16)
		v, gen := newBackendKey(t, name, key), newKeyGeneric(key)
		pt, aad := c.rb(600), c.rb(13)
		want, got := make([]byte, len(pt)), make([]byte, len(pt))
		for low := range 256 {
			var b [16]byte
			copy(b[:12], c.rb(12))
			binary.BigEndian.PutUint32(b[12:], 0x1234_5600|uint32(low))
			j0 := counterOf(&b)
			var wantTag, gotTag [16]byte
			gen.seal(want, pt, aad, j0, wantTag[:])
			v.seal(got, pt, aad, j0, gotTag[:])
			require.Equal(t, want, got, "seal, lowest counter byte %d", low)
			require.Equal(t, wantTag, gotTag, "seal tag, lowest counter byte %d", low)
			require.True(t, v.open(got, want, aad, j0, wantTag[:]), "open, lowest counter byte %d", low)
			require.Equal(t, pt, got, "open, lowest counter byte %d", low)
			clear(got)
			v.sealGather(got, [][]byte{pt[:300], pt[300:]}, aad, j0, gotTag[:])
			require.Equal(t, want, got, "sealGather, lowest counter byte %d", low)
			require.Equal(t, wantTag, gotTag, "sealGather tag, lowest counter byte %d", low)
		}
	})
}

// TestAsmStack proves with stackscratch that Seal, Open, SealGather, the
// Encryptor and the Decryptor of every assembly backend leave no round key,
// key power, plaintext, keystream or E(J0) on the stack they used, for every
// key size, both nonce paths (12 bytes, and 16 through GHASH), and lengths of
// every size class: empty, one partial block, the 32-byte xmm short path of
// vaes-avx512, below, at and above a batch (128 and 256 bytes) and several
// batches, with short and long additional data.
func TestAsmStack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	if cpufeat.Simulated() {
		t.Skip("vgsim: the assembly runs on the model, not on this stack; the model's own stack, register and taint checks replace the scan there")
	}
	forEachAsm(t, func(t *testing.T, name string) {
		for _, c := range []struct{ size, nonceSize int }{{16, 12}, {24, 12}, {32, 12}, {16, 16}, {24, 16}, {32, 16}} {
			size := c.size
			key := make([]byte, size)
			for i := range key {
				key[i] = byte(0x41 + 3*i)
			}
			g, err := Prepare(key, WithBackend(name), WithNonceSize(c.nonceSize))
			require.NoError(t, err)
			table, rounds := asmKeyTable(t, g)
			nonce := []byte("nonce-16byte-gcm")[:c.nonceSize]
			for i, n := range []int{0, 5, 16, 32, 40, 77, 127, 200, 255, 256, 257, 1000} {
				pt := make([]byte, n)
				for i := range pt {
					pt[i] = byte(0x80 + 7*i)
				}
				aad := []byte("header-13-by")
				if i%3 == 2 {
					aad = make([]byte, 77)
				}
				sealed := g.Seal(nil, nonce, pt, aad)
				keystream := make([]byte, n)
				for i := range keystream {
					keystream[i] = pt[i] ^ sealed[i]
				}
				blk, err := aes.NewCipher(key)
				require.NoError(t, err)
				var j0 [16]byte
				if c.nonceSize == 12 {
					copy(j0[:], nonce)
					j0[15] = 1
				} else {
					c := g.k.impl.ghashNonce(nonce)
					binary.LittleEndian.PutUint64(j0[:8], c.lo)
					binary.LittleEndian.PutUint64(j0[8:], c.hi)
				}
				blk.Encrypt(j0[:], j0[:])
				patterns := stackscratch.Windows(8, table[:16*(rounds+1)], table[240:], pt, keystream, j0[:])
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
				scan("Decryptor", func() {
					d := g.NewDecryptor(nonce, aad)
					if _, err := d.Write(sealed); err != nil {
						panic(err)
					}
					if _, err := d.Open(dst); err != nil {
						panic(err)
					}
				})
			}
		}
	})
}

// checkKeyTableH checks a key table laid out as the assembly backends read
// it: the number of rounds, round key 0 (the key's first 16 bytes, in the
// standard byte order) and H^1 at byte hOff (times x^-1, byte-reflected)
// against E(0) computed by crypto/aes.
func checkKeyTableH(t *testing.T, key, table []byte, rounds, hOff int) {
	t.Helper()
	size := len(key)
	require.Equal(t, size/4+6, rounds)
	require.Equal(t, key[:16], table[:16], "round key 0 is the key")
	blk, err := aes.NewCipher(key)
	require.NoError(t, err)
	var h [16]byte
	blk.Encrypt(h[:], h[:])
	// Undo the x^-1 multiplication: shift right by one, folding the
	// reduction back when bit 0 was set.
	var got [16]byte
	for i := range got {
		got[i] = table[hOff+15-i]
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
}

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// TestAsmKeyTable checks the table New builds for each assembly backend:
// 16-byte aligned (SSE reads it as memory operands), the round keys and H^1
// (see checkKeyTableH), where the backend's highest power puts it, and that
// Wipe clears it.
func TestAsmKeyTable(t *testing.T) {
	// H^npow..H^1 follow the 15 round keys.
	npow := asmPowers
	forEachAsm(t, func(t *testing.T, name string) {
		require.Contains(t, npow, name, "no table layout known for the backend")
		for _, size := range []int{16, 24, 32} {
			key := bytes.Repeat([]byte{byte(size)}, size)
			g, err := Prepare(key, WithBackend(name))
			require.NoError(t, err)
			k := g.k.impl.(interface{ key() *asmKey }).key()
			require.Zero(t, uintptr(unsafe.Pointer(k.table()))&15, "table not 16-byte aligned")
			checkKeyTableH(t, key, k.table()[:], k.rounds, 15*16+(npow[name]-1)*16)
			g.Wipe()
			require.Equal(t, make([]byte, asmTableSize), k.table()[:], "Wipe left key material")
		}
	})
}
