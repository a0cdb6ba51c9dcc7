//go:build gc && !purego

package cpufeat

// stdFeatures reports what the standard library's assembly needs on
// loong64: x/crypto's ChaCha20 has assembly there (crypto/aes has none).
func stdFeatures() Set { return Of(StdChaCha20) }
