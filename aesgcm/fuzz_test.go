package aesgcm_test

import (
	"crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// FuzzAgreement checks every backend available here but the portable one
// against crypto/cipher on inputs the fuzzer chooses: the key size and
// bytes, the nonce, the additional data, the text, a cut of the text into
// pieces for SealGather, the Encryptor and the Decryptor, and a bit of the
// sealed message to flip, which Open must reject without releasing
// plaintext (aeadtest.CheckMessage). The portable backend, bitsliced and a
// hundred times slower, has its own target, FuzzAgreementGeneric, so that
// this one spends its executions on the assembly. The seeds run in every
// `go test`; `go test -run '^$' -fuzz '^FuzzAgreement$' ./aesgcm` explores
// further (CONTRIBUTING says how long).
func FuzzAgreement(f *testing.F) {
	aeadtest.FuzzAgreement(f, aeadtest.AssemblyBackends(available(f)), 0, checkAgreement)
}

// genericMax is the longest text and additional data FuzzAgreementGeneric
// passes on: the portable backend's first 4-block pass (J0 and 48 bytes of
// keystream), two whole passes and half of another, every path it has, at
// a length the bitsliced AES runs quickly.
const genericMax = 208

// FuzzAgreementGeneric is FuzzAgreement for the portable backend, on texts
// and additional data cut to genericMax bytes.
func FuzzAgreementGeneric(f *testing.F) {
	aeadtest.FuzzAgreement(f, []string{"generic"}, genericMax, checkAgreement)
}

// checkAgreement checks each of backends against crypto/cipher on one
// fuzzer input, its variant choosing the key size.
func checkAgreement(t *testing.T, backends []string, in aeadtest.FuzzInput) {
	key := aeadtest.Expand(in.KeySeed, []int{16, 24, 32}[in.Variant%3])
	nonce := aeadtest.Expand(in.NonceSeed, 12)
	blk, err := aes.NewCipher(key)
	require.NoError(t, err)
	std, err := cipher.NewGCM(blk)
	require.NoError(t, err)
	want := std.Seal(nil, nonce, in.Text, in.AAD)
	for _, name := range backends {
		g, err := aesgcm.Prepare(key, aesgcm.WithBackend(name))
		require.NoError(t, err)
		aeadtest.CheckMessage(t, name, keyOf(g), want, nonce, in.Text, in.AAD, in.Cuts, in.Flip)
	}
}
