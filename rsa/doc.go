// Package rsa implements constant-time RSA private-key operations (signing
// and decryption with every padding) and the matching public operations, with
// one Montgomery-arithmetic backend per CPU feature set.
//
// The implementation arrives with its own issue; until then this module holds
// no code.
package rsa
