//go:build gc && !purego

package cpufeat

import "golang.org/x/sys/cpu"

// stdFeatures reports what the standard library's assembly needs on s390x:
// the CPACF functions crypto/cipher's GCM uses (AES, AES-CBC, AES-CTR and
// GHASH; without GHASH it hashes with tables) and, for x/crypto's ChaCha20,
// the vector facility.
func stdFeatures() Set {
	s := Of(StdRSA) // crypto/rsa's arithmetic: the base instruction set
	if cpu.S390X.HasAES && cpu.S390X.HasAESCBC && cpu.S390X.HasAESCTR && cpu.S390X.HasGHASH {
		s |= Of(StdAES)
	}
	if cpu.S390X.HasVX {
		s |= Of(StdChaCha20)
	}
	return s
}
