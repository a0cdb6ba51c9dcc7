package chacha20poly1305

// The helpers of the white-box tests, which reach the backends' kernels.
// The black-box tests (package chacha20poly1305_test) have their own, in
// chacha20poly1305_test.go.

import (
	mathrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// forEachBackend runs f as a subtest per backend that can run here.
func forEachBackend(t *testing.T, f func(t *testing.T, name string)) {
	for _, b := range enabledBackends() {
		t.Run(b.name, func(t *testing.T) { f(t, b.name) })
	}
}

// mustNew prepares key on the backend called name, for XChaCha20-Poly1305
// when x is set.
func mustNew(t testing.TB, key []byte, x bool, name string) *AEAD {
	t.Helper()
	prepare := Prepare
	if x {
		prepare = PrepareX
	}
	a, err := prepare(key, WithBackend(name))
	require.NoError(t, err)
	require.Equal(t, name, a.Backend())
	return a
}

// unhex decodes the RFCs' hexadecimal vectors.
var unhex = aeadtest.Unhex

// randBytes returns n bytes of rng.
func randBytes(rng *mathrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// keyOf adapts a to the shared AEAD tests.
func keyOf(a *AEAD) aeadtest.Key { return aeadtest.KeyOf[*Encryptor, *Decryptor](a) }

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
