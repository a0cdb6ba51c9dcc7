package cpufeat

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testRegistry registers three of chacha20poly1305's four declared
// backends, out of order, with their names as values.
func testRegistry() *Registry[string] {
	return NewRegistry(ChaCha20Poly1305, []Registration[string]{
		{Name: GenericBackend, Value: "g"},
		{Name: "ssse3", Value: "s"},
		{Name: "avx2", Value: "a", Doc: "the avx2 one"},
	})
}

func TestRegistryOrder(t *testing.T) {
	r := testRegistry()
	assert.Equal(t, []string{"avx2", "ssse3", GenericBackend}, r.Names(), "declared order, best first")
	var values []string
	for _, im := range r.Registrations() {
		values = append(values, im.Value)
	}
	assert.Equal(t, []string{"a", "s", "g"}, values)

	infos := r.backends(Of(SSE2, SSSE3))
	require.Len(t, infos, 3)
	assert.Equal(t, BackendInfo{Name: "avx2", Requires: Of(AVX, AVX2), Available: false, Doc: "the avx2 one"}, infos[0])
	assert.Equal(t, BackendInfo{Name: "ssse3", Requires: Of(SSSE3), Available: true}, infos[1])
	assert.Equal(t, BackendInfo{Name: GenericBackend, Requires: 0, Available: true}, infos[2])

	for _, b := range r.Backends() {
		assert.Equal(t, Enabled().HasAll(b.Requires), b.Available, b.Name)
	}
}

func TestRegistryPanics(t *testing.T) {
	assert.PanicsWithValue(t, `cpufeat: aesgcm registers backend "avx2", which is not declared for it`, func() {
		NewRegistry(AESGCM, []Registration[int]{{Name: GenericBackend}, {Name: "avx2"}})
	})
	assert.PanicsWithValue(t, `cpufeat: rsa registers backend "adx" twice`, func() {
		NewRegistry(RSA, []Registration[int]{{Name: "adx"}, {Name: GenericBackend}, {Name: "adx"}})
	})
	assert.PanicsWithValue(t, `cpufeat: rsa does not register its generic backend`, func() {
		NewRegistry(RSA, []Registration[int]{{Name: "adx"}})
	})
}

func TestRegistryChooseBest(t *testing.T) {
	r := testRegistry()
	for _, c := range []struct {
		enabled Set
		want    string
	}{
		{Of(SSE2), "g"},
		{Of(SSE2, SSSE3), "s"},
		{Of(SSE2, SSSE3, AVX, AVX2), "a"},
		{allFeatures, "a"}, // avx512 is declared but not registered
		{Of(SSE2, AVX, AVX2), "a"},
		{Of(SSE2, AVX2), "g"}, // avx2 needs avx too
	} {
		im, err := r.choose("", env{enabled: c.enabled})
		require.NoError(t, err)
		assert.Equal(t, c.want, im.Value, "enabled %s", c.enabled)
	}
	// The default choice agrees with Select over the registered names.
	for _, c := range Configs() {
		s := c.Set(allFeatures)
		im, err := r.choose("", env{enabled: s})
		require.NoError(t, err)
		assert.Equal(t, Select(ChaCha20Poly1305, r.Names(), s).Name, im.Name, c.Name)
	}
}

func TestRegistryChooseNamed(t *testing.T) {
	r := testRegistry()
	e := env{enabled: Of(SSE2, SSSE3, AVX, AVX2)}
	for _, name := range r.Names() {
		im, err := r.choose(name, e)
		require.NoError(t, err)
		assert.Equal(t, name, im.Name)
	}
}

// TestRegistryPick: Pick("") is Default, the choice made when the
// registry was built (the same pointer each time), and Pick of a name is
// Choose's registration or error.
func TestRegistryPick(t *testing.T) {
	r := testRegistry()
	def, err := r.Pick("")
	require.NoError(t, err)
	assert.Same(t, r.Default(), def)
	best, err := r.Choose("")
	require.NoError(t, err)
	assert.Equal(t, best, *def)
	named, err := r.Pick(GenericBackend)
	require.NoError(t, err)
	assert.Equal(t, "g", named.Value)
	_, err = r.Pick("nope")
	require.ErrorContains(t, err, `unknown backend "nope"`)
}

// TestRegistryErrors pins the texts every algorithm module returns.
func TestRegistryErrors(t *testing.T) {
	r := testRegistry()
	e := env{enabled: Of(SSE2, SSSE3)}

	_, err := r.choose("nonesuch", e)
	assert.EqualError(t, err, `chacha20poly1305: unknown backend "nonesuch" (valid: avx512, avx2, ssse3, stdlib, generic)`)

	_, err = r.choose("avx512", e)
	assert.EqualError(t, err, `chacha20poly1305: backend "avx512" is not built in this build (built: avx2, ssse3, generic)`)

	_, err = r.choose("avx2", e)
	assert.EqualError(t, err, `chacha20poly1305: backend "avx2" needs CPU features avx,avx2; enabled here: sse2,ssse3`)

	e.override, e.overrideSet = "ssse3", true
	_, err = r.choose("avx2", e)
	assert.EqualError(t, err, `chacha20poly1305: backend "avx2" needs CPU features avx,avx2; enabled here: sse2,ssse3 (VG_CPU_FEATURES="ssse3")`)

	e = env{enabled: 0, override: "", overrideSet: true}
	_, err = r.choose("ssse3", e)
	assert.EqualError(t, err, `chacha20poly1305: backend "ssse3" needs CPU features ssse3; enabled here: none (VG_CPU_FEATURES="")`)

	// An invalid override fails no choice: each one warns and follows what
	// is enabled (the valid part of the value).
	bad := errors.New("cpufeat: bad override")
	warned := 0
	e = env{enabled: Of(SSE2, SSSE3), err: bad, override: "ssse3,x", overrideSet: true, warn: func() { warned++ }}
	im, err := r.choose("", e)
	require.NoError(t, err)
	assert.Equal(t, "ssse3", im.Name)
	im, err = r.choose(GenericBackend, e)
	require.NoError(t, err)
	assert.Equal(t, GenericBackend, im.Name)
	_, err = r.choose("avx2", e)
	assert.ErrorContains(t, err, `needs CPU features avx,avx2; enabled here: sse2,ssse3 (VG_CPU_FEATURES="ssse3,x")`)
	assert.Equal(t, 3, warned, "every choice under an invalid override calls warn (Choose's prints once)")
}

// TestRegistryChooseHere checks Choose against the package's own state: the
// best registered backend among the enabled features, and the override named
// in the error only when it is set.
func TestRegistryChooseHere(t *testing.T) {
	r := testRegistry()
	im, err := r.Choose("")
	require.NoError(t, err, "an invalid override does not fail a choice")
	assert.Equal(t, Select(ChaCha20Poly1305, r.Names(), Enabled()).Name, im.Name)
	for _, b := range r.Backends() {
		_, err := r.Choose(b.Name)
		if b.Available {
			assert.NoError(t, err, b.Name)
			continue
		}
		require.Error(t, err, b.Name)
		v, set := Override()
		if set {
			assert.Contains(t, err.Error(), EnvVar+`="`+v+`"`)
		} else {
			assert.NotContains(t, err.Error(), EnvVar)
		}
	}
}

// TestRegistryPreferYMM checks the zmm policy: where PreferYMM holds, the
// default choice passes over the ZMM backends, and naming one still selects
// it.
func TestRegistryPreferYMM(t *testing.T) {
	r := NewRegistry(AESGCM, []Registration[string]{
		{Name: GenericBackend, Value: "g"},
		{Name: "vaes-avx2", Value: "y"},
		{Name: "vaes-avx512", Value: "z"},
	})
	im, err := r.choose("", env{enabled: allFeatures})
	require.NoError(t, err)
	assert.Equal(t, "z", im.Value)
	im, err = r.choose("", env{enabled: allFeatures, preferYMM: true})
	require.NoError(t, err)
	assert.Equal(t, "y", im.Value)
	im, err = r.choose("vaes-avx512", env{enabled: allFeatures, preferYMM: true})
	require.NoError(t, err)
	assert.Equal(t, "z", im.Value)

	var zmm []string
	for _, alg := range Algorithms() {
		for _, b := range Backends(alg) {
			if b.ZMM {
				zmm = append(zmm, string(alg)+"/"+b.Name)
			}
		}
	}
	assert.Equal(t, []string{"aesgcm/vaes-avx512", "chacha20poly1305/avx512"}, zmm)
}

// TestSlowZMMModels pins the Intel family 6 models that lower their clock
// for 512-bit work: Skylake-SP/Cascade Lake/Cooper Lake (85), Ice Lake
// server (106, 108) and client (125, 126), Tiger Lake (140, 141); not
// Sapphire Rapids (143) or Emerald Rapids (207).
func TestSlowZMMModels(t *testing.T) {
	for _, m := range []uint32{85, 106, 108, 125, 126, 140, 141} {
		assert.True(t, slowZMMModel(m), "model %d", m)
	}
	for _, m := range []uint32{0, 79, 143, 207, 183} {
		assert.False(t, slowZMMModel(m), "model %d", m)
	}
	if Simulated() {
		assert.False(t, PreferYMM(), "the model has no clock")
	}
}

// TestInvalidOverrideWarnsOnce runs this test binary again under an invalid
// VG_CPU_FEATURES: every Choose succeeds, following the valid names, and the
// process says so once on standard error.
func TestInvalidOverrideWarnsOnce(t *testing.T) {
	if os.Getenv("VG_CPUFEAT_WARN_CHILD") == "1" {
		require.Error(t, Err())
		assert.Equal(t, (Of(SSSE3)|baseline)&Detected(), Enabled())
		r := testRegistry()
		for range 3 {
			_, err := r.Choose("")
			require.NoError(t, err)
		}
		_, err := r.Choose(GenericBackend)
		require.NoError(t, err)
		return
	}
	cmd := selfCommand("-test.run=^TestInvalidOverrideWarnsOnce$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VG_CPUFEAT_WARN_CHILD=1", EnvVar+"=ssse3,bogus")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "child:\n%s\n%s", out, stderr.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), "vg: cpufeat: "+EnvVar+`="ssse3,bogus": unknown feature name "bogus"`), "stderr:\n%s", stderr.String())
}

// selfCommand runs the test binary again with args: under the emulator
// VG_TEST_EMULATOR names when it is set (ci/test runs the arm64 tests under
// qemu-aarch64, and the kernel cannot start an arm64 binary by itself).
func selfCommand(args ...string) *exec.Cmd {
	if emu := os.Getenv("VG_TEST_EMULATOR"); emu != "" {
		return exec.Command(emu, append([]string{os.Args[0]}, args...)...)
	}
	return exec.Command(os.Args[0], args...)
}
