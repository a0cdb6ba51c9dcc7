package aesgcm

import "encoding/binary"

// keyImpl is the seam every AES-GCM implementation plugs into: a key
// prepared for one backend (its round keys and GHASH key powers in whatever
// form it wants), made once by Prepare through the backend's newKeyFunc
// (its registration, in aesgcm_amd64.go, aesgcm_stdlib.go or aesgcm_noasm.go) and held by the
// AEAD. The generic backend's key type is in aesgcm_generic.go, the
// assembly backends' in the generated asm_glue_amd64.go (over asm_amd64.go).
//
// The public methods of AEAD check sizes, overlaps and limits, derive the
// pre-counter block J0 from the nonce and handle the tag size; a backend
// sees only whole messages (or stream steps) and always produces the full
// 16-byte tag. Every method except wipe must be safe for concurrent use,
// must not allocate, and must keep secrets out of branches and addresses.
// out and the text always have the same length and are either the same
// memory or disjoint.
//
// Arguments go by value (counter) or as slices the caller owns, so that the
// per-message state of a backend lives on its own stack: passing a pointer
// to a caller's local through this interface would move it to the heap.
type keyImpl interface {
	// state returns the AEAD state that the key carries in its own
	// allocation (see Prepare): one allocation per key, not two.
	state() *keyState

	// ghashNonce returns J0 for a nonce whose length is not 12:
	// GHASH(nonce || zero padding || 0^64 || bitlen(nonce)).
	ghashNonce(nonce []byte) counter

	// seal encrypts text into out with the counter blocks inc32(J0),
	// inc32^2(J0), ..., and writes the first len(tag) bytes (12 to 16) of
	// E(J0) ^ GHASH(aad, out) to tag, which does not overlap out.
	seal(out, text, aad []byte, j0 counter, tag []byte)

	// open decrypts ciphertext into out like seal and reports, in constant
	// time, whether tag (12 to 16 bytes) is the first len(tag) bytes of
	// E(J0) ^ GHASH(aad, ciphertext). The caller zeroes out on false.
	open(out, ciphertext, aad []byte, j0 counter, tag []byte) bool

	// sealGather is seal of the concatenation of pieces; len(out) is the
	// sum of their lengths. A piece is either exactly its part of out or
	// disjoint from out.
	sealGather(out []byte, pieces [][]byte, aad []byte, j0 counter, tag []byte)

	// streamStart prepares s for a message with this aad and J0.
	streamStart(s *streamState, aad []byte, j0 counter)

	// streamEncrypt encrypts the next len(in) bytes of the message into out:
	// it first finishes a block left open by the previous call, then
	// encrypts whole blocks straight from in, then keeps the ciphertext of
	// at most 15 bytes in s for GHASH.
	streamEncrypt(s *streamState, out, in []byte)

	// streamFinish returns the full tag of the message and wipes s.
	streamFinish(s *streamState) [16]byte

	// wipe zeroes the key material.
	wipe()
}

// nonceImpl is the part of a backend that takes the nonce itself rather
// than J0: the standard library's (keyStd), whose crypto/cipher GCM derives
// J0 inside. Prepare asks a key for it (forSizes, with the AEAD's nonce and
// tag sizes) and the AEAD's Seal, Open and SealGather then call it instead
// of keyImpl's seal, open and sealGather; the stream and everything else
// stay on keyImpl.
type nonceImpl interface {
	// sealNonce seals text into out: len(text) bytes of ciphertext, then
	// the tag (the AEAD's tag size). text is out[:len(text)] or disjoint
	// from out.
	sealNonce(out, nonce, text, aad []byte)

	// openNonce opens ciphertext (the text, then the tag) into out,
	// len(ciphertext) minus the tag size bytes, and reports whether the
	// tag was right. out starts where ciphertext does or is disjoint
	// from it.
	openNonce(out, nonce, ciphertext, aad []byte) bool
}

// counter is the pre-counter block J0 as two little-endian words: bytes
// 0-7 in lo, 8-15 in hi (for a 12-byte nonce, hi holds its last 4 bytes and
// the big-endian counter 1 on top). Two words, not a [16]byte: Go keeps a
// struct of two words in registers across calls and writes it to memory
// with two 8-byte stores, which the assembly reads back with two 8-byte
// loads, each forwarded from its store. A [16]byte built from the nonce in
// pieces and then read with one 16-byte load waits until the pieces reach
// the cache (store forwarding fails), a large part of a 16-byte seal.
type counter struct{ lo, hi uint64 }

// counterOf returns the counter of the 16 bytes of J0 b.
func counterOf(b *[16]byte) counter {
	return counter{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
}

// streamState is the state of one streaming encryption: the lengths, and
// each kind of backend's own state. It holds keystream, so streamFinish
// clears it.
type streamState struct {
	aadLen, textLen uint64
	gen             genericStream
	asm             asmStream
}

// genericStream is the generic backend's stream state.
type genericStream struct {
	prefixLo, prefixHi uint64   // bytes 0..11 of J0 as little-endian words
	ctr                uint32   // the counter of the next keystream batch
	mask               [16]byte // E(J0)
	y                  [16]byte // GHASH accumulator, in the byte order of a block
	ks                 [64]byte // keystream batch
	ksPos              int      // keystream bytes of ks already used
	open               [16]byte // ciphertext of the block left open
	n                  int      // bytes in open, 0..15
}

// asmStream is the assembly backends' stream state (see _asm/gcm.go): the
// GHASH accumulator, the next counter, E(J0), and the keystream and
// ciphertext of the block left open.
type asmStream struct {
	st [80]byte
}
