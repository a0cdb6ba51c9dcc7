// Package aesgcm implements AES-GCM (NIST SP 800-38D) with one constant-time
// backend per CPU feature set, chosen once when a key is prepared.
//
// The implementation arrives with its own issue; until then this module holds
// no code.
package aesgcm
