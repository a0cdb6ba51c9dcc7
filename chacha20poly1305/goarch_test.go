package chacha20poly1305_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
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
	for _, b := range chacha20poly1305.Backends() {
		names = append(names, b.Name)
	}
	a, err := chacha20poly1305.Prepare(make([]byte, chacha20poly1305.KeySize))
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
