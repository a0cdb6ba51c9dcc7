package asmgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/operand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trampolines builds one function and returns its declarations and
// trampolines.
func trampolines(t *testing.T, name, sig string, opts []Option, body func(g *Generator, fn *Func)) (stubs, sim string) {
	t.Helper()
	g := New(ssse3Backend)
	g.Package("alg")
	fn := g.Func(name+g.Suffix(), sig, append([]Option{Doc(name + " is a test function.")}, opts...)...)
	body(g, fn)
	_, s, err := g.Build()
	require.NoError(t, err)
	b, err := g.Trampolines("alg_ssse3_amd64.s")
	require.NoError(t, err)
	return string(s), string(b)
}

func TestTrampolineFrameAndRegions(t *testing.T) {
	stubs, sim := trampolines(t, "sealT", "func(out *byte, key *[32]byte, k uint64, pieces *[]byte, count int, tag *[16]byte, n int, flag byte) (ok byte)",
		[]Option{Output("out", "tag"), Secret("key", "k"), SecretSlices("pieces"), Public("count", "n"), Len("out", "n+16"), Len("pieces", "count")},
		func(g *Generator, fn *Func) {
			r := g.GP64()
			g.XORQ(r, r)
			g.Store(r.As8(), g.ReturnIndex(0))
			fn.Ret()
		})
	assert.Contains(t, stubs, "//go:build amd64 && !purego && !vgsim\n")
	assert.Contains(t, stubs, "Secret: key, k, pieces (slice headers public, their elements secret). Public: count, n. Output: out, tag.")
	assert.Contains(t, sim, "//go:build amd64 && !purego && vgsim\n")
	assert.Contains(t, sim, "//go:embed alg_ssse3_amd64.s\nvar vgsimAlgSsse3Src []byte\n")
	assert.Contains(t, sim, `var vgsimAlgSsse3 = vgsim.Load("alg_ssse3_amd64.s", vgsimAlgSsse3Src)`)
	assert.Contains(t, sim, "var vgsimAlgSsse3Call = vgsimAlgSsse3.Call\n")
	assert.Contains(t, sim, "func sealTSSSE3(out *byte, key *[32]byte, k uint64, pieces *[]byte, count int, tag *[16]byte, n int, flag byte) byte {\n")
	// The result starts at the pointer-aligned end of the arguments: 57
	// bytes of arguments, padding, the result at 64.
	assert.Contains(t, sim, "\t\tflag    byte\n\t\t_       [7]byte\n\t\tvgsimR0 byte\n")
	// k is word 2 of the frame.
	assert.Contains(t, sim, `vgsim.Frame{Ptr: unsafe.Pointer(&vgsimArgs), Size: 65, Results: 64, SecretWords: 0x4}`)
	for _, want := range []string{
		`{Name: "out", Ptr: unsafe.Pointer(out), Len: uintptr(n+16) * unsafe.Sizeof(*out), Kind: vgsim.Output}`,
		`{Name: "key", Ptr: unsafe.Pointer(key), Len: unsafe.Sizeof(*key), Kind: vgsim.Secret}`,
		`{Name: "pieces", Ptr: unsafe.Pointer(pieces), Len: uintptr(count) * unsafe.Sizeof(*pieces), Kind: vgsim.Public}`,
		`{Name: "tag", Ptr: unsafe.Pointer(tag), Len: unsafe.Sizeof(*tag), Kind: vgsim.Output}`,
		"for vgsimI, vgsimP := range unsafe.Slice(pieces, count) {",
		`vgsim.Region{Name: "pieces[" + strconv.Itoa(vgsimI) + "]", Ptr: unsafe.Pointer(unsafe.SliceData(vgsimP)), Len: uintptr(len(vgsimP)) * unsafe.Sizeof(vgsimP[0]), Kind: vgsim.Secret}`,
		`vgsimAlgSsse3Call("sealTSSSE3", vgsim.Frame{`,
		"return vgsimArgs.vgsimR0\n",
	} {
		assert.Contains(t, sim, want)
	}
}

func TestTrampolineSlices(t *testing.T) {
	_, sim := trampolines(t, "gatherT", "func(dst []byte, srcs [][]byte)", []Option{SecretSlices("srcs"), Secret("dst")},
		func(g *Generator, fn *Func) { fn.Ret() })
	assert.Contains(t, sim, `{Name: "dst", Ptr: unsafe.Pointer(unsafe.SliceData(dst)), Len: uintptr(len(dst)) * unsafe.Sizeof(dst[0]), Kind: vgsim.Secret}`)
	assert.Contains(t, sim, `{Name: "srcs", Ptr: unsafe.Pointer(unsafe.SliceData(srcs)), Len: uintptr(len(srcs)) * unsafe.Sizeof(srcs[0]), Kind: vgsim.Public}`)
	assert.Contains(t, sim, "for vgsimI, vgsimP := range srcs {")
	assert.Contains(t, sim, "Size: 48, Results: 48, SecretWords: 0x0}")
}

func TestLenErrors(t *testing.T) {
	nop := func(g *Generator, fn *Func) { fn.Ret() }
	for _, c := range []struct {
		sig  string
		opts []Option
		want string
	}{
		{"func(a *byte, n int)", []Option{Secret("a")}, "pointer argument a needs Len"},
		{"func(a *[16]byte)", []Option{Secret("a"), Len("a", "16")}, "Len a: argument of type *[16]byte has its own extent"},
		{"func(a []byte, n int)", []Option{Secret("a"), Len("a", "n")}, "Len a: argument of type []byte has its own extent"},
		{"func(a *byte, n int)", []Option{Secret("a"), Len("a", "m")}, `Len a: "m": eval:1:1: undefined: m`},
		{"func(a *byte, n int)", []Option{Secret("a"), Len("a", "a")}, `Len a: "a" is not an integer expression`},
		{"func(a *byte, n int)", []Option{Secret("a"), Len("b", "n")}, "Len b names no argument"},
		{"func(a *byte, n int)", []Option{Secret("a"), Len("a", "n"), Len("a", "n")}, "Len a given twice"},
		{"func(a *byte, s *byte, n int)", []Option{Secret("a"), SecretSlices("s"), Len("a", "n"), Len("s", "n")}, "argument s: SecretSlices argument of type *byte does not point to slice headers"},
		{"func(a *byte, m map[int]int)", []Option{Secret("a"), Public("m"), Len("a", "1")}, "argument m: type map[int]int: the model cannot bound"},
		{"func(n int)", []Option{Output("n"), Secret("n")}, "declared both"},
		{"func(a *byte, n int)", []Option{Secret("a"), Output("n"), Len("a", "1")}, "Output argument n is not a pointer"},
		{"func(unsafe *byte)", []Option{Secret("unsafe"), Len("unsafe", "1")}, "argument name unsafe is reserved"},
	} {
		g := New(ssse3Backend)
		g.Package("alg")
		fn := g.Func("fSSSE3", c.sig, append([]Option{Doc("f is a test function.")}, c.opts...)...)
		nop(g, fn)
		_, _, err := g.Build()
		if err == nil {
			_, err = g.Trampolines("f.s")
		}
		require.Error(t, err, c.sig)
		assert.Contains(t, err.Error(), c.want, c.sig)
	}
}

func TestConstraintTerms(t *testing.T) {
	g := New(ssse3Backend)
	g.Constraint("amd64,!purego")
	terms, err := g.constraintTerms()
	require.NoError(t, err)
	assert.Equal(t, []string{"amd64", "!purego"}, terms)
	g.Constraint("amd64 && (linux || darwin)")
	_, err = g.constraintTerms()
	require.ErrorContains(t, err, "is not a conjunction")
	g.Constraint("amd64 && !vgsim")
	_, err = g.constraintTerms()
	require.ErrorContains(t, err, "names vgsim")
}

func TestGenerateWritesTrampolines(t *testing.T) {
	dir := t.TempDir()
	g := New(ssse3Backend)
	g.Package("alg")
	fn := g.Func("loadSSSE3", "func(dst *[16]byte, src *byte, n int)", Doc("load is a test function."),
		Secret("src"), Output("dst"), Public("n"), Len("src", "n"))
	p, d := g.GP64(), g.GP64()
	g.Load(g.Param("src"), p)
	g.Load(g.Param("dst"), d)
	x := g.XMM()
	g.MOVOU(operand.Mem{Base: p}, x)
	g.MOVOU(x, operand.Mem{Base: d})
	fn.Ret()
	require.NoError(t, g.Generate(filepath.Join(dir, "load_amd64.s"), filepath.Join(dir, "load_amd64.go")))
	b, err := os.ReadFile(filepath.Join(dir, "load_vgsim_amd64.go"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "package alg\n")
	assert.Contains(t, string(b), "func loadSSSE3(dst *[16]byte, src *byte, n int) {")

	require.ErrorContains(t, New(ssse3Backend).Generate(filepath.Join(dir, "a", "x.s"), filepath.Join(dir, "x.go")), "different directories")
	assert.Equal(t, "a/gcm_aesni_vgsim_amd64.go", SimPath("a/gcm_aesni_amd64.go"))
	assert.Equal(t, "x_vgsim.go", SimPath("x.go"))
}

func TestConstInDeclarationsAndTrampolines(t *testing.T) {
	// The constant is in the declarations and in the trampolines (which
	// replace them under vgsim), once in each.
	stubs, sim := trampolines(t, "shortT", "func(k *[32]byte)", []Option{Secret("k")}, func(g *Generator, fn *Func) {
		g.Const("shortMaxT", 320, "shortMaxT is the longest text shortT takes: six blocks of keystream at once, one of them Poly1305's key, in three register sets of two blocks each.")
		g.Const("laneBlocksT", 8, "laneBlocksT is the number of blocks of a pass.")
		fn.Ret()
	})
	want := "\n// shortMaxT is the longest text shortT takes: six blocks of keystream at once,\n" +
		"// one of them Poly1305's key, in three register sets of two blocks each.\nconst shortMaxT = 320\n\n" +
		"// laneBlocksT is the number of blocks of a pass.\nconst laneBlocksT = 8\n"
	for _, src := range []string{stubs, sim} {
		assert.True(t, strings.HasSuffix(src, want), src)
		assert.Equal(t, 1, strings.Count(src, "const shortMaxT"))
	}

	for _, c := range []struct{ name, doc, want string }{
		{"short max", "short max is.", `Const "short max": not a Go identifier`},
		{"shortMax", "The longest text.", `Const shortMax: the doc "The longest text." does not start with the name`},
		{"dup", "dup is declared twice.", "Const dup declared twice"},
	} {
		g := New(ssse3Backend)
		g.Func("fSSSE3", "func(k *[32]byte)", Doc("f is a test function."), Secret("k")).Ret()
		g.Const("dup", 1, "dup is a constant.")
		g.Const(c.name, 2, c.doc)
		_, _, err := g.Build()
		require.EqualError(t, err, "asmgen: "+c.want)
	}
}
