package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummarize(t *testing.T) {
	assert.Nil(t, summarize(nil))

	in := []float64{106, 101, 104, 102, 105, 103}
	s := summarize(in)
	require.NotNil(t, s)
	assert.Equal(t, []float64{106, 101, 104, 102, 105, 103}, in, "input order kept")
	// Median of six values: mean of the middle two.
	assert.Equal(t, 103.5, s.summary.Center)
	// With six samples the narrowest distribution-free interval with at
	// least 95% confidence is [min, max], whose confidence is
	// 1 - 2*(1/2)^6 = 0.96875.
	assert.Equal(t, 101.0, s.summary.Lo)
	assert.Equal(t, 106.0, s.summary.Hi)
	assert.InDelta(t, 0.96875, s.summary.Confidence, 1e-12)
	assert.Empty(t, s.warnings())
	// max(106/103.5-1, 1-101/103.5) = 2.4%.
	assert.Equal(t, "2%", s.summary.PctRangeString())

	// Five samples cannot bound the median at 95%: the interval is infinite
	// and a warning says how many are needed.
	s = summarize([]float64{1, 2, 3, 4, 5})
	assert.Equal(t, 3.0, s.summary.Center)
	assert.True(t, math.IsInf(s.summary.Lo, -1))
	assert.Equal(t, "∞", s.summary.PctRangeString())
	require.Len(t, s.warnings(), 1)
	assert.Contains(t, s.warnings()[0].Error(), "need >= 6 samples")
}

func TestCompare(t *testing.T) {
	base := []float64{100, 101, 102, 103, 104, 105}
	slower := []float64{150, 151, 152, 153, 154, 155}

	// Completely separated samples of six: the exact two-sided U test
	// p-value is 2/C(12,6) = 2/924.
	c := compare("X", base, slower)
	require.True(t, c.both())
	assert.InDelta(t, 2.0/924, c.cmp.P, 1e-9)
	assert.True(t, c.significant())
	// (152.5/102.5 - 1) * 100 = 48.78%.
	assert.Equal(t, "+48.78%", c.delta())
	assert.Equal(t, "p=0.002 n=6", c.cmp.String())
	assert.Empty(t, c.cmp.Warnings)

	// The same in the other direction.
	c = compare("X", slower, base)
	assert.Equal(t, "-32.79%", c.delta())

	// Interleaved samples are within noise.
	c = compare("X", []float64{100, 102, 104, 106, 108, 110}, []float64{101, 103, 105, 107, 109, 111})
	assert.False(t, c.significant())
	assert.Equal(t, "~", c.delta())
	assert.Greater(t, c.cmp.P, 0.5)

	// Three samples each can never reach p <= 0.05 (the minimum is 0.1):
	// benchmath warns.
	c = compare("X", []float64{1, 2, 3}, []float64{10, 11, 12})
	assert.InDelta(t, 0.1, c.cmp.P, 1e-9)
	assert.Equal(t, "~", c.delta())
	require.NotEmpty(t, c.cmp.Warnings)
	assert.Contains(t, c.cmp.Warnings[0].Error(), "need >= 4 samples")

	// One side missing.
	c = compare("X", nil, base)
	assert.False(t, c.both())
	assert.False(t, c.significant())
	assert.Equal(t, "", c.delta())
}

func TestSpeedup(t *testing.T) {
	x, ok := speedup(300, 100, -1) // time: reference 3x slower
	assert.True(t, ok)
	assert.Equal(t, 3.0, x)
	x, ok = speedup(100, 300, 1) // throughput: candidate 3x higher
	assert.True(t, ok)
	assert.Equal(t, 3.0, x)
	x, ok = speedup(0, 0, -1) // 0 allocs vs 0 allocs
	assert.True(t, ok)
	assert.Equal(t, 1.0, x)
	_, ok = speedup(1, 0, -1)
	assert.False(t, ok)
	_, ok = speedup(100, 300, 0)
	assert.False(t, ok)
	assert.Equal(t, "2.50x", formatSpeedup(2.5))
}

func TestGeomean(t *testing.T) {
	g, ok := geomean([]float64{1, 4, 16})
	assert.True(t, ok)
	assert.InDelta(t, 4, g, 1e-12)
	_, ok = geomean(nil)
	assert.False(t, ok)
	_, ok = geomean([]float64{1, 0})
	assert.False(t, ok)
	_, ok = geomean([]float64{1, -2})
	assert.False(t, ok)
}
