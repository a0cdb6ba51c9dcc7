package aesgcm_test

import (
	"bytes"
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
	addSeeds(f)
	backends := aeadtest.AssemblyBackends(available(f))
	f.Fuzz(func(t *testing.T, ks uint8, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		aeadtest.SkipWithoutAssembly(t, backends)
		checkAgreement(t, backends, ks, keySeed, nonceSeed, aad, pt, cuts, flip)
	})
}

// genericMax is the longest text and additional data FuzzAgreementGeneric
// passes on: the portable backend's first 4-block pass (J0 and 48 bytes of
// keystream), two whole passes and half of another, every path it has, at
// a length the bitsliced AES runs quickly.
const genericMax = 208

// FuzzAgreementGeneric is FuzzAgreement for the portable backend, on texts
// and additional data cut to genericMax bytes.
func FuzzAgreementGeneric(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, ks uint8, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		checkAgreement(t, []string{"generic"}, ks, keySeed, nonceSeed, aeadtest.Cut(aad, genericMax), aeadtest.Cut(pt, genericMax), cuts, flip)
	})
}

// addSeeds adds the seeds of both targets.
func addSeeds(f *testing.F) {
	f.Add(uint8(0), []byte("k"), []byte("n"), []byte("header-13-by"), bytes.Repeat([]byte{1}, 17), []byte{16}, uint16(3))
	f.Add(uint8(1), []byte("key"), []byte("nonce"), []byte{}, []byte{}, []byte{}, uint16(0))
	f.Add(uint8(2), []byte("k2"), []byte("n2"), bytes.Repeat([]byte{7}, 40), bytes.Repeat([]byte{2}, 65), []byte{64}, uint16(100))
	f.Add(uint8(0), []byte("k3"), []byte("n3"), []byte("aad"), bytes.Repeat([]byte{3}, 300), []byte{1, 5, 100}, uint16(9999))
	f.Add(uint8(1), []byte("k4"), []byte("n4"), []byte("a"), bytes.Repeat([]byte{4}, 1350), []byte{255, 0, 128}, uint16(1350))
}

// checkAgreement checks each of backends against crypto/cipher on one
// fuzzer input.
func checkAgreement(t *testing.T, backends []string, ks uint8, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
	key := aeadtest.Expand(keySeed, []int{16, 24, 32}[ks%3])
	nonce := aeadtest.Expand(nonceSeed, 12)
	blk, err := aes.NewCipher(key)
	require.NoError(t, err)
	std, err := cipher.NewGCM(blk)
	require.NoError(t, err)
	want := std.Seal(nil, nonce, pt, aad)
	for _, name := range backends {
		g, err := aesgcm.Prepare(key, aesgcm.WithBackend(name))
		require.NoError(t, err)
		aeadtest.CheckMessage(t, name, keyOf(g), want, nonce, pt, aad, cuts, flip)
	}
}
