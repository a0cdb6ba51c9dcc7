//go:build amd64 && !purego

package aesgcm

import (
	"unsafe"

	"github.com/vgcrypto/vg/cpufeat"
)

// implementations lists the backends compiled into this build, for
// registry (aesgcm.go), which orders them as cpufeat declares them and
// chooses one at New.
var implementations = []cpufeat.Impl[newKeyFunc]{
	{Name: "vaes-avx2", Value: newVAESAVX2Key},
	{Name: "aesni-avx", Value: newAESNIKey(true)},
	{Name: "aesni", Value: newAESNIKey(false)},
	{Name: cpufeat.GenericBackend, Value: newGenericKey},
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
