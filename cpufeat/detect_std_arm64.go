//go:build gc && !purego

package cpufeat

import "golang.org/x/sys/cpu"

// stdFeatures reports what the standard library's assembly needs on arm64:
// crypto/cipher's GCM runs on AES and PMULL (without them crypto/aes uses
// lookup tables), and x/crypto's ChaCha20 on ASIMD, which every arm64 CPU
// Go runs on has.
func stdFeatures() Set {
	s := Of(StdChaCha20)
	if cpu.ARM64.HasAES && cpu.ARM64.HasPMULL {
		s |= Of(StdAES)
	}
	return s
}
