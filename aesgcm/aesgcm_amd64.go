//go:build amd64 && !purego

package aesgcm

import "unsafe"

// implementations lists the backends compiled into this build. The assembly
// backends vaes-avx2 and vaes-avx512 join this list as they land; New picks
// among them with cpufeat.Select.
var implementations = []implementation{
	{name: "vaes-avx2", newKey: newVAESAVX2Key},
	{name: "aesni-avx", newKey: newAESNIKey(true)},
	{name: "aesni", newKey: newAESNIKey(false)},
	{name: "generic", newKey: newGenericKey},
}

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
