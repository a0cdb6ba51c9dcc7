//go:build amd64 && !purego

package aesgcm

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// forEachAESNI runs f for aesni and aesni-avx when the CPU and
// VG_CPU_FEATURES allow them.
func forEachAESNI(t *testing.T, f func(t *testing.T, name string)) {
	require.NoError(t, cpufeat.Err())
	for _, name := range []string{"aesni", "aesni-avx"} {
		t.Run(name, func(t *testing.T) {
			if !cpufeat.MustLookup(cpufeat.AESGCM, name).Available(cpufeat.Enabled()) {
				t.Skipf("%s is not available here", name)
			}
			f(t, name)
		})
	}
}

// aesniEdgeLengths are the lengths at the edges of the assembly's paths:
// around the 8-block (128-byte) loop and its first and last iterations,
// around the 4-block (64-byte) and 8-block remainder batches, and every
// partial block length after 0, 1, 7 and 8 whole blocks.
func aesniEdgeLengths() []int {
	var ls []int
	for _, base := range []int{0, 16, 48, 64, 112, 128, 256, 384, 1024} {
		for d := -1; d <= 17; d++ {
			if n := base + d; n >= 0 {
				ls = append(ls, n)
			}
		}
	}
	for _, n := range []int{127, 143, 191, 192, 193, 239, 240, 241, 255, 257, 383, 385, 2047, 2048, 2049} {
		ls = append(ls, n)
	}
	return ls
}

// TestAESNIEdges checks Seal, Open, SealGather and the Encryptor of the
// AES-NI backends against crypto/cipher at every edge length, for each key
// size, with AAD lengths at their own edges (0, 13, 15, 16, 17, 127, 128,
// 129, 300), in place and at every input and output offset 0..15.
func TestAESNIEdges(t *testing.T) {
	forEachAESNI(t, func(t *testing.T, name string) {
		r := rand.New(rand.NewPCG(7, 11))
		rb := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		}
		aadLens := []int{0, 13, 15, 16, 17, 127, 128, 129, 300}
		for i, n := range aesniEdgeLengths() {
			key := rb([]int{16, 24, 32}[i%3])
			g, err := New(key, WithBackend(name))
			require.NoError(t, err)
			blk, err := aes.NewCipher(key)
			require.NoError(t, err)
			std, err := cipher.NewGCM(blk)
			require.NoError(t, err)
			nonce, pt, aad := rb(12), rb(n), rb(aadLens[i%len(aadLens)])
			want := std.Seal(nil, nonce, pt, aad)
			what := fmt.Sprintf("n=%d aad=%d key=%d", n, len(aad), len(key))

			inOff, outOff := i%16, (i*7)%16
			in := make([]byte, inOff+n)
			copy(in[inOff:], pt)
			got := g.Seal(make([]byte, outOff, outOff+len(want)), nonce, in[inOff:], aad)
			require.Equal(t, want, got[outOff:], "Seal %s offsets %d/%d", what, inOff, outOff)

			buf := append(make([]byte, 0, len(want)), pt...)
			require.Equal(t, want, g.Seal(buf[:0], nonce, buf, aad), "Seal in place %s", what)

			ct := make([]byte, inOff+len(want))
			copy(ct[inOff:], want)
			back, err := g.Open(make([]byte, outOff), nonce, ct[inOff:], aad)
			require.NoError(t, err, "Open %s", what)
			require.True(t, bytes.Equal(pt, back[outOff:]), "Open %s", what)
			back, err = g.Open(ct[inOff:inOff], nonce, ct[inOff:], aad)
			require.NoError(t, err, "Open in place %s", what)
			require.True(t, bytes.Equal(pt, back), "Open in place %s", what)
			ct[inOff+n/2] ^= 1
			_, err = g.Open(nil, nonce, ct[inOff:], aad)
			require.Error(t, err, "Open of a tampered text %s", what)

			for _, k := range []int{1, 13, 15, 16, 17, 127, 128, 129} {
				if k > n {
					break
				}
				ps := [][]byte{pt[:k], pt[k:]}
				require.Equal(t, want, g.SealGather(nil, nonce, ps, aad), "SealGather %s cut %d", what, k)
				e := g.NewEncryptor(nonce, aad)
				out := e.Encrypt(nil, ps[0])
				out = e.Encrypt(out, ps[1])
				require.Equal(t, want, e.Finish(out), "Encryptor %s cut %d", what, k)
			}
		}
	})
}

// TestAESNIShort checks the one-shot short path (text up to 64 bytes, AAD
// up to 16) and its edges against crypto/cipher: every text length 0..66
// with every AAD length 0..17, each key size, Seal and Open (and a tampered
// tag).
func TestAESNIShort(t *testing.T) {
	forEachAESNI(t, func(t *testing.T, name string) {
		r := rand.New(rand.NewPCG(3, 5))
		rb := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		}
		for _, keySize := range []int{16, 24, 32} {
			key := rb(keySize)
			g, err := New(key, WithBackend(name))
			require.NoError(t, err)
			blk, err := aes.NewCipher(key)
			require.NoError(t, err)
			std, err := cipher.NewGCM(blk)
			require.NoError(t, err)
			for n := 0; n <= 66; n++ {
				for aadLen := 0; aadLen <= 17; aadLen++ {
					nonce, pt, aad := rb(12), rb(n), rb(aadLen)
					want := std.Seal(nil, nonce, pt, aad)
					what := fmt.Sprintf("n=%d aad=%d key=%d", n, aadLen, keySize)
					require.Equal(t, want, g.Seal(nil, nonce, pt, aad), "Seal %s", what)
					back, err := g.Open(nil, nonce, want, aad)
					require.NoError(t, err, "Open %s", what)
					require.True(t, bytes.Equal(pt, back), "Open %s", what)
					want[len(want)-1] ^= 1
					_, err = g.Open(nil, nonce, want, aad)
					require.Error(t, err, "Open of a tampered tag %s", what)
				}
			}
		}
	})
}

// TestAESNIKeyTable checks the table New builds: the round keys in the
// standard byte order (against the first block crypto/aes encrypts) and H^1
// (times x^-1, byte-reflected) against E(0) computed by crypto/aes.
func TestAESNIKeyTable(t *testing.T) {
	forEachAESNI(t, func(t *testing.T, name string) {
		for _, size := range []int{16, 24, 32} {
			key := bytes.Repeat([]byte{byte(size)}, size)
			g, err := New(key, WithBackend(name))
			require.NoError(t, err)
			k := g.b.(*aesniKey)
			require.Equal(t, size/4+6, k.rounds)
			require.Zero(t, uintptr(ptrOf(k.t))&15, "table not 16-byte aligned")
			require.Equal(t, key[:16], k.t[:16], "round key 0 is the key")
			blk, err := aes.NewCipher(key)
			require.NoError(t, err)
			var h [16]byte
			blk.Encrypt(h[:], h[:])
			// Undo the x^-1 multiplication: shift right by one, folding
			// the reduction back when bit 0 was set.
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
			require.Equal(t, make([]byte, aesniTableSize), k.t[:], "Wipe left key material")
		}
	})
}

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// TestAESNIStack proves with stackscratch that Seal, Open, SealGather and
// the Encryptor of the AES-NI backends leave no round key, key power,
// plaintext, keystream or E(J0) on the stack they used.
func TestAESNIStack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	forEachAESNI(t, func(t *testing.T, name string) {
		for _, size := range []int{16, 32} {
			key := make([]byte, size)
			for i := range key {
				key[i] = byte(0x41 + 3*i)
			}
			g, err := New(key, WithBackend(name))
			require.NoError(t, err)
			k := g.b.(*aesniKey)
			nonce := []byte("nonce-12byte")
			for _, n := range []int{5, 16, 77, 200, 1000} {
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
	})
}
