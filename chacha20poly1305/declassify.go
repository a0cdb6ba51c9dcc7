//go:build !valgrind

package chacha20poly1305

// declassify marks a value computed from secrets that the algorithm makes
// public (Open's verdict) as public for valgrind's memcheck; outside the
// build tag valgrind it does nothing (see declassify_valgrind.go).
func declassify(*bool) {}
