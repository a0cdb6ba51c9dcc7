package rsa_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vgcrypto/vg/rsa"
)

// benchKey returns the fixed test key of the given size (8192 bits too,
// for the verify benchmark), after warmUp.
func benchKey(b *testing.B, bits int) *stdrsa.PrivateKey {
	warmUp()
	if bits != 8192 {
		return testKey(b, bits)
	}
	k, err := loadPEMKey("testdata/rsa8192.pem")
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// warmUp keeps the CPU busy for 100 ms, once per process, before the first
// benchmark. benchcmp pins each run to one CPU, and a new Go process's
// runtime thread sysmon polls every 20 µs until it has been idle for a
// while: on the one CPU its wake-ups take turns with the benchmark, and the
// first few signatures of a process run much slower (the module README has
// the figures). A benchmark of 20 operations would pay that whole; the C
// peers have no such thread.
func warmUp() {
	warm.Do(func() {
		x := uint64(1)
		for t0 := time.Now(); time.Since(t0) < 100*time.Millisecond; {
			for i := range 1000 {
				x = x*3 + uint64(i)
			}
		}
		warmSink = x
	})
}

var (
	warm     sync.Once
	warmSink uint64
)

// benchName is a backend's name in the benchmarks: the stdlib backend (off
// amd64), vg's checks over crypto/rsa, is "vg-stdlib", since "stdlib" alone
// names crypto/rsa itself, the reference.
func benchName(backend string) string {
	if backend == "stdlib" {
		return "vg-stdlib"
	}
	return backend
}

// benchBackends runs f once per available backend and once for crypto/rsa
// ("stdlib"); priv is nil for the stdlib run.
func benchBackends(b *testing.B, bits int, f func(b *testing.B, std *stdrsa.PrivateKey, priv *rsa.PrivateKey)) {
	std := benchKey(b, bits)
	for _, name := range availableBackends(b) {
		b.Run(fmt.Sprintf("%d/%s", bits, benchName(name)), func(b *testing.B) {
			priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(name))
			if err != nil {
				b.Fatal(err)
			}
			f(b, std, priv)
		})
	}
	b.Run(fmt.Sprintf("%d/stdlib", bits), func(b *testing.B) { f(b, std, nil) })
}

func BenchmarkSign(b *testing.B) {
	d := sha256.Sum256([]byte("benchmark"))
	pss := &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: stdrsa.PSSSaltLengthEqualsHash}
	for _, c := range []struct {
		name string
		opts crypto.SignerOpts
	}{{"PSS-SHA256", pss}, {"PKCS1v15-SHA256", crypto.SHA256}} {
		b.Run(c.name, func(b *testing.B) {
			for _, bits := range []int{2048, 3072, 4096} {
				benchBackends(b, bits, func(b *testing.B, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
					var signer crypto.Signer = std
					if priv != nil {
						signer = priv
					}
					for b.Loop() {
						if _, err := signer.Sign(rand.Reader, d[:], c.opts); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

func BenchmarkDecrypt(b *testing.B) {
	msg := make([]byte, 32)
	for _, c := range []struct {
		name string
		opts crypto.DecrypterOpts
	}{{"PKCS1v15", &stdrsa.PKCS1v15DecryptOptions{}}, {"OAEP-SHA256", &stdrsa.OAEPOptions{Hash: crypto.SHA256}}} {
		b.Run(c.name, func(b *testing.B) {
			for _, bits := range []int{2048, 3072, 4096} {
				benchBackends(b, bits, func(b *testing.B, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
					var ct []byte
					var err error
					if c.name == "PKCS1v15" {
						ct, err = stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, msg)
					} else {
						ct, err = stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, msg, nil)
					}
					if err != nil {
						b.Fatal(err)
					}
					var dec crypto.Decrypter = std
					if priv != nil {
						dec = priv
					}
					for b.Loop() {
						if _, err := dec.Decrypt(rand.Reader, ct, c.opts); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	d := sha256.Sum256([]byte("benchmark"))
	b.Run("PKCS1v15-SHA256", func(b *testing.B) {
		for _, bits := range []int{2048, 3072, 4096, 8192} {
			benchBackends(b, bits, func(b *testing.B, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
				sig, err := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
				if err != nil {
					b.Fatal(err)
				}
				if priv == nil {
					for b.Loop() {
						if err := stdrsa.VerifyPKCS1v15(&std.PublicKey, crypto.SHA256, d[:], sig); err != nil {
							b.Fatal(err)
						}
					}
					return
				}
				// A prepared public key, as a verifier of many signatures
				// keeps; VerifyPKCS1v15 (package function) prepares per call.
				pub := priv.PublicKey()
				for b.Loop() {
					if err := pub.VerifyPKCS1v15(crypto.SHA256, d[:], sig); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

// BenchmarkPrivateOps puts each backend's private-key operations side by
// side as siblings, so that benchcmp's per-round ratio compares decryption
// with signing in the same rounds (the "decrypt within 5% of sign"):
//
//	go run ./ci/cmd/benchcmp -pair 'decrypt-*=sign-pkcs1' -bench PrivateOps ./rsa
func BenchmarkPrivateOps(b *testing.B) {
	d := sha256.Sum256([]byte("benchmark"))
	msg := make([]byte, 32)
	pss := &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: stdrsa.PSSSaltLengthEqualsHash}
	for _, bits := range []int{2048, 3072, 4096} {
		std := benchKey(b, bits)
		ctPKCS1, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, msg)
		if err != nil {
			b.Fatal(err)
		}
		ctOAEP, err := stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, msg, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range availableBackends(b) {
			priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(name))
			if err != nil {
				b.Fatal(err)
			}
			ops := []struct {
				name string
				op   func() error
			}{
				{"sign-pkcs1", func() error { _, err := priv.Sign(rand.Reader, d[:], crypto.SHA256); return err }},
				{"sign-pss", func() error { _, err := priv.Sign(rand.Reader, d[:], pss); return err }},
				{"decrypt-pkcs1", func() error { _, err := priv.Decrypt(rand.Reader, ctPKCS1, nil); return err }},
				{"decrypt-oaep", func() error {
					_, err := priv.Decrypt(rand.Reader, ctOAEP, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
					return err
				}},
			}
			for _, o := range ops {
				b.Run(fmt.Sprintf("%d/%s/%s", bits, benchName(name), o.name), func(b *testing.B) {
					for b.Loop() {
						if err := o.op(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkNewPrivateKey compares key setup with crypto/rsa's: each backend's
// NewPrivateKey on a key that carries N, E, D and the primes only, against
// ("stdlib") Precompute and Validate of a fresh copy of that key, which
// derive and check the same CRT values.
//
//	go run ./ci/cmd/benchcmp -pair '*=stdlib' -bench NewPrivateKey ./rsa
func BenchmarkNewPrivateKey(b *testing.B) {
	for _, bits := range []int{2048, 3072, 4096} {
		std := benchKey(b, bits)
		bare := func() *stdrsa.PrivateKey {
			return &stdrsa.PrivateKey{PublicKey: std.PublicKey, D: std.D, Primes: std.Primes}
		}
		for _, name := range availableBackends(b) {
			b.Run(fmt.Sprintf("%d/%s", bits, benchName(name)), func(b *testing.B) {
				k := bare()
				for b.Loop() {
					if _, err := rsa.NewPrivateKey(k, rsa.WithBackend(name)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("%d/stdlib", bits), func(b *testing.B) {
			for b.Loop() {
				k := bare()
				k.Precompute()
				if err := k.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
