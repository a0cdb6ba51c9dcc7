package aesgcm_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// The paths below are ones the other tests do not take, found by the
// x86sim model's block coverage (ci/cmd/simcover): each is checked against
// crypto/cipher on every backend available, with every key size.

var coverageKeySizes = []int{16, 24, 32}

// TestTruncatedTagPaths seals and opens with tags of 12 to 15 bytes at
// lengths of every size class of the short and general paths (the
// expected tag is loaded partially), and rejects a tag with its last byte
// flipped.
func TestTruncatedTagPaths(t *testing.T) {
	lengths := []int{0, 1, 16, 17, 40, 64, 65, 70, 80, 81, 127, 128, 129, 200, 256}
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(11)
		for _, ks := range coverageKeySizes {
			for tagSize := 12; tagSize <= 15; tagSize++ {
				key := r.bytes(ks)
				g, err := aesgcm.Prepare(key, aesgcm.WithTagSize(tagSize), aesgcm.WithBackend(backend))
				require.NoError(t, err)
				std := stdGCM(t, key, 12, tagSize)
				for _, n := range lengths {
					nonce, pt, aad := r.bytes(12), r.bytes(n), r.bytes(n%17)
					want := std.Seal(nil, nonce, pt, aad)
					equalBytes(t, want, g.Seal(nil, nonce, pt, aad), "Seal key=%d tag=%d n=%d", ks, tagSize, n)
					got, err := g.Open(nil, nonce, want, aad)
					require.NoError(t, err, "Open key=%d tag=%d n=%d", ks, tagSize, n)
					equalBytes(t, pt, got)
					want[len(want)-1] ^= 1
					_, err = g.Open(nil, nonce, want, aad)
					require.Error(t, err, "Open of a bad tag key=%d tag=%d n=%d", ks, tagSize, n)
				}
			}
		}
	})
}

// TestNonceLengthPaths seals with nonces of lengths that take each piece
// of the nonce's GHASH: partial blocks of every size, whole blocks, and
// more than eight blocks.
func TestNonceLengthPaths(t *testing.T) {
	nonceSizes := []int{1, 2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 31, 32, 64, 127, 128, 129, 130, 137, 144, 255, 256, 300}
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(12)
		for _, ks := range coverageKeySizes {
			for _, ns := range nonceSizes {
				key := r.bytes(ks)
				g, err := aesgcm.Prepare(key, aesgcm.WithNonceSize(ns), aesgcm.WithBackend(backend))
				require.NoError(t, err)
				std := stdGCM(t, key, ns, 16)
				nonce, pt, aad := r.bytes(ns), r.bytes(ns%40), r.bytes(ns%7)
				want := std.Seal(nil, nonce, pt, aad)
				equalBytes(t, want, g.Seal(nil, nonce, pt, aad), "Seal key=%d nonce=%d", ks, ns)
				got, err := g.Open(nil, nonce, want, aad)
				require.NoError(t, err)
				equalBytes(t, pt, got)
			}
		}
	})
}

// TestShortGatherPaths runs SealGather and the Encryptor on the short
// texts (up to 80 bytes) cut into two pieces at every point, so that the
// second piece and the first piece's bytes past its last whole block take
// every copy size, and into three pieces with one long piece, out of
// place and in place.
func TestShortGatherPaths(t *testing.T) {
	lengths := []int{3, 15, 16, 17, 31, 33, 47, 64, 65, 70, 79, 80}
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(13)
		for i, n := range lengths {
			ks := coverageKeySizes[i%len(coverageKeySizes)]
			key := r.bytes(ks)
			g, err := aesgcm.Prepare(key, aesgcm.WithBackend(backend))
			require.NoError(t, err)
			std := stdGCM(t, key, 12, 16)
			nonce, pt, aad := r.bytes(12), r.bytes(n), r.bytes(n%17)
			want := std.Seal(nil, nonce, pt, aad)
			var shapes [][]int
			for a := 0; a <= n; a++ {
				shapes = append(shapes, []int{a, n - a})
			}
			shapes = append(shapes, []int{n, 0, 0}, []int{0, n, 0}, []int{0, 0, n}, []int{1, n - 2, 1}, []int{n - 3, 2, 1})
			for _, shape := range shapes {
				got := g.SealGather([]byte("prefix"), nonce, aeadtest.Pieces(pt, shape), aad)
				equalBytes(t, want, got[6:], "SealGather key=%d n=%d shape=%v", ks, n, shape)

				buf := make([]byte, n, n+16)
				copy(buf, pt)
				got = g.SealGather(buf[:0], nonce, aeadtest.Pieces(buf, shape), aad)
				equalBytes(t, want, got, "SealGather in place key=%d n=%d shape=%v", ks, n, shape)

				e := g.NewEncryptor(nonce, aad)
				out := []byte(nil)
				for _, p := range aeadtest.Pieces(pt, shape) {
					out = e.Encrypt(out, p)
				}
				equalBytes(t, want, e.Finish(out), "Encryptor key=%d n=%d shape=%v", ks, n, shape)
			}
		}
	})
}
