package conformance_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/conformance/aeadcontract"
	"github.com/vgcrypto/vg/conformance/agree"
	"github.com/vgcrypto/vg/conformance/wycheproof"
	"github.com/vgcrypto/vg/cpufeat"

	aesgcmspec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// aesgcmBackends returns the aesgcm backends available here. It fails the
// test, rather than skip, when there are none or when VG_CPU_FEATURES is
// invalid.
func aesgcmBackends(t testing.TB) []string {
	t.Helper()
	_, err := aesgcm.Prepare(make([]byte, 16))
	require.NoError(t, err)
	var names []string
	for _, b := range aesgcm.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names)
	return names
}

// aesgcmWycheproof runs one Wycheproof AES-GCM test on a backend and returns
// nil when the outcome is the expected one. The AEAD is built with the
// test's nonce length and the group's tag size: a valid test must seal to
// CT‖Tag and open back to Msg; an invalid one must be refused, by New (a
// nonce or key size GCM does not allow) or by Open.
func aesgcmWycheproof(backend string, tagSize int, tc *wycheproof.AEADTest) error {
	a, err := aesgcm.Prepare(tc.Key, aesgcm.WithBackend(backend), aesgcm.WithNonceSize(len(tc.IV)), aesgcm.WithTagSize(tagSize))
	if err != nil {
		if tc.Result.Valid() {
			return fmt.Errorf("New: %w", err)
		}
		return nil
	}
	sealed := append(append([]byte(nil), tc.CT...), tc.Tag...)
	pt, openErr := a.Open(nil, tc.IV, sealed, tc.AAD)
	switch {
	case tc.Result.Invalid():
		if openErr == nil {
			return fmt.Errorf("Open accepted an invalid ciphertext")
		}
		return nil
	case tc.Result.Acceptable() && openErr != nil:
		return nil
	case openErr != nil:
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

// TestAESGCMWycheproof runs aes_gcm_test.json (all 316 tests) on every
// available backend.
func TestAESGCMWycheproof(t *testing.T) {
	f, err := wycheproof.LoadAEAD(wycheproof.GlobAESGCM)
	require.NoError(t, err)
	require.Equal(t, 316, f.Count())
	for _, backend := range aesgcmBackends(t) {
		t.Run(backend, func(t *testing.T) {
			n := 0
			for _, g := range f.TestGroups {
				for i := range g.Tests {
					tc := &g.Tests[i]
					if err := aesgcmWycheproof(backend, g.TagSize/8, tc); err != nil {
						t.Errorf("%s: %v", tc, err)
					}
					n++
				}
			}
			assert.Equal(t, 316, n)
		})
	}
}

// TestAESGCMSpecWycheproof checks the reference implementation against the
// Wycheproof tests, so that agreeing with it means something.
func TestAESGCMSpecWycheproof(t *testing.T) {
	f, err := wycheproof.LoadAEAD(wycheproof.GlobAESGCM)
	require.NoError(t, err)
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			if len(tc.IV) == 0 || !validAESKey(len(tc.Key)) {
				continue // not a GCM instance at all
			}
			sealed := append(append([]byte(nil), tc.CT...), tc.Tag...)
			pt, err := aesgcmspec.Open(tc.Key, tc.IV, sealed, tc.AAD, g.TagSize/8)
			if tc.Result.Invalid() {
				assert.Error(t, err, "%s", &tc)
				continue
			}
			require.NoError(t, err, "%s", &tc)
			assert.True(t, bytes.Equal(tc.Msg, pt), "%s", &tc)
			assert.Equal(t, sealed, aesgcmspec.Seal(tc.Key, tc.IV, tc.Msg, tc.AAD, g.TagSize/8), "%s", &tc)
		}
	}
}

func validAESKey(n int) bool { return n == 16 || n == 24 || n == 32 }

// TestAESGCMContract runs the crypto/cipher.AEAD contract suite, the
// allocation check and the concurrency check on every available backend,
// with the default sizes and with a 16-byte nonce and a 12-byte tag.
func TestAESGCMContract(t *testing.T) {
	for _, backend := range aesgcmBackends(t) {
		for _, v := range []struct {
			keySize, nonceSize, tagSize int
		}{{16, 12, 16}, {32, 12, 16}, {24, 16, 16}, {16, 12, 12}} {
			name := fmt.Sprintf("%s/key%d-nonce%d-tag%d", backend, v.keySize, v.nonceSize, v.tagSize)
			t.Run(name, func(t *testing.T) {
				key := bytes.Repeat([]byte{0x3c}, v.keySize)
				mk := func() (cipher.AEAD, error) {
					return aesgcm.Prepare(key, aesgcm.WithBackend(backend), aesgcm.WithNonceSize(v.nonceSize), aesgcm.WithTagSize(v.tagSize))
				}
				aeadcontract.TestAEAD(t, mk)
				a, err := mk()
				require.NoError(t, err)
				if !cpufeat.Simulated() { // vgsim: the model's trampolines allocate on every call; its own checks replace the count
					aeadcontract.TestAllocs(t, a)
				}
				aeadcontract.TestConcurrent(t, a)
			})
		}
	}
}

// aesgcmLengths are the plaintext lengths of the agreement test: every
// length from 0 to 1100, 4 KiB, 16 KiB and 64 KiB + 5.
func aesgcmLengths() []int {
	var ls []int
	for n := 0; n <= 1100; n++ {
		ls = append(ls, n)
	}
	return append(ls, 4096, 16384, 65536+5)
}

// aesgcmOracle returns crypto/cipher's GCM for the sizes (it offers a
// non-default nonce size or a non-default tag size, not both).
func aesgcmOracle(t testing.TB, key []byte, nonceSize, tagSize int) cipher.AEAD {
	b, err := aes.NewCipher(key)
	require.NoError(t, err)
	var g cipher.AEAD
	if nonceSize != 12 {
		g, err = cipher.NewGCMWithNonceSize(b, nonceSize)
	} else {
		g, err = cipher.NewGCMWithTagSize(b, tagSize)
	}
	require.NoError(t, err)
	return g
}

// TestAESGCMAgreement checks that every backend, the reference
// implementation and crypto/cipher (an independent oracle) produce the same
// bytes on random keys of every size: every length of aesgcmLengths with
// AAD lengths running through 0..80 (and 1 KiB now and then), 12-byte and
// other nonces, all tag sizes; out of place at unaligned offsets, in place,
// through SealGather and the Encryptor in the slice shapes of DESIGN.md and
// around a block left open, through the Decryptor, and back through Open.
func TestAESGCMAgreement(t *testing.T) {
	backends := aesgcmBackends(t)
	rng := mathrand.New(mathrand.NewPCG(0x6c, 0x17))
	for i, n := range aesgcmLengths() {
		key := aesgcmRandBytes(rng, []int{16, 24, 32}[i%3])
		nonceSize, tagSize := 12, 16
		switch i % 5 {
		case 1:
			nonceSize = []int{1, 8, 16, 60}[(i/5)%4]
		case 2:
			tagSize = 12 + (i/5)%4
		}
		adLen := i % 81
		if i%97 == 5 {
			adLen = 1024
		}
		nonce, pt, ad := aesgcmRandBytes(rng, nonceSize), aesgcmRandBytes(rng, n), aesgcmRandBytes(rng, adLen)
		want := aesgcmOracle(t, key, nonceSize, tagSize).Seal(nil, nonce, pt, ad)
		// The reference is slow: every length up to 300, then every
		// seventh.
		if n <= 300 || i%7 == 0 {
			require.Equal(t, want, aesgcmspec.Seal(key, nonce, pt, ad, tagSize), "spec vs crypto/cipher, len %d", n)
		}
		for _, backend := range backends {
			a, err := aesgcm.Prepare(key, aesgcm.WithBackend(backend), aesgcm.WithNonceSize(nonceSize), aesgcm.WithTagSize(tagSize))
			require.NoError(t, err)
			aesgcmCheckAgreement(t, rng, backend, a, nonce, pt, ad, want)
		}
	}
}

// aesgcmCheckAgreement checks one backend's Seal, Open, SealGather,
// Encryptor and Decryptor on one input against want.
func aesgcmCheckAgreement(t *testing.T, rng *mathrand.Rand, backend string, a *aesgcm.AEAD, nonce, pt, ad, want []byte) {
	t.Helper()
	n := len(pt)
	what := fmt.Sprintf("%s len %d ad %d nonce %d tag %d", backend, n, len(ad), len(nonce), a.Overhead())

	inOff, outOff := rng.IntN(8), rng.IntN(8)
	in := make([]byte, inOff+n)
	copy(in[inOff:], pt)
	out := make([]byte, outOff, outOff+len(want))
	for i := range out {
		out[i] = 0xa5
	}
	got := a.Seal(out, nonce, in[inOff:], ad)
	require.Equal(t, want, got[outOff:], "%s: Seal at offsets %d/%d", what, inOff, outOff)
	require.Equal(t, bytes.Repeat([]byte{0xa5}, outOff), got[:outOff], "%s: prefix", what)

	buf := make([]byte, inOff+n, inOff+len(want))
	copy(buf[inOff:], pt)
	got = a.Seal(buf[inOff:inOff], nonce, buf[inOff:], ad)
	require.Equal(t, want, got, "%s: Seal in place", what)
	back, err := a.Open(got[:0], nonce, got, ad)
	require.NoError(t, err, "%s: Open in place", what)
	require.True(t, bytes.Equal(pt, back), "%s: Open in place", what)

	ct := make([]byte, outOff+len(want))
	copy(ct[outOff:], want)
	back, err = a.Open(nil, nonce, ct[outOff:], ad)
	require.NoError(t, err, "%s: Open", what)
	require.True(t, bytes.Equal(pt, back), "%s: Open", what)

	if n > 200 && n%13 != 0 && n <= 1100 {
		return // the shapes on a subset of lengths keep this fast
	}
	for _, shape := range aesgcmShapes(n) {
		pieces := aesgcmSplit(pt, shape)
		got := a.SealGather(nil, nonce, pieces, ad)
		require.Equal(t, want, got, "%s: SealGather shape %v", what, shape)

		e := a.NewEncryptor(nonce, ad)
		var streamed []byte
		for _, p := range pieces {
			streamed = e.Encrypt(streamed, p)
		}
		require.Equal(t, want, e.Finish(streamed), "%s: Encryptor shape %v", what, shape)

		d := a.NewDecryptor(nonce, ad)
		for _, p := range aesgcmSplit(want, append(shape[:len(shape):len(shape)], len(want)-n)) {
			_, err := d.Write(p)
			require.NoError(t, err)
		}
		back, err := d.Open(nil)
		require.NoError(t, err, "%s: Decryptor shape %v", what, shape)
		require.True(t, bytes.Equal(pt, back), "%s: Decryptor shape %v", what, shape)
	}
}

// aesgcmShapes returns the slice shapes of DESIGN.md for n bytes: [n],
// [1,n-1], [n-1,1], [5,n-5], [100,n-100], thirds and many tiny slices;
// empty slices around the data; splits at block boundaries; and, for the
// streaming path, a block left open (13 bytes) followed by chunks shorter
// than (2), equal to (3) and longer than (4, 20) the bytes that finish it.
func aesgcmShapes(n int) [][]int {
	shapes := [][]int{{n}, {0, n, 0}}
	for _, k := range []int{1, 5, 100, 15, 16, 17, 48, 64} {
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
	for _, next := range []int{2, 3, 4, 20} {
		var s []int
		left := n
		for _, k := range []int{13, next, 13, next, 64 + 13, next} {
			k = min(k, left)
			s = append(s, k)
			left -= k
		}
		shapes = append(shapes, append(s, left))
	}
	return shapes
}

func aesgcmSplit(b []byte, shape []int) [][]byte {
	var out [][]byte
	for _, k := range shape {
		out = append(out, b[:k])
		b = b[k:]
	}
	return out
}

func aesgcmRandBytes(rng *mathrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// aesgcmSpecAEAD is the reference implementation as a cipher.AEAD (16-byte
// tags), for the agreement driver.
type aesgcmSpecAEAD struct {
	key       []byte
	nonceSize int
}

func (s aesgcmSpecAEAD) NonceSize() int { return s.nonceSize }
func (s aesgcmSpecAEAD) Overhead() int  { return 16 }
func (s aesgcmSpecAEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	return append(dst, aesgcmspec.Seal(s.key, nonce, plaintext, additionalData, 16)...)
}
func (s aesgcmSpecAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	pt, err := aesgcmspec.Open(s.key, nonce, ciphertext, additionalData, 16)
	if err != nil {
		return nil, err
	}
	return append(dst, pt...), nil
}

// aesgcmStream adapts an *aesgcm.Encryptor (append-style Encrypt) to the
// driver's io.Writer-style Encryptor.
type aesgcmStream struct {
	e   *aesgcm.Encryptor
	out []byte
}

func (s *aesgcmStream) Write(p []byte) (int, error) {
	s.out = s.e.Encrypt(s.out, p)
	return len(p), nil
}

func (s *aesgcmStream) Finish(dst []byte) []byte { return s.e.Finish(append(dst, s.out...)) }

// aesgcmImpls returns the agreement driver's view of every available
// backend (with SealGather and the Encryptor), crypto/cipher and, when spec
// is set, the reference.
func aesgcmImpls(t testing.TB, spec bool) []agree.Impl {
	var impls []agree.Impl
	for _, backend := range aesgcmBackends(t) {
		impls = append(impls, agree.Impl{
			Name: backend,
			New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
				return aesgcm.Prepare(key, aesgcm.WithBackend(backend), aesgcm.WithNonceSize(nonceSize))
			},
			NewEncryptor: func(a cipher.AEAD, nonce, ad []byte) (agree.Encryptor, error) {
				return &aesgcmStream{e: a.(*aesgcm.AEAD).NewEncryptor(nonce, ad)}, nil
			},
		})
	}
	impls = append(impls, agree.Impl{Name: "crypto/cipher", New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
		b, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		return cipher.NewGCMWithNonceSize(b, nonceSize)
	}})
	if spec {
		impls = append(impls, agree.Impl{Name: "spec", New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
			return aesgcmSpecAEAD{key, nonceSize}, nil
		}})
	}
	return impls
}

// TestAESGCMAgreeDriver runs the shared agreement driver (every length to
// 1100 and DefaultLargeLens, its AAD lengths, offsets, in place, every
// gather and stream shape, tamper rejection) over every available backend
// and crypto/cipher with 12- and 16-byte nonces, and over the reference
// as well on lengths up to 300.
func TestAESGCMAgreeDriver(t *testing.T) {
	agree.Run(t, agree.Config{KeySizes: []int{16, 24, 32}, NonceSizes: []int{12, 16}}, aesgcmImpls(t, false)...)
	agree.Run(t, agree.Config{KeySizes: []int{16, 32}, MaxLen: 300, LargeLens: []int{1024}, Short: true}, aesgcmImpls(t, true)...)
}
