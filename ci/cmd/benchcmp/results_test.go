package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// A run's output as a test binary prints it, with a log line and a "-v"
// style name line in the middle.
const sampleOutput = `goos: linux
goarch: amd64
pkg: github.com/vgcrypto/vg/aesgcm
cpu: AMD EPYC 7B13
BenchmarkSeal/aes128/16/vg-generic-2         	  100000	      1250 ns/op	  12.80 MB/s	       0 B/op	       0 allocs/op
BenchmarkSeal/aes128/16/stdlib-2             	 1000000	       250.5 ns/op	  63.87 MB/s	       0 B/op	       0 allocs/op
BenchmarkOpen
    bench_test.go:12: some log line
BenchmarkOpen-2   	   50000	     30000 ns/op
BenchmarkBroken-2   	   notanumber	     30000 ns/op
PASS
`

func TestParseResults(t *testing.T) {
	set := newResultSet()
	meta := make(benchfmt.UnitMetadataMap)
	warnings, err := parseResults(strings.NewReader(sampleOutput), "run1", meta, func(*benchfmt.Result) *resultSet { return set })
	require.NoError(t, err)
	require.Len(t, warnings, 1, "the broken line is a warning")
	assert.Contains(t, warnings[0], "run1:10")
	assert.Contains(t, warnings[0], "iteration count")

	const pkg = "github.com/vgcrypto/vg/aesgcm"
	assert.Equal(t, []benchID{
		{pkg, "Seal/aes128/16/vg-generic-2"},
		{pkg, "Seal/aes128/16/stdlib-2"},
		{pkg, "Open-2"},
	}, set.benches)
	// Units are tidied to base units: ns/op -> sec/op, MB/s -> B/s.
	assert.Equal(t, []string{"sec/op", "B/s", "B/op", "allocs/op"}, set.units)
	assert.InDelta(t, 1250e-9, set.values[measureKey{set.benches[0], "sec/op"}][0], 1e-18)
	assert.InDelta(t, 250.5e-9, set.values[measureKey{set.benches[1], "sec/op"}][0], 1e-18)
	assert.InDelta(t, 12.80e6, set.values[measureKey{set.benches[0], "B/s"}][0], 1e-6)
	assert.Equal(t, []float64{0}, set.values[measureKey{set.benches[1], "allocs/op"}])
	assert.Equal(t, map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "AMD EPYC 7B13"}, set.config)
	assert.Equal(t, 3, set.count(pkg))
	assert.Equal(t, 0, set.count("other"))

	// A second run appends to the same benchmarks.
	_, err = parseResults(strings.NewReader(sampleOutput), "run2", meta, func(*benchfmt.Result) *resultSet { return set })
	require.NoError(t, err)
	assert.Len(t, set.benches, 3)
	assert.Len(t, set.values[measureKey{set.benches[2], "sec/op"}], 2)
}

func TestParseResultsUnitMetadata(t *testing.T) {
	const out = "Unit cycles/byte better=lower\nUnit score better=higher\nBenchmarkX 10 4.5 cycles/byte 7 score\n"
	meta := make(benchfmt.UnitMetadataMap)
	set := newResultSet()
	_, err := parseResults(strings.NewReader(out), "f", meta, func(*benchfmt.Result) *resultSet { return set })
	require.NoError(t, err)
	assert.Equal(t, -1, meta.GetBetter("cycles/byte"))
	assert.Equal(t, 1, meta.GetBetter("score"))
	assert.Equal(t, 0, meta.GetBetter("widgets"))
	assert.Equal(t, -1, meta.GetBetter("sec/op"))
	assert.Equal(t, 1, meta.GetBetter("B/s"))
}

func TestLoadFile(t *testing.T) {
	const file = `# benchcmp base: abc
side: base
# round 1/2 ./x
pkg: example.com/x
BenchmarkA 10 100 ns/op
side: head
# round 1/2 ./x
pkg: example.com/x
BenchmarkA 10 200 ns/op
side: base
BenchmarkA 10 110 ns/op
side: head
BenchmarkA 10 210 ns/op
BenchmarkB 10 5 ns/op
side: other
BenchmarkA 10 1 ns/op
`
	base, head, warnings, err := loadFile(strings.NewReader(file), "saved.txt", nil)
	require.NoError(t, err)
	a := benchID{"example.com/x", "A"}
	assert.InDeltaSlice(t, []float64{100e-9, 110e-9}, base.values[measureKey{a, "sec/op"}], 1e-18)
	assert.InDeltaSlice(t, []float64{200e-9, 210e-9}, head.values[measureKey{a, "sec/op"}], 1e-18)
	assert.Equal(t, []benchID{a}, base.benches)
	assert.Equal(t, []benchID{a, {"example.com/x", "B"}}, head.benches)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], `"other"`)

	// Plain go test output, with no side lines, is the head side.
	base, head, _, err = loadFile(strings.NewReader("BenchmarkA 10 100 ns/op\n"), "plain.txt", nil)
	require.NoError(t, err)
	assert.Empty(t, base.benches)
	assert.Equal(t, []benchID{{"", "A"}}, head.benches)
}
