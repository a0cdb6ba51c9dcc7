package aesgcm_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
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

// FuzzAgreement checks every backend available here against crypto/cipher
// on inputs the fuzzer chooses: the key size and bytes, the nonce, the
// additional data, the text, a cut of the text into pieces for SealGather,
// the Encryptor and the Decryptor, and a bit of the sealed message to flip,
// which Open must reject without releasing plaintext. The seeds run in every
// `go test`; `go test -fuzz FuzzAgreement ./aesgcm` explores further.
func FuzzAgreement(f *testing.F) {
	f.Add(uint8(0), []byte("k"), []byte("n"), []byte("header-13-by"), bytes.Repeat([]byte{1}, 17), []byte{16}, uint16(3))
	f.Add(uint8(1), []byte("key"), []byte("nonce"), []byte{}, []byte{}, []byte{}, uint16(0))
	f.Add(uint8(2), []byte("k2"), []byte("n2"), bytes.Repeat([]byte{7}, 40), bytes.Repeat([]byte{2}, 65), []byte{64}, uint16(100))
	f.Add(uint8(0), []byte("k3"), []byte("n3"), []byte("aad"), bytes.Repeat([]byte{3}, 300), []byte{1, 5, 100}, uint16(9999))
	f.Add(uint8(1), []byte("k4"), []byte("n4"), []byte("a"), bytes.Repeat([]byte{4}, 1350), []byte{255, 0, 128}, uint16(1350))
	backends := available(f)
	f.Fuzz(func(t *testing.T, ks uint8, keySeed, nonceSeed, aad, pt, cuts []byte, flip uint16) {
		key := expand(keySeed, []int{16, 24, 32}[ks%3])
		nonce := expand(nonceSeed, 12)
		blk, err := aes.NewCipher(key)
		require.NoError(t, err)
		std, err := cipher.NewGCM(blk)
		require.NoError(t, err)
		want := std.Seal(nil, nonce, pt, aad)
		shape := fuzzShape(cuts, len(pt))
		bit := int(flip) % (8 * len(want))
		for _, name := range backends {
			g, err := aesgcm.Prepare(key, aesgcm.WithBackend(name))
			require.NoError(t, err)
			equalBytes(t, want, g.Seal(nil, nonce, pt, aad), "%s Seal", name)
			equalBytes(t, want, g.SealGather(nil, nonce, pieces(pt, shape), aad), "%s SealGather %v", name, shape)
			buf := make([]byte, len(pt), len(want))
			copy(buf, pt)
			equalBytes(t, want, g.SealGather(buf[:0], nonce, pieces(buf, shape), aad), "%s SealGather in place %v", name, shape)

			e := g.NewEncryptor(nonce, aad)
			var out []byte
			for _, p := range pieces(pt, shape) {
				out = e.Encrypt(out, p)
			}
			equalBytes(t, want, e.Finish(out), "%s Encryptor %v", name, shape)

			got, err := g.Open(nil, nonce, want, aad)
			require.NoError(t, err, name)
			equalBytes(t, pt, got, "%s Open", name)
			d := g.NewDecryptor(nonce, aad)
			for _, p := range pieces(want, fuzzShape(cuts, len(want))) {
				_, err := d.Write(p)
				require.NoError(t, err, name)
			}
			got, err = d.Open(nil)
			require.NoError(t, err, name)
			equalBytes(t, pt, got, "%s Decryptor", name)

			bad := bytes.Clone(want)
			bad[bit/8] ^= 1 << (bit % 8)
			dst := make([]byte, 0, len(bad))
			got, err = g.Open(dst, nonce, bad, aad)
			require.Error(t, err, "%s Open accepted bit %d flipped", name, bit)
			require.Nil(t, got, name)
			equalBytes(t, make([]byte, len(pt)), dst[:len(pt)], "%s Open released plaintext", name)
			d = g.NewDecryptor(nonce, aad)
			_, err = d.Write(bad)
			require.NoError(t, err, name)
			got, err = d.Open(nil)
			require.Error(t, err, "%s Decryptor accepted bit %d flipped", name, bit)
			require.Nil(t, got, name)
		}
	})
}
