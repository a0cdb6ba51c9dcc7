package chacha20poly1305_test

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	mathrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
	"github.com/vgcrypto/vg/stackscratch"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// available returns the names of the backends that can run here; each test
// runs once per name.
func available(t testing.TB) []string {
	var names []string
	for _, b := range chacha20poly1305.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names)
	return names
}

// forEachBackend runs f as a subtest per available backend, with a
// ChaCha20-Poly1305 and an XChaCha20-Poly1305 constructor for it.
func forEachBackend(t *testing.T, f func(t *testing.T, name string)) {
	for _, name := range available(t) {
		t.Run(name, func(t *testing.T) { f(t, name) })
	}
}

// xcryptoAEAD returns golang.org/x/crypto's ChaCha20-Poly1305 (x false) or
// XChaCha20-Poly1305 (x true), the reference of the agreement tests.
func xcryptoAEAD(t testing.TB, key []byte, x bool) cipher.AEAD {
	t.Helper()
	var ref cipher.AEAD
	var err error
	if x {
		ref, err = xchacha.NewX(key)
	} else {
		ref, err = xchacha.New(key)
	}
	require.NoError(t, err)
	return ref
}

// mustNew prepares key on the backend called name, for XChaCha20-Poly1305
// when x is set.
func mustNew(t testing.TB, key []byte, x bool, name string) *chacha20poly1305.AEAD {
	t.Helper()
	var a *chacha20poly1305.AEAD
	var err error
	if x {
		a, err = chacha20poly1305.PrepareX(key, chacha20poly1305.WithBackend(name))
	} else {
		a, err = chacha20poly1305.Prepare(key, chacha20poly1305.WithBackend(name))
	}
	require.NoError(t, err)
	require.Equal(t, name, a.Backend())
	return a
}

// unhex decodes the RFCs' hexadecimal vectors.
var unhex = aeadtest.Unhex

// TestRFC8439AEAD is the AEAD test vector of RFC 8439, section 2.8.2.
func TestRFC8439AEAD(t *testing.T) {
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	aad := unhex(t, "50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7")
	key := unhex(t, `80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
		90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`)
	nonce := unhex(t, "07 00 00 00 40 41 42 43 44 45 46 47")
	ciphertext := unhex(t, `d3 1a 8d 34 64 8e 60 db 7b 86 af bc 53 ef 7e c2
		a4 ad ed 51 29 6e 08 fe a9 e2 b5 a7 36 ee 62 d6
		3d be a4 5e 8c a9 67 12 82 fa fb 69 da 92 72 8b
		1a 71 de 0a 9e 06 0b 29 05 d6 a5 b6 7e cd 3b 36
		92 dd bd 7f 2d 77 8b 8c 98 03 ae e3 28 09 1b 58
		fa b3 24 e4 fa d6 75 94 55 85 80 8b 48 31 d7 bc
		3f f4 de f0 8e 4b 7a 9d e5 76 d2 65 86 ce c6 4b
		61 16`)
	tag := unhex(t, "1a:e1:0b:59:4f:09:e2:6a:7e:90:2e:cb:d0:60:06:91")
	want := append(append([]byte(nil), ciphertext...), tag...)

	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, key, false, name)
		got := a.Seal(nil, nonce, plaintext, aad)
		assert.Equal(t, want, got)
		got = a.SealGather(nil, nonce, [][]byte{plaintext[:7], plaintext[7:70], plaintext[70:]}, aad)
		assert.Equal(t, want, got)
		pt, err := a.Open(nil, nonce, want, aad)
		require.NoError(t, err)
		assert.Equal(t, plaintext, pt)
	})
}

// TestAgainstXCrypto compares every backend with golang.org/x/crypto over
// random inputs of many lengths; the conformance module runs the exhaustive
// version.
func TestAgainstXCrypto(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(1, 2))
	lengths := []int{0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
		511, 512, 513, 1023, 1024, 1350, 4095, 4096, 4097, 8191, 8192, 8193, 16384 + 3, 65536 + 17}
	for n := 0; n < 300; n++ {
		lengths = append(lengths, n)
	}
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			key := randBytes(rng, chacha20poly1305.KeySize)
			a := mustNew(t, key, x, name)
			ref := xcryptoAEAD(t, key, x)
			for _, n := range lengths {
				nonce := randBytes(rng, a.NonceSize())
				pt := randBytes(rng, n)
				ad := randBytes(rng, rng.IntN(40))
				want := ref.Seal(nil, nonce, pt, ad)
				got := a.Seal(nil, nonce, pt, ad)
				require.Equal(t, want, got, "x=%v len=%d", x, n)
				back, err := a.Open(nil, nonce, want, ad)
				require.NoError(t, err, "x=%v len=%d", x, n)
				require.True(t, bytes.Equal(pt, back), "x=%v len=%d", x, n)
			}
		}
	})
}

// randBytes returns n bytes of rng.
func randBytes(rng *mathrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestSealGatherShapes checks SealGather against Seal of the same bytes for
// the slice shapes of DESIGN.md and random ones.
func TestSealGatherShapes(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(3, 4))
	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, randBytes(rng, chacha20poly1305.KeySize), false, name)
		for _, n := range []int{0, 1, 5, 15, 16, 63, 64, 65, 100, 127, 128, 129, 200, 1350, 4096, 4200, 9000, 16384 + 1} {
			pt := randBytes(rng, n)
			ad := randBytes(rng, 13)
			nonce := randBytes(rng, chacha20poly1305.NonceSize)
			want := a.Seal(nil, nonce, pt, ad)
			for _, shape := range gatherShapes(n, rng) {
				got := a.SealGather(nil, nonce, aeadtest.Pieces(pt, shape), ad)
				require.Equal(t, want, got, "n=%d shape=%v", n, shape)

				// In place: each slice is its own part of the output.
				buf := make([]byte, n, n+chacha20poly1305.TagSize+7)
				copy(buf, pt)
				got = a.SealGather(buf[:0], nonce, aeadtest.Pieces(buf, shape), ad)
				require.Equal(t, want, got, "in place n=%d shape=%v", n, shape)
			}
		}
	})
}

// gatherShapes returns slice-length lists summing to n: [n], [1,n-1],
// [n-1,1], [5,n-5], [100,n-100], thirds, many tiny slices, with empty slices
// mixed in, and a few random shapes.
func gatherShapes(n int, rng *mathrand.Rand) [][]int {
	shapes := [][]int{{n}, {0, n, 0}}
	for _, k := range []int{1, 5, 63, 64, 65, 100} {
		if k <= n {
			shapes = append(shapes, []int{k, n - k}, []int{n - k, k})
		}
	}
	shapes = append(shapes, []int{n / 3, n / 3, n - 2*(n/3)})
	for _, tiny := range []int{1, 3, 7, 17} {
		var s []int
		for left := n; left > 0; left -= min(left, tiny) {
			s = append(s, min(left, tiny))
		}
		shapes = append(shapes, s)
	}
	for range 4 {
		var s []int
		for left := n; left > 0; {
			k := min(left, rng.IntN(200))
			s = append(s, k)
			left -= k
		}
		shapes = append(shapes, s)
	}
	return shapes
}

// keyOf adapts a to the shared AEAD tests.
func keyOf(a *chacha20poly1305.AEAD) aeadtest.Key {
	return aeadtest.KeyOf[*chacha20poly1305.Encryptor, *chacha20poly1305.Decryptor](a)
}

// TestInPlaceAndAppend checks append to a non-empty dst, exact in-place
// operation, and that the inputs are left unchanged.
func TestInPlaceAndAppend(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(5, 6))
	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, randBytes(rng, chacha20poly1305.KeySize), false, name)
		for _, n := range []int{0, 1, 16, 64, 100, 1000, 5000} {
			pt := randBytes(rng, n)
			ad := randBytes(rng, 20)
			nonce := randBytes(rng, chacha20poly1305.NonceSize)
			ptCopy, adCopy := bytes.Clone(pt), bytes.Clone(ad)
			want := a.Seal(nil, nonce, pt, ad)
			assert.Equal(t, ptCopy, pt, "input modified")
			assert.Equal(t, adCopy, ad, "ad modified")

			prefix := []byte("prefix")
			got := a.Seal(bytes.Clone(prefix), nonce, pt, ad)
			assert.Equal(t, append(bytes.Clone(prefix), want...), got)
			got = a.SealGather(bytes.Clone(prefix), nonce, [][]byte{pt}, ad)
			assert.Equal(t, append(bytes.Clone(prefix), want...), got)

			buf := make([]byte, n, n+chacha20poly1305.TagSize)
			copy(buf, pt)
			got = a.Seal(buf[:0], nonce, buf, ad)
			assert.Equal(t, want, got)

			ctCopy := bytes.Clone(want)
			back, err := a.Open(bytes.Clone(prefix), nonce, want, ad)
			require.NoError(t, err)
			assert.Equal(t, append(bytes.Clone(prefix), pt...), back)
			assert.Equal(t, ctCopy, want, "ciphertext modified")

			back, err = a.Open(got[:0], nonce, got, ad)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(pt, back))
		}
	})
}

// TestOpenFailure flips every kind of input and checks that Open fails and
// zeroes the bytes it wrote into dst.
func TestOpenFailure(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(7, 8))
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, randBytes(rng, chacha20poly1305.KeySize), x, name)
			for _, n := range []int{0, 1, 63, 64, 156, 8192, 8193, 8208} {
				pt := randBytes(rng, n)
				ad := randBytes(rng, 9)
				nonce := randBytes(rng, a.NonceSize())
				ct := a.Seal(nil, nonce, pt, ad)

				check := func(what string, nonce, ct, ad []byte) {
					t.Helper()
					dst := bytes.Repeat([]byte{0xaa}, 3+len(ct))
					out, err := a.Open(dst[:3], nonce, ct, ad)
					require.Error(t, err, what)
					assert.Nil(t, out)
					assert.Equal(t, []byte{0xaa, 0xaa, 0xaa}, dst[:3], what)
					assert.Equal(t, make([]byte, max(len(ct)-chacha20poly1305.TagSize, 0)), dst[3:3+max(len(ct)-chacha20poly1305.TagSize, 0)], "%s: plaintext released", what)

					inPlace := bytes.Clone(ct)
					_, err = a.Open(inPlace[:0], nonce, inPlace, ad)
					require.Error(t, err, what)
					assert.Equal(t, make([]byte, len(ct)-chacha20poly1305.TagSize), inPlace[:len(ct)-chacha20poly1305.TagSize], "%s: plaintext released in place", what)
				}
				for _, i := range []int{0, len(ct) / 2, len(ct) - chacha20poly1305.TagSize, len(ct) - 1} {
					bad := bytes.Clone(ct)
					bad[i] ^= 0x80
					check(fmt.Sprintf("n=%d flip ct[%d]", n, i), nonce, bad, ad)
				}
				badNonce := bytes.Clone(nonce)
				badNonce[len(badNonce)-1] ^= 1
				check("nonce", badNonce, ct, ad)
				badAD := bytes.Clone(ad)
				badAD[0] ^= 1
				check("ad", nonce, ct, badAD)
				check("ad missing", nonce, ct, nil)

				_, err := a.Open(nil, nonce, ct[:chacha20poly1305.TagSize-1], ad)
				assert.Error(t, err, "short ciphertext")
			}
		}
	})
}

// TestPanics checks the crypto/cipher contract's panics and the length
// limits.
func TestPanics(t *testing.T) {
	a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	ax, err := chacha20poly1305.PrepareX(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	n12, n24 := make([]byte, 12), make([]byte, 24)

	assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to Seal", func() { a.Seal(nil, n24, nil, nil) })
	assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to Seal", func() { ax.Seal(nil, n12, nil, nil) })
	assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to Open", func() { _, _ = a.Open(nil, n12[:11], make([]byte, 16), nil) })
	assert.PanicsWithValue(t, "chacha20poly1305: bad nonce length passed to SealGather", func() { ax.SealGather(nil, n12, nil, nil) })

	// Inexact overlap of output and input, and any overlap with the AD.
	buf := make([]byte, 400)
	assert.Panics(t, func() { a.Seal(buf[1:1], n12, buf[:100], nil) })
	assert.Panics(t, func() { a.Seal(buf[:0], n12, buf[1:101], nil) })
	assert.Panics(t, func() { a.Seal(buf[:0], n12, buf[:50], buf[60:70]) })
	ct := a.Seal(nil, n12, make([]byte, 100), nil)
	copy(buf, ct)
	assert.Panics(t, func() { _, _ = a.Open(buf[1:1], n12, buf[:len(ct)], nil) })
	assert.Panics(t, func() { _, _ = a.Open(buf[150:150], n12, buf[:len(ct)], buf[160:170]) })
	assert.Panics(t, func() { a.SealGather(buf[:0], n12, [][]byte{buf[20:30]}, nil) })
	assert.Panics(t, func() { a.SealGather(buf[:0], n12, [][]byte{buf[:10], buf[9:20]}, nil) })
	assert.Panics(t, func() { a.SealGather(buf[:0], n12, [][]byte{buf[10:20], buf[:10]}, nil) })
	assert.NotPanics(t, func() { a.SealGather(buf[:0], n12, [][]byte{buf[:10], buf[10:20]}, nil) }, "in place")
	assert.Panics(t, func() { a.SealGather(buf[:0], n12, [][]byte{buf[100:110]}, buf[5:6]) })

}

// TestLengthLimits checks the 2³⁸-64 byte limit with slices whose length is
// over it but whose memory is one byte: Seal, SealGather and Open check the
// length before they touch the text. checkptr (on under -race) rejects such
// slices, so the test needs a build without it.
func TestLengthLimits(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("checkptr, enabled by -race, rejects the oversized slices this test fakes")
	}
	a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	ax, err := chacha20poly1305.PrepareX(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	n12, n24 := make([]byte, 12), make([]byte, 24)
	var b byte
	huge := unsafe.Slice(&b, chacha20poly1305.MaxPlaintextSize+1)
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { a.Seal(nil, n12, huge, nil) })
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { ax.Seal(nil, n24, huge, nil) })
	half := unsafe.Slice(&b, chacha20poly1305.MaxPlaintextSize/2+1)
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { a.SealGather(nil, n12, [][]byte{half, half}, nil) })
	hugeCT := unsafe.Slice(&b, chacha20poly1305.MaxPlaintextSize+chacha20poly1305.TagSize+1)
	_, err = a.Open(nil, n12, hugeCT, nil)
	assert.Error(t, err)
	_, err = ax.Open(nil, n24, hugeCT, nil)
	assert.Error(t, err)
}

// builtNames returns the names of the backends of this build, best first,
// whether or not they can run here.
func builtNames() []string {
	var names []string
	for _, b := range chacha20poly1305.Backends() {
		names = append(names, b.Name)
	}
	return names
}

func TestNewErrors(t *testing.T) {
	for _, n := range []int{0, 16, 31, 33} {
		want := fmt.Sprintf("chacha20poly1305: bad key length %d bytes (want 32)", n)
		_, err := chacha20poly1305.Prepare(make([]byte, n))
		assert.EqualError(t, err, want)
		_, err = chacha20poly1305.PrepareX(make([]byte, n))
		assert.EqualError(t, err, want)
	}
	_, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize), chacha20poly1305.WithBackend("no-such-backend"))
	assert.EqualError(t, err, `chacha20poly1305: unknown backend "no-such-backend" (valid: avx512, avx2, ssse3, stdlib, generic)`)

	// A declared backend that this build does not implement, or that the
	// CPU features do not allow, is an error too, for New and NewX alike.
	built := strings.Join(builtNames(), ", ")
	for _, d := range cpufeat.Backends(cpufeat.ChaCha20Poly1305) {
		_, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize), chacha20poly1305.WithBackend(d.Name))
		_, errX := chacha20poly1305.PrepareX(make([]byte, chacha20poly1305.KeySize), chacha20poly1305.WithBackend(d.Name))
		switch {
		case !slices.Contains(builtNames(), d.Name):
			assert.EqualError(t, err, fmt.Sprintf("chacha20poly1305: backend %q is not built in this build (built: %s)", d.Name, built))
		case !d.Available(cpufeat.Enabled()):
			want := fmt.Sprintf("chacha20poly1305: backend %q needs CPU features %s; enabled here: %s", d.Name, d.Requires, cpufeat.Enabled())
			if v, set := cpufeat.Override(); set {
				want += fmt.Sprintf(" (%s=%q)", cpufeat.EnvVar, v)
			}
			assert.EqualError(t, err, want)
		default:
			assert.NoError(t, err, d.Name)
		}
		assert.Equal(t, err, errX, d.Name)
	}
}

// TestBackends checks the backend list against cpufeat's declarations and
// the default choice against cpufeat.Select.
func TestBackends(t *testing.T) {
	bs := chacha20poly1305.Backends()
	require.NotEmpty(t, bs)
	assert.Equal(t, "generic", bs[len(bs)-1].Name)
	assert.True(t, bs[len(bs)-1].Available)
	for _, b := range bs {
		d, ok := cpufeat.Lookup(cpufeat.ChaCha20Poly1305, b.Name)
		require.True(t, ok, b.Name)
		assert.Equal(t, d.Requires, b.Requires)
		assert.Equal(t, d.Available(cpufeat.Enabled()), b.Available)
	}
	a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	assert.Equal(t, cpufeat.Select(cpufeat.ChaCha20Poly1305, builtNames(), cpufeat.Enabled()).Name, a.Backend())
	t.Logf("backends: %+v; selected %s (enabled: %s)", bs, a.Backend(), cpufeat.Enabled())
}

// New and NewX have x/crypto's shapes, so they fit wherever code passes
// those constructors around (filippo.io/hpke picks its AEAD that way), seal
// as x/crypto does, and return a nil interface, not a typed nil, on error.
func TestNewDropIn(t *testing.T) {
	for _, c := range []struct {
		vg, x  func([]byte) (cipher.AEAD, error)
		nonces int
	}{
		{chacha20poly1305.New, xchacha.New, chacha20poly1305.NonceSize},
		{chacha20poly1305.NewX, xchacha.NewX, chacha20poly1305.NonceSizeX},
	} {
		key := bytes.Repeat([]byte{9}, chacha20poly1305.KeySize)
		a, err := c.vg(key)
		require.NoError(t, err)
		want, err := c.x(key)
		require.NoError(t, err)
		nonce := make([]byte, c.nonces)
		assert.Equal(t, want.Seal(nil, nonce, []byte("hello"), []byte("ad")), a.Seal(nil, nonce, []byte("hello"), []byte("ad")))
		assert.Equal(t, want.NonceSize(), a.NonceSize())
		assert.Equal(t, want.Overhead(), a.Overhead())
		_, ok := a.(*chacha20poly1305.AEAD)
		assert.True(t, ok, "the extended API is a type assertion away")
		a, err = c.vg(key[:31])
		require.Error(t, err)
		assert.True(t, a == nil, "a nil cipher.AEAD, not a typed nil: %#v", a)
	}
}

// TestAllocs checks that Seal, Open and SealGather do not allocate when dst
// has room.
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" || stackscratch.Instrumented {
		t.Skip("coverage and race instrumentation allocate")
	}
	if cpufeat.Simulated() {
		t.Skip("vgsim: the model's trampolines allocate on every call and move every buffer passed to the assembly to the heap, in the Go drivers the generic backend shares too; the model's own stack, register and taint checks replace this test there")
	}
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, make([]byte, chacha20poly1305.KeySize), x, name)
			nonce := make([]byte, a.NonceSize())
			for _, n := range []int{0, 13, 64, 1350, 16384} {
				pt := make([]byte, n)
				ad := make([]byte, 13)
				dst := make([]byte, 0, n+chacha20poly1305.TagSize)
				ct := a.Seal(nil, nonce, pt, ad)
				parts := [][]byte{pt[:n/3], pt[n/3 : n/2], pt[n/2:]}
				assert.Zero(t, testing.AllocsPerRun(20, func() { a.Seal(dst, nonce, pt, ad) }), "Seal %d", n)
				assert.Zero(t, testing.AllocsPerRun(20, func() { _, _ = a.Open(dst, nonce, ct, ad) }), "Open %d", n)
				assert.Zero(t, testing.AllocsPerRun(20, func() { a.SealGather(dst, nonce, parts, ad) }), "SealGather %d", n)
			}
		}
	})
}

// TestNewAllocs: New and NewX make one allocation, the key (newKey); on
// the stdlib backend, the key and what x/crypto's New or NewX allocates.
func TestNewAllocs(t *testing.T) {
	if testing.CoverMode() != "" || stackscratch.Instrumented {
		t.Skip("coverage and race instrumentation allocate")
	}
	key := make([]byte, chacha20poly1305.KeySize)
	want, wantX := 1.0, 1.0
	if a, _ := chacha20poly1305.New(key); a.(*chacha20poly1305.AEAD).Backend() == "stdlib" {
		want += testing.AllocsPerRun(20, func() { _, _ = xchacha.New(key) })
		wantX += testing.AllocsPerRun(20, func() { _, _ = xchacha.NewX(key) })
	}
	assert.Equal(t, want, testing.AllocsPerRun(20, func() { _, _ = chacha20poly1305.New(key) }), "New")
	assert.Equal(t, wantX, testing.AllocsPerRun(20, func() { _, _ = chacha20poly1305.NewX(key) }), "NewX")
}

// TestConcurrent uses one key from several goroutines at once.
func TestConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, bytes.Repeat([]byte{3}, chacha20poly1305.KeySize), x, name)
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					rng := mathrand.New(mathrand.NewPCG(uint64(g), 9))
					for range 200 {
						pt := randBytes(rng, rng.IntN(600))
						nonce := randBytes(rng, a.NonceSize())
						ct := a.Seal(nil, nonce, pt, nil)
						if g := a.SealGather(nil, nonce, [][]byte{pt}, nil); !bytes.Equal(g, ct) {
							t.Errorf("SealGather differs from Seal")
							return
						}
						if back, err := a.Open(nil, nonce, ct, nil); err != nil || !bytes.Equal(back, pt) {
							t.Errorf("round trip failed: %v", err)
							return
						}
					}
				})
			}
			wg.Wait()
		}
	})
}

// Open panics when dst's new bytes would cover the tag it is about to check,
// as crypto/cipher's Open does (x/crypto checks only the text, and then
// writes over the tag): a deliberate difference, safer than a wrong verdict.
func TestOpenOverlapTagPanics(t *testing.T) {
	a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	nonce := make([]byte, chacha20poly1305.NonceSize)
	buf := make([]byte, 64)
	sealed := a.Seal(buf[:0], nonce, make([]byte, 20), nil) // 36 bytes at buf[0:36]
	assert.PanicsWithValue(t, "chacha20poly1305: invalid buffer overlap of output and input",
		func() { _, _ = a.Open(buf[22:22], nonce, sealed, nil) })
	_, err = a.Open(sealed[:0], nonce, sealed, nil)
	require.NoError(t, err, "in place is fine")
}
