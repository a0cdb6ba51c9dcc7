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
	"github.com/vgcrypto/vg/conformance/aeadcontract"
	"github.com/vgcrypto/vg/conformance/agree"
	"github.com/vgcrypto/vg/conformance/wycheproof"
	"github.com/vgcrypto/vg/cpufeat"
	xchacha "golang.org/x/crypto/chacha20poly1305"

	spec "github.com/vgcrypto/vg/conformance/spec/chacha20poly1305"
)

// chachaBackends returns the chacha20poly1305 backends available here. It
// fails the test, rather than skip, when there are none or when
// VG_CPU_FEATURES is invalid.
func chachaBackends(t testing.TB) []string {
	t.Helper()
	_, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
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
			return chacha20poly1305.PrepareX(key, chacha20poly1305.WithBackend(backend))
		}
		return chacha20poly1305.Prepare(key, chacha20poly1305.WithBackend(backend))
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

// chachaSpecAEAD is the reference implementation as a cipher.AEAD, for the
// agreement driver: ChaCha20-Poly1305 with a 12-byte nonce size,
// XChaCha20-Poly1305 with 24.
type chachaSpecAEAD struct {
	key       []byte
	nonceSize int
}

func (s chachaSpecAEAD) NonceSize() int { return s.nonceSize }
func (s chachaSpecAEAD) Overhead() int  { return spec.TagSize }

func (s chachaSpecAEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != s.nonceSize {
		panic("spec: bad nonce length")
	}
	if s.nonceSize == spec.NonceSizeX {
		return append(dst, spec.SealX(s.key, nonce, plaintext, additionalData)...)
	}
	return append(dst, spec.Seal(s.key, nonce, plaintext, additionalData)...)
}

func (s chachaSpecAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != s.nonceSize {
		panic("spec: bad nonce length")
	}
	open := spec.Open
	if s.nonceSize == spec.NonceSizeX {
		open = spec.OpenX
	}
	pt, err := open(s.key, nonce, ciphertext, additionalData)
	if err != nil {
		return nil, err
	}
	return append(dst, pt...), nil
}

// chachaStream adapts a *chacha20poly1305.Encryptor (append-style Encrypt)
// to the driver's io.Writer-style Encryptor.
type chachaStream struct {
	e   *chacha20poly1305.Encryptor
	out []byte
}

func (s *chachaStream) Write(p []byte) (int, error) {
	s.out = s.e.Encrypt(s.out, p)
	return len(p), nil
}

func (s *chachaStream) Finish(dst []byte) []byte { return s.e.Finish(append(dst, s.out...)) }

// chachaImpls returns the implementations the agreement driver compares:
// golang.org/x/crypto/chacha20poly1305 first (the reference the others are
// compared with), every available backend (with SealGather and the
// Encryptor), and, when withSpec, the RFC 8439 reference. The nonce size
// picks the construction: 12 bytes ChaCha20-Poly1305, 24 bytes
// XChaCha20-Poly1305.
func chachaImpls(t testing.TB, withSpec bool) []agree.Impl {
	impls := []agree.Impl{{Name: "x/crypto", New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
		if nonceSize == xchacha.NonceSizeX {
			return xchacha.NewX(key)
		}
		return xchacha.New(key)
	}}}
	for _, b := range chachaBackends(t) {
		impls = append(impls, agree.Impl{
			Name: b,
			New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
				return chachaNew(b, nonceSize == chacha20poly1305.NonceSizeX)(key)
			},
			NewEncryptor: func(a cipher.AEAD, nonce, ad []byte) (agree.Encryptor, error) {
				return &chachaStream{e: a.(*chacha20poly1305.AEAD).NewEncryptor(nonce, ad)}, nil
			},
		})
	}
	if withSpec {
		impls = append(impls, agree.Impl{Name: "spec", New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
			return chachaSpecAEAD{key: bytes.Clone(key), nonceSize: nonceSize}, nil
		}})
	}
	return impls
}

// chachaAgreeConfig is the agreement sweep: both constructions, every
// plaintext length from 0 to 2100 (the short functions, the switch to the
// long ones, their first passes), every multiple of 64 up to 16 KiB and
// one byte either side (under -short every 1024th), 64 KiB + 5 among the
// large ones, and the
// additional-data lengths 0..300 in turn (across the vector Poly1305
// threshold of 256), the buffers at offsets 0..63.
func chachaAgreeConfig() agree.Config {
	ad := make([]int, 301)
	for i := range ad {
		ad[i] = i
	}
	// Under -short (the model's runs) every 16th multiple.
	step := 64
	if testing.Short() {
		step = 1024
	}
	large := []int{65536 + 5}
	for n := 2112; n <= 16384; n += step {
		large = append(large, n-1, n, n+1)
	}
	return agree.Config{
		KeySizes:   []int{chacha20poly1305.KeySize},
		NonceSizes: []int{chacha20poly1305.NonceSize, chacha20poly1305.NonceSizeX},
		MaxLen:     2100,
		LargeLens:  large,
		ADLens:     ad,
		Offsets:    64,
	}
}

// TestChaCha20Poly1305Agreement checks with the agreement driver that every
// backend, the reference implementation and
// golang.org/x/crypto/chacha20poly1305 produce the same bytes, out of place
// at unaligned offsets, in place, through SealGather and the Encryptor in
// the slice shapes of DESIGN.md, and back through Open (which must also
// reject tampering).
func TestChaCha20Poly1305Agreement(t *testing.T) {
	r := agree.Run(t, chachaAgreeConfig(), chachaImpls(t, true)...)
	assert.Equal(t, chachaBackends(t), r.Gather, "every backend's SealGather was exercised")
	assert.Equal(t, chachaBackends(t), r.Stream, "every backend's Encryptor was exercised")
}

// TestChaCha20Poly1305Decryptor checks the Decryptor of every backend, for
// both constructions, against golang.org/x/crypto: the sealed message
// written in the slice shapes of the agreement driver (the tag among the
// last slice's bytes) opens to the plaintext, and with one bit flipped
// anywhere it fails and appends nothing.
func TestChaCha20Poly1305Decryptor(t *testing.T) {
	rng := mathrand.New(mathrand.NewPCG(0xdec, 0x20))
	lengths := []int{0, 1, 15, 16, 17, 63, 64, 65, 129, 255, 256, 257, 320, 321, 513, 1100, 4096 + 3}
	for _, backend := range chachaBackends(t) {
		for _, x := range []bool{false, true} {
			key := chachaRandBytes(rng, chacha20poly1305.KeySize)
			a, err := chachaNew(backend, x)(key)
			require.NoError(t, err)
			ref, err := map[bool]func([]byte) (cipher.AEAD, error){false: xchacha.New, true: xchacha.NewX}[x](key)
			require.NoError(t, err)
			v := a.(*chacha20poly1305.AEAD)
			for i, n := range lengths {
				nonce, pt, ad := chachaRandBytes(rng, a.NonceSize()), chachaRandBytes(rng, n), chachaRandBytes(rng, i*5%81)
				sealed := ref.Seal(nil, nonce, pt, ad)
				for _, sh := range agree.Shapes {
					what := fmt.Sprintf("%s x=%v len %d shape %s", backend, x, n, sh.Name)
					pieces := sh.Pieces(n, rng)
					if len(pieces) == 0 {
						pieces = []int{0}
					}
					pieces[len(pieces)-1] += chacha20poly1305.TagSize
					d := v.NewDecryptor(nonce, ad)
					off := 0
					for _, k := range pieces {
						_, err := d.Write(sealed[off : off+k])
						require.NoError(t, err, what)
						off += k
					}
					got, err := d.Open([]byte("x"))
					require.NoError(t, err, what)
					require.True(t, bytes.Equal(append([]byte("x"), pt...), got), what)

					bad := bytes.Clone(sealed)
					bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
					d = v.NewDecryptor(nonce, ad)
					_, err = d.Write(bad)
					require.NoError(t, err, what)
					dst := bytes.Repeat([]byte{0xaa}, len(bad))
					got, err = d.Open(dst[:0])
					require.Error(t, err, "%s: accepted a flipped bit", what)
					require.Nil(t, got, what)
					require.Equal(t, bytes.Repeat([]byte{0xaa}, len(bad)), dst, "%s: Open wrote to dst", what)
				}
			}
		}
	}
}

func chachaRandBytes(rng *mathrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
