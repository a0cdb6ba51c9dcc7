//go:build valgrind

package chacha20poly1305

import (
	"unsafe"

	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

// declassify marks a value computed from secrets that the algorithm makes
// public (Open's verdict) as public for valgrind's memcheck, so that the
// branch on it is not reported: ci/cmd/ctgrind runs the tests built with the
// tag valgrind, and every other branch or address that depends on the key or
// the plaintext is a failure.
func declassify(v *bool) { ctgrind.Defined(unsafe.Pointer(v), unsafe.Sizeof(*v)) }
