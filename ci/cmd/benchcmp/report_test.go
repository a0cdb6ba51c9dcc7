package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// setOf parses go test output into a result set.
func setOf(t *testing.T, out string) *resultSet {
	t.Helper()
	s := newResultSet()
	_, err := parseResults(strings.NewReader(out), "test", nil, func(*benchfmt.Result) *resultSet { return s })
	require.NoError(t, err)
	return s
}

// repeat returns out n times, as n runs of a test binary.
func repeat(out string, n int) string { return strings.Repeat(out, n) }

func TestCompareReport(t *testing.T) {
	base := setOf(t, repeat("pkg: p1\nBenchmarkA 1 100 ns/op 10 MB/s\nBenchmarkGone 1 5 ns/op\npkg: p2\nBenchmarkC 1 7 ns/op\n", 6))
	head := setOf(t, repeat("pkg: p1\nBenchmarkNew 1 9 ns/op\nBenchmarkA 1 50 ns/op 20 MB/s\npkg: p2\nBenchmarkC 1 7 ns/op\n", 6))
	groups := compareReport(base, head, nil)
	require.Len(t, groups, 2)
	assert.Equal(t, "p1", groups[0].pkg)
	require.Len(t, groups[0].tables, 2)
	secs := groups[0].tables[0]
	assert.Equal(t, "sec/op", secs.unit)
	assert.Equal(t, -1, secs.dir)
	var labels []string
	for _, r := range secs.rows {
		labels = append(labels, r.label)
	}
	// Head order first, then benchmarks only the base has.
	assert.Equal(t, []string{"New", "A", "Gone"}, labels)
	assert.Nil(t, secs.rows[0].ref)
	assert.Nil(t, secs.rows[2].cand)
	assert.Equal(t, "-50.00%", secs.rows[1].delta())
	speed := groups[0].tables[1]
	assert.Equal(t, "B/s", speed.unit)
	assert.Equal(t, 1, speed.dir)
	require.Len(t, speed.rows, 1)
	assert.Equal(t, "+100.00%", speed.rows[0].delta())
	// Identical samples: no change.
	require.Len(t, groups[1].tables, 1)
	assert.Equal(t, "~", groups[1].tables[0].rows[0].delta())

	var b strings.Builder
	require.NoError(t, writeReport(&b, []string{"base: x", "head: y"}, groups))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "base: x\nhead: y\n\npkg: p1\nsec/op "), out)
	assert.Contains(t, out, "\n\nB/s ")
	assert.Contains(t, out, "\npkg: p2\n")
	assert.Contains(t, out, "(head only)")
	assert.Contains(t, out, "(base only)")
}

func TestPairReport(t *testing.T) {
	set := setOf(t, repeat(`pkg: aead
BenchmarkSeal/16/vg-generic 1 400 ns/op
BenchmarkSeal/16/vg-aesni 1 50 ns/op
BenchmarkSeal/16/stdlib 1 100 ns/op
BenchmarkSeal/16/xcrypto 1 200 ns/op
BenchmarkOpen/16/vg-generic 1 300 ns/op
BenchmarkOpen/16/stdlib 1 100 ns/op
`, 6))
	groups, err := pairReport(set, []pairSpec{{"vg-*", "stdlib"}, {"vg-generic", "xcrypto"}}, nil)
	require.NoError(t, err)
	require.Len(t, groups, 1)
	tabs := groups[0].tables
	require.Len(t, tabs, 2, "one table per reference")

	assert.Equal(t, "stdlib", tabs[0].refName)
	assert.Equal(t, "candidate", tabs[0].candName, "several candidates")
	assert.Equal(t, "vs stdlib", tabs[0].deltaName)
	assert.True(t, tabs[0].speedup)
	var labels []string
	for _, r := range tabs[0].rows {
		labels = append(labels, r.label)
	}
	assert.Equal(t, []string{"Seal/16/vg-generic", "Seal/16/vg-aesni", "Open/16/vg-generic"}, labels)
	assert.Equal(t, "+300.00%", tabs[0].rows[0].delta())
	assert.Equal(t, "-50.00%", tabs[0].rows[1].delta())

	assert.Equal(t, "xcrypto", tabs[1].refName)
	assert.Equal(t, "vg-generic", tabs[1].candName, "a single candidate names the column")
	require.Len(t, tabs[1].rows, 1)
	assert.Equal(t, "+100.00%", tabs[1].rows[0].delta())

	var b strings.Builder
	require.NoError(t, writeReport(&b, nil, groups))
	// 100/50 = 2x faster than stdlib; 100/400 = 0.25x.
	// The per-round column follows: here every round has the same ratio.
	assert.Regexp(t, `(?m)^Seal/16/vg-aesni .* 2\.00x +2\.00x \(2\.00–2\.00\)$`, b.String())
	assert.Regexp(t, `(?m)^Seal/16/vg-generic .* 0\.25x +0\.25x \(0\.25–0\.25\)$`, b.String())

	_, err = pairReport(set, []pairSpec{{"vg", "boringssl"}}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no benchmark pairs match -pair vg=boringssl")
	assert.Contains(t, err.Error(), "last elements seen: vg-generic, vg-aesni, stdlib, xcrypto")
}

func TestEnvHeader(t *testing.T) {
	a := setOf(t, "goos: linux\nBenchmarkA 1 1 ns/op\n")
	b := setOf(t, "goos: darwin\ncpu: M1\nBenchmarkA 1 1 ns/op\n")
	assert.Equal(t, []string{"goos: linux", "cpu: M1"}, envHeader(a, b))
}
