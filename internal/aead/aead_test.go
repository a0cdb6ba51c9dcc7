package aead

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOverlap(t *testing.T) {
	buf := make([]byte, 32)
	assert.True(t, AnyOverlap(buf[0:10], buf[9:12]))
	assert.False(t, AnyOverlap(buf[0:10], buf[10:12]))
	assert.False(t, AnyOverlap(buf[0:10], buf[5:5]), "empty slices never overlap")
	assert.False(t, InexactOverlap(buf[0:10], buf[0:4]), "in place")
	assert.True(t, InexactOverlap(buf[0:10], buf[1:4]))
	assert.False(t, InexactOverlap(buf[0:10], buf[20:24]))
}

func TestSliceForAppend(t *testing.T) {
	dst := make([]byte, 3, 8)
	head, tail := SliceForAppend(dst, 5)
	assert.Len(t, head, 8)
	assert.Len(t, tail, 5)
	assert.Same(t, &dst[0], &head[0], "reuses the capacity")
	head, tail = SliceForAppend(dst, 6)
	assert.Len(t, head, 9)
	assert.NotSame(t, &dst[0], &head[0], "grows")
	assert.Same(t, &head[3], &tail[0])
}

// The gather rules: a piece is its own part of the output (text and tag)
// or disjoint from all of it.
func TestGather(t *testing.T) {
	buf := make([]byte, 64)
	out := buf[:10+10+16]
	for _, c := range []struct {
		pieces [][]byte
		ok     bool
	}{
		{[][]byte{buf[0:10], buf[10:20]}, true},
		{[][]byte{buf[0:10], buf[40:50]}, true},
		{[][]byte{buf[0:10], buf[20:30]}, false}, // in the tag
		{[][]byte{buf[1:11], buf[11:21]}, false},
		{[][]byte{buf[0:10], nil, buf[10:20]}, true},
	} {
		assert.Equal(t, c.ok, GatherOverlapOK(out, c.pieces), "%v", c.pieces)
	}
	total, touches := GatherLength(buf[:0], [][]byte{buf[0:10], buf[10:20], buf[30:31]})
	assert.Equal(t, uint64(21), total)
	assert.True(t, touches)
	total, touches = Gather(buf[:0:0], [][]byte{buf[0:10], buf[10:20]})
	assert.Equal(t, uint64(20), total)
	assert.False(t, touches, "dst has no spare capacity: the output is fresh memory")
	_, touches = Gather(buf[:4], [][]byte{make([]byte, 3), buf[2:3]})
	assert.False(t, touches, "below dst's length is not spare capacity")
}

// opener is an AEAD for the Decryptor's tests: a 4-byte tag that must be
// "good".
type opener struct{ calls int }

func (o *opener) Overhead() int { return 4 }

func (o *opener) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	o.calls++
	if len(ciphertext) < 4 || string(ciphertext[len(ciphertext)-4:]) != "good" {
		return nil, errors.New("bad tag")
	}
	return append(dst, ciphertext[:len(ciphertext)-4]...), nil
}

func TestDecryptor(t *testing.T) {
	o := &opener{}
	var zero Decryptor
	assert.PanicsWithValue(t, "zero", func() { _, _ = zero.Write("zero", nil) })
	assert.PanicsWithValue(t, "zero", func() { _, _ = zero.Open("zero", nil) })
	d := NewDecryptor(o, "pkg", 10, []byte("nonce"), []byte("ad"))
	_, err := d.Write("", []byte("hello"))
	require.NoError(t, err)
	_, err = d.Write("", []byte("good!"))
	require.NoError(t, err)
	_, err = d.Write("", []byte("x"))
	require.EqualError(t, err, "pkg: sealed message too large (more than MaxPlaintextSize bytes of ciphertext and the tag)")
	_, err = d.Open("", nil)
	require.Error(t, err, "the tag is the last four bytes: ood!")

	d = NewDecryptor(o, "pkg", 100, nil, nil)
	_, _ = d.Write("", []byte("text"))
	_, _ = d.Write("", []byte("good"))
	pt, err := d.Open("", []byte("> "))
	require.NoError(t, err)
	assert.Equal(t, "> text", string(pt))
	_, err = d.Open("", nil)
	require.EqualError(t, err, "pkg: Decryptor used after Open")
	_, err = d.Write("", nil)
	require.EqualError(t, err, "pkg: Decryptor used after Open")

	d = NewDecryptor(o, "pkg", 100, nil, nil)
	_, _ = d.Write("", []byte("go"))
	_, err = d.Open("", nil)
	require.Error(t, err, "shorter than the tag: the AEAD's own error")
}

func TestRelease(t *testing.T) {
	errOpen := errors.New("bad")
	out := []byte("plain")
	ret, err := Release(true, out[:3], out, errOpen)
	require.NoError(t, err)
	assert.Equal(t, "pla", string(ret))
	ret, err = Release(false, out[:3], out, errOpen)
	assert.Same(t, errOpen, err)
	assert.Nil(t, ret)
	assert.Equal(t, make([]byte, 5), out)
}

func TestStreamBuffers(t *testing.T) {
	p := NewPanics("x")
	buf := make([]byte, 8, 32)
	ret, out := p.StreamBuffers(buf, make([]byte, 5), false, false, 10, 15, "x: too large")
	assert.Len(t, ret, 13)
	assert.Len(t, out, 5)
	assert.PanicsWithValue(t, "x: Encrypt after Finish", func() { p.StreamBuffers(nil, nil, true, false, 0, 1, "") })
	assert.PanicsWithValue(t, "x: use of a wiped key", func() { p.StreamBuffers(nil, nil, false, true, 0, 1, "") })
	assert.PanicsWithValue(t, "x: too large", func() { p.StreamBuffers(nil, make([]byte, 6), false, false, 10, 15, "x: too large") })
	assert.PanicsWithValue(t, "x: invalid buffer overlap of output and input", func() {
		p.StreamBuffers(buf[:0], buf[1:5], false, false, 0, 15, "")
	})
	ret, _ = p.StreamBuffers(buf[:0], buf[:4], false, false, 0, 15, "") // in place
	assert.Len(t, ret, 4)
}

func TestApply(t *testing.T) {
	type opts struct{ a, b int }
	type option func(*opts)
	got := Apply(opts{a: 1}, []option{func(o *opts) { o.b = 2 }, func(o *opts) { o.a = 3 }})
	assert.Equal(t, opts{a: 3, b: 2}, got)
	assert.Equal(t, opts{a: 1}, Apply(opts{a: 1}, []option(nil)))
}

// TestMade checks that Made returns a key it is given and panics with the
// message given on a nil one.
func TestMade(t *testing.T) {
	k := new(int)
	require.Same(t, k, Made(k, "no key"))
	require.PanicsWithValue(t, "no key", func() { Made((*int)(nil), "no key") })
}
