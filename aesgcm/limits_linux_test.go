package aesgcm_test

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
)

// TestTooLarge passes texts over GCM's limit to Seal and Open. They live in
// address space reserved with PROT_NONE, so any read or write of them would
// crash: the limit is checked before anything is touched.
func TestTooLarge(t *testing.T) {
	const size = aesgcm.MaxPlaintextSize + 64
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve %d bytes of address space: %v", size, err)
	}
	defer syscall.Munmap(mem)
	huge := unsafe.Slice(unsafe.SliceData(mem), size)
	g, err := aesgcm.Prepare(make([]byte, 16))
	require.NoError(t, err)
	nonce := make([]byte, 12)
	assert.PanicsWithValue(t, "aesgcm: message too large for GCM", func() { g.Seal(nil, nonce, huge[:aesgcm.MaxPlaintextSize+1], nil) })
	_, err = g.Open(nil, nonce, huge[:aesgcm.MaxPlaintextSize+16+1], nil)
	require.ErrorContains(t, err, "too large")
	e := g.NewEncryptor(nonce, nil)
	assert.Panics(t, func() { e.Encrypt(nil, huge[:aesgcm.MaxPlaintextSize+1]) })
	d := g.NewDecryptor(nonce, nil)
	_, err = d.Write(huge[:aesgcm.MaxPlaintextSize+17])
	require.ErrorContains(t, err, "too large")
}
