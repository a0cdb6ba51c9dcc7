package chacha20poly1305

import "testing"

// BenchmarkKernels times the two block kernels of every implemented
// backend on 16 KiB, to see where a backend's time goes.
func BenchmarkKernels(b *testing.B) {
	buf := make([]byte, 16384)
	for _, be := range enabledBackends() {
		b.Run("xorBlocks/"+be.String(), func(b *testing.B) {
			var st [16]uint32
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				st[counterIndex] = 0
				be.xorBlocks(&st, buf, buf)
			}
		})
		b.Run("polyBlocks/"+be.String(), func(b *testing.B) {
			var p polyState
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				be.polyBlocks(&p, buf)
			}
		})
	}
}
