package aesgcm_test

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/vgcrypto/vg/aesgcm"
)

// The benchmarks put every available backend beside crypto/cipher's GCM
// ("stdlib") in the same run, with names that pair them for benchstat:
//
//	BenchmarkSeal/AES-128/1350/generic
//	BenchmarkSeal/AES-128/1350/stdlib
//
// With -tags purego the standard library uses its portable code too.
var benchSizes = []int{16, 64, 256, 512, 768, 1024, 1350, 4096, 16384}

const benchAADSize = 13

type benchAEAD struct {
	name string
	aead cipher.AEAD
	vg   *aesgcm.AEAD // nil for the standard library
}

func benchAEADs(b *testing.B, keySize int) []benchAEAD {
	key := make([]byte, keySize)
	for i := range key {
		key[i] = byte(i)
	}
	var as []benchAEAD
	for _, name := range available(b) {
		g, err := aesgcm.Prepare(key, aesgcm.WithBackend(name))
		if err != nil {
			b.Fatal(err)
		}
		as = append(as, benchAEAD{benchName(name), g, g})
	}
	blk, err := aes.NewCipher(key)
	if err != nil {
		b.Fatal(err)
	}
	std, err := cipher.NewGCM(blk)
	if err != nil {
		b.Fatal(err)
	}
	return append(as, benchAEAD{"stdlib", std, nil})
}

// benchName is a backend's name in the benchmarks: the stdlib backend
// (off amd64), vg's API over crypto/cipher, is "vg-stdlib", since "stdlib"
// alone names crypto/cipher itself, the reference.
func benchName(backend string) string {
	if backend == "stdlib" {
		return "vg-stdlib"
	}
	return backend
}

func forBench(b *testing.B, f func(b *testing.B, a benchAEAD, size int)) {
	for _, keySize := range []int{16, 32} {
		as := benchAEADs(b, keySize)
		for _, size := range benchSizes {
			for _, a := range as {
				b.Run(fmt.Sprintf("AES-%d/%d/%s", keySize*8, size, a.name), func(b *testing.B) {
					f(b, a, size)
				})
			}
		}
	}
}

func BenchmarkSeal(b *testing.B) {
	forBench(b, func(b *testing.B, a benchAEAD, size int) {
		nonce, pt, aad := make([]byte, 12), make([]byte, size), make([]byte, benchAADSize)
		dst := make([]byte, 0, size+16)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			a.aead.Seal(dst, nonce, pt, aad)
		}
	})
}

func BenchmarkOpen(b *testing.B) {
	forBench(b, func(b *testing.B, a benchAEAD, size int) {
		nonce, pt, aad := make([]byte, 12), make([]byte, size), make([]byte, benchAADSize)
		sealed := a.aead.Seal(nil, nonce, pt, aad)
		dst := make([]byte, 0, size)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.aead.Open(dst, nonce, sealed, aad); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSealGather seals the TLS record shape, size bytes of payload then
// one content-type byte: "<backend>" with SealGather, "<backend>-contiguous"
// (and "stdlib-contiguous") with Seal of the same size+1 bytes in one slice.
func BenchmarkSealGather(b *testing.B) {
	for _, keySize := range []int{16, 32} {
		as := benchAEADs(b, keySize)
		for _, size := range benchSizes {
			nonce, aad := make([]byte, 12), make([]byte, benchAADSize)
			payload, contentType := make([]byte, size), []byte{23}
			contiguous := make([]byte, size+1)
			dst := make([]byte, 0, size+1+16)
			for _, a := range as {
				if a.vg != nil {
					b.Run(fmt.Sprintf("AES-%d/%d/%s", keySize*8, size, a.name), func(b *testing.B) {
						pieces := [][]byte{payload, contentType}
						b.SetBytes(int64(size + 1))
						b.ReportAllocs()
						for b.Loop() {
							a.vg.SealGather(dst, nonce, pieces, aad)
						}
					})
				}
				b.Run(fmt.Sprintf("AES-%d/%d/%s-contiguous", keySize*8, size, a.name), func(b *testing.B) {
					b.SetBytes(int64(size + 1))
					b.ReportAllocs()
					for b.Loop() {
						a.aead.Seal(dst, nonce, contiguous, aad)
					}
				})
			}
		}
	}
}

// BenchmarkEncryptor streams size bytes in chunks of 1000 (a chunk boundary
// inside a block) beside Seal of the same bytes.
func BenchmarkEncryptor(b *testing.B) {
	forBench(b, func(b *testing.B, a benchAEAD, size int) {
		if a.vg == nil || size < 4096 {
			b.Skip("streaming sizes: 4096 and 16384; vg backends only")
		}
		nonce, pt, aad := make([]byte, 12), make([]byte, size), make([]byte, benchAADSize)
		dst := make([]byte, 0, size+16)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			e := a.vg.NewEncryptor(nonce, aad)
			out := dst
			for p := pt; len(p) > 0; {
				n := min(1000, len(p))
				out = e.Encrypt(out, p[:n])
				p = p[n:]
			}
			e.Finish(out)
		}
	})
}

// BenchmarkEncryptorShapes streams n bytes in the chunk shapes of the
// issue's streaming goal: [n] (one chunk, the reference), [1, n-1],
// [5, n-5], [100, n-100] and three thirds, for n >= 768.
func BenchmarkEncryptorShapes(b *testing.B) {
	for _, keySize := range []int{16, 32} {
		for _, a := range benchAEADs(b, keySize) {
			if a.vg == nil {
				continue
			}
			for _, n := range []int{768, 1350, 4096, 16384} {
				shapes := []struct {
					name string
					cuts []int
				}{{"one", []int{n}}, {"1", []int{1, n - 1}}, {"5", []int{5, n - 5}}, {"100", []int{100, n - 100}}, {"thirds", []int{n / 3, n / 3, n - 2*(n/3)}}}
				for _, sh := range shapes {
					b.Run(fmt.Sprintf("AES-%d/%d/%s/%s", keySize*8, n, a.name, sh.name), func(b *testing.B) {
						nonce, pt, aad := make([]byte, 12), make([]byte, n), make([]byte, benchAADSize)
						dst := make([]byte, 0, n+16)
						b.SetBytes(int64(n))
						b.ReportAllocs()
						for b.Loop() {
							e := a.vg.NewEncryptor(nonce, aad)
							out, p := dst, pt
							for _, c := range sh.cuts {
								out = e.Encrypt(out, p[:c])
								p = p[c:]
							}
							e.Finish(out)
						}
					})
				}
			}
		}
	}
}

// BenchmarkNew is key setup: Prepare per backend (round keys and GHASH key
// powers) beside crypto/cipher's aes.NewCipher + cipher.NewGCM ("stdlib"),
// and New (the drop-in, best backend) as "vg-new".
func BenchmarkNew(b *testing.B) {
	for _, keySize := range []int{16, 32} {
		key := make([]byte, keySize)
		for _, name := range available(b) {
			b.Run(fmt.Sprintf("AES-%d/%s", keySize*8, benchName(name)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := aesgcm.Prepare(key, aesgcm.WithBackend(name)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("AES-%d/vg-new", keySize*8), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := aesgcm.New(key); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("AES-%d/stdlib", keySize*8), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				blk, err := aes.NewCipher(key)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cipher.NewGCM(blk); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
