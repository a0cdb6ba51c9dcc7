package chacha20poly1305

import (
	"bytes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	mathrand "math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
	"github.com/vgcrypto/vg/stackscratch"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// available returns the names of the backends that can run here; each test
// runs once per name.
func available(t testing.TB) []string {
	var names []string
	for _, b := range Backends() {
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

func mustNew(t testing.TB, key []byte, x bool, name string) *AEAD {
	t.Helper()
	var a *AEAD
	var err error
	if x {
		a, err = PrepareX(key, WithBackend(name))
	} else {
		a, err = Prepare(key, WithBackend(name))
	}
	require.NoError(t, err)
	require.Equal(t, name, a.Backend())
	return a
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ":", " ")), "")
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

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
			key := randBytes(rng, KeySize)
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
		a := mustNew(t, randBytes(rng, KeySize), false, name)
		for _, n := range []int{0, 1, 5, 15, 16, 63, 64, 65, 100, 127, 128, 129, 200, 1350, 4096, 4200, 9000, 16384 + 1} {
			pt := randBytes(rng, n)
			ad := randBytes(rng, 13)
			nonce := randBytes(rng, NonceSize)
			want := a.Seal(nil, nonce, pt, ad)
			for _, shape := range gatherShapes(n, rng) {
				got := a.SealGather(nil, nonce, aeadtest.Pieces(pt, shape), ad)
				require.Equal(t, want, got, "n=%d shape=%v", n, shape)

				// In place: each slice is its own part of the output.
				buf := make([]byte, n, n+TagSize+7)
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
func keyOf(a *AEAD) aeadtest.Key { return aeadtest.KeyOf[*Encryptor, *Decryptor](a) }

// TestInPlaceAndAppend checks append to a non-empty dst, exact in-place
// operation, and that the inputs are left unchanged.
func TestInPlaceAndAppend(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(5, 6))
	forEachBackend(t, func(t *testing.T, name string) {
		a := mustNew(t, randBytes(rng, KeySize), false, name)
		for _, n := range []int{0, 1, 16, 64, 100, 1000, 5000} {
			pt := randBytes(rng, n)
			ad := randBytes(rng, 20)
			nonce := randBytes(rng, NonceSize)
			ptCopy, adCopy := bytes.Clone(pt), bytes.Clone(ad)
			want := a.Seal(nil, nonce, pt, ad)
			assert.Equal(t, ptCopy, pt, "input modified")
			assert.Equal(t, adCopy, ad, "ad modified")

			prefix := []byte("prefix")
			got := a.Seal(bytes.Clone(prefix), nonce, pt, ad)
			assert.Equal(t, append(bytes.Clone(prefix), want...), got)
			got = a.SealGather(bytes.Clone(prefix), nonce, [][]byte{pt}, ad)
			assert.Equal(t, append(bytes.Clone(prefix), want...), got)

			buf := make([]byte, n, n+TagSize)
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
			a := mustNew(t, randBytes(rng, KeySize), x, name)
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
					assert.Equal(t, make([]byte, max(len(ct)-TagSize, 0)), dst[3:3+max(len(ct)-TagSize, 0)], "%s: plaintext released", what)

					inPlace := bytes.Clone(ct)
					_, err = a.Open(inPlace[:0], nonce, inPlace, ad)
					require.Error(t, err, what)
					assert.Equal(t, make([]byte, len(ct)-TagSize), inPlace[:len(ct)-TagSize], "%s: plaintext released in place", what)
				}
				for _, i := range []int{0, len(ct) / 2, len(ct) - TagSize, len(ct) - 1} {
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

				_, err := a.Open(nil, nonce, ct[:TagSize-1], ad)
				assert.Error(t, err, "short ciphertext")
			}
		}
	})
}

// TestPanics checks the crypto/cipher contract's panics and the length
// limits.
func TestPanics(t *testing.T) {
	a, err := Prepare(make([]byte, KeySize))
	require.NoError(t, err)
	ax, err := PrepareX(make([]byte, KeySize))
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
	a, err := Prepare(make([]byte, KeySize))
	require.NoError(t, err)
	ax, err := PrepareX(make([]byte, KeySize))
	require.NoError(t, err)
	n12, n24 := make([]byte, 12), make([]byte, 24)
	var b byte
	huge := unsafe.Slice(&b, MaxPlaintextSize+1)
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { a.Seal(nil, n12, huge, nil) })
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { ax.Seal(nil, n24, huge, nil) })
	half := unsafe.Slice(&b, MaxPlaintextSize/2+1)
	assert.PanicsWithValue(t, "chacha20poly1305: plaintext too large", func() { a.SealGather(nil, n12, [][]byte{half, half}, nil) })
	hugeCT := unsafe.Slice(&b, MaxPlaintextSize+TagSize+1)
	_, err = a.Open(nil, n12, hugeCT, nil)
	assert.Error(t, err)
	_, err = ax.Open(nil, n24, hugeCT, nil)
	assert.Error(t, err)
}

func TestNewErrors(t *testing.T) {
	for _, n := range []int{0, 16, 31, 33} {
		want := fmt.Sprintf("chacha20poly1305: bad key length %d bytes (want 32)", n)
		_, err := Prepare(make([]byte, n))
		assert.EqualError(t, err, want)
		_, err = PrepareX(make([]byte, n))
		assert.EqualError(t, err, want)
	}
	_, err := Prepare(make([]byte, KeySize), WithBackend("no-such-backend"))
	assert.EqualError(t, err, `chacha20poly1305: unknown backend "no-such-backend" (valid: avx512, avx2, ssse3, stdlib, generic)`)

	// A declared backend that this build does not implement, or that the
	// CPU features do not allow, is an error too, for New and NewX alike.
	built := strings.Join(registry.Names(), ", ")
	for _, d := range cpufeat.Backends(cpufeat.ChaCha20Poly1305) {
		_, err := Prepare(make([]byte, KeySize), WithBackend(d.Name))
		_, errX := PrepareX(make([]byte, KeySize), WithBackend(d.Name))
		switch {
		case !slices.Contains(registry.Names(), d.Name):
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
	bs := Backends()
	require.NotEmpty(t, bs)
	assert.Equal(t, "generic", bs[len(bs)-1].Name)
	assert.True(t, bs[len(bs)-1].Available)
	for _, b := range bs {
		d, ok := cpufeat.Lookup(cpufeat.ChaCha20Poly1305, b.Name)
		require.True(t, ok, b.Name)
		assert.Equal(t, d.Requires, b.Requires)
		assert.Equal(t, d.Available(cpufeat.Enabled()), b.Available)
	}
	a, err := Prepare(make([]byte, KeySize))
	require.NoError(t, err)
	assert.Equal(t, cpufeat.Select(cpufeat.ChaCha20Poly1305, registry.Names(), cpufeat.Enabled()).Name, a.Backend())
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
		{New, xchacha.New, NonceSize},
		{NewX, xchacha.NewX, NonceSizeX},
	} {
		key := bytes.Repeat([]byte{9}, KeySize)
		a, err := c.vg(key)
		require.NoError(t, err)
		want, err := c.x(key)
		require.NoError(t, err)
		nonce := make([]byte, c.nonces)
		assert.Equal(t, want.Seal(nil, nonce, []byte("hello"), []byte("ad")), a.Seal(nil, nonce, []byte("hello"), []byte("ad")))
		assert.Equal(t, want.NonceSize(), a.NonceSize())
		assert.Equal(t, want.Overhead(), a.Overhead())
		_, ok := a.(*AEAD)
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
			a := mustNew(t, make([]byte, KeySize), x, name)
			nonce := make([]byte, a.NonceSize())
			for _, n := range []int{0, 13, 64, 1350, 16384} {
				pt := make([]byte, n)
				ad := make([]byte, 13)
				dst := make([]byte, 0, n+TagSize)
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
	key := make([]byte, KeySize)
	want, wantX := 1.0, 1.0
	if a, _ := New(key); a.(*AEAD).Backend() == "stdlib" {
		want += testing.AllocsPerRun(20, func() { _, _ = xchacha.New(key) })
		wantX += testing.AllocsPerRun(20, func() { _, _ = xchacha.NewX(key) })
	}
	assert.Equal(t, want, testing.AllocsPerRun(20, func() { _, _ = New(key) }), "New")
	assert.Equal(t, wantX, testing.AllocsPerRun(20, func() { _, _ = NewX(key) }), "NewX")
}

// TestKeyStatePointers guards newKey's argument for allocating a key
// without pointers: keyState's only fields that hold pointers are the ones
// it accounts for (the handle and impl, into the keyState itself). A field added with a pointer to anything else must be
// allocated with its type, not as words.
func TestKeyStatePointers(t *testing.T) {
	var hasPointers func(reflect.Type) bool
	hasPointers = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Array:
			return hasPointers(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if hasPointers(t.Field(i).Type) {
					return true
				}
			}
			return false
		case reflect.Pointer, reflect.UnsafePointer, reflect.Interface, reflect.String, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func:
			return true
		}
		return false
	}
	var ptrs []string
	for f := range reflect.TypeFor[keyState]().Fields() {
		if hasPointers(f.Type) {
			ptrs = append(ptrs, f.Name)
		}
	}
	assert.Equal(t, []string{"handle", "impl"}, ptrs)
	// newKey copies the fields after the key as words, and the 64-byte
	// size class is the point of holding the backend as an index.
	assert.Zero(t, unsafe.Offsetof(keyState{}.key))
	assert.Equal(t, uintptr(64), unsafe.Sizeof(keyState{}))
	for _, reg := range registry.Registrations() {
		k := reg.Value(make([]byte, KeySize), false)
		assert.Equal(t, unsafe.Pointer(k.state()), reflect.ValueOf(k).UnsafePointer(), "%s: the key type is its keyState", reg.Name)
	}
}

// TestConcurrent uses one key from several goroutines at once.
func TestConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a := mustNew(t, bytes.Repeat([]byte{3}, KeySize), x, name)
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := mathrand.New(mathrand.NewPCG(uint64(g), 9))
					for range 200 {
						pt := randBytes(rng, rng.IntN(600))
						nonce := randBytes(rng, a.NonceSize())
						ct := a.Seal(nil, nonce, pt, nil)
						if g := a.SealGather(nil, nonce, [][]byte{pt}, nil); !bytes.Equal(g, ct) {
							errs <- fmt.Errorf("SealGather differs from Seal")
							return
						}
						back, err := a.Open(nil, nonce, ct, nil)
						if err != nil || !bytes.Equal(back, pt) {
							errs <- fmt.Errorf("round trip failed: %v", err)
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		}
	})
}

// backendAvailable reports whether the backend called name is implemented
// and can run here.
func backendAvailable(name string) bool {
	for _, d := range Backends() {
		if d.Name == name {
			return d.Available
		}
	}
	return false
}

// testBackend is an implemented backend as the white-box tests use it: its
// name (String) and its block kernels (embedded).
type testBackend struct {
	kernels
	name string
}

func (b testBackend) String() string { return b.name }

// enabledBackends returns the implemented backends that can run here, best
// first.
func enabledBackends() []testBackend {
	var bs []testBackend
	for _, im := range registry.Registrations() {
		if backendAvailable(im.Name) {
			bs = append(bs, testBackend{im.Value(make([]byte, KeySize), false).kernels(), im.Name})
		}
	}
	return bs
}

// Open panics when dst's new bytes would cover the tag it is about to check,
// as crypto/cipher's Open does (x/crypto checks only the text, and then
// writes over the tag): a deliberate difference, safer than a wrong verdict.
func TestOpenOverlapTagPanics(t *testing.T) {
	a, err := Prepare(make([]byte, KeySize))
	require.NoError(t, err)
	nonce := make([]byte, NonceSize)
	buf := make([]byte, 64)
	sealed := a.Seal(buf[:0], nonce, make([]byte, 20), nil) // 36 bytes at buf[0:36]
	assert.PanicsWithValue(t, "chacha20poly1305: invalid buffer overlap of output and input",
		func() { _, _ = a.Open(buf[22:22], nonce, sealed, nil) })
	_, err = a.Open(sealed[:0], nonce, sealed, nil)
	require.NoError(t, err, "in place is fine")
}
