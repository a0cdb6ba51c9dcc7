// Package conformance holds vg's cross-backend test material and the tests
// that use it:
//
//   - wycheproof: the pinned Wycheproof vectors (fetched through the Go module
//     proxy at one pseudo-version) with typed structs for the AEAD and RSA
//     schemas;
//   - spec/aesgcm, spec/chacha20poly1305, spec/rsa: short, obviously correct
//     reference implementations written from the standards, used only by
//     tests; spec/rsa/vectors drives the RSA Wycheproof files for both the
//     tests and the runner;
//   - agree: the backend-agreement driver for AEADs (every implementation on
//     the same random inputs, lengths, AAD lengths, offsets, in place and out
//     of place, gather and stream slice shapes; reports the first
//     disagreement with its exact input);
//   - aeadcontract: the crypto/cipher.AEAD contract suite every AEAD backend runs;
//   - cmd/conformance: the conformance runner, the README's main command;
//   - prove and cmd/prove: proofs that generated functions equal the
//     specification for every input (x86sim's symbolic mode against spec/).
//
// The tests of this package run every Wycheproof file, the contract suite and
// the agreement driver on every backend that aesgcm, chacha20poly1305 and rsa
// report available under the VG_CPU_FEATURES in force.
package conformance
