package stackscratch

import (
	"crypto/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func randomKey(t *testing.T) *[32]byte {
	var k [32]byte
	_, err := rand.Read(k[:])
	require.NoError(t, err)
	return &k
}

// expand derives 64 bytes from a key in a local array, like a key schedule.
// The local array holds the key itself in its first half.
//
//go:noinline
func expand(key *[32]byte, out *[32]byte, wipe bool) {
	var tmp [64]byte
	copy(tmp[:32], key[:])
	for i := range 32 {
		tmp[32+i] = tmp[i] ^ tmp[31-i] ^ 0x5c
	}
	fold(&tmp, out)
	if wipe {
		Wipe(tmp[:])
	}
}

//go:noinline
func fold(tmp *[64]byte, out *[32]byte) {
	for i := range 32 {
		out[i] = tmp[i] + tmp[32+i]
	}
}

func TestScanCatchesGoLocal(t *testing.T) {
	key := randomKey(t)
	var out [32]byte
	r, err := Scan(func() { expand(key, &out, false) }, Windows(8, key[:]))
	require.NoError(t, err)
	assert.False(t, r.Clean(), "a Go function leaving the key in a local array must be caught: %v", r)
	assert.Greater(t, r.Used, 64)
	t.Log(r)
}

func TestScanPassesWipedGoLocal(t *testing.T) {
	key := randomKey(t)
	var out [32]byte
	r, err := Scan(func() { expand(key, &out, true) }, Windows(8, key[:]))
	require.NoError(t, err)
	assert.True(t, r.Clean(), "the same function with Wipe leaves nothing: %v", r)
	assert.Greater(t, r.Used, 64, "the harness saw the frames the function used")
}

// deep uses about n bytes of stack per level.
//
//go:noinline
func deep(levels int) byte {
	var b [1024]byte
	b[levels%1024] = byte(levels)
	keep(b[:1])
	if levels == 0 {
		return b[0]
	}
	return deep(levels-1) + b[levels%1024]
}

func TestScanRefusesWhenStackMoves(t *testing.T) {
	// More stack than the window: the stack must grow during the call, so
	// the frames used are copied away and Scan must not report them clean.
	_, err := Scan(func() { deep(2 * Window / 1024) }, Windows(8, []byte("some secret bytes")))
	require.ErrorIs(t, err, ErrStackMoved)
}

func TestScanRejectsBadPatterns(t *testing.T) {
	_, err := Scan(func() {}, [][]byte{{1, 2}})
	require.ErrorContains(t, err, "at least 4")
	_, err = Scan(func() {}, [][]byte{make([]byte, 8)})
	require.ErrorContains(t, err, "all zero")
}

func TestScanReportsPanic(t *testing.T) {
	_, err := Scan(func() { panic("boom") }, Windows(8, []byte("0123456789")))
	require.ErrorContains(t, err, "boom")
}

func TestWindows(t *testing.T) {
	ws := Windows(4, []byte("abcdef"), []byte("xy"))
	assert.Equal(t, [][]byte{[]byte("abcd"), []byte("bcde"), []byte("cdef"), []byte("xy")}, ws)
}

func TestWipe(t *testing.T) {
	b := []byte{1, 2, 3, 4, 5}
	Wipe(b)
	assert.Equal(t, make([]byte, 5), b)
	w := []uint64{7, 8, 9}
	WipeWords(w)
	assert.Equal(t, make([]uint64, 3), w)
	u := []uint{1, 2}
	WipeWords(u)
	assert.Equal(t, []uint{0, 0}, u)
}
