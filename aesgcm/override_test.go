package aesgcm_test

import (
	"crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// An invalid VG_CPU_FEATURES does not make New fail: real clients ignore
// its error when the key length is right. The key works on the backend the
// valid names allow, and the process says once on standard error that the
// value was wrong. The variable is read at start-up, so the check runs in a
// child process.
func TestInvalidOverride(t *testing.T) {
	if !aeadtest.InChild(t, "TestInvalidOverride", "VG_AESGCM_CHILD", cpufeat.EnvVar,
		"aes,pclmulqdq,ssse3,notafeature", `unknown feature name "notafeature"`) {
		return
	}
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
	assert.Equal(t, std.Seal(nil, nonce, []byte("text"), nil), a.Seal(nil, nonce, []byte("text"), nil))
	if cpufeat.Enabled().HasAll(cpufeat.Of(cpufeat.AES, cpufeat.PCLMULQDQ, cpufeat.SSSE3)) {
		assert.Equal(t, "aesni", a2.Backend(), "the valid names pick the backend")
	}
}
