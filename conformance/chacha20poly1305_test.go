package conformance_test

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/conformance/aeadtest"
	"github.com/vgcrypto/vg/conformance/wycheproof"
	xchacha "golang.org/x/crypto/chacha20poly1305"

	spec "github.com/vgcrypto/vg/conformance/spec/chacha20poly1305"
)

// chachaBackends returns the chacha20poly1305 backends available here. It
// fails the test, rather than skip, when there are none or when
// VG_CPU_FEATURES is invalid.
func chachaBackends(t testing.TB) []string {
	t.Helper()
	_, err := chacha20poly1305.New(make([]byte, chacha20poly1305.KeySize))
	require.NoError(t, err)
	var names []string
	for _, b := range chacha20poly1305.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names)
	return names
}

// chachaNew returns the constructor of one backend, for ChaCha20-Poly1305
// (x false) or XChaCha20-Poly1305.
func chachaNew(backend string, x bool) func(key []byte) (cipher.AEAD, error) {
	return func(key []byte) (cipher.AEAD, error) {
		if x {
			return chacha20poly1305.NewX(key, chacha20poly1305.WithBackend(backend))
		}
		return chacha20poly1305.New(key, chacha20poly1305.WithBackend(backend))
	}
}

// chachaFiles are the Wycheproof files of the module, with the construction
// each one tests.
var chachaFiles = []struct {
	name string
	x    bool
}{
	{wycheproof.GlobChaCha20Poly1305, false},
	{wycheproof.GlobXChaCha20Poly1305, true},
}

// chachaWycheproof runs one Wycheproof AEAD test against the AEAD made by mk
// and returns nil when the outcome is the expected one. A valid test must
// seal to CT‖Tag and open back to Msg; an invalid one must be refused: by
// an error from Open, or, for a nonce of the wrong length, by the panic
// crypto/cipher's contract prescribes for Seal and Open.
func chachaWycheproof(mk func([]byte) (cipher.AEAD, error), tc *wycheproof.AEADTest) (err error) {
	a, err := mk(tc.Key)
	if err != nil {
		return fmt.Errorf("constructor: %w", err)
	}
	sealed := append(append([]byte(nil), tc.CT...), tc.Tag...)
	if len(tc.IV) != a.NonceSize() {
		if tc.Result.Valid() {
			return fmt.Errorf("valid test with a %d-byte nonce", len(tc.IV))
		}
		if !chachaPanics(func() { a.Seal(nil, tc.IV, tc.Msg, tc.AAD) }) {
			return fmt.Errorf("Seal accepted a %d-byte nonce", len(tc.IV))
		}
		if !chachaPanics(func() { _, _ = a.Open(nil, tc.IV, sealed, tc.AAD) }) {
			return fmt.Errorf("Open accepted a %d-byte nonce", len(tc.IV))
		}
		return nil
	}
	pt, openErr := a.Open(nil, tc.IV, sealed, tc.AAD)
	if !tc.Result.Valid() {
		if openErr == nil {
			return fmt.Errorf("Open accepted an invalid ciphertext")
		}
		return nil
	}
	if openErr != nil {
		return fmt.Errorf("Open: %w", openErr)
	}
	if !bytes.Equal(pt, tc.Msg) {
		return fmt.Errorf("Open = %x, want %x", pt, tc.Msg)
	}
	if got := a.Seal(nil, tc.IV, tc.Msg, tc.AAD); !bytes.Equal(got, sealed) {
		return fmt.Errorf("Seal = %x, want %x", got, sealed)
	}
	return nil
}

func chachaPanics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

// TestChaCha20Poly1305Wycheproof runs both Wycheproof files on every
// available backend.
func TestChaCha20Poly1305Wycheproof(t *testing.T) {
	for _, file := range chachaFiles {
		f, err := wycheproof.LoadAEAD(file.name)
		require.NoError(t, err)
		t.Run(file.name, func(t *testing.T) {
			if !file.x {
				assert.Equal(t, 325, f.Count())
			}
			for _, backend := range chachaBackends(t) {
				t.Run(backend, func(t *testing.T) {
					n := 0
					for _, g := range f.TestGroups {
						for i := range g.Tests {
							tc := &g.Tests[i]
							if err := chachaWycheproof(chachaNew(backend, file.x), tc); err != nil {
								t.Errorf("%s: %v", tc, err)
							}
							n++
						}
					}
					assert.Equal(t, f.NumberOfTests, n)
				})
			}
		})
	}
}

// TestChaCha20Poly1305SpecWycheproof checks the reference implementation
// against the valid Wycheproof tests, so that agreeing with it means
// something.
func TestChaCha20Poly1305SpecWycheproof(t *testing.T) {
	for _, file := range chachaFiles {
		f, err := wycheproof.LoadAEAD(file.name)
		require.NoError(t, err)
		seal, open := spec.Seal, spec.Open
		nonceSize := spec.NonceSize
		if file.x {
			seal, open, nonceSize = spec.SealX, spec.OpenX, spec.NonceSizeX
		}
		for _, g := range f.TestGroups {
			for _, tc := range g.Tests {
				if len(tc.IV) != nonceSize {
					continue
				}
				sealed := append(append([]byte(nil), tc.CT...), tc.Tag...)
				pt, err := open(tc.Key, tc.IV, sealed, tc.AAD)
				if !tc.Result.Valid() {
					assert.Error(t, err, "%s %s", file.name, &tc)
					continue
				}
				require.NoError(t, err, "%s %s", file.name, &tc)
				assert.True(t, bytes.Equal(tc.Msg, pt), "%s %s", file.name, &tc)
				assert.Equal(t, sealed, seal(tc.Key, tc.IV, tc.Msg, tc.AAD), "%s %s", file.name, &tc)
			}
		}
	}
}

// TestChaCha20Poly1305Contract runs the crypto/cipher.AEAD contract suite,
// the allocation check and the concurrency check on every available backend
// of both constructions.
func TestChaCha20Poly1305Contract(t *testing.T) {
	for _, backend := range chachaBackends(t) {
		for _, x := range []bool{false, true} {
			name := backend + map[bool]string{false: "/chacha20poly1305", true: "/xchacha20poly1305"}[x]
			t.Run(name, func(t *testing.T) {
				key := bytes.Repeat([]byte{0x5c}, chacha20poly1305.KeySize)
				mk := func() (cipher.AEAD, error) { return chachaNew(backend, x)(key) }
				aeadtest.TestAEAD(t, mk)
				a, err := mk()
				require.NoError(t, err)
				aeadtest.TestAllocs(t, a)
				aeadtest.TestConcurrent(t, a)
			})
		}
	}
}

// chachaLengths are the plaintext lengths of the agreement test: every
// length from 0 to 1100, 4 KiB and 16 KiB + 3.
func chachaLengths() []int {
	var ls []int
	for n := 0; n <= 1100; n++ {
		ls = append(ls, n)
	}
	return append(ls, 4096, 16384+3)
}

// TestChaCha20Poly1305Agreement checks that every backend, the reference
// implementation and golang.org/x/crypto/chacha20poly1305 produce the same
// bytes: for every length of chachaLengths with AAD lengths running
// through 0..80, out of place at unaligned offsets of input and output, in
// place, through SealGather in the slice shapes of DESIGN.md, and back
// through Open.
func TestChaCha20Poly1305Agreement(t *testing.T) {
	backends := chachaBackends(t)
	for _, x := range []bool{false, true} {
		t.Run(map[bool]string{false: "chacha20poly1305", true: "xchacha20poly1305"}[x], func(t *testing.T) {
			rng := mathrand.New(mathrand.NewPCG(0x7c, map[bool]uint64{false: 1, true: 2}[x]))
			key := chachaRandBytes(rng, chacha20poly1305.KeySize)
			var ref cipher.AEAD
			var err error
			specSeal := spec.Seal
			if x {
				ref, err = xchacha.NewX(key)
				specSeal = spec.SealX
			} else {
				ref, err = xchacha.New(key)
			}
			require.NoError(t, err)
			aeads := make([]cipher.AEAD, len(backends))
			for i, b := range backends {
				aeads[i], err = chachaNew(b, x)(key)
				require.NoError(t, err)
			}
			for i, n := range chachaLengths() {
				nonce := chachaRandBytes(rng, ref.NonceSize())
				pt := chachaRandBytes(rng, n)
				ad := chachaRandBytes(rng, i%81)
				want := ref.Seal(nil, nonce, pt, ad)
				// The reference is slow: check it on every length up to
				// 300 bytes and on every seventh one beyond.
				if n <= 300 || i%7 == 0 {
					require.Equal(t, want, specSeal(key, nonce, pt, ad), "spec vs x/crypto, len %d", n)
				}
				for j, a := range aeads {
					chachaCheckAgreement(t, rng, backends[j], a, nonce, pt, ad, want)
				}
			}
			// Every AAD length with a few plaintext lengths.
			for adLen := 0; adLen <= 80; adLen++ {
				for _, n := range []int{0, 1, 64, 130} {
					nonce := chachaRandBytes(rng, ref.NonceSize())
					pt := chachaRandBytes(rng, n)
					ad := chachaRandBytes(rng, adLen)
					want := ref.Seal(nil, nonce, pt, ad)
					require.Equal(t, want, specSeal(key, nonce, pt, ad), "spec, ad %d len %d", adLen, n)
					for j, a := range aeads {
						got := a.Seal(nil, nonce, pt, ad)
						require.Equal(t, want, got, "%s ad %d len %d", backends[j], adLen, n)
					}
				}
			}
		})
	}
}

// chachaCheckAgreement checks one backend's Seal, SealGather and Open on one input
// against want.
func chachaCheckAgreement(t *testing.T, rng *mathrand.Rand, backend string, a cipher.AEAD, nonce, pt, ad, want []byte) {
	t.Helper()
	n := len(pt)
	what := fmt.Sprintf("%s len %d ad %d", backend, n, len(ad))

	// Out of place at offsets: the input and output start at unaligned
	// addresses, the output after a prefix it must keep.
	inOff, outOff := rng.IntN(8), rng.IntN(8)
	in := make([]byte, inOff+n)
	copy(in[inOff:], pt)
	out := make([]byte, outOff, outOff+n+16)
	for i := range out {
		out[i] = 0xa5
	}
	got := a.Seal(out, nonce, in[inOff:], ad)
	require.Equal(t, want, got[outOff:], "%s: Seal at offsets %d/%d", what, inOff, outOff)
	require.Equal(t, bytes.Repeat([]byte{0xa5}, outOff), got[:outOff], "%s: prefix", what)

	// In place, at an offset.
	buf := make([]byte, inOff+n, inOff+n+16)
	copy(buf[inOff:], pt)
	got = a.Seal(buf[inOff:inOff], nonce, buf[inOff:], ad)
	require.Equal(t, want, got, "%s: Seal in place", what)
	back, err := a.Open(got[:0], nonce, got, ad)
	require.NoError(t, err, "%s: Open in place", what)
	require.True(t, bytes.Equal(pt, back), "%s: Open in place", what)

	// Open out of place at an offset.
	ct := make([]byte, outOff+len(want))
	copy(ct[outOff:], want)
	back, err = a.Open(nil, nonce, ct[outOff:], ad)
	require.NoError(t, err, "%s: Open", what)
	require.True(t, bytes.Equal(pt, back), "%s: Open", what)

	// SealGather in every slice shape (a subset of lengths keeps this fast:
	// all lengths up to 200, then every thirteenth).
	if g, ok := a.(interface {
		SealGather(dst, nonce []byte, plaintext [][]byte, ad []byte) []byte
	}); ok && (n <= 200 || n%13 == 0 || n > 1100) {
		for _, shape := range chachaShapes(n) {
			got := g.SealGather(nil, nonce, chachaSplit(pt, shape), ad)
			require.Equal(t, want, got, "%s: SealGather shape %v", what, shape)
		}
	}
}

// chachaShapes returns the slice shapes of DESIGN.md for n bytes: [n],
// [1,n-1], [n-1,1], [5,n-5], [100,n-100], thirds and many tiny slices; plus
// empty slices around the data and splits at the 64-byte block boundaries.
func chachaShapes(n int) [][]int {
	shapes := [][]int{{n}, {0, n, 0}}
	for _, k := range []int{1, 5, 100, 63, 64, 65} {
		if k <= n {
			shapes = append(shapes, []int{k, n - k}, []int{n - k, k})
		}
	}
	shapes = append(shapes, []int{n / 3, n / 3, n - 2*(n/3)})
	for _, tiny := range []int{1, 7} {
		if n > 2000 && tiny == 1 {
			continue
		}
		var s []int
		for left := n; left > 0; left -= min(left, tiny) {
			s = append(s, min(left, tiny))
		}
		shapes = append(shapes, s)
	}
	return shapes
}

func chachaSplit(b []byte, shape []int) [][]byte {
	var out [][]byte
	for _, k := range shape {
		out = append(out, b[:k])
		b = b[k:]
	}
	return out
}

func chachaRandBytes(rng *mathrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
