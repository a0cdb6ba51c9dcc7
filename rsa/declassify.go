//go:build !valgrind

package rsa

// declassify marks a value computed from secrets that the algorithm makes
// public (a padding or fault check's verdict, the length of a valid
// decryption) as public for valgrind's memcheck; outside the build tag
// valgrind it does nothing (see declassify_valgrind.go).
func declassify[T any](*T) {}
