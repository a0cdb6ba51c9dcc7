// Package chacha20poly1305 implements ChaCha20-Poly1305 (RFC 8439) and
// XChaCha20-Poly1305 with one backend per CPU feature set.
//
// The implementation arrives with its own issue; until then this module holds
// no code.
package chacha20poly1305
