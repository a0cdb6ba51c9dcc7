package chacha20poly1305

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// TestInvalidOverride runs this test binary again with an invalid
// VG_CPU_FEATURES and checks, in the child, that New and NewX still return
// working keys (real clients such as wireguard-go ignore the error of New
// when the key length is right), on the backend the valid names allow, and
// that the process says once on standard error that the value was wrong.
func TestInvalidOverride(t *testing.T) {
	if os.Getenv("VG_CHACHA_OVERRIDE_CHILD") == "1" {
		require.Error(t, cpufeat.Err())
		key := make([]byte, KeySize)
		a, err := New(key)
		require.NoError(t, err)
		x, err := xchacha.New(key)
		require.NoError(t, err)
		nonce := make([]byte, NonceSize)
		assert.Equal(t, x.Seal(nil, nonce, []byte("text"), nil), a.Seal(nil, nonce, []byte("text"), nil))
		ax, err := NewX(key)
		require.NoError(t, err)
		xx, err := xchacha.NewX(key)
		require.NoError(t, err)
		nonceX := make([]byte, NonceSizeX)
		assert.Equal(t, xx.Seal(nil, nonceX, []byte("text"), nil), ax.Seal(nil, nonceX, []byte("text"), nil))
		if cpufeat.Enabled().Has(cpufeat.SSSE3) {
			assert.Equal(t, "ssse3", a.(*AEAD).Backend(), "the valid names pick the backend")
		}
		_, err = Prepare(key, WithBackend("generic"))
		require.NoError(t, err)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestInvalidOverride$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VG_CHACHA_OVERRIDE_CHILD=1", cpufeat.EnvVar+"=ssse3,not-a-feature")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "child:\n%s\n%s", out, stderr.String())
	assert.Contains(t, string(out), "PASS")
	assert.Equal(t, 1, strings.Count(stderr.String(), `unknown feature name "not-a-feature"`), "warned once:\n%s", stderr.String())
}
