package chacha20poly1305

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// stdlibGOARCHes are the GOARCHes where golang.org/x/crypto has ChaCha20
// assembly and vg has none: there the default backend is x/crypto's
// ("stdlib"), so vg is never slower than what it replaces.
var stdlibGOARCHes = []string{"arm64", "loong64", "ppc64", "ppc64le", "s390x"}

// TestDefaultBackendPerGOARCH pins the backends of this build and the
// default one: on amd64 vg's assembly (never stdlib); on the stdlib
// GOARCHes stdlib then generic, stdlib the default where x/crypto's
// assembly runs (cpufeat.StdChaCha20) and VG_CPU_FEATURES allows it;
// elsewhere, and under purego, generic alone.
func TestDefaultBackendPerGOARCH(t *testing.T) {
	var names []string
	for _, b := range Backends() {
		names = append(names, b.Name)
	}
	a, err := Prepare(make([]byte, KeySize))
	require.NoError(t, err)
	aeadtest.CheckGOARCHBackends(t, aeadtest.GOARCHBackends{
		Names: names, Default: a.Backend(),
		AMD64:          []string{"avx512", "avx2", "ssse3", "generic"},
		StdlibGOARCHes: stdlibGOARCHes,
		Declared:       cpufeat.MustLookup(cpufeat.ChaCha20Poly1305, "stdlib").GOARCHes,
		StdEnabled:     cpufeat.Enabled().Has(cpufeat.StdChaCha20),
		Purego:         purego,
	})
}

// TestOpenTagApart calls every backend's open with the tag in memory of
// its own, not after the ciphertext as the AEAD's Open passes it (the
// stdlib backend then runs the generic drivers): the verdict and the
// plaintext are the same.
func TestOpenTagApart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a, err := newAEAD(make([]byte, KeySize), x, []Option{WithBackend(name)})
			require.NoError(t, err)
			k := a.k
			nonce := make([]byte, k.nonceSize())
			for _, n := range []int{0, 1, 64, 300} {
				pt := make([]byte, n)
				for i := range pt {
					pt[i] = byte(i)
				}
				sealed := a.Seal(nil, nonce, pt, []byte("ad"))
				text := slices.Clone(sealed[:n])
				tag := [TagSize]byte(sealed[n:])
				out := make([]byte, n)
				require.True(t, k.impl.open(out, nonce, text, &tag, []byte("ad")), "n=%d", n)
				assert.Equal(t, pt, out)
				tag[0] ^= 1
				assert.False(t, k.impl.open(out, nonce, text, &tag, []byte("ad")), "n=%d", n)
			}
		}
	})
}
