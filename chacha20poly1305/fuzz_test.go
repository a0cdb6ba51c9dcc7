package chacha20poly1305

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
)

// expand derives n bytes from seed (SHA-256 in counter mode), so that the
// fuzzer's inputs of any length give keys and nonces of the right size.
func expand(seed []byte, n int) []byte {
	var out []byte
	for i := byte(0); len(out) < n; i++ {
		h := sha256.Sum256(append([]byte{i}, seed...))
		out = append(out, h[:]...)
	}
	return out[:n]
}

// fuzzShape cuts n bytes into pieces whose lengths are the cut bytes (each
// at most what is left), the rest in a last piece.
func fuzzShape(cuts []byte, n int) []int {
	var shape []int
	for _, c := range cuts {
		p := min(int(c), n)
		shape = append(shape, p)
		n -= p
	}
	return append(shape, n)
}

// FuzzAgreement checks every backend available here against
// golang.org/x/crypto on inputs the fuzzer chooses: ChaCha20-Poly1305 or
// XChaCha20-Poly1305, the key, the nonce, the additional data, the text, a
// cut of the text into pieces for SealGather (out of place and in place),
// the Encryptor and the Decryptor, and a bit of the sealed message to flip,
// which Open and the Decryptor must reject without releasing plaintext. The seeds run in every `go test`;
// `go test -fuzz FuzzAgreement ./chacha20poly1305` explores further.
func FuzzAgreement(f *testing.F) {
	f.Add(false, []byte("k"), []byte("n"), []byte("header-13-by"), bytes.Repeat([]byte{1}, 17), []byte{16}, uint16(3))
	f.Add(true, []byte("key"), []byte("nonce"), []byte{}, []byte{}, []byte{}, uint16(0))
	f.Add(false, []byte("k2"), []byte("n2"), bytes.Repeat([]byte{7}, 40), bytes.Repeat([]byte{2}, 320), []byte{64, 1}, uint16(100))
	f.Add(true, []byte("k3"), []byte("n3"), []byte("aad"), bytes.Repeat([]byte{3}, 513), []byte{1, 5, 100}, uint16(9999))
	f.Add(false, []byte("k4"), []byte("n4"), []byte("a"), bytes.Repeat([]byte{4}, 1350), []byte{255, 0, 128}, uint16(1350))
	backends := available(f)
	f.Fuzz(func(t *testing.T, x bool, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		key := expand(keySeed, KeySize)
		ref := xcryptoAEAD(t, key, x)
		nonce := expand(nonceSeed, ref.NonceSize())
		want := ref.Seal(nil, nonce, pt, aad)
		shape := fuzzShape(cuts, len(pt))
		bit := int(flip) % (8 * len(want))
		for _, name := range backends {
			a := mustNew(t, key, x, name)
			require.Equal(t, want, a.Seal(nil, nonce, pt, aad), "%s Seal", name)
			require.Equal(t, want, a.SealGather(nil, nonce, split(pt, shape), aad), "%s SealGather %v", name, shape)
			buf := make([]byte, len(pt), len(want))
			copy(buf, pt)
			require.Equal(t, want, a.SealGather(buf[:0], nonce, split(buf, shape), aad), "%s SealGather in place %v", name, shape)
			require.Equal(t, want, streamEncrypt(a, nil, nonce, aad, pt, shape), "%s Encryptor %v", name, shape)

			got, err := a.Open(nil, nonce, want, aad)
			require.NoError(t, err, name)
			require.True(t, bytes.Equal(pt, got), "%s Open", name)
			inPlace := bytes.Clone(want)
			got, err = a.Open(inPlace[:0], nonce, inPlace, aad)
			require.NoError(t, err, name)
			require.True(t, bytes.Equal(pt, got), "%s Open in place", name)
			d := a.NewDecryptor(nonce, aad)
			for _, p := range split(want, fuzzShape(cuts, len(want))) {
				_, err := d.Write(p)
				require.NoError(t, err, name)
			}
			got, err = d.Open(nil)
			require.NoError(t, err, name)
			require.True(t, bytes.Equal(pt, got), "%s Decryptor", name)

			bad := bytes.Clone(want)
			bad[bit/8] ^= 1 << (bit % 8)
			dst := make([]byte, 0, len(bad))
			got, err = a.Open(dst, nonce, bad, aad)
			require.Error(t, err, "%s Open accepted bit %d flipped", name, bit)
			require.Nil(t, got, name)
			require.Equal(t, make([]byte, len(pt)), dst[:len(pt)], "%s Open released plaintext", name)
			d = a.NewDecryptor(nonce, aad)
			_, err = d.Write(bad)
			require.NoError(t, err, name)
			got, err = d.Open(nil)
			require.Error(t, err, "%s Decryptor accepted bit %d flipped", name, bit)
			require.Nil(t, got, name)
		}
	})
}
