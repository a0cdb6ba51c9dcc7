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
