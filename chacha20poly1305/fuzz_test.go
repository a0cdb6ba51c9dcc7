package chacha20poly1305_test

import (
	"bytes"
	"testing"

	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// FuzzAgreement checks every backend available here but the portable one
// against golang.org/x/crypto on inputs the fuzzer chooses:
// ChaCha20-Poly1305 or XChaCha20-Poly1305, the key, the nonce, the
// additional data, the text, a cut of the text into pieces for SealGather
// (out of place and in place), the Encryptor and the Decryptor, and a bit of
// the sealed message to flip, which Open and the Decryptor must reject
// without releasing plaintext (aeadtest.CheckMessage). The portable
// backend, Go code the fuzzer's coverage counters slow down in every loop,
// has its own target, FuzzAgreementGeneric, so that this one spends its
// executions on the assembly and the drivers. The seeds run in every
// `go test`; `go test -run '^$' -fuzz '^FuzzAgreement$' ./chacha20poly1305`
// explores further (CONTRIBUTING says how long).
func FuzzAgreement(f *testing.F) {
	addSeeds(f)
	backends := aeadtest.AssemblyBackends(available(f))
	f.Fuzz(func(t *testing.T, x bool, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		aeadtest.SkipWithoutAssembly(t, backends)
		checkAgreement(t, backends, x, keySeed, nonceSeed, aad, pt, cuts, flip)
	})
}

// genericMax is the longest text and additional data FuzzAgreementGeneric
// passes on: five 64-byte blocks, a whole block and a partial one after
// block 0's, at a length the instrumented Go code runs quickly (its
// drivers, which ssse3 shares, run longer texts in FuzzAgreement).
const genericMax = 320

// FuzzAgreementGeneric is FuzzAgreement for the portable backend, on texts
// and additional data cut to genericMax bytes.
func FuzzAgreementGeneric(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, x bool, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		checkAgreement(t, []string{"generic"}, x, keySeed, nonceSeed, aeadtest.Cut(aad, genericMax), aeadtest.Cut(pt, genericMax), cuts, flip)
	})
}

// addSeeds adds the seeds of both targets.
func addSeeds(f *testing.F) {
	f.Add(false, []byte("k"), []byte("n"), []byte("header-13-by"), bytes.Repeat([]byte{1}, 17), []byte{16}, uint16(3))
	f.Add(true, []byte("key"), []byte("nonce"), []byte{}, []byte{}, []byte{}, uint16(0))
	f.Add(false, []byte("k2"), []byte("n2"), bytes.Repeat([]byte{7}, 40), bytes.Repeat([]byte{2}, 320), []byte{64, 1}, uint16(100))
	f.Add(true, []byte("k3"), []byte("n3"), []byte("aad"), bytes.Repeat([]byte{3}, 513), []byte{1, 5, 100}, uint16(9999))
	f.Add(false, []byte("k4"), []byte("n4"), []byte("a"), bytes.Repeat([]byte{4}, 1350), []byte{255, 0, 128}, uint16(1350))
}

// checkAgreement checks each of backends against x/crypto on one fuzzer
// input.
func checkAgreement(t *testing.T, backends []string, x bool, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
	key := aeadtest.Expand(keySeed, chacha20poly1305.KeySize)
	ref := xcryptoAEAD(t, key, x)
	nonce := aeadtest.Expand(nonceSeed, ref.NonceSize())
	want := ref.Seal(nil, nonce, pt, aad)
	for _, name := range backends {
		aeadtest.CheckMessage(t, name, keyOf(mustNew(t, key, x, name)), want, nonce, pt, aad, cuts, flip)
	}
}
