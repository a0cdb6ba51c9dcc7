//go:build amd64 && !purego && linux

package probes

import (
	"syscall"
	"testing"
)

// guardedPage returns a page of memory followed by an unmapped one, so that
// a probe touching a byte past the end of a buffer that ends with the page
// faults natively as it does on the model.
func guardedPage(t testing.TB) []byte {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return mem[:page:page]
}
