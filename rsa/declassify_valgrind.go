//go:build valgrind

package rsa

import (
	"unsafe"

	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

// declassify marks a value computed from secrets that the algorithm makes
// public (a padding or fault check's verdict, the length of a valid
// decryption) as public for valgrind's memcheck, so that the branch on it is
// not reported: ci/cmd/ctgrind runs the tests built with the tag valgrind,
// and every other branch or address that depends on the key is a failure.
func declassify[T any](v *T) { ctgrind.Defined(unsafe.Pointer(v), unsafe.Sizeof(*v)) }
