package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/cpufeat"
)

// TestTierCaps checks each tier's OPENSSL_ia32cap against the bits written
// out from the CPUID(7,0) tables (EBX in the low half, ECX in the high half):
// the AVX-512 bits are EBX 16 F, 17 DQ, 21 IFMA, 26 PF, 27 ER, 28 CD, 30 BW,
// 31 VL and ECX 1 VBMI, 6 VBMI2, 11 VNNI, 12 BITALG, 14 VPOPCNTDQ; GFNI is
// ECX 8, VAES ECX 9, VPCLMULQDQ ECX 10.
func TestTierCaps(t *testing.T) {
	want := map[string]string{
		"native":      "",
		"cascadelake": ":~0x000057420c200000", // IFMA PF ER; VBMI VBMI2 GFNI VAES VPCLMULQDQ BITALG VPOPCNTDQ
		"zen3":        ":~0x00005942dc230000", // every AVX-512 bit, GFNI
		"skylake":     ":~0x00005f42dc230000", // and VAES, VPCLMULQDQ
	}
	require.Len(t, tiers, len(want))
	for _, tr := range tiers {
		assert.Equal(t, want[tr.Name], tr.Cap, tr.Name)
	}
}

// TestTierPicks checks vg's default backends at each tier on a machine
// that has every feature, in a build with the amd64 assembly backends.
func TestTierPicks(t *testing.T) {
	if !slices.ContainsFunc(aesgcm.Backends(), func(b aesgcm.Backend) bool { return b.Name == "aesni-avx" }) {
		t.Skip("this build has no assembly backends (purego, or not amd64): every tier picks the portable ones")
	}
	all, err := cpufeat.ApplyOverride("all", cpufeat.Set(^uint64(0)))
	require.NoError(t, err)
	want := map[string]string{
		"cascadelake": "aesgcm=aesni-avx chacha20poly1305=avx512 rsa=adx",
		"zen3":        "aesgcm=vaes-avx2 chacha20poly1305=avx2 rsa=adx",
		"skylake":     "aesgcm=aesni-avx chacha20poly1305=avx2 rsa=adx",
	}
	for name, w := range want {
		tr, err := lookupTier(name)
		require.NoError(t, err)
		got, err := tr.picks(all)
		require.NoError(t, err)
		assert.Equal(t, w, got, name)
		assert.Zero(t, tr.missing(all), name)
	}
}

// TestTierMissing checks that a tier the machine cannot run is refused, and
// names what the machine lacks.
func TestTierMissing(t *testing.T) {
	noAVX512, err := cpufeat.ApplyOverride("ssse3,sse41,avx,avx2,bmi1,bmi2,adx,aes,pclmulqdq,vaes,vpclmulqdq", cpufeat.Set(^uint64(0)))
	require.NoError(t, err)
	cl, err := lookupTier("cascadelake")
	require.NoError(t, err)
	m := cl.missing(noAVX512)
	assert.True(t, m.Has(cpufeat.AVX512F), "%s", m)
	assert.False(t, m.Has(cpufeat.AVX2), "%s", m)
	z, err := lookupTier("zen3")
	require.NoError(t, err)
	assert.Zero(t, z.missing(noAVX512))

	var out strings.Builder
	require.NoError(t, writeTiers(&out, noAVX512))
	assert.Contains(t, out.String(), "cascadelake: ")
	assert.Contains(t, out.String(), "not on this machine: it lacks ")
	assert.Contains(t, out.String(), "OPENSSL_ia32cap=:~0x00005942dc230000")

	_, err = lookupTier("haswell")
	assert.ErrorContains(t, err, `unknown tier (the tiers: native, cascadelake, zen3, skylake`)
	_, err = parseFlags([]string{"-tier", "zen3", "-env", "VG_CPU_FEATURES=avx2", "./x"}, &out)
	assert.ErrorContains(t, err, "sets VG_CPU_FEATURES itself")
}

// tierResults is a results file of tier name with three rounds of Seal at
// one size: vg's candidate cand at candNs, and others (name, ns per round).
func tierResults(name, cand string, candNs float64, others map[string][3]float64) string {
	var b strings.Builder
	tr, _ := lookupTier(name)
	fmt.Fprintf(&b, "# benchcmp date: 2026-12-07\n# benchcmp cpu: Test CPU (family 1, model 2), 2 CPUs\n# benchcmp runs: 3 rounds\n")
	fmt.Fprintf(&b, "# benchcmp tier: %s, %s; vg: aesgcm=%s chacha20poly1305=x rsa=y; VG_CPU_FEATURES=z\n", name, tr.Class, cand)
	b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/vgcrypto/vg/aesgcm\n")
	for round := range 3 {
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/%s 100 %.1f ns/op\n", cand, candNs)
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/generic 100 %.1f ns/op\n", candNs/100) // not vg's default: ignored
		for _, o := range []string{"boringssl", "stdlib", "openssl"} {
			if v, ok := others[o]; ok {
				fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/%s 100 %.1f ns/op\n", o, v[round])
			}
		}
	}
	return b.String()
}

// TestTierTable checks the tier table: per round the fastest other
// implementation, the median speed-up with its quartiles, the one fastest
// in most rounds, the tiers in order whatever the files' names.
func TestTierTable(t *testing.T) {
	dir := t.TempDir()
	writeFile := func(name, content string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	// native: vg 100 ns; boringssl is fastest in rounds 1 and 3 (150,
	// 120), stdlib in round 2 (130): speed-ups 1.5, 1.3, 1.2.
	writeFile("a-native.txt", tierResults("native", "vaes-avx512", 100, map[string][3]float64{
		"boringssl": {150, 200, 120}, "stdlib": {400, 130, 400}, "openssl": {300, 300, 300},
	}))
	// zen3: vg 200 ns against openssl at 100: 0.5 in every round.
	writeFile("0-zen3.txt", tierResults("zen3", "vaes-avx2", 200, map[string][3]float64{"openssl": {100, 100, 100}}))
	var out, errOut strings.Builder
	err := run(t.Context(), []string{"-tiers", filepath.Join(dir, "*.txt"), "-md", "-"}, ".", &out, &errOut)
	require.NoError(t, err, errOut.String())
	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 6, out.String())
	assert.Contains(t, lines[0], "the fastest other implementation")
	assert.Contains(t, lines[0], "Measured 2026-12-07 on Test CPU (family 1, model 2), 2 CPUs")
	assert.Equal(t, "| | bytes | native: `vaes-avx512` | zen3: `vaes-avx2` |", lines[2])
	assert.Equal(t, "| Seal AES-128 | 16 | 1.30x (1.25–1.40) boringssl | 0.50x (0.50–0.50) openssl |", lines[4])

	// A file without a tier line is refused.
	writeFile("b.txt", "goos: linux\npkg: github.com/vgcrypto/vg/aesgcm\nBenchmarkSeal/AES-128/16/vaes-avx512 100 1 ns/op\n")
	err = run(t.Context(), []string{"-tiers", filepath.Join(dir, "*.txt"), "-md", "-"}, ".", &out, &errOut)
	assert.ErrorContains(t, err, "no tier line")
}
