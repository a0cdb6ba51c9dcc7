//go:build (ppc64 || ppc64le) && gc && !purego

package cpufeat

// stdFeatures reports what the standard library's assembly needs on ppc64
// and ppc64le: POWER8's vector AES and carry-less multiply (crypto/cipher's
// GCM) and VSX (x/crypto's ChaCha20), which every CPU Go runs on there has;
// crypto/rsa's arithmetic needs nothing more.
func stdFeatures() Set { return Of(StdAES, StdChaCha20, StdRSA) }
