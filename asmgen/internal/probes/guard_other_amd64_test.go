//go:build amd64 && !purego && !linux

package probes

import "testing"

// guardedPage returns a page of memory; only Linux gets the unmapped page
// after it (there a probe touching a byte past the end of its buffer faults
// natively as it does on the model).
func guardedPage(t testing.TB) []byte { return make([]byte, 4096) }
