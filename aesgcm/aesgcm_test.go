package aesgcm_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// available returns the names of the backends New can use here.
func available(t testing.TB) []string {
	var names []string
	for _, b := range aesgcm.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names)
	return names
}

// forEachBackend runs f once per available backend.
func forEachBackend(t *testing.T, f func(t *testing.T, backend string)) {
	for _, name := range available(t) {
		t.Run(name, func(t *testing.T) { f(t, name) })
	}
}

// equalBytes compares byte slices as hex, so that nil and empty are equal
// and a failure shows both.
func equalBytes(t testing.TB, want, got []byte, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got), msgAndArgs...)
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

type rnd struct{ *rand.Rand }

func newRnd(seed uint64) rnd { return rnd{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (r rnd) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func stdGCM(t testing.TB, key []byte, nonceSize, tagSize int) cipher.AEAD {
	b, err := aes.NewCipher(key)
	require.NoError(t, err)
	var g cipher.AEAD
	switch {
	case nonceSize != 12 && tagSize != 16:
		t.Fatalf("crypto/cipher has no GCM with both a nonce size and a tag size")
	case nonceSize != 12:
		g, err = cipher.NewGCMWithNonceSize(b, nonceSize)
	default:
		g, err = cipher.NewGCMWithTagSize(b, tagSize)
	}
	require.NoError(t, err)
	return g
}

// Test cases of McGrew and Viega's GCM specification (the SP 800-38D
// validation examples) for the three key sizes.
func TestSpecVectors(t *testing.T) {
	const p = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
	const k = "feffe9928665731c6d6a8f9467308308"
	const a = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
	z := func(n int) string { return strings.Repeat("00", n) }
	vectors := []struct{ key, iv, pt, aad, ct, tag string }{
		{z(16), z(12), "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
		{z(16), z(12), z(16), "", "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"},
		{k, "cafebabefacedbaddecaf888", p, "", "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985", "4d5c2af327cd64a62cf35abd2ba6fab4"},
		{k, "cafebabefacedbaddecaf888", p[:120], a, "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", "5bc94fbc3221a5db94fae95ae7121a47"},
		{k, "cafebabefacedbad", p[:120], a, "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598", "3612d2e79e3b0785561be14aaca2fccb"},
		{k, "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b", p[:120], a, "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5", "619cc5aefffe0bfa462af43c1699d050"},
		{z(24), z(12), "", "", "", "cd33b28ac773f74ba00ed1f312572435"},
		{z(24), z(12), z(16), "", "98e7247c07f0fe411c267e4384b0f600", "2ff58d80033927ab8ef4d4587514f0fb"},
		{z(32), z(12), "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
		{z(32), z(12), z(16), "", "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"},
	}
	forEachBackend(t, func(t *testing.T, backend string) {
		for i, v := range vectors {
			g, err := aesgcm.Prepare(unhex(v.key), aesgcm.WithBackend(backend), aesgcm.WithNonceSize(len(v.iv)/2))
			require.NoError(t, err)
			sealed := g.Seal(nil, unhex(v.iv), unhex(v.pt), unhex(v.aad))
			require.Equal(t, v.ct+v.tag, hex.EncodeToString(sealed), "vector %d", i)
			pt, err := g.Open(nil, unhex(v.iv), sealed, unhex(v.aad))
			require.NoError(t, err)
			require.Equal(t, v.pt, hex.EncodeToString(pt))
		}
	})
}

// agreementLengths are the text lengths of the agreement with crypto/cipher.
func agreementLengths() []int {
	var ls []int
	for n := 0; n <= 1100; n++ {
		if testing.Short() && n > 200 && n%7 != 0 {
			continue
		}
		ls = append(ls, n)
	}
	return append(ls, 4096, 16384, 65536+5)
}

// TestAgainstStdlib compares Seal and Open with crypto/cipher's GCM (an
// independent implementation) on random keys of every size, every text
// length up to 1100 and larger ones, AAD lengths up to 80 and 1 KiB, nonce
// and tag sizes besides the defaults, in place, out of place and at
// unaligned offsets.
func TestAgainstStdlib(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(1)
		for i, n := range agreementLengths() {
			key := r.bytes([]int{16, 24, 32}[i%3])
			nonceSize, tagSize := 12, 16
			switch i % 7 {
			case 1:
				nonceSize = []int{1, 8, 13, 16, 60}[i%5]
			case 2:
				tagSize = 12 + i%4
			}
			aadLen := i % 81
			if i%50 == 3 {
				aadLen = 1024
			}
			g, err := aesgcm.Prepare(key, aesgcm.WithBackend(backend), aesgcm.WithNonceSize(nonceSize), aesgcm.WithTagSize(tagSize))
			require.NoError(t, err)
			ref := stdGCM(t, key, nonceSize, tagSize)
			nonce, pt, aad := r.bytes(nonceSize), r.bytes(n), r.bytes(aadLen)
			want := ref.Seal(nil, nonce, pt, aad)

			// Out of place, at an unaligned offset of dst.
			off := i % 17
			dst := make([]byte, off, off+n+tagSize)
			got := g.Seal(dst, nonce, pt, aad)
			equalBytes(t, want, got[off:], "n=%d", n)

			// In place.
			buf := make([]byte, off+n, off+n+tagSize)
			copy(buf[off:], pt)
			got = g.Seal(buf[off:off], nonce, buf[off:], aad)
			equalBytes(t, want, got, "in place, n=%d", n)

			// Open, out of place and in place.
			opened, err := g.Open(nil, nonce, want, aad)
			require.NoError(t, err)
			equalBytes(t, pt, opened)
			sealed := bytes.Clone(want)
			opened, err = g.Open(sealed[:0], nonce, sealed, aad)
			require.NoError(t, err)
			equalBytes(t, pt, opened)
		}
	})
}

// shapes returns the ways of cutting a text of n bytes that DESIGN.md asks
// for, and some with chunks shorter than, equal to and longer than the bytes
// that finish a block left open.
func shapes(n int) [][]int {
	cut := func(parts ...int) []int {
		var s []int
		rest := n
		for _, p := range parts {
			p = max(0, min(p, rest))
			s = append(s, p)
			rest -= p
		}
		return append(s, rest)
	}
	out := [][]int{{n}, cut(1), cut(n - 1), cut(5), cut(100), cut(n/3, n/3)}
	var tiny []int
	for rest, i := n, 0; rest > 0; i++ {
		p := min(rest, 1+i%3)
		tiny = append(tiny, p)
		rest -= p
	}
	out = append(out, tiny)
	// A block left open with 3 bytes missing; then chunks of 2, 3 and 4
	// bytes (shorter, equal, longer), then whole and partial blocks.
	out = append(out, cut(13, 2, 1, 13, 3, 13, 4, 16, 33, 64, 70))
	out = append(out, cut(7, 9, 48, 1, 15, 17))
	return out
}

func TestSealGatherAndEncryptor(t *testing.T) {
	lengths := []int{0, 1, 15, 16, 17, 31, 33, 47, 48, 49, 63, 64, 65, 100, 255, 256, 511, 768, 1023, 1024, 1360, 2048, 4096 + 7}
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(2)
		for _, n := range lengths {
			g, err := aesgcm.Prepare(r.bytes(16+8*(n%3)), aesgcm.WithBackend(backend))
			require.NoError(t, err)
			nonce, pt, aad := r.bytes(12), r.bytes(n), r.bytes(n%29)
			want := g.Seal(nil, nonce, pt, aad)
			for _, shape := range shapes(n) {
				ps := aeadtest.Pieces(pt, shape)
				got := g.SealGather([]byte("prefix"), nonce, ps, aad)
				equalBytes(t, want, got[6:], "SealGather n=%d shape=%v", n, shape)

				e := g.NewEncryptor(nonce, aad)
				out := []byte("prefix")
				for _, p := range ps {
					out = e.Encrypt(out, p)
				}
				out = e.Finish(out)
				equalBytes(t, want, out[6:], "Encryptor n=%d shape=%v", n, shape)

				// In place: each piece is its own part of the output.
				buf := make([]byte, n, n+16)
				copy(buf, pt)
				got = g.SealGather(buf[:0], nonce, aeadtest.Pieces(buf, shape), aad)
				equalBytes(t, want, got, "SealGather in place n=%d shape=%v", n, shape)
				copy(buf, pt)
				e = g.NewEncryptor(nonce, aad)
				o := buf[:0]
				for _, p := range aeadtest.Pieces(buf, shape) {
					o = e.Encrypt(o, p)
				}
				equalBytes(t, want, e.Finish(o), "Encryptor in place n=%d shape=%v", n, shape)

				d := g.NewDecryptor(nonce, aad)
				for _, p := range aeadtest.Pieces(want, append(shape[:len(shape):len(shape)], 16)) {
					_, err := d.Write(p)
					require.NoError(t, err)
				}
				opened, err := d.Open([]byte("x"))
				require.NoError(t, err)
				equalBytes(t, append([]byte("x"), pt...), opened)
			}
		}
		// The TLS record shape.
		g, err := aesgcm.Prepare(r.bytes(32), aesgcm.WithBackend(backend))
		require.NoError(t, err)
		nonce, payload, aad := r.bytes(12), r.bytes(1350), r.bytes(13)
		ct := []byte{23}
		equalBytes(t, g.Seal(nil, nonce, append(bytes.Clone(payload), 23), aad),
			g.SealGather(nil, nonce, [][]byte{payload, ct}, aad))
	})
}

func TestOpenRejects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(3)
		for _, n := range []int{0, 1, 16, 17, 100, 1000} {
			g, err := aesgcm.Prepare(r.bytes(16), aesgcm.WithBackend(backend))
			require.NoError(t, err)
			nonce, pt, aad := r.bytes(12), r.bytes(n), r.bytes(5)
			sealed := g.Seal(nil, nonce, pt, aad)
			for i := 0; i < len(sealed); i += 1 + len(sealed)/7 {
				bad := bytes.Clone(sealed)
				bad[i] ^= 0x80
				dst := make([]byte, 3, 3+len(bad))
				copy(dst, "abc")
				got, err := g.Open(dst, nonce, bad, aad)
				require.Error(t, err)
				require.Nil(t, got)
				equalBytes(t, make([]byte, n), dst[3:3+n], "unverified plaintext left in dst")
				// In place: the ciphertext is overwritten with zeros.
				got, err = g.Open(bad[:0], nonce, bad, aad)
				require.Error(t, err)
				require.Nil(t, got)
				equalBytes(t, make([]byte, n), bad[:n])

				d := g.NewDecryptor(nonce, aad)
				bad[i] ^= 0x80
				bad = bytes.Clone(sealed)
				bad[i] ^= 1
				_, err = d.Write(bad)
				require.NoError(t, err)
				got, err = d.Open(nil)
				require.Error(t, err)
				require.Nil(t, got)
				_, err = d.Write(bad)
				require.Error(t, err, "Decryptor after Open")
			}
			_, err = g.Open(nil, nonce, sealed, append(aad, 0))
			require.Error(t, err)
			nonce[0] ^= 1
			_, err = g.Open(nil, nonce, sealed, aad)
			require.Error(t, err)
			_, err = g.Open(nil, nonce, sealed[:15], aad)
			require.Error(t, err)
		}
	})
}

func TestNewErrors(t *testing.T) {
	for _, n := range []int{0, 1, 15, 17, 20, 31, 33, 64} {
		_, err := aesgcm.Prepare(make([]byte, n))
		require.Error(t, err)
		require.Contains(t, err.Error(), fmt.Sprint(n))
	}
	key := make([]byte, 16)
	for _, n := range []int{-1, 0, 11, 17, 32} {
		_, err := aesgcm.Prepare(key, aesgcm.WithTagSize(n))
		require.Error(t, err)
		require.Contains(t, err.Error(), fmt.Sprint(n))
	}
	for _, n := range []int{-5, 0} {
		_, err := aesgcm.Prepare(key, aesgcm.WithNonceSize(n))
		require.Error(t, err)
		require.Contains(t, err.Error(), fmt.Sprint(n))
	}
	_, err := aesgcm.Prepare(key, aesgcm.WithBackend("nonesuch"))
	require.EqualError(t, err, `aesgcm: unknown backend "nonesuch" (valid: vaes-avx512, vaes-avx2, aesni-avx, aesni, stdlib, generic)`)
	for _, b := range cpufeat.Backends(cpufeat.AESGCM) {
		g, err := aesgcm.Prepare(key, aesgcm.WithBackend(b.Name))
		switch {
		case !implemented(b.Name):
			require.ErrorContains(t, err, `aesgcm: backend "`+b.Name+`" is not built in this build (built: `)
			require.ErrorContains(t, err, "generic)", "the error names the built backends")
		case !b.Available(cpufeat.Enabled()):
			want := fmt.Sprintf("aesgcm: backend %q needs CPU features %s; enabled here: %s", b.Name, b.Requires, cpufeat.Enabled())
			if v, set := cpufeat.Override(); set {
				want += fmt.Sprintf(" (%s=%q)", cpufeat.EnvVar, v)
			}
			require.EqualError(t, err, want)
		default:
			require.NoError(t, err)
			require.Equal(t, b.Name, g.Backend())
		}
	}
	for _, n := range []int{16, 24, 32} {
		g, err := aesgcm.Prepare(make([]byte, n))
		require.NoError(t, err)
		require.Equal(t, 12, g.NonceSize())
		require.Equal(t, 16, g.Overhead())
	}
}

func implemented(name string) bool {
	for _, b := range aesgcm.Backends() {
		if b.Name == name {
			return true
		}
	}
	return false
}

func TestBackends(t *testing.T) {
	bs := aesgcm.Backends()
	require.NotEmpty(t, bs)
	require.Equal(t, "generic", bs[len(bs)-1].Name, "generic is last (least preferred)")
	for _, b := range bs {
		d, ok := cpufeat.Lookup(cpufeat.AESGCM, b.Name)
		require.True(t, ok)
		require.Equal(t, d.Requires, b.Requires)
		require.Equal(t, cpufeat.Enabled().HasAll(b.Requires), b.Available)
	}
	g, err := aesgcm.Prepare(make([]byte, 16))
	require.NoError(t, err)
	want := cpufeat.Select(cpufeat.AESGCM, available(t), cpufeat.Enabled()).Name
	require.Equal(t, want, g.Backend(), "New picks the best available backend")
}

func TestPanics(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		g, err := aesgcm.Prepare(make([]byte, 16), aesgcm.WithBackend(backend))
		require.NoError(t, err)
		nonce := make([]byte, 12)
		buf := make([]byte, 200)
		assert.PanicsWithValue(t, "aesgcm: incorrect nonce length given to GCM", func() { g.Seal(nil, nonce[:11], nil, nil) })
		assert.Panics(t, func() { _, _ = g.Open(nil, nonce[:11], make([]byte, 16), nil) })
		assert.Panics(t, func() { g.SealGather(nil, nonce[:8], nil, nil) })
		assert.Panics(t, func() { g.NewEncryptor(nonce[:13], nil) })
		assert.Panics(t, func() { g.NewDecryptor(nonce[:1], nil) })
		// Inexact overlaps.
		assert.Panics(t, func() { g.Seal(buf[:1], nonce, buf[:100], nil) })
		assert.Panics(t, func() { g.Seal(buf[:0], nonce, buf[:100], buf[110:113]) })
		sealed := g.Seal(nil, nonce, make([]byte, 100), nil)
		copy(buf, sealed)
		assert.Panics(t, func() { _, _ = g.Open(buf[:1], nonce, buf[:len(sealed)], nil) })
		assert.Panics(t, func() { g.SealGather(buf[:0], nonce, [][]byte{buf[1:10]}, nil) })
		assert.Panics(t, func() { g.SealGather(buf[:0], nonce, [][]byte{buf[10:20], buf[100:110]}, nil) })
		e := g.NewEncryptor(nonce, nil)
		assert.Panics(t, func() { e.Encrypt(buf[:3], buf[:10]) })
		e.Finish(nil)
		assert.Panics(t, func() { e.Encrypt(nil, buf[:10]) })
		assert.Panics(t, func() { e.Finish(nil) })
	})
}

func TestTooLargeGather(t *testing.T) {
	g, err := aesgcm.Prepare(make([]byte, 16))
	require.NoError(t, err)
	piece := make([]byte, 1<<20)
	ps := make([][]byte, 1<<16) // 2^36 bytes > 2^36-32
	for i := range ps {
		ps[i] = piece
	}
	assert.PanicsWithValue(t, "aesgcm: message too large for GCM", func() { g.SealGather(nil, make([]byte, 12), ps, nil) })
}

func TestWipe(t *testing.T) {
	g, err := aesgcm.Prepare(make([]byte, 16))
	require.NoError(t, err)
	g.Wipe()
	assert.PanicsWithValue(t, "aesgcm: use of a wiped key", func() { g.Seal(nil, make([]byte, 12), nil, nil) })
	assert.Panics(t, func() { _, _ = g.Open(nil, make([]byte, 12), make([]byte, 16), nil) })
}

func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	forEachBackend(t, func(t *testing.T, backend string) {
		if cpufeat.Simulated() && backend != "generic" {
			t.Skip("vgsim: the model's trampolines allocate on every call; the model's own stack, register and taint checks replace this test there")
		}
		for _, nonceSize := range []int{12, 16} {
			g, err := aesgcm.Prepare(make([]byte, 32), aesgcm.WithBackend(backend), aesgcm.WithNonceSize(nonceSize))
			require.NoError(t, err)
			nonce, pt, aad := make([]byte, nonceSize), make([]byte, 1350), make([]byte, 13)
			dst := make([]byte, 0, 2048)
			sealed := g.Seal(nil, nonce, pt, aad)
			ps := [][]byte{pt[:1349], pt[1349:]}
			e := g.NewEncryptor(nonce, aad)
			// The stdlib backend allocates what crypto/cipher's GCM does
			// (on ppc64le, one allocation per Seal and Open), no more.
			var sealAllowed, openAllowed float64
			if backend == "stdlib" {
				ref := stdGCM(t, make([]byte, 32), nonceSize, 16)
				sealAllowed = testing.AllocsPerRun(20, func() { ref.Seal(dst, nonce, pt, aad) })
				openAllowed = testing.AllocsPerRun(20, func() { _, _ = ref.Open(dst, nonce, sealed, aad) })
			}
			for name, c := range map[string]struct {
				f       func()
				allowed float64
			}{
				"Seal":       {func() { g.Seal(dst, nonce, pt, aad) }, sealAllowed},
				"Open":       {func() { _, _ = g.Open(dst, nonce, sealed, aad) }, openAllowed},
				"SealGather": {func() { g.SealGather(dst, nonce, ps, aad) }, sealAllowed},
				"Encrypt":    {func() { e.Encrypt(dst, pt[:100]) }, 0},
			} {
				require.LessOrEqual(t, testing.AllocsPerRun(20, c.f), c.allowed, "%s allocates", name)
			}
		}
	})
}

// TestConcurrent uses one key from several goroutines; run it with -race.
func TestConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(4)
		key := r.bytes(16)
		g, err := aesgcm.Prepare(key, aesgcm.WithBackend(backend))
		require.NoError(t, err)
		ref := stdGCM(t, key, 12, 16)
		var wg sync.WaitGroup
		for w := range 8 {
			nonce, pt, aad := r.bytes(12), r.bytes(100*w+3), r.bytes(w)
			wg.Go(func() {
				want := ref.Seal(nil, nonce, pt, aad)
				for range 50 {
					if got := g.Seal(nil, nonce, pt, aad); !bytes.Equal(got, want) {
						t.Errorf("Seal mismatch")
						return
					}
					if got, err := g.Open(nil, nonce, want, aad); err != nil || !bytes.Equal(got, pt) {
						t.Errorf("Open mismatch: %v", err)
						return
					}
				}
			})
		}
		wg.Wait()
	})
}
