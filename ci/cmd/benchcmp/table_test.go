package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTextTable(t *testing.T) {
	tt := newTextTable([]align{alignLeft, alignRight, alignRight}, []string{"", " | ", " "})
	tt.spanRow(textCell{text: "name", span: 1}, textCell{text: "values", span: 2, align: alignCenter})
	tt.row("a", "1.5µ", "± 2%")
	tt.row("longer", "10", "± ∞")
	var b strings.Builder
	require.NoError(t, tt.write(&b))
	// Column widths: 6, 4, 4; the span covers 4+1+4 = 9 columns.
	want := "" +
		"name   |  values\n" +
		"a      | 1.5µ ± 2%\n" +
		"longer |   10  ± ∞\n"
	assert.Equal(t, want, b.String())

	// A spanning cell wider than its columns widens the last of them.
	tt = newTextTable([]align{alignLeft, alignLeft}, []string{"", " "})
	tt.spanRow(textCell{text: "a very long header", span: 2, align: alignLeft})
	tt.row("x", "y")
	tt.row("x", "y")
	b.Reset()
	require.NoError(t, tt.write(&b))
	assert.Equal(t, "a very long header\nx y\nx y\n", b.String())
}

func TestSuperscript(t *testing.T) {
	assert.Equal(t, "¹", superscript(1))
	assert.Equal(t, "¹²", superscript(12))
	assert.Equal(t, "⁹⁰", superscript(90))
}

func ns(vals ...float64) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = v * 1e-9
	}
	return out
}

// columnOf returns the rune index of the first occurrence of sub in line.
func columnOf(line, sub string) int {
	i := strings.Index(line, sub)
	if i < 0 {
		return -1
	}
	return utf8.RuneCountInString(line[:i])
}

func TestTableCompare(t *testing.T) {
	tab := &table{
		unit: "sec/op", refName: "base", candName: "head", deltaName: "vs base", dir: -1,
		rows: []comparison{
			compare("Seal/16", ns(100, 101, 102, 103, 104, 105), ns(200, 201, 202, 203, 204, 205)),
			compare("Seal/1350", ns(10000, 10200, 10400, 10600, 10800, 11000), ns(10100, 10300, 10500, 10700, 10900, 11100)),
			compare("Open/16", ns(50, 51, 52), nil),
		},
	}
	var b strings.Builder
	require.NoError(t, tab.write(&b))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 7, b.String())
	t.Log("\n" + b.String())

	assert.Regexp(t, `^sec/op +base +head +vs base$`, lines[0])
	// Medians 102.5ns and 202.5ns: +97.56%, p = 2/924.
	assert.Regexp(t, `^Seal/16 +102\.5n ± 2% +202\.5n ± 1% +\+97\.56% \(p=0\.002 n=6\)$`, lines[1])
	// Interleaved: no significant change.
	assert.Regexp(t, `^Seal/1350 +10\.50µ ± 5% +10\.60µ ± 5% +~ \(p=\d\.\d{3} n=6\)$`, lines[2])
	// Base only, with too few samples for an interval: footnote 1.
	assert.Regexp(t, `^Open/16 +51\.00n ± +∞ +\(base only\) ¹$`, lines[3])
	// geomean over the two complete rows: sqrt(102.5*10500) and
	// sqrt(202.5*10600) ns; the ratio is sqrt(202.5/102.5 * 10600/10500).
	assert.Regexp(t, `^geomean +1\.037µ +1\.465µ +\+41\.22% ²$`, lines[4])
	assert.Equal(t, "¹ need >= 6 samples for confidence interval at level 0.95", lines[5])
	assert.Equal(t, "² geomean over the 2 benchmarks measured on both sides", lines[6])

	// Columns line up: every "±" at the same place per side, the deltas
	// right-aligned.
	assert.Equal(t, columnOf(lines[1], "±"), columnOf(lines[2], "±"))
	assert.Equal(t, columnOf(lines[1], "±"), columnOf(lines[3], "±"))
	assert.Equal(t, columnOf(lines[1], " (p="), columnOf(lines[2], " (p="))
	assert.Equal(t, columnOf(lines[1], "102.5n")+utf8.RuneCountInString("102.5n"), columnOf(lines[4], "1.037µ")+utf8.RuneCountInString("1.037µ"))
}

func TestTablePairSpeedup(t *testing.T) {
	tab := &table{
		unit: "sec/op", refName: "stdlib", candName: "vg-generic", deltaName: "vs stdlib", dir: -1, speedup: true,
		rows: []comparison{
			compare("Seal/16/vg-generic", ns(400, 401, 402, 403, 404, 405), ns(100, 101, 102, 103, 104, 105)),
			compare("Seal/64/vg-generic", ns(100, 101, 102, 103, 104, 105), ns(200, 201, 202, 203, 204, 205)),
		},
	}
	var b strings.Builder
	require.NoError(t, tab.write(&b))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 4, b.String())
	assert.Regexp(t, `^sec/op +stdlib +vg-generic +vs stdlib +speed-up +per round$`, lines[0])
	// 402.5/102.5 = 3.93x faster than the reference.
	assert.Regexp(t, `^Seal/16/vg-generic +402\.5n ± 1% +102\.5n ± 2% +-74\.53% \(p=0\.002 n=6\) +3\.93x$`, lines[1])
	// 102.5/202.5 = 0.51x: slower than the reference.
	assert.Regexp(t, `^Seal/64/vg-generic +102\.5n ± 2% +202\.5n ± 1% +\+97\.56% \(p=0\.002 n=6\) +0\.51x$`, lines[2])
	// sqrt(402.5*102.5) and sqrt(102.5*202.5) ns; the ratio is
	// sqrt(102.5/402.5 * 202.5/102.5) and the speed-up sqrt(3.927 * 0.5062) = 1.41x.
	assert.Regexp(t, `^geomean +203\.1n +144\.1n +-29\.07% +1\.41x$`, lines[3])

	// Throughput: higher is better, so the speed-up is cand/ref. Both cells
	// of a row share the scale of the smaller value.
	tab = &table{
		unit: "B/s", refName: "stdlib", candName: "vg", deltaName: "vs stdlib", dir: 1, speedup: true,
		rows: []comparison{compare("Seal/16/vg", []float64{1e6, 1e6, 1e6, 1e6, 1e6, 1e6}, []float64{3e6, 3e6, 3e6, 3e6, 3e6, 3e6})},
	}
	b.Reset()
	require.NoError(t, tab.write(&b))
	lines = strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 2, b.String())
	assert.Regexp(t, `^Seal/16/vg +976\.6Ki ± 0% +2929\.7Ki ± 0% +\+200\.00% \(p=0\.002 n=6\) +3\.00x$`, lines[1])
}

func TestTablePerRound(t *testing.T) {
	// Round i of the reference against round i of the candidate: the
	// reference drifts from 400 to 800 ns while the candidate stays at half
	// of it, so each side's spread is wide but every round says 2x.
	ref, cand := ns(400, 500, 600, 700, 800, 450), ns(200, 250, 300, 350, 400, 225)
	row := compare("Seal/16/vg", ref, cand)
	row.paired = pairedSpeedups(ref, cand, -1)
	tab := &table{unit: "sec/op", refName: "stdlib", candName: "vg", deltaName: "vs stdlib", dir: -1, speedup: true,
		rows: []comparison{row}}
	var b strings.Builder
	require.NoError(t, tab.write(&b))
	assert.Regexp(t, `(?m)^Seal/16/vg .* 2\.00x +2\.00x \(2\.00–2\.00\)$`, b.String())

	// Unmatched counts give no per-round column; quartiles interpolate.
	assert.Nil(t, pairedSpeedups(ns(1, 2), ns(1), -1))
	q1, med, q3 := quartiles([]float64{4, 1, 3, 2, 5})
	assert.Equal(t, []float64{2, 3, 4}, []float64{q1, med, q3})
	q1, med, q3 = quartiles([]float64{1, 2})
	assert.InDeltaSlice(t, []float64{1.25, 1.5, 1.75}, []float64{q1, med, q3}, 1e-12)
}

func TestTableAllZero(t *testing.T) {
	zeros := []float64{0, 0, 0, 0, 0, 0}
	tab := &table{unit: "allocs/op", refName: "base", candName: "head", deltaName: "vs base", dir: -1,
		rows: []comparison{compare("A", zeros, zeros), compare("B", nil, zeros)}}
	var b strings.Builder
	require.NoError(t, tab.write(&b))
	assert.Equal(t, "allocs/op: 0 in every run of all 2 benchmarks\n", b.String())

	// One non-zero value keeps the full table.
	tab.rows = append(tab.rows, compare("C", zeros, []float64{0, 0, 0, 0, 0, 1}))
	b.Reset()
	require.NoError(t, tab.write(&b))
	assert.Regexp(t, `^allocs/op +base +head +vs base\n`, b.String())
}
