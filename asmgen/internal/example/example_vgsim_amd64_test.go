//go:build amd64 && !purego && vgsim

package example

import (
	"crypto/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestModelStackProof is TestStackScratchProof on the model: given the key
// as secret memory, the function whose wipe is disabled faults at its RET
// with the key left in its registers and stack, and the same function with
// asmgen's wipe returns clean.
func TestModelStackProof(t *testing.T) {
	for _, c := range []struct {
		name   string
		prog   *x86sim.Program
		suffix string
	}{{"sse2", vgsimAsmSse2.Model().(*x86sim.Program), "SSE2"}, {"avx2", vgsimAsmAvx2.Model().(*x86sim.Program), "AVX2"}} {
		t.Run(c.name, func(t *testing.T) {
			key, out := new([32]byte), new([32]byte)
			_, err := rand.Read(key[:])
			require.NoError(t, err)
			args := &struct{ key, out *[32]byte }{key, out}
			run := func(name string) error {
				return c.prog.Run(name, x86sim.Frame{Ptr: unsafe.Pointer(args), Size: 16, Results: 16},
					x86sim.Region{Name: "key", Ptr: unsafe.Pointer(key), Len: 32, Kind: x86sim.Secret},
					x86sim.Region{Name: "out", Ptr: unsafe.Pointer(out), Len: 32, Kind: x86sim.Secret})
			}
			err = run("mixKeyUnwiped" + c.suffix)
			var f *x86sim.Fault
			require.ErrorAs(t, err, &f, "the unwiped function must be caught")
			assert.Equal(t, "RET", f.Inst)
			assert.Contains(t, f.Msg, "returns with secret")
			require.NoError(t, run("mixKey"+c.suffix), "the wiped function leaves no secret")
			assert.Equal(t, mixKeyRef(key), *out)
		})
	}
}
