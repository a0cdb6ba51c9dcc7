package rsa

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

// stdlibGOARCHes are the GOARCHes where crypto/rsa's arithmetic has
// assembly and vg has none: there the default backend is crypto/rsa's
// ("stdlib"), so vg is never slower than what it replaces.
var stdlibGOARCHes = []string{"arm64", "ppc64", "ppc64le", "s390x"}

// TestDefaultBackendPerGOARCH pins the backends of this build and the
// default one: on amd64 vg's assembly (never stdlib); on the stdlib
// GOARCHes stdlib then generic, stdlib the default unless VG_CPU_FEATURES
// turns cpufeat.StdRSA off; elsewhere, and under purego, generic alone.
// (aesgcm and chacha20poly1305 pin theirs with internal/aeadtest's
// CheckGOARCHBackends, which this module does not depend on.)
func TestDefaultBackendPerGOARCH(t *testing.T) {
	var names []string
	for _, b := range Backends() {
		names = append(names, b.Name)
	}
	priv, err := NewPrivateKey(loadKey(t, "2048"))
	require.NoError(t, err)
	assert.Equal(t, stdlibGOARCHes, cpufeat.MustLookup(cpufeat.RSA, stdlibBackend).GOARCHes, "cpufeat's declaration says where stdlib is built")
	switch {
	case purego:
		assert.Equal(t, []string{"generic"}, names)
	case runtime.GOARCH == "amd64":
		assert.Equal(t, []string{"ifma", "adx", "generic"}, names)
		assert.NotEqual(t, stdlibBackend, priv.Backend())
	case slices.Contains(stdlibGOARCHes, runtime.GOARCH):
		assert.Equal(t, []string{stdlibBackend, "generic"}, names)
		want := "generic"
		if cpufeat.Enabled().Has(cpufeat.StdRSA) {
			want = stdlibBackend
		}
		assert.Equal(t, want, priv.Backend())
		assert.Equal(t, want == stdlibBackend, priv.sk.std != nil, "crypto/rsa's copy of the key")
		assert.Equal(t, want == stdlibBackend, priv.pub.std)
	default:
		assert.Equal(t, []string{"generic"}, names)
	}
	t.Logf("GOARCH %s: backends %v, default %s", runtime.GOARCH, names, priv.Backend())
}
