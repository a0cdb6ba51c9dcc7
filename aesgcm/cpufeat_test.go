package aesgcm_test

import (
	"crypto/aes"
	"crypto/cipher"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/cpufeat"
)

// An invalid VG_CPU_FEATURES does not make New fail: real clients ignore
// its error when the key length is right. The key works on the backend the
// valid names allow, and the process says once on standard error that the
// value was wrong. The variable is read at start-up, so the check runs in a
// child process.
func TestNewInvalidOverride(t *testing.T) {
	if os.Getenv("VG_AESGCM_CHILD") == "1" {
		require.Error(t, cpufeat.Err())
		key := make([]byte, 16)
		a, err := aesgcm.New(key)
		require.NoError(t, err)
		a2, err := aesgcm.Prepare(key)
		require.NoError(t, err)
		b, err := aes.NewCipher(key)
		require.NoError(t, err)
		std, err := cipher.NewGCM(b)
		require.NoError(t, err)
		nonce := make([]byte, aesgcm.NonceSize)
		want := std.Seal(nil, nonce, []byte("text"), nil)
		assert.Equal(t, want, a.Seal(nil, nonce, []byte("text"), nil))
		if cpufeat.Enabled().Has(cpufeat.AES) && cpufeat.Enabled().Has(cpufeat.PCLMULQDQ) && cpufeat.Enabled().Has(cpufeat.SSSE3) {
			assert.Equal(t, "aesni", a2.Backend(), "the valid names pick the backend")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNewInvalidOverride$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VG_AESGCM_CHILD=1", cpufeat.EnvVar+"=aes,pclmulqdq,ssse3,notafeature")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s\n%s", out, stderr.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), `unknown feature name "notafeature"`), "warned once:\n%s", stderr.String())
}
