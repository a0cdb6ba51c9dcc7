package chacha20poly1305_test

import (
	"crypto/cipher"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// TestInvalidOverride runs this test binary again with an invalid
// VG_CPU_FEATURES and checks, in the child, that New and NewX still return
// working keys (real clients such as wireguard-go ignore the error of New
// when the key length is right), on the backend the valid names allow, and
// that the process says once on standard error that the value was wrong.
func TestInvalidOverride(t *testing.T) {
	if !aeadtest.InChild(t, "TestInvalidOverride", "VG_CHACHA_OVERRIDE_CHILD", cpufeat.EnvVar,
		"ssse3,not-a-feature", `unknown feature name "not-a-feature"`) {
		return
	}
	require.Error(t, cpufeat.Err())
	key := make([]byte, chacha20poly1305.KeySize)
	for _, c := range []struct {
		vg, x func([]byte) (cipher.AEAD, error)
	}{{chacha20poly1305.New, xchacha.New}, {chacha20poly1305.NewX, xchacha.NewX}} {
		a, err := c.vg(key)
		require.NoError(t, err)
		want, err := c.x(key)
		require.NoError(t, err)
		nonce := make([]byte, want.NonceSize())
		assert.Equal(t, want.Seal(nil, nonce, []byte("text"), nil), a.Seal(nil, nonce, []byte("text"), nil))
		if cpufeat.Enabled().Has(cpufeat.SSSE3) {
			assert.Equal(t, "ssse3", a.(*chacha20poly1305.AEAD).Backend(), "the valid names pick the backend")
		}
	}
	_, err := chacha20poly1305.Prepare(key, chacha20poly1305.WithBackend("generic"))
	require.NoError(t, err)
}
