package aesgcm_test

import (
	"crypto/aes"
	"crypto/cipher"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/internal/aeadtest"
)

// stdlibGOARCHes are the GOARCHes where the standard library has AES-GCM
// assembly and vg has none: there the default backend is the standard
// library's ("stdlib"), so vg is never slower than what it replaces.
var stdlibGOARCHes = []string{"arm64", "ppc64", "ppc64le", "s390x"}

// TestDefaultBackendPerGOARCH pins the backends of this build and the
// default one: on amd64 vg's assembly (never stdlib); on the stdlib
// GOARCHes stdlib then generic, stdlib the default where the CPU runs the
// standard library's assembly (cpufeat.StdAES) and VG_CPU_FEATURES allows
// it; elsewhere, and under purego, generic alone.
func TestDefaultBackendPerGOARCH(t *testing.T) {
	var names []string
	for _, b := range aesgcm.Backends() {
		names = append(names, b.Name)
	}
	g, err := aesgcm.Prepare(make([]byte, 16))
	require.NoError(t, err)
	aeadtest.CheckGOARCHBackends(t, aeadtest.GOARCHBackends{
		Names: names, Default: g.Backend(),
		AMD64:          []string{"vaes-avx512", "vaes-avx2", "aesni-avx", "aesni", "generic"},
		StdlibGOARCHes: stdlibGOARCHes,
		Declared:       cpufeat.MustLookup(cpufeat.AESGCM, "stdlib").GOARCHes,
		StdEnabled:     cpufeat.Enabled().Has(cpufeat.StdAES),
		Purego:         purego,
	})
}

// TestNonceAndTagSizesTogether checks a nonce size other than 12 with a tag
// shorter than 16, which crypto/cipher has no constructor for (the stdlib
// backend runs the generic code for it): the output is crypto/cipher's
// GCM with that nonce size and a 16-byte tag, the tag cut short, and Open
// takes it back and refuses it with a bit flipped.
func TestNonceAndTagSizesTogether(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(7)
		for i, n := range []int{0, 1, 16, 63, 64, 65, 300, 1350} {
			nonceSize, tagSize := []int{1, 8, 16, 60}[i%4], 12+i%4
			key := r.bytes([]int{16, 24, 32}[i%3])
			g, err := aesgcm.Prepare(key, aesgcm.WithBackend(backend), aesgcm.WithNonceSize(nonceSize), aesgcm.WithTagSize(tagSize))
			require.NoError(t, err)
			b, err := aes.NewCipher(key)
			require.NoError(t, err)
			ref, err := cipher.NewGCMWithNonceSize(b, nonceSize)
			require.NoError(t, err)
			nonce, pt, aad := r.bytes(nonceSize), r.bytes(n), r.bytes(i*5)
			want := ref.Seal(nil, nonce, pt, aad)[:n+tagSize]
			got := g.Seal(nil, nonce, pt, aad)
			equalBytes(t, want, got, "n=%d nonce=%d tag=%d", n, nonceSize, tagSize)
			gathered := g.SealGather(nil, nonce, [][]byte{pt[:n/2], pt[n/2:]}, aad)
			equalBytes(t, want, gathered)
			opened, err := g.Open(nil, nonce, got, aad)
			require.NoError(t, err)
			equalBytes(t, pt, opened)
			got[len(got)-1] ^= 1
			_, err = g.Open(nil, nonce, got, aad)
			require.Error(t, err)
		}
	})
}

// TestNothingWrittenPast seals and opens into buffers with spare capacity
// at every tag size: nothing past the result changes (crypto/cipher's
// assembly writes zeros past a tag shorter than 16 bytes, golang/go#80288,
// which the stdlib backend must not pass on).
func TestNothingWrittenPast(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		r := newRnd(9)
		for tagSize := aesgcm.MinTagSize; tagSize <= aesgcm.TagSize; tagSize++ {
			g, err := aesgcm.Prepare(r.bytes(16), aesgcm.WithBackend(backend), aesgcm.WithTagSize(tagSize))
			require.NoError(t, err)
			nonce := r.bytes(aesgcm.NonceSize)
			for _, n := range []int{0, 1, 2, 15, 17, 33, 100} {
				pt := r.bytes(n)
				sealed := g.Seal(nil, nonce, pt, nil)
				buf := r.bytes(n + tagSize + 32)
				before := slices.Clone(buf)
				out := g.Seal(buf[:0], nonce, pt, nil)
				equalBytes(t, sealed, out)
				equalBytes(t, before[len(out):], buf[len(out):], "Seal wrote past its result: tag %d, n %d", tagSize, n)
				copy(buf, before)
				opened, err := g.Open(buf[:0], nonce, sealed, nil)
				require.NoError(t, err)
				equalBytes(t, pt, opened)
				equalBytes(t, before[n:], buf[n:], "Open wrote past its result: tag %d, n %d", tagSize, n)
			}
		}
	})
}
