package rsa_test

import (
	"crypto"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
	"github.com/vgcrypto/vg/rsa"
)

// TestInvalidOverride runs this test binary again with an invalid
// VG_CPU_FEATURES and checks, in the child, that NewPrivateKey and
// NewPublicKey still return working keys on the backend the valid names
// allow, and that the process says once on standard error that the value
// was wrong.
func TestInvalidOverride(t *testing.T) {
	if !aeadtest.InChild(t, "TestInvalidOverride", "VG_RSA_OVERRIDE_CHILD", cpufeat.EnvVar,
		"bmi2,adx,not-a-feature", `unknown feature name "not-a-feature"`) {
		return
	}
	require.Error(t, cpufeat.Err())
	std := testKey(t, 2048)
	priv, err := rsa.NewPrivateKey(std)
	require.NoError(t, err)
	pub, err := rsa.NewPublicKey(&std.PublicKey)
	require.NoError(t, err)
	digest := sha256.Sum256([]byte("message"))
	sig, err := priv.Sign(nil, digest[:], crypto.SHA256)
	require.NoError(t, err)
	require.NoError(t, stdrsa.VerifyPKCS1v15(&std.PublicKey, crypto.SHA256, digest[:], sig))
	require.NoError(t, pub.VerifyPKCS1v15(crypto.SHA256, digest[:], sig))
	if cpufeat.Enabled().HasAll(cpufeat.Of(cpufeat.BMI2, cpufeat.ADX)) {
		assert.Equal(t, "adx", priv.Backend(), "the valid names pick the backend")
	}
}
