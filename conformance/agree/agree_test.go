package agree

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newGCM(key []byte, nonceSize int) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithNonceSize(b, nonceSize)
}

// concatGather is an honest gather seal: copy, then seal.
func concatGather(a cipher.AEAD, dst, nonce []byte, pt [][]byte, ad []byte) []byte {
	var all []byte
	for _, p := range pt {
		all = append(all, p...)
	}
	return a.Seal(dst, nonce, all, ad)
}

// bufferingEncryptor is an honest stream: buffer, then seal.
type bufferingEncryptor struct {
	a         cipher.AEAD
	nonce, ad []byte
	buf       []byte
}

func (e *bufferingEncryptor) Write(p []byte) (int, error) {
	e.buf = append(e.buf, p...)
	return len(p), nil
}

func (e *bufferingEncryptor) Finish(dst []byte) []byte { return e.a.Seal(dst, e.nonce, e.buf, e.ad) }

func newBuffering(a cipher.AEAD, nonce, ad []byte) (Encryptor, error) {
	return &bufferingEncryptor{a: a, nonce: nonce, ad: ad}, nil
}

var (
	honestA = Impl{Name: "gcm-a", New: newGCM, SealGather: concatGather}
	honestB = Impl{Name: "gcm-b", New: newGCM, NewEncryptor: newBuffering}
)

func TestHonestImplementationsAgree(t *testing.T) {
	r := Run(t, Config{KeySizes: []int{16, 32}, NonceSizes: []int{12, 8}}, honestA, honestB, gathering)
	assert.Equal(t, []string{"gcm-a", "gcm-b", "gcm-method"}, r.Impls)
	assert.Equal(t, []string{"gcm-a", "gcm-method"}, r.Gather)
	assert.Equal(t, []string{"gcm-b"}, r.Stream)
	assert.Greater(t, r.Comparisons, 1000)
}

// methodGCM has a SealGather method, found without Impl.SealGather.
type methodGCM struct{ cipher.AEAD }

func (m methodGCM) SealGather(dst, nonce []byte, pt [][]byte, ad []byte) []byte {
	return concatGather(m.AEAD, dst, nonce, pt, ad)
}

var gathering = Impl{Name: "gcm-method", New: func(key []byte, n int) (cipher.AEAD, error) {
	a, err := newGCM(key, n)
	return methodGCM{a}, err
}}

// small keeps the runs of the failure tests short; every shape is tried at
// every length.
func small(maxLen int) Config {
	return Config{KeySizes: []int{16}, MaxLen: maxLen, LargeLens: []int{}, Seed: 1}
}

func requireDisagreement(t *testing.T, err error) *Disagreement {
	t.Helper()
	require.Error(t, err)
	var d *Disagreement
	require.True(t, errors.As(err, &d), "%v", err)
	t.Log(err)
	return d
}

func TestWrongGatherIsCaught(t *testing.T) {
	// Corrupts one output byte when the plaintext is 777 bytes cut as [5, 772].
	bad := Impl{Name: "bad", New: newGCM, SealGather: func(a cipher.AEAD, dst, nonce []byte, pt [][]byte, ad []byte) []byte {
		out := concatGather(a, dst, nonce, pt, ad)
		if len(pt) == 2 && len(pt[0]) == 5 && len(pt[1]) == 772 {
			out[len(dst)+300] ^= 1
		}
		return out
	}}
	_, err := Check(small(800), honestA, bad)
	d := requireDisagreement(t, err)
	assert.Equal(t, "SealGather", d.Op)
	assert.Equal(t, "bad", d.Impl)
	assert.Equal(t, "gcm-a", d.Ref)
	assert.Equal(t, 777, d.Case.PlaintextLen)
	assert.Equal(t, "[5,n-5]", d.Case.Shape)
	assert.Equal(t, []int{5, 772}, d.Case.Pieces)
	assert.Contains(t, d.Error(), "plaintext length 777")
	assert.Contains(t, d.Error(), "shape [5,n-5] = [5 772]")
	assert.Contains(t, d.Error(), "byte 300 of 793")
	assert.Contains(t, d.Error(), "VG_AGREE_SEED=1")
}

func TestWrongInPlaceSealIsCaught(t *testing.T) {
	// Wrong only in place, at length 300: the out-of-place Seal is right.
	bad := Impl{Name: "bad-in-place", New: func(key []byte, n int) (cipher.AEAD, error) {
		a, err := newGCM(key, n)
		return inPlaceBug{a}, err
	}}
	_, err := Check(small(400), honestA, bad)
	d := requireDisagreement(t, err)
	assert.Equal(t, "Seal", d.Op)
	assert.True(t, d.Case.InPlace)
	assert.Equal(t, 300, d.Case.PlaintextLen)
	assert.Contains(t, d.Error(), "in place")
}

type inPlaceBug struct{ cipher.AEAD }

func (b inPlaceBug) Seal(dst, nonce, pt, ad []byte) []byte {
	inPlace := len(pt) > 0 && cap(dst) > 0 && &dst[:1][0] == &pt[0]
	out := b.AEAD.Seal(dst, nonce, pt, ad)
	if inPlace && len(pt) == 300 {
		out[len(out)-1] ^= 0x80
	}
	return out
}

func TestWrongStreamIsCaught(t *testing.T) {
	// Loses a one-byte Write that is not the first.
	bad := Impl{Name: "bad-stream", New: newGCM, NewEncryptor: func(a cipher.AEAD, nonce, ad []byte) (Encryptor, error) {
		return &droppingEncryptor{bufferingEncryptor{a: a, nonce: nonce, ad: ad}}, nil
	}}
	_, err := Check(small(100), honestA, bad)
	d := requireDisagreement(t, err)
	assert.Equal(t, "Encryptor", d.Op)
	assert.Equal(t, "bad-stream", d.Impl)
	assert.Contains(t, d.Case.Pieces[1:], 1)
}

type droppingEncryptor struct{ bufferingEncryptor }

func (e *droppingEncryptor) Write(p []byte) (int, error) {
	if len(p) == 1 && len(e.buf) > 0 {
		return 1, nil
	}
	return e.bufferingEncryptor.Write(p)
}

func TestAcceptingTamperedIsCaught(t *testing.T) {
	bad := Impl{Name: "accepts-anything", New: func(key []byte, n int) (cipher.AEAD, error) {
		a, err := newGCM(key, n)
		return lenient{a}, err
	}}
	_, err := Check(small(10), honestA, bad)
	d := requireDisagreement(t, err)
	assert.Equal(t, "Open tampered", d.Op)
	assert.Equal(t, 0, d.Case.PlaintextLen)
}

// lenient ignores authentication failures.
type lenient struct{ cipher.AEAD }

func (l lenient) Open(dst, nonce, ct, ad []byte) ([]byte, error) {
	out, err := l.AEAD.Open(dst, nonce, ct, ad)
	if err != nil {
		return dst, nil
	}
	return out, nil
}

func TestPanicIsADisagreement(t *testing.T) {
	bad := Impl{Name: "panics", New: newGCM, SealGather: func(cipher.AEAD, []byte, []byte, [][]byte, []byte) []byte {
		panic("boom")
	}}
	_, err := Check(small(10), honestB, bad)
	d := requireDisagreement(t, err)
	assert.Equal(t, "SealGather", d.Op)
	assert.Contains(t, d.Detail, "panic: boom")
}

func TestConstructorError(t *testing.T) {
	_, err := Check(Config{KeySizes: []int{17}}, honestA)
	require.Error(t, err)
	var d *Disagreement
	assert.False(t, errors.As(err, &d))
	assert.Contains(t, err.Error(), "gcm-a")

	_, err = Check(Config{KeySizes: []int{16}}, honestA, honestA)
	assert.ErrorContains(t, err, "unique")
	_, err = Check(Config{}, honestA)
	assert.ErrorContains(t, err, "KeySizes")
}

func TestSeedReplays(t *testing.T) {
	bad := Impl{Name: "bad", New: newGCM, SealGather: func(a cipher.AEAD, dst, nonce []byte, pt [][]byte, ad []byte) []byte {
		out := concatGather(a, dst, nonce, pt, ad)
		if len(pt) > 3 { // "tiny 1..7": depends on the random shape
			out[len(dst)] ^= 1
		}
		return out
	}}
	t.Setenv(SeedEnv, "12345")
	cfg := small(60)
	cfg.Seed = 0
	_, err1 := Check(cfg, honestA, bad)
	_, err2 := Check(cfg, honestA, bad)
	d1, d2 := requireDisagreement(t, err1), requireDisagreement(t, err2)
	assert.Equal(t, uint64(12345), d1.Seed)
	assert.Equal(t, d1, d2)

	t.Setenv(SeedEnv, "x")
	_, err := Check(cfg, honestA)
	assert.ErrorContains(t, err, SeedEnv)
}

func TestShapes(t *testing.T) {
	for _, n := range []int{0, 1, 4, 5, 16, 99, 100, 101, 1100} {
		for _, sh := range Shapes {
			ps := sh.Pieces(n, rand.New(rand.NewPCG(1, 2)))
			sum := 0
			for _, p := range ps {
				require.GreaterOrEqual(t, p, 0, "%s at %d: %v", sh.Name, n, ps)
				sum += p
			}
			assert.Equal(t, n, sum, "%s at %d: %v", sh.Name, n, ps)
		}
	}
	names := make([]string, len(Shapes))
	for i, s := range Shapes {
		names[i] = s.Name
	}
	for _, want := range []string{"[n]", "[1,n-1]", "[n-1,1]", "[5,n-5]", "[100,n-100]", "thirds", "tiny 1..7"} {
		assert.Contains(t, names, want)
	}
}

// fakeTB records Fatal instead of stopping the test.
type fakeTB struct {
	*testing.T
	fatal []string
}

func (f *fakeTB) Fatal(args ...any) { f.fatal = append(f.fatal, fmt.Sprint(args...)) }
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = append(f.fatal, fmt.Sprintf(format, args...))
}

func TestRunFailsTheTest(t *testing.T) {
	bad := Impl{Name: "bad", New: func(key []byte, n int) (cipher.AEAD, error) {
		a, err := newGCM(key, n)
		return inPlaceBug{a}, err
	}}
	f := &fakeTB{T: t}
	Run(f, small(301), honestA, bad)
	require.Len(t, f.fatal, 1)
	assert.True(t, strings.Contains(f.fatal[0], "plaintext length 300"), f.fatal[0])
}
