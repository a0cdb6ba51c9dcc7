package prove

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
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
	{"aesgcm/asm_vaes_avx2_amd64.s", "VAESAVX2", 16},
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

// TestGHASHProofs runs the GHASH proofs at a few lengths (the proof step
// runs them all) and shows that they fail where the code and the
// specification part: a nonce hashed with the wrong length, a table
// assumed to hold fewer powers than it does.
func TestGHASHProofs(t *testing.T) {
	long(t)
	for _, b := range gcmBackends {
		p := program(t, b.file)
		l := gcmLayout{npow: b.npow}
		for _, n := range []int{1, 12, 17, 100} {
			require.NoError(t, GCMNonce(p, "gcmNonce"+b.suffix, l, n), "%s n=%d", b.suffix, n)
		}
	}
	p := program(t, "aesgcm/asm_vaes_avx2_amd64.s")
	require.NoError(t, GCMInit(p, "gcmInitVAESAVX2", gcmLayout{npow: 16}, 16))
	require.ErrorContains(t, GCMInit(p, "gcmInitVAESAVX2", gcmLayout{npow: 15}, 16), "H^1")
	require.ErrorContains(t, gcmNonce(p, "gcmNonceVAESAVX2", gcmLayout{npow: 16}, 20, 21), "differs from the specification's")
}

// TestSubWordIsTheSpecification ties the key schedule's SubWord as the
// proofs write it (an AES final round's atom of the broadcast word) to the
// specification's S-box on random words.
func TestSubWordIsTheSpecification(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	ctx := sym.NewCtx()
	w := keyWord{ctx, ctx.Var("w", 32)}
	sub, rot := w.SubWord(), w.RotWord()
	for i := 0; i < 1000; i++ {
		var b spec.Bytes4
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		val := func(string) *big.Int {
			return big.NewInt(int64(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24))
		}
		for _, c := range []struct {
			w    *sym.Word
			want spec.Bytes4
		}{{sub.w, b.SubWord()}, {rot.w, b.RotWord()}} {
			v := sym.Eval(c.w, val).Uint64()
			require.Equal(t, c.want, spec.Bytes4{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		}
	}
}
