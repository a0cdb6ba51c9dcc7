package chacha20poly1305_test

import (
	"crypto/cipher"
	"strconv"
	"testing"

	"github.com/vgcrypto/vg/chacha20poly1305"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// The benchmark sizes of DESIGN.md, and the 13-byte additional data of a
// TLS 1.2 record.
var (
	benchSizes = []int{16, 64, 256, 512, 768, 1024, 1350, 4096, 16384}
	benchAD    = make([]byte, 13)
)

// benchAEADs returns, by sub-benchmark name, an AEAD per available backend
// and golang.org/x/crypto/chacha20poly1305 as "xcrypto", for the
// ChaCha20-Poly1305 (x false) or XChaCha20-Poly1305 construction.
func benchAEADs(b *testing.B, x bool) ([]string, map[string]cipher.AEAD) {
	key := make([]byte, chacha20poly1305.KeySize)
	names := available(b)
	m := make(map[string]cipher.AEAD)
	for _, name := range names {
		m[name] = mustNew(b, key, x, name)
	}
	m["xcrypto"] = xcryptoAEAD(b, key, x)
	return append(names, "xcrypto"), m
}

func benchmarkSeal(b *testing.B, x bool) {
	names, aeads := benchAEADs(b, x)
	for _, size := range benchSizes {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			for _, name := range names {
				a := aeads[name]
				b.Run(name, func(b *testing.B) {
					nonce := make([]byte, a.NonceSize())
					pt := make([]byte, size)
					dst := make([]byte, 0, size+chacha20poly1305.TagSize)
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						a.Seal(dst, nonce, pt, benchAD)
					}
				})
			}
		})
	}
}

// BenchmarkSeal is ChaCha20-Poly1305 Seal per backend, beside x/crypto.
func BenchmarkSeal(b *testing.B) { benchmarkSeal(b, false) }

// BenchmarkSealX is XChaCha20-Poly1305 Seal per backend, beside x/crypto.
func BenchmarkSealX(b *testing.B) { benchmarkSeal(b, true) }

// BenchmarkOpen is ChaCha20-Poly1305 Open per backend, beside x/crypto.
func BenchmarkOpen(b *testing.B) {
	names, aeads := benchAEADs(b, false)
	for _, size := range benchSizes {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			for _, name := range names {
				a := aeads[name]
				b.Run(name, func(b *testing.B) {
					nonce := make([]byte, a.NonceSize())
					ct := a.Seal(nil, nonce, make([]byte, size), benchAD)
					dst := make([]byte, 0, size)
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						if _, err := a.Open(dst, nonce, ct, benchAD); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkSealGather seals the TLS 1.3 record shape, a payload of each
// size and the one-byte content type in a second slice, with SealGather
// ("<backend>") and, beside it, the same bytes contiguous with Seal
// ("<backend>-contiguous"). Compare with
// benchcmp -pair generic=generic-contiguous.
func BenchmarkSealGather(b *testing.B) {
	key := make([]byte, chacha20poly1305.KeySize)
	for _, size := range benchSizes {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			for _, name := range available(b) {
				a := mustNew(b, key, false, name)
				nonce := make([]byte, chacha20poly1305.NonceSize)
				record := make([]byte, size+1)
				parts := [][]byte{record[:size], record[size:]}
				dst := make([]byte, 0, size+1+chacha20poly1305.TagSize)
				b.Run(name, func(b *testing.B) {
					b.SetBytes(int64(size + 1))
					b.ReportAllocs()
					for b.Loop() {
						a.SealGather(dst, nonce, parts, benchAD)
					}
				})
				b.Run(name+"-contiguous", func(b *testing.B) {
					b.SetBytes(int64(size + 1))
					b.ReportAllocs()
					for b.Loop() {
						a.Seal(dst, nonce, record, benchAD)
					}
				})
			}
		})
	}
}

// BenchmarkNew is key setup per backend (Prepare), New (the drop-in, best
// backend) as "vg-new", beside x/crypto's New.
func BenchmarkNew(b *testing.B) {
	key := make([]byte, chacha20poly1305.KeySize)
	for _, name := range available(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := chacha20poly1305.Prepare(key, chacha20poly1305.WithBackend(name)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("vg-new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := chacha20poly1305.New(key); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("xcrypto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := xchacha.New(key); err != nil {
				b.Fatal(err)
			}
		}
	})
}
