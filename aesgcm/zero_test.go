package aesgcm_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// keyOf adapts a to the shared AEAD tests.
func keyOf(a *aesgcm.AEAD) aeadtest.Key {
	return aeadtest.KeyOf[*aesgcm.Encryptor, *aesgcm.Decryptor](a)
}

// A zero AEAD, Encryptor or Decryptor has no key: every method panics
// rather than seal or open without one.
func TestZeroValuePanics(t *testing.T) {
	a, err := aesgcm.Prepare(make([]byte, aesgcm.KeySize128))
	require.NoError(t, err)
	aeadtest.CheckZeroKey(t, keyOf(new(aesgcm.AEAD)), keyOf(a),
		"aesgcm: use of an AEAD not made by New or Prepare (a zero value has no key)")
	aeadtest.CheckZeroStream(t,
		new(aesgcm.Encryptor), "aesgcm: use of an Encryptor not made by AEAD.NewEncryptor (a zero value has no key)",
		new(aesgcm.Decryptor), "aesgcm: use of a Decryptor not made by AEAD.NewDecryptor (a zero value has no key)")
}
