//go:build amd64 && !purego

package aesgcm

import (
	"unsafe"

	"github.com/vgcrypto/vg/stackscratch"
)

//go:generate env GOWORK=off go -C _asm run .

// The assembly backends' shared Go side. Each backend's key type (generated
// into asm_glue_amd64.go) embeds asmKey and calls its own functions, so the
// backend chosen at New is never decided again per call.

// asmTableSize is the size of the key table the assembly reads (see
// _asm/gcm.go): 15 round keys in the standard byte order, then the GHASH
// key powers H^16..H^1 (each times x^-1, byte-reflected; every bulk loop
// hashes 16 blocks per reduction), then for each power the XOR of its
// halves, for Karatsuba.
const asmTableSize = 752

// asmKey is the key table of an assembly backend and the AEAD state the key
// carries (st), one allocation: a second one for the state costs Prepare
// more than scanning the table does (the module README has the figures).
// The table must be 16-byte aligned (SSE instructions read it
// as memory operands), so it is placed at an aligned offset of buf (heap
// objects do not move), kept as a number.
type asmKey struct {
	buf    [asmTableSize + 15]byte
	off    uintptr // of the table in buf
	rounds int
	st     keyState
}

// state returns the AEAD state the key carries.
func (k *asmKey) state() *keyState { return &k.st }

// table returns the 16-byte aligned key table.
func (k *asmKey) table() *[asmTableSize]byte {
	return (*[asmTableSize]byte)(unsafe.Add(unsafe.Pointer(&k.buf), k.off))
}

// align places the table at its 16-byte aligned offset and records the
// number of rounds of a keyLen-byte key; the backend's init function then
// fills the table from the key (round keys and GHASH key powers).
func (k *asmKey) align(keyLen int) {
	k.off = -uintptr(unsafe.Pointer(&k.buf[0])) & 15
	k.rounds = keyLen/4 + 6
}

// key returns k, for tests that read the table of any backend's key.
func (k *asmKey) key() *asmKey { return k }

// wipe zeroes the round keys and the key powers.
func (k *asmKey) wipe() { stackscratch.Wipe(k.buf[:]) }

// ptr returns the address of b's first element, nil for a nil slice; the
// assembly reads nothing through it when len(b) is 0.
func ptr(b []byte) *byte { return unsafe.SliceData(b) }

// ptr returns J0 as the assembly reads it: the 16 bytes of the two
// little-endian words, in memory order (amd64 is little-endian).
func (c *counter) ptr() *[16]byte { return (*[16]byte)(unsafe.Pointer(c)) }

// tagDst returns where the assembly writes the 16-byte tag of a seal: the
// output's tag itself when it is 16 bytes (no copy in Go, where a 16-byte
// store read back in pieces may wait for the cache), else buf, whose first
// len(tag) bytes finishTag then copies.
func tagDst(tag []byte, buf *[16]byte) *[16]byte {
	if len(tag) == TagSize {
		return (*[16]byte)(tag)
	}
	return buf
}

// finishTag copies a short tag from buf (see tagDst).
func finishTag(tag []byte, buf *[16]byte) {
	if len(tag) < TagSize {
		copy(tag, buf[:])
	}
}
