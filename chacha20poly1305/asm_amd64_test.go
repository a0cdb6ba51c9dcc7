//go:build amd64 && !purego

package chacha20poly1305

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/vgcrypto/vg/internal/aeadtest"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
	"golang.org/x/crypto/chacha20"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// asmBackends returns the assembly backends that can run here.
func asmBackends(t testing.TB) []testBackend {
	var bs []testBackend
	for _, b := range enabledBackends() {
		if b.name != cpufeat.GenericBackend {
			bs = append(bs, b)
		}
	}
	if len(bs) == 0 {
		t.Skip("no assembly backend is enabled")
	}
	return bs
}

// asmBoundaryLengths are the text lengths around every switch of the
// assembly paths: the short functions' register sets (64, 128, 192, 320;
// 192 and 448 on zmm), the long functions' passes (448 after block 0, then
// 512 each; on zmm 960, then 1024), the switch from the short functions to
// the long ones (128, 320, 512), the block kernels' lane passes (256, 512,
// 1024), and the partial blocks on each side.
func asmBoundaryLengths() []int {
	var ns []int
	for n := 0; n <= 34; n++ {
		ns = append(ns, n)
	}
	for _, c := range []int{48, 64, 128, 192, 256, 320, 384, 448, 512, 960, 1024, 1472, 1536, 1984, 2496, 3008, 4096} {
		for d := -17; d <= 17; d++ {
			if d == -17 || d == -16 || d == -15 || d == -1 || d == 0 || d == 1 || d == 15 || d == 16 || d == 17 {
				ns = append(ns, c+d)
			}
		}
	}
	return ns
}

// TestAsmBoundaries compares Seal, Open (in place and out of place) and
// SealGather of every assembly backend with golang.org/x/crypto at the
// lengths where the assembly changes path, with additional data of several
// lengths, and checks that a flipped tag bit or ciphertext bit fails with
// the output zeroed.
func TestAsmBoundaries(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(21, 22))
	for _, b := range asmBackends(t) {
		t.Run(b.String(), func(t *testing.T) {
			key := randBytes(rng, KeySize)
			a := mustNew(t, key, false, b.String())
			ref, err := xchacha.New(key)
			require.NoError(t, err)
			for _, n := range asmBoundaryLengths() {
				for _, adLen := range []int{0, 1, 13, 16, 17, 80} {
					nonce := randBytes(rng, NonceSize)
					pt := randBytes(rng, n)
					ad := randBytes(rng, adLen)
					want := ref.Seal(nil, nonce, pt, ad)
					got := a.Seal(nil, nonce, pt, ad)
					require.Equal(t, want, got, "seal n=%d ad=%d", n, adLen)

					shape := []int{n / 3, 0, n - n/3 - n/7, n / 7}
					got = a.SealGather(nil, nonce, aeadtest.Pieces(pt, shape), ad)
					require.Equal(t, want, got, "gather n=%d ad=%d", n, adLen)

					buf := append([]byte(nil), want...)
					back, err := a.Open(buf[:0], nonce, buf, ad)
					require.NoError(t, err, "open in place n=%d ad=%d", n, adLen)
					require.True(t, bytes.Equal(pt, back), "open in place n=%d ad=%d", n, adLen)

					bad := append([]byte(nil), want...)
					bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
					out := make([]byte, n, n+1)
					for i := range out {
						out[i] = 0xaa
					}
					_, err = a.Open(out[:0], nonce, bad, ad)
					require.Error(t, err, "tampered n=%d ad=%d", n, adLen)
					assert.Equal(t, make([]byte, n), out, "tampered output not zeroed n=%d", n)
				}
			}
		})
	}
}

// TestAsmPartialBlocksNoOverrun seals and opens texts that end exactly at
// the end of their allocation, with the bytes after the output watched:
// the partial-block code must touch nothing past either buffer.
func TestAsmPartialBlocksNoOverrun(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(23, 24))
	for _, b := range asmBackends(t) {
		a := mustNew(t, randBytes(rng, KeySize), false, b.String())
		for _, n := range asmBoundaryLengths() {
			nonce := randBytes(rng, NonceSize)
			pt := randBytes(rng, n)
			ad := randBytes(rng, rng.IntN(20))
			canary := bytes.Repeat([]byte{0x5c}, 32)
			dst := make([]byte, n+TagSize+len(canary))
			copy(dst[n+TagSize:], canary)
			ct := a.Seal(dst[:0], nonce, pt, ad)
			require.Equal(t, canary, dst[n+TagSize:], "%s seal n=%d", b, n)
			pdst := make([]byte, n+len(canary))
			copy(pdst[n:], canary)
			_, err := a.Open(pdst[:0], nonce, ct, ad)
			require.NoError(t, err)
			require.Equal(t, canary, pdst[n:], "%s open n=%d", b, n)
		}
	}
}

// TestNoSecretOnStack runs Seal, Open, SealGather and the Encryptor of
// every assembly backend under the stackscratch harness, at lengths that
// take each path (short, long or block kernels, with partial blocks; the
// Encryptor always the block kernels, in two chunks), and looks for any
// 8-byte piece of the key, the plaintext, or the keystream (block 0, which
// holds Poly1305's r and s, and the blocks after it) in the stack they used.
// With XChaCha20-Poly1305 it also looks for the message's subkey, which
// the backends derive and wipe in their own frames.
func TestNoSecretOnStack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	if cpufeat.Simulated() {
		t.Skip("vgsim: the assembly runs on the model, not on this stack; the model's own stack, register and taint checks replace the scan there")
	}
	rng := mathrand.New(mathrand.NewPCG(25, 26))
	for _, b := range asmBackends(t) {
		for _, x := range []bool{false, true} {
			// Every size class: empty, the short paths up to and past
			// their limits (128 on ssse3, 320 on avx2), the lane passes
			// (256, 512) and the long passes (448 + 512k).
			for _, n := range []int{0, 16, 100, 128, 129, 300, 320, 321, 513, 700, 1350, 2500} {
				t.Run(fmt.Sprintf("%s/x=%v/%d", b, x, n), func(t *testing.T) {
					key := randBytes(rng, KeySize)
					a := mustNew(t, key, x, b.String())
					nonce := randBytes(rng, a.NonceSize())
					pt := randBytes(rng, n)
					ad := randBytes(rng, 13)
					// With a 24-byte nonce, x/crypto's cipher is XChaCha20.
					stream, err := chacha20.NewUnauthenticatedCipher(key, nonce)
					require.NoError(t, err)
					ks := make([]byte, 64+n)
					stream.XORKeyStream(ks, ks)
					secrets := [][]byte{key, pt, ks}
					if x {
						var subkey [KeySize]byte
						hChaCha20(&subkey, (*[KeySize]byte)(key), (*[16]byte)(nonce[:16]))
						secrets = append(secrets, subkey[:])
					}
					patterns := stackscratch.Windows(8, secrets...)
					ct := a.Seal(nil, nonce, pt, ad)
					out := make([]byte, 0, n+TagSize)
					parts := [][]byte{pt[:n/2], pt[n/2:]}
					for name, f := range map[string]func(){
						"Seal":       func() { a.Seal(out, nonce, pt, ad) },
						"Open":       func() { _, _ = a.Open(out, nonce, ct, ad) },
						"SealGather": func() { a.SealGather(out, nonce, parts, ad) },
						"Encryptor": func() {
							e := a.NewEncryptor(nonce, ad)
							o := e.Encrypt(out, parts[0])
							e.Finish(e.Encrypt(o, parts[1]))
						},
						"Decryptor": func() {
							d := a.NewDecryptor(nonce, ad)
							_, _ = d.Write(ct)
							_, _ = d.Open(out)
						},
					} {
						r, err := stackscratch.Scan(f, patterns)
						require.NoError(t, err, name)
						require.True(t, r.Clean(), "%s: %v", name, r)
					}
				})
			}
		}
	}
}

// TestAsmLongPassEdges covers the switches of the long functions between
// the general pass (keystream to the scratch, XOR through the gather
// cursor; on avx2 Poly1305 blocks counted) and the full pass (XOR from the
// registers; on avx2 32 Poly1305 blocks at fixed offsets), which is taken
// when a whole pass of text is left, for seal (avx2) when a pass of
// ciphertext waits to be hashed, and when the current slice holds the
// whole pass: text lengths at first + pass·k ± 1 (the pass ends; see
// longPasses), gather slices ending one byte before, at and after a pass
// end or a pass's length into the text, and seal and open in place,
// against golang.org/x/crypto.
func TestAsmLongPassEdges(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(29, 30))
	for _, b := range asmBackends(t) {
		key := randBytes(rng, KeySize)
		a := mustNew(t, key, false, b.String())
		ref, err := xchacha.New(key)
		require.NoError(t, err)
		first, pass := longPasses(b.String())
		var ns []int
		for k := 0; k <= 5; k++ {
			for d := -1; d <= 1; d++ {
				ns = append(ns, first+pass*k+d)
			}
		}
		ns = append(ns, 16384, 16384+3)
		var cuts []int
		for _, c := range []int{first, pass, first + pass, first + 2*pass} {
			cuts = append(cuts, c-1, c, c+1)
		}
		for _, n := range ns {
			nonce := randBytes(rng, NonceSize)
			pt := randBytes(rng, n)
			ad := randBytes(rng, 13)
			want := ref.Seal(nil, nonce, pt, ad)
			require.Equal(t, want, a.Seal(nil, nonce, pt, ad), "%s seal n=%d", b, n)

			// In place: the text at the start of the buffer that receives
			// the ciphertext and the tag.
			buf := make([]byte, n, n+TagSize)
			copy(buf, pt)
			require.Equal(t, want, a.Seal(buf[:0], nonce, buf, ad), "%s seal in place n=%d", b, n)
			back, err := a.Open(buf[:0], nonce, buf[:n+TagSize], ad)
			require.NoError(t, err, "%s open in place n=%d", b, n)
			require.True(t, bytes.Equal(pt, back), "%s open in place n=%d", b, n)
			back, err = a.Open(nil, nonce, want, ad)
			require.NoError(t, err, "%s open n=%d", b, n)
			require.True(t, bytes.Equal(pt, back), "%s open n=%d", b, n)

			for _, cut := range cuts {
				if cut > n {
					continue
				}
				for _, shape := range [][]int{{cut, n - cut}, {cut, 1, n - cut - 1}, {1, cut - 1, n - cut}} {
					if shape[len(shape)-1] < 0 || shape[0] > n {
						continue
					}
					// Each slice a copy of its own, so that reading past one
					// does not find the next.
					parts := aeadtest.Pieces(pt, shape)
					for i, p := range parts {
						parts[i] = append(make([]byte, 0, len(p)), p...)
					}
					got := a.SealGather(nil, nonce, parts, ad)
					require.Equal(t, want, got, "%s gather n=%d shape=%v", b, n, shape)
				}
			}
		}
	}
}

// TestAsmPolyThreshold checks the switch between scalar Poly1305 and
// Poly1305 on zmm (at polyVecMinAVX512 bytes) where the additional data
// crosses it, in the short and the long functions, and where a text in
// Go-driven chunks (the Encryptor) does, against golang.org/x/crypto.
func TestAsmPolyThreshold(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(31, 32))
	for _, b := range asmBackends(t) {
		key := randBytes(rng, KeySize)
		a := mustNew(t, key, false, b.String())
		ref, err := xchacha.New(key)
		require.NoError(t, err)
		for d := -16; d <= 16; d++ {
			for _, n := range []int{0, 100, 600, 2000, polyVecMinAVX512 + d} {
				adLen := polyVecMinAVX512 + d
				nonce, pt, ad := randBytes(rng, NonceSize), randBytes(rng, n), randBytes(rng, adLen)
				want := ref.Seal(nil, nonce, pt, ad)
				require.Equal(t, want, a.Seal(nil, nonce, pt, ad), "%s seal n=%d ad=%d", b, n, adLen)
				back, err := a.Open(nil, nonce, want, ad)
				require.NoError(t, err, "%s open n=%d ad=%d", b, n, adLen)
				require.True(t, bytes.Equal(pt, back), "%s open n=%d ad=%d", b, n, adLen)

				enc := a.NewEncryptor(nonce, ad)
				got := enc.Encrypt(nil, pt)
				require.Equal(t, want, enc.Finish(got), "%s encryptor n=%d ad=%d", b, n, adLen)
			}
		}
	}
}

// longPasses returns the text bytes the first pass of a backend's long
// functions covers (its block 0 keys Poly1305) and those of every later
// pass: 448 and 512 for avx2's 8 blocks, 960 and 1024 for avx512's 16.
func longPasses(backend string) (first, pass int) {
	if backend == "avx512" {
		return 960, 1024
	}
	return 448, 512
}

// TestKernelsAgree compares each assembly backend's block kernels with the
// generic ones, over runs of every block count up to three lane passes and
// Poly1305 over every block count up to 40, starting from a random state.
func TestKernelsAgree(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(27, 28))
	for _, b := range asmBackends(t) {
		for blocks := 0; blocks <= 70; blocks++ {
			var st, want [16]uint32
			for i := range st {
				st[i] = rng.Uint32()
			}
			st[counterIndex] = uint32(rng.IntN(1 << 20))
			want = st
			src := randBytes(rng, 64*blocks)
			got, exp := make([]byte, len(src)), make([]byte, len(src))
			xorBlocksGeneric(&want, exp, src)
			b.xorBlocks(&st, got, src)
			require.Equal(t, exp, got, "%s xorBlocks %d blocks", b, blocks)
			require.Equal(t, want, st, "%s counter after %d blocks", b, blocks)
		}
		for blocks := 0; blocks <= 40; blocks++ {
			var p, q polyState
			var k [32]byte
			binary.LittleEndian.PutUint64(k[0:], rng.Uint64())
			binary.LittleEndian.PutUint64(k[8:], rng.Uint64())
			p.init(&k)
			p.h = [3]uint64{rng.Uint64(), rng.Uint64(), uint64(rng.IntN(4))}
			q = p
			msg := randBytes(rng, 16*blocks)
			polyBlocksGeneric(&q, msg)
			b.polyBlocks(&p, msg)
			var tp, tq [TagSize]byte
			polyFinish(&p, &tp)
			polyFinish(&q, &tq)
			require.Equal(t, tq, tp, "%s polyBlocks %d blocks", b, blocks)
		}
	}
}
