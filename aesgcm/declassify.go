//go:build !valgrind

package aesgcm

// declassify marks a value computed from secrets that the algorithm makes
// public (Open's verdict) as public for valgrind's memcheck; outside the
// build tag valgrind it does nothing (see declassify_valgrind.go).
func declassify(*bool) {}
