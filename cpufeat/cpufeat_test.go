package cpufeat

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverrideInForce fails when the VG_CPU_FEATURES this test runs under is
// invalid, so a mistyped configuration in the test matrix is a failure.
func TestOverrideInForce(t *testing.T) {
	require.NoError(t, Err(), "%s=%q", EnvVar, os.Getenv(EnvVar))
	assert.True(t, Detected().HasAll(Enabled()), "enabled %s not within detected %s", Enabled(), Detected())
}

func TestFeatureNamesRoundTrip(t *testing.T) {
	for _, f := range AllFeatures() {
		g, err := ParseFeature(f.String())
		require.NoError(t, err)
		assert.Equal(t, f, g)
		assert.Equal(t, strings.ToLower(f.String()), f.String())
	}
	_, err := ParseFeature("AVX2")
	assert.Error(t, err, "names are lower case")
}

func TestOverrideUnknownName(t *testing.T) {
	all := Set(1<<numFeatures - 1)
	s, err := ApplyOverride("avx2,bogus", all)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"bogus"`)
	assert.Contains(t, err.Error(), "avx512ifma", "the message lists the valid names")
	assert.Equal(t, Of(AVX, AVX2)|baseline, s, "an invalid override enables what its valid names allow")

	s, err = ApplyOverride("bogus", Of(SSE2, AVX2))
	require.Error(t, err)
	assert.Equal(t, baseline, s, "with no valid name, the baseline")

	_, err = ApplyOverride("aes,,pclmulqdq", all)
	require.Error(t, err, "an empty word is not a feature")
	_, err = ApplyOverride("AES", all)
	require.Error(t, err)
}

// TestImplied checks, against the backend table read by hand, what a name
// brings with it.
func TestImplied(t *testing.T) {
	for f, want := range map[Feature]Set{
		AVX2:       Of(AVX, AVX2),
		ADX:        Of(BMI2, ADX),
		VAES:       Of(AVX, AVX2, VAES, VPCLMULQDQ),
		PCLMULQDQ:  Of(AES, PCLMULQDQ),
		AVX512F:    Of(AVX, AVX2, AVX512F, AVX512VL, BMI2),
		AVX512IFMA: Of(AVX, AVX2, AVX512F, AVX512VL, AVX512IFMA, BMI2, ADX),
		SSSE3:      Of(SSSE3),
		AES:        Of(AES, PCLMULQDQ), // vaes-avx2 does not require it
		SSE41:      Of(SSE41),
		AVX512DQ:   Of(AVX512DQ), // no backend requires it
		StdAES:     Of(StdAES),
	} {
		assert.Equal(t, want, Implied(f), "Implied(%s)", f)
	}
}

// TestOverrideNameAloneSelects: a single feature name enables a backend that
// uses it, as the README's examples expect.
func TestOverrideNameAloneSelects(t *testing.T) {
	all := Set(1<<numFeatures - 1)
	for _, c := range []struct {
		value   string
		alg     Algorithm
		backend string
	}{
		{"avx2", ChaCha20Poly1305, "avx2"},
		{"adx", RSA, "adx"},
		{"vaes", AESGCM, "vaes-avx2"},
		{"avx512ifma", RSA, "ifma"},
	} {
		s, err := ApplyOverride(c.value, all)
		require.NoError(t, err)
		var names []string
		for _, b := range Backends(c.alg) {
			names = append(names, b.Name)
		}
		assert.Equal(t, c.backend, selectBackend(c.alg, names, s, false).Name, "%s=%s", EnvVar, c.value)
	}
}

// TestOverrideConfigNames: the configuration names the cpufeat command
// prints are values too, alone or in a list, and every configuration's
// value already holds what its names imply, so the test matrix enables
// exactly the features it lists.
func TestOverrideConfigNames(t *testing.T) {
	all := Set(1<<numFeatures - 1)
	s, err := ApplyOverride("avx2-adx", all)
	require.NoError(t, err)
	assert.Equal(t, baseline|Of(AVX, AVX2, BMI2, ADX), s, "the baseline (sse2, none with purego) stays")
	s, err = ApplyOverride("aesni, stdlib", all)
	require.NoError(t, err)
	assert.Equal(t, baseline|Of(SSSE3, AES, PCLMULQDQ, StdAES, StdChaCha20, StdRSA), s)
	_, err = ApplyOverride("ssse3,none", all)
	require.ErrorContains(t, err, `unknown feature name "none"`, "none and all are whole values, not list words")
	assert.Contains(t, err.Error(), "or a configuration: ssse3, aesni, aesni-avx, avx2-adx, vaes-avx2, avx512-noifma, stdlib")

	for _, c := range Configs() {
		if c.Value == "all" || c.Value == "none" {
			continue
		}
		literal := baseline
		for _, word := range strings.Split(c.Value, ",") {
			f, err := ParseFeature(word)
			require.NoError(t, err)
			literal |= Of(f)
		}
		assert.Equal(t, literal, c.Set(all), "config %s enables more than it lists", c.Name)
	}
}

func TestOverrideNone(t *testing.T) {
	all := Set(1<<numFeatures - 1)
	s, err := ApplyOverride("none", all)
	require.NoError(t, err)
	assert.Equal(t, baseline, s)
	for _, alg := range Algorithms() {
		var names []string
		for _, b := range Backends(alg) {
			names = append(names, b.Name)
		}
		assert.Equal(t, GenericBackend, Select(alg, names, s).Name, "%s under none", alg)
	}
}

func TestOverrideAllAndUnset(t *testing.T) {
	d := Of(SSE2, SSSE3, AES)
	for _, v := range []string{"", "all", "  "} {
		s, err := ApplyOverride(v, d)
		require.NoError(t, err)
		assert.Equal(t, d, s, "value %q", v)
	}
}

// TestOverrideNeverEnablesMissing uses made-up detected sets: asking for a
// feature the CPU lacks never enables it.
func TestOverrideNeverEnablesMissing(t *testing.T) {
	detectedSets := []Set{
		0,
		Of(SSE2),
		Of(SSE2, SSSE3, AES, PCLMULQDQ),
		Of(SSE2, AVX, AVX2, BMI2, ADX),
		Set(1<<numFeatures-1) &^ Of(AVX512IFMA, VAES),
	}
	for _, d := range detectedSets {
		for _, f := range AllFeatures() {
			s, err := ApplyOverride(f.String(), d)
			require.NoError(t, err)
			assert.True(t, d.HasAll(s), "override %s on %s enabled %s", f, d, s)
			assert.Equal(t, d.Has(f), s.Has(f), "override %s on %s", f, d)
		}
		s, err := ApplyOverride("avx512f, avx512ifma ,vaes,adx", d)
		require.NoError(t, err)
		assert.True(t, d.HasAll(s))
		for _, c := range Configs() {
			assert.True(t, d.HasAll(c.Set(d)), "config %s on %s", c.Name, d)
		}
	}
}

func TestSetString(t *testing.T) {
	assert.Equal(t, "none", Set(0).String())
	assert.Equal(t, "sse2,aes,pclmulqdq", Of(PCLMULQDQ, AES, SSE2).String())
	s, err := ApplyOverride(Of(SSSE3, AVX2).String(), Of(SSE2, SSSE3, AVX2, ADX))
	require.NoError(t, err)
	assert.Equal(t, baseline|Of(SSSE3, AVX2), s)
}

// TestEveryBackendHasAConfig checks that each declared backend is the one
// selected in at least one configuration on a CPU with every feature, and
// that every configuration is valid.
func TestEveryBackendHasAConfig(t *testing.T) {
	selected := map[string]bool{}
	for _, c := range Configs() {
		_, err := ApplyOverride(c.Value, Set(1<<numFeatures-1))
		require.NoError(t, err, c.Name)
		for alg, name := range c.Targets() {
			selected[string(alg)+"/"+name] = true
		}
	}
	for _, b := range backends {
		assert.True(t, selected[string(b.Algorithm)+"/"+b.Name], "no configuration selects %s/%s", b.Algorithm, b.Name)
	}
}

func TestBackendTable(t *testing.T) {
	seen := map[string]bool{}
	for _, alg := range Algorithms() {
		bs := Backends(alg)
		require.NotEmpty(t, bs)
		assert.Equal(t, GenericBackend, bs[len(bs)-1].Name, "generic is last for %s", alg)
		assert.Equal(t, Set(0), bs[len(bs)-1].Requires)
		for _, b := range bs {
			key := string(alg) + "/" + b.Name
			assert.False(t, seen[key], "duplicate %s", key)
			seen[key] = true
		}
	}
	// Select ignores backends the caller has not implemented.
	all := Set(1<<numFeatures - 1)
	assert.Equal(t, "aesni", Select(AESGCM, []string{"generic", "aesni"}, all).Name)
	assert.Equal(t, "generic", Select(AESGCM, nil, all).Name)
}

func TestDetectionConsistent(t *testing.T) {
	d := Detected()
	assert.True(t, d.HasAll(baseline))
	if d.Has(AVX2) {
		assert.True(t, d.Has(AVX))
	}
	if d.Has(VAES) || d.Has(VPCLMULQDQ) {
		assert.True(t, d.Has(AVX), "VAES/VPCLMULQDQ need the OS to save YMM state")
	}
	if d.Has(AVX512F) {
		assert.True(t, osSavesZMM(), "AVX-512 reported without XCR0 opmask/ZMM state")
	}
	for _, f := range []Feature{AVX512BW, AVX512DQ, AVX512VL, AVX512IFMA, AVX512VBMI} {
		if d.Has(f) {
			assert.True(t, d.Has(AVX512F), "%s without avx512f", f)
		}
	}
	t.Logf("detected: %s", d)
}

// TestFamilyModel decodes CPUID leaf 1 signatures of the machines this
// project has had (stepping 0): the Xeon model 167, an Emerald Rapids and
// AMD's Zen 3, Zen 4 and Zen 5.
func TestFamilyModel(t *testing.T) {
	for _, c := range []struct{ eax, family, model uint32 }{
		{0x000a0670, 6, 167}, // Intel Xeon, family 6 model 167
		{0x000c06f0, 6, 207}, // Emerald Rapids
		{0x00a20f10, 25, 33}, // Zen 3
		{0x00a10f10, 25, 17}, // Zen 4
		{0x00b00f20, 26, 2},  // Zen 5
		{0x00000f40, 15, 4},  // family 15, no extended family
	} {
		f, m := familyModel(c.eax)
		assert.Equal(t, [2]uint32{c.family, c.model}, [2]uint32{f, m}, "eax %#x", c.eax)
	}
}

func TestDescribe(t *testing.T) {
	out := Describe()
	assert.Contains(t, out, "detected:")
	if name := cpuName(); name != "" {
		assert.Contains(t, out, "cpu: "+name+"; PreferYMM: ")
	}
	for _, c := range Configs() {
		assert.Contains(t, out, c.Name)
	}
	assert.NotContains(t, out, "BUG")
}

func TestSimulatedDetectsEverything(t *testing.T) {
	if !Simulated() {
		t.Skip("not built with -tags vgsim")
	}
	assert.Equal(t, amd64Features, Detected())
	assert.Contains(t, Describe(), "x86sim model's features")
}
