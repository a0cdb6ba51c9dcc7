//go:build amd64 && !purego

package example

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/internal/example/decl"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// impl is one backend's generated functions.
type impl struct {
	name          string
	gatherCopy    func(dst []byte, srcs [][]byte)
	xorBytes      func(dst, a, b *byte, n int)
	loadPartial   func(block *[16]byte, src *byte, n int)
	copyPartial   func(dst, src *byte, n int)
	partialMax    int
	mixKey        func(key, out *[32]byte)
	mixKeyUnwiped func(key, out *[32]byte)
}

var impls = []impl{
	{"sse2", gatherCopySSE2, xorBytesSSE2, loadPartialSSE2, copyPartialSSE2, partialMaxSSE2, mixKeySSE2, mixKeyUnwipedSSE2},
	{"avx2", gatherCopyAVX2, xorBytesAVX2, loadPartialAVX2, copyPartialAVX2, partialMaxAVX2, mixKeyAVX2, mixKeyUnwipedAVX2},
}

// forEach runs f for each backend the CPU (and VG_CPU_FEATURES) allows.
func forEach(t *testing.T, f func(t *testing.T, im impl)) {
	require.NoError(t, cpufeat.Err())
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			b, ok := decl.Lookup(im.name)
			require.True(t, ok)
			if !b.Available(cpufeat.Enabled()) {
				t.Skipf("backend %s needs %s", b.Name, b.Requires)
			}
			f(t, im)
		})
	}
}

func random(t *testing.T, n int) []byte {
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return b
}

func TestGatherCopy(t *testing.T) {
	forEach(t, func(t *testing.T, im impl) {
		shapes := [][]int{{}, {0}, {1}, {15, 16, 17}, {64, 0, 65}, {200}, {3, 1, 4, 1, 5, 9, 2, 6}, {127, 129}}
		// Every piece length up to 150 (each size class of the copy and
		// the overlapping ends), alone and between two odd pieces.
		for n := range 151 {
			shapes = append(shapes, []int{n}, []int{3, n, 5})
		}
		for _, shape := range shapes {
			var srcs [][]byte
			want := []byte{}
			for _, n := range shape {
				s := random(t, n)
				srcs = append(srcs, s)
				want = append(want, s...)
			}
			dst := make([]byte, len(want)+8)
			copy(dst[len(want):], "sentinel")
			im.gatherCopy(dst, srcs)
			assert.Equal(t, want, dst[:len(want)], "shape %v", shape)
			assert.Equal(t, "sentinel", string(dst[len(want):]), "shape %v: wrote past the gathered bytes", shape)
		}
	})
}

func TestXORBytes(t *testing.T) {
	forEach(t, func(t *testing.T, im impl) {
		// Every length through two 128-byte passes, the 32- and 16-byte
		// steps and every tail; out of place and in place (dst = a).
		for n := 0; n <= 300; n++ {
			a, b := random(t, n+1), random(t, n+1)
			dst := make([]byte, n+1)
			dst[n] = 0xa5
			im.xorBytes(&dst[0], &a[0], &b[0], n)
			for i := range n {
				require.Equal(t, a[i]^b[i], dst[i], "n=%d i=%d", n, i)
			}
			require.Equal(t, byte(0xa5), dst[n], "n=%d: wrote past n", n)

			want := bytes.Clone(dst[:n])
			a[n] = 0x5a
			im.xorBytes(&a[0], &a[0], &b[0], n)
			require.Equal(t, want, a[:n], "in place, n=%d", n)
			require.Equal(t, byte(0x5a), a[n], "in place, n=%d: wrote past n", n)
		}
	})
}

func TestPartialBlocks(t *testing.T) {
	forEach(t, func(t *testing.T, im impl) {
		require.Equal(t, 15, im.partialMax)
		for n := 0; n <= im.partialMax; n++ {
			// src ends n bytes before a guard; only src[:n] may be read.
			src := random(t, n+1)
			var block [16]byte
			copy(block[:], random(t, 16))
			im.loadPartial(&block, &src[0], n)
			want := make([]byte, 16)
			copy(want, src[:n])
			require.Equal(t, want, block[:], "loadPartial n=%d", n)

			dst := bytes.Repeat([]byte{0xee}, 17)
			im.copyPartial(&dst[0], &src[0], n)
			require.Equal(t, src[:n], dst[:n], "copyPartial n=%d", n)
			require.Equal(t, bytes.Repeat([]byte{0xee}, 17-n), dst[n:], "copyPartial n=%d wrote past n", n)
		}
	})
}

// mixKeyRef is the Go reference for mixKey: each 16-byte half is XORed with
// itself with its 32-bit words rotated down by one.
func mixKeyRef(key *[32]byte) (out [32]byte) {
	for half := 0; half < 32; half += 16 {
		var w [4]uint32
		for j := range w {
			w[j] = binary.LittleEndian.Uint32(key[half+4*j:])
		}
		for j := range w {
			binary.LittleEndian.PutUint32(out[half+4*j:], w[j]^w[(j+1)%4])
		}
	}
	return out
}

func TestMixKey(t *testing.T) {
	forEach(t, func(t *testing.T, im impl) {
		for range 10 {
			var key, out, out2 [32]byte
			copy(key[:], random(t, 32))
			im.mixKey(&key, &out)
			im.mixKeyUnwiped(&key, &out2)
			want := mixKeyRef(&key)
			require.Equal(t, want, out)
			require.Equal(t, want, out2)
		}
	})
}

// TestStackScratchProof is the end-to-end proof of the wipe: the generated
// function whose wipe is disabled leaves the key in the stack it used, and
// the stackscratch harness finds it; the same function with asmgen's wipe
// leaves nothing.
func TestStackScratchProof(t *testing.T) {
	if cpufeat.Simulated() {
		t.Skip("vgsim: the functions run on the model, not on this stack; the model's own stack, register and taint checks replace the scan there (TestModelStackProof)")
	}
	forEach(t, func(t *testing.T, im impl) {
		var key, out [32]byte
		copy(key[:], random(t, 32))
		patterns := stackscratch.Windows(8, key[:])

		r, err := stackscratch.Scan(func() { im.mixKeyUnwiped(&key, &out) }, patterns)
		require.NoError(t, err)
		assert.False(t, r.Clean(), "the unwiped function must be caught: %v", r)

		r, err = stackscratch.Scan(func() { im.mixKey(&key, &out) }, patterns)
		require.NoError(t, err)
		assert.True(t, r.Clean(), "the wiped function leaves no secret: %v", r)
		assert.GreaterOrEqual(t, r.Used, 64, "the harness saw the function's frame")
	})
}
