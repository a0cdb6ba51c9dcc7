package aeadcontract

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/conformance/wycheproof"
)

func stdGCM(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	if tagSize != 16 {
		return nil, errors.ErrUnsupported
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithNonceSize(b, nonceSize)
}

func TestVectorsGCM(t *testing.T) {
	f, err := wycheproof.LoadAEAD(wycheproof.GlobAESGCM)
	require.NoError(t, err)
	r := TestVectors(t, f, stdGCM)
	assert.Equal(t, VectorResult{Pass: 316}, r)
}

func TestVectorsCatchBrokenOpen(t *testing.T) {
	f, err := wycheproof.LoadAEAD(wycheproof.GlobAESGCM)
	require.NoError(t, err)
	lenientGCM := func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
		a, err := stdGCM(key, nonceSize, tagSize)
		if err != nil {
			return nil, err
		}
		return &broken{AEAD: a, open: func(in cipher.AEAD, dst, nonce, ct, ad []byte) ([]byte, error) {
			out, err := in.Open(dst, nonce, ct, ad)
			if err != nil {
				return []byte{}, nil
			}
			return out, nil
		}}, nil
	}
	r := RunVectors(f, lenientGCM)
	invalid := 0
	for _, g := range f.TestGroups {
		for _, tc := range g.Tests {
			if tc.Result.Invalid() && len(tc.IV) > 0 {
				invalid++
			}
		}
	}
	assert.Equal(t, invalid, r.Fail)
	assert.Equal(t, 316-invalid, r.Pass)
	assert.Contains(t, r.Failures[0], "aes_gcm_test.json tcId")

	unsupported := func([]byte, int, int) (cipher.AEAD, error) { return nil, errors.ErrUnsupported }
	assert.Equal(t, VectorResult{Skip: 316}, RunVectors(f, unsupported))

	panicking := func([]byte, int, int) (cipher.AEAD, error) { panic("boom") }
	assert.Equal(t, 316, RunVectors(f, panicking).Fail)
}
