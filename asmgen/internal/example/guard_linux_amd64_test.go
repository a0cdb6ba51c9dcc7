//go:build amd64 && !purego && linux

package example

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// guarded returns a buffer of n bytes that ends exactly where an unmapped
// page begins, so any read or write past its end faults.
func guarded(t *testing.T, n int) []byte {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	require.NoError(t, syscall.Mprotect(mem[page:], syscall.PROT_NONE))
	return mem[page-n : page : page]
}

// TestNothingPastTheEnd runs the partial-block, XOR and gather blocks on
// buffers that end at an unmapped page: touching a byte past the end would
// crash the test.
func TestNothingPastTheEnd(t *testing.T) {
	forEach(t, func(t *testing.T, im impl) {
		for n := 1; n < 16; n++ {
			src := guarded(t, n)
			copy(src, random(t, n))
			var block [16]byte
			im.loadPartial(&block, &src[0], n)
			require.Equal(t, src, block[:n])
			dst := guarded(t, n)
			im.copyPartial(&dst[0], &src[0], n)
			require.Equal(t, src, dst)
		}
		for _, n := range []int{1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 175} {
			a, b, dst := guarded(t, n), guarded(t, n), guarded(t, n)
			copy(a, random(t, n))
			copy(b, random(t, n))
			im.xorBytes(&dst[0], &a[0], &b[0], n)
			for i := range n {
				require.Equal(t, a[i]^b[i], dst[i])
			}
			src := guarded(t, n)
			copy(src, random(t, n))
			out := guarded(t, n+1)
			im.gatherCopy(out, [][]byte{src[:1], src[1:]})
			require.Equal(t, src, out[:n])
		}
	})
}
