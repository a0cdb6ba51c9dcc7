//go:build gc && !purego

package cpufeat

import "golang.org/x/sys/cpu"

// stdFeatures reports what the standard library's assembly needs on arm64:
// crypto/cipher's GCM runs on AES and PMULL (without them crypto/aes uses
// lookup tables), and x/crypto's ChaCha20 and crypto/rsa's arithmetic on
// the base instruction set.
func stdFeatures() Set {
	s := Of(StdChaCha20, StdRSA)
	if cpu.ARM64.HasAES && cpu.ARM64.HasPMULL {
		s |= Of(StdAES)
	}
	return s
}
