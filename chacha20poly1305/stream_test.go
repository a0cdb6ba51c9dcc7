package chacha20poly1305_test

import (
	"bytes"
	"fmt"
	"github.com/vgcrypto/vg/internal/aeadtest"
	mathrand "math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// streamLengths are the message lengths of the stream tests: around the
// 16-byte Poly1305 blocks, the 64-byte keystream blocks, the assembly's
// short limits (128, 320) and lane passes (256, 512), and the drivers'
// 4096-byte runs.
func streamLengths() []int {
	ns := []int{0, 1, 2, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 128, 129,
		255, 256, 257, 319, 320, 321, 511, 512, 513, 1350, 4096 + 7, 9000}
	if testing.Short() && cpufeat.Simulated() {
		// On the model every kernel call is an emulated run (4103 and
		// 9000 bytes in 1-byte chunks are three quarters of the test's
		// time there): the boundaries, not the long texts.
		ns = ns[:len(ns)-2]
	}
	return ns
}

// streamShapes returns the chunk shapes of the stream tests for n bytes:
// the gather shapes (whole, empty chunks around it, cuts at 1, 5, 63, 64,
// 65 and 100 from either end, thirds, tiny chunks of 1, 3, 7 and 17 bytes,
// random splits), plus cuts from either end and runs of equal chunks at
// 63/64/65 and 255/256/257 bytes, and a shape with an empty chunk between
// every two (the chunks of the random split are 0..199 bytes, so empty
// chunks come up there too).
func streamShapes(n int, rng *mathrand.Rand) [][]int {
	shapes := gatherShapes(n, rng)
	for _, k := range []int{63, 64, 65, 255, 256, 257} {
		if k <= n {
			shapes = append(shapes, []int{k, n - k}, []int{n - k, k})
		}
		var run []int
		for left := n; left > 0; left -= min(left, k) {
			run = append(run, min(left, k))
		}
		shapes = append(shapes, run)
	}
	var withEmpty []int
	for left := n; left > 0; left -= min(left, 37) {
		withEmpty = append(withEmpty, 0, min(left, 37))
	}
	return append(shapes, append(withEmpty, 0))
}

// streamEncrypt encrypts the chunks of pt in shape with an Encryptor of a,
// appending to dst, and returns the result with the tag.
func streamEncrypt(a *chacha20poly1305.AEAD, dst, nonce, ad, pt []byte, shape []int) []byte {
	e := a.NewEncryptor(nonce, ad)
	for _, c := range aeadtest.Pieces(pt, shape) {
		dst = e.Encrypt(dst, c)
	}
	return e.Finish(dst)
}

// TestEncryptorAgreesWithSeal checks, on every backend and for both
// constructions, that an Encryptor fed the text in every chunk shape of
// streamShapes produces Seal's bytes (themselves checked against
// golang.org/x/crypto), appending to a non-empty dst, in place (each chunk
// its own part of the output), and into a dst with no spare capacity; and
// that a Decryptor fed the sealed message in the same shapes (the tag as
// one more chunk, or cut in two) opens it.
func TestEncryptorAgreesWithSeal(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(41, 42))
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			key := randBytes(rng, chacha20poly1305.KeySize)
			a := mustNew(t, key, x, name)
			ref := xcryptoAEAD(t, key, x)
			for _, n := range streamLengths() {
				nonce, pt, ad := randBytes(rng, a.NonceSize()), randBytes(rng, n), randBytes(rng, n%37)
				want := ref.Seal(nil, nonce, pt, ad)
				require.Equal(t, want, a.Seal(nil, nonce, pt, ad), "Seal x=%v n=%d", x, n)
				for _, shape := range streamShapes(n, rng) {
					what := fmt.Sprintf("x=%v n=%d shape=%v", x, n, shape)
					got := streamEncrypt(a, []byte("prefix"), nonce, ad, pt, shape)
					require.Equal(t, "prefix", string(got[:6]), what)
					require.Equal(t, want, got[6:], "Encryptor %s", what)

					buf := make([]byte, n, n+chacha20poly1305.TagSize)
					copy(buf, pt)
					e := a.NewEncryptor(nonce, ad)
					o := buf[:0]
					for _, c := range aeadtest.Pieces(buf, shape) {
						o = e.Encrypt(o, c)
					}
					got = e.Finish(o)
					require.Equal(t, want, got, "Encryptor in place %s", what)
					require.Equal(t, unsafe.SliceData(buf), unsafe.SliceData(got), "in place %s", what)

					got = streamEncrypt(a, make([]byte, 3, 3), nonce, ad, pt, shape)
					require.Equal(t, want, got[3:], "Encryptor into a full dst %s", what)

					d := a.NewDecryptor(nonce, ad)
					tagCut := chacha20poly1305.TagSize / 2 * (n % 2) // the tag whole, or in two chunks
					for _, c := range aeadtest.Pieces(want, append(shape[:len(shape):len(shape)], tagCut, chacha20poly1305.TagSize-tagCut)) {
						k, err := d.Write(c)
						require.NoError(t, err, what)
						require.Equal(t, len(c), k, what)
					}
					back, err := d.Open([]byte("x"))
					require.NoError(t, err, "Decryptor %s", what)
					require.Equal(t, append([]byte("x"), pt...), back, "Decryptor %s", what)
				}
			}
		}
	})
}

// TestEncryptorRFC8439 streams the AEAD test vector of RFC 8439, section
// 2.8.2, one byte at a time, on every backend.
func TestEncryptorRFC8439(t *testing.T) {
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	aad := unhex(t, "50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7")
	key := unhex(t, `80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
		90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`)
	nonce := unhex(t, "07 00 00 00 40 41 42 43 44 45 46 47")
	tag := unhex(t, "1a:e1:0b:59:4f:09:e2:6a:7e:90:2e:cb:d0:60:06:91")
	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, key, false, name)
		ones := make([]int, len(plaintext))
		for i := range ones {
			ones[i] = 1
		}
		got := streamEncrypt(a, nil, nonce, aad, plaintext, ones)
		assert.Equal(t, tag, got[len(plaintext):])
		assert.Equal(t, a.Seal(nil, nonce, plaintext, aad), got)
	})
}

// TestDecryptorVerifiesFirst checks that a Decryptor releases nothing from a
// message that does not authenticate (a bit flipped in the ciphertext or
// the tag, the wrong nonce or additional data, a truncated message, one
// shorter than the tag): Open returns nil and an error, and leaves the
// bytes of dst's spare capacity untouched, not even zeroed, since it writes
// to dst only after the tag has checked. The Decryptor is done after a
// failed Open as after a successful one.
func TestDecryptorVerifiesFirst(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(43, 44))
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, randBytes(rng, chacha20poly1305.KeySize), x, name)
			for _, n := range []int{0, 1, 63, 64, 65, 300, 1350} {
				nonce, pt, ad := randBytes(rng, a.NonceSize()), randBytes(rng, n), randBytes(rng, 11)
				sealed := a.Seal(nil, nonce, pt, ad)
				check := func(what string, nonce, ad, sealed []byte) {
					t.Helper()
					d := a.NewDecryptor(nonce, ad)
					for _, c := range aeadtest.Pieces(sealed, []int{len(sealed) / 3, 0, len(sealed) - len(sealed)/3}) {
						_, err := d.Write(c)
						require.NoError(t, err, what)
					}
					dst := bytes.Repeat([]byte{0xaa}, 2+len(sealed))
					got, err := d.Open(dst[:2])
					require.EqualError(t, err, "chacha20poly1305: message authentication failed", what)
					require.Nil(t, got, what)
					require.Equal(t, bytes.Repeat([]byte{0xaa}, len(dst)), dst, "%s: Open wrote to dst", what)

					_, err = d.Write([]byte{1})
					require.EqualError(t, err, "chacha20poly1305: Decryptor used after Open", what)
					_, err = d.Open(nil)
					require.EqualError(t, err, "chacha20poly1305: Decryptor used after Open", what)
				}
				for _, i := range []int{0, n / 2, n, len(sealed) - 1} {
					if i >= len(sealed) {
						continue
					}
					bad := bytes.Clone(sealed)
					bad[i] ^= 0x10
					check(fmt.Sprintf("x=%v n=%d flip %d", x, n, i), nonce, ad, bad)
				}
				badNonce := bytes.Clone(nonce)
				badNonce[0] ^= 1
				check(fmt.Sprintf("x=%v n=%d nonce", x, n), badNonce, ad, sealed)
				check(fmt.Sprintf("x=%v n=%d ad", x, n), nonce, ad[1:], sealed)
				check(fmt.Sprintf("x=%v n=%d truncated", x, n), nonce, ad, sealed[:len(sealed)-1])
				check(fmt.Sprintf("x=%v n=%d shorter than the tag", x, n), nonce, ad, sealed[:chacha20poly1305.TagSize-1])
			}
		}
	})
}

// TestStreamPanics checks the panics and errors of the Encryptor and the
// Decryptor, which are aesgcm's with this package's names: a wrong nonce
// length, an inexact overlap, use after Finish, use of a wiped key.
func TestStreamPanics(t *testing.T) {
	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, make([]byte, chacha20poly1305.KeySize), false, name)
		ax := mustNew(t, make([]byte, chacha20poly1305.KeySize), true, name)
		n12, n24 := make([]byte, chacha20poly1305.NonceSize), make([]byte, chacha20poly1305.NonceSizeX)
		assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to NewEncryptor", func() { a.NewEncryptor(n24, nil) })
		assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to NewEncryptor", func() { ax.NewEncryptor(n12, nil) })
		assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to NewDecryptor", func() { a.NewDecryptor(n12[:11], nil) })
		assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to NewDecryptor", func() { ax.NewDecryptor(n12, nil) })

		buf := make([]byte, 200)
		e := a.NewEncryptor(n12, nil)
		assert.PanicsWithValue(t, "chacha20poly1305: invalid buffer overlap of output and input", func() { e.Encrypt(buf[:3], buf[:10]) })
		assert.PanicsWithValue(t, "chacha20poly1305: invalid buffer overlap of output and input", func() { e.Encrypt(buf[10:10], buf[5:20]) })
		assert.NotPanics(t, func() { e.Encrypt(buf[:0], buf[:10]) }, "in place")
		assert.Len(t, e.Finish(nil), chacha20poly1305.TagSize)
		assert.PanicsWithValue(t, "chacha20poly1305: Encrypt after Finish", func() { e.Encrypt(nil, buf[:10]) })
		assert.PanicsWithValue(t, "chacha20poly1305: Finish called twice", func() { e.Finish(nil) })

		// A wiped key: the Encryptor made before the wipe stops too.
		w := mustNew(t, make([]byte, chacha20poly1305.KeySize), false, name)
		e = w.NewEncryptor(n12, nil)
		d := w.NewDecryptor(n12, nil)
		_, err := d.Write(w.Seal(nil, n12, nil, nil))
		require.NoError(t, err)
		w.Wipe()
		assert.PanicsWithValue(t, "chacha20poly1305: use of a wiped key", func() { e.Encrypt(nil, buf[:10]) })
		assert.PanicsWithValue(t, "chacha20poly1305: use of a wiped key", func() { e.Finish(nil) })
		assert.PanicsWithValue(t, "chacha20poly1305: use of a wiped key", func() { _, _ = d.Open(nil) })
		assert.PanicsWithValue(t, "chacha20poly1305: use of a wiped key", func() { w.NewEncryptor(n12, nil) })
		assert.PanicsWithValue(t, "chacha20poly1305: use of a wiped key", func() { w.NewDecryptor(n12, nil) })
	})
}

// TestEncryptorAllocs checks that Encrypt does not allocate when dst has
// room.
func TestEncryptorAllocs(t *testing.T) {
	if testing.CoverMode() != "" || stackscratch.Instrumented {
		t.Skip("coverage and race instrumentation allocate")
	}
	if cpufeat.Simulated() {
		t.Skip("vgsim: the model's trampolines allocate on every call")
	}
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, make([]byte, chacha20poly1305.KeySize), x, name)
			e := a.NewEncryptor(make([]byte, a.NonceSize()), make([]byte, 13))
			pt := make([]byte, 1350)
			dst := make([]byte, 0, len(pt))
			for _, n := range []int{1, 13, 64, 100, 1350} {
				assert.Zero(t, testing.AllocsPerRun(20, func() { e.Encrypt(dst, pt[:n]) }), "Encrypt %d", n)
			}
		}
	})
}
