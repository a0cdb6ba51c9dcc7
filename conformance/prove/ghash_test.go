package prove

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	spec "github.com/vgcrypto/vg/conformance/spec/aesgcm"
)

// gcmBackends are the generated AES-GCM files, their functions' suffix and
// their tables' number of key powers.
var gcmBackends = []struct {
	file, suffix string
	npow         int
}{
	{"aesgcm/asm_aesni_amd64.s", "AESNI", 16},
	{"aesgcm/asm_aesni_avx_amd64.s", "AESNIAVX", 16},
	{"aesgcm/asm_vaes_avx2_amd64.s", "VAESAVX2", 8},
	{"aesgcm/asm_vaes_avx512_amd64.s", "VAESAVX512", 16},
}

// TestTableLayout checks the table the GHASH proofs assume against what
// each backend's gcmInit writes on the model: H^m at pow(m) as encPower
// and its Karatsuba half at kar(m), H = E_K(0) of the specification.
func TestTableLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, b := range gcmBackends {
		p := program(t, b.file)
		key := make([]byte, 16)
		for i := range key {
			key[i] = byte(rng.Uint32())
		}
		table := make([]byte, gcmTableSize)
		args := struct {
			t, key *byte
			keyLen int
		}{&table[0], &key[0], len(key)}
		require.NoError(t, p.Run("gcmInit"+b.suffix, x86sim.Frame{Ptr: unsafe.Pointer(&args), Size: 24, Results: 24},
			x86sim.Region{Name: "t", Ptr: unsafe.Pointer(&table[0]), Len: gcmTableSize, Kind: x86sim.Secret},
			x86sim.Region{Name: "key", Ptr: unsafe.Pointer(&key[0]), Len: 16, Kind: x86sim.Secret}))
		layout := gcmLayout{npow: b.npow}
		h := spec.EncryptBlock(key, [16]byte{})
		pw := h
		for m := 1; m <= b.npow; m++ {
			e := encPower(pw)
			require.Equal(t, e[:], table[layout.pow(m):layout.pow(m)+16], "%s H^%d", b.suffix, m)
			k := karatsuba(e)
			require.Equal(t, k[:], table[layout.kar(m):layout.kar(m)+16], "%s H^%d Karatsuba", b.suffix, m)
			require.Equal(t, pw, decPower(e))
			pw = spec.Mul(pw, h)
		}
	}
}
