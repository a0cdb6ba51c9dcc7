// Package ctgrind checks constant time under valgrind's memcheck, as
// ctgrind proposed: a test marks its secrets undefined with a client request,
// runs the code under test, and memcheck reports every conditional branch
// and every memory address that depends on them ("Conditional jump or move
// depends on uninitialised value(s)", "Use of uninitialised value"), in Go
// and in assembly alike. Outside valgrind every function here does nothing.
//
// Values the algorithm makes public (a tag check's verdict, a padding
// check's verdict, a ciphertext) are declassified with [Defined] before
// anything branches on them; tests declassify outputs before comparing
// them. ci/cmd/ctgrind builds a package's tests with -tags valgrind (Go's
// valgrind-aware runtime), runs them under memcheck and fails on every
// report whose value comes from [Undefined] and whose stack has a vg frame.
package ctgrind

import "unsafe"

// Request codes of valgrind.h and memcheck.h (stable across releases).
const (
	reqRunningOnValgrind = 0x1001
	reqMakeMemUndefined  = 'M'<<24 | 'C'<<16 + 1
	reqMakeMemDefined    = 'M'<<24 | 'C'<<16 + 2
	reqGetVbits          = 'M'<<24 | 'C'<<16 + 8
)

func request(code uintptr, p unsafe.Pointer, n uintptr) uintptr {
	req := [6]uintptr{code, uintptr(p), n}
	return clientRequest(&req)
}

// Running reports whether the program runs under valgrind.
func Running() bool { return request(reqRunningOnValgrind, nil, 0) != 0 }

// Undefined marks the n bytes at p undefined for memcheck: from now on every
// branch and address computed from them is reported.
//
// ci/cmd/ctgrind counts a report only when memcheck traces the value's
// origin to this function's client request: keep it out of line.
//
//go:noinline
func Undefined(p unsafe.Pointer, n uintptr) {
	if n > 0 {
		request(reqMakeMemUndefined, p, n)
	}
}

// Defined marks the n bytes at p defined again (declassifies them), keeping
// their values.
func Defined(p unsafe.Pointer, n uintptr) {
	if n > 0 {
		request(reqMakeMemDefined, p, n)
	}
}

// UndefinedBytes is [Undefined] of the bytes of b.
func UndefinedBytes(b []byte) { Undefined(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b))) }

// DefinedBytes is [Defined] of the bytes of b.
func DefinedBytes(b []byte) { Defined(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b))) }

// UndefinedWords is [Undefined] of the words of w (limbs of a big number).
func UndefinedWords(w []uint64) { Undefined(unsafe.Pointer(unsafe.SliceData(w)), 8*uintptr(len(w))) }

// DefinedWords is [Defined] of the words of w.
func DefinedWords(w []uint64) { Defined(unsafe.Pointer(unsafe.SliceData(w)), 8*uintptr(len(w))) }

// IsDefined reports whether memcheck holds every bit of the n bytes at p
// defined (VALGRIND_GET_VBITS); outside valgrind it reports true.
func IsDefined(p unsafe.Pointer, n uintptr) bool {
	if n == 0 || !Running() {
		return true
	}
	vbits := make([]byte, n)
	req := [6]uintptr{reqGetVbits, uintptr(p), uintptr(unsafe.Pointer(&vbits[0])), n}
	if clientRequest(&req) != 1 {
		panic("ctgrind: VALGRIND_GET_VBITS failed")
	}
	for _, v := range vbits {
		if v != 0 {
			return false
		}
	}
	return true
}
