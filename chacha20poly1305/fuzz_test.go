package chacha20poly1305

import (
	"bytes"
	"testing"

	"github.com/vgcrypto/vg/internal/aeadtest"
)

// FuzzAgreement checks every backend available here against
// golang.org/x/crypto on inputs the fuzzer chooses: ChaCha20-Poly1305 or
// XChaCha20-Poly1305, the key, the nonce, the additional data, the text, a
// cut of the text into pieces for SealGather (out of place and in place),
// the Encryptor and the Decryptor, and a bit of the sealed message to flip,
// which Open and the Decryptor must reject without releasing plaintext
// (aeadtest.CheckMessage). The seeds run in every `go test`;
// `go test -fuzz FuzzAgreement ./chacha20poly1305` explores further.
func FuzzAgreement(f *testing.F) {
	f.Add(false, []byte("k"), []byte("n"), []byte("header-13-by"), bytes.Repeat([]byte{1}, 17), []byte{16}, uint16(3))
	f.Add(true, []byte("key"), []byte("nonce"), []byte{}, []byte{}, []byte{}, uint16(0))
	f.Add(false, []byte("k2"), []byte("n2"), bytes.Repeat([]byte{7}, 40), bytes.Repeat([]byte{2}, 320), []byte{64, 1}, uint16(100))
	f.Add(true, []byte("k3"), []byte("n3"), []byte("aad"), bytes.Repeat([]byte{3}, 513), []byte{1, 5, 100}, uint16(9999))
	f.Add(false, []byte("k4"), []byte("n4"), []byte("a"), bytes.Repeat([]byte{4}, 1350), []byte{255, 0, 128}, uint16(1350))
	backends := available(f)
	f.Fuzz(func(t *testing.T, x bool, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		key := aeadtest.Expand(keySeed, KeySize)
		ref := xcryptoAEAD(t, key, x)
		nonce := aeadtest.Expand(nonceSeed, ref.NonceSize())
		want := ref.Seal(nil, nonce, pt, aad)
		for _, name := range backends {
			aeadtest.CheckMessage(t, name, keyOf(mustNew(t, key, x, name)), want, nonce, pt, aad, cuts, flip)
		}
	})
}
