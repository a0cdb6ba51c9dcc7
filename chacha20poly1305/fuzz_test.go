package chacha20poly1305_test

import (
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
	aeadtest.FuzzAgreement(f, aeadtest.AssemblyBackends(available(f)), 0, checkAgreement)
}

// genericMax is the longest text and additional data FuzzAgreementGeneric
// passes on: five 64-byte blocks, a whole block and a partial one after
// block 0's, at a length the instrumented Go code runs quickly (its
// drivers, which ssse3 shares, run longer texts in FuzzAgreement).
const genericMax = 320

// FuzzAgreementGeneric is FuzzAgreement for the portable backend, on texts
// and additional data cut to genericMax bytes.
func FuzzAgreementGeneric(f *testing.F) {
	aeadtest.FuzzAgreement(f, []string{"generic"}, genericMax, checkAgreement)
}

// checkAgreement checks each of backends against x/crypto on one fuzzer
// input, XChaCha20-Poly1305 where its variant is odd.
func checkAgreement(t *testing.T, backends []string, in aeadtest.FuzzInput) {
	x := in.Variant%2 == 1
	key := aeadtest.Expand(in.KeySeed, chacha20poly1305.KeySize)
	ref := xcryptoAEAD(t, key, x)
	nonce := aeadtest.Expand(in.NonceSeed, ref.NonceSize())
	want := ref.Seal(nil, nonce, in.Text, in.AAD)
	for _, name := range backends {
		aeadtest.CheckMessage(t, name, keyOf(mustNew(t, key, x, name)), want, nonce, in.Text, in.AAD, in.Cuts, in.Flip)
	}
}
