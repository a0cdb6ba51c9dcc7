package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// figureResults is a results file of three rounds: Seal and Open of two
// sizes, backends "fast" and "slow" beside "stdlib", with provenance lines.
func figureResults() string {
	var b strings.Builder
	b.WriteString("# benchcmp head: working tree at abc, clean\n# benchcmp date: 2026-12-01\n# benchcmp cpu: Test CPU (family 1, model 2), 2 CPUs\n# benchcmp go: go1.26.8\n# benchcmp runs: 3 rounds, -bench \"x\"\n")
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m/aead\n")
	for round := 1; round <= 3; round++ {
		for _, op := range []string{"Seal", "Open"} {
			for _, size := range []int{16, 1024} {
				std := float64(size)*2 + 100 + float64(round) // ns
				for _, c := range []struct {
					name string
					f    float64
				}{{"fast", 0.5}, {"slow", 4}, {"stdlib", 1}} {
					ns := std * c.f
					fmt.Fprintf(&b, "Benchmark%s/AES-128/%d/%s 100 %.1f ns/op %.2f MB/s\n", op, size, c.name, ns, float64(size)/ns*1e3)
				}
			}
		}
	}
	return b.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestMarkdown(t *testing.T) {
	file := writeTemp(t, "r.txt", figureResults())
	var out, errOut strings.Builder
	err := run(t.Context(), []string{"-load", file, "-pair", "*=stdlib", "-bench", "/1024/|Seal/AES-128/16/", "-md", "-"}, ".", &out, &errOut)
	require.NoError(t, err, errOut.String())
	want := "Seal AES-128, Open AES-128: median time of `stdlib`; for each backend the median over the rounds of its speed-up over `stdlib` in that round (stdlib time / backend time), quartiles in brackets. " +
		"Measured 2026-12-01 at abc on Test CPU (family 1, model 2), 2 CPUs with go1.26.8 (3 rounds, -bench \"x\"); raw results: `" + filepath.ToSlash(file) + "`.\n\n" +
		"| | bytes | stdlib | fast | slow |\n| --- | --- | --- | --- | --- |\n" +
		"| Seal AES-128 | 16 | 134 ns | 2.00x (2.00–2.00) | 0.25x (0.25–0.25) |\n" +
		"| | 1024 | 2.15 µs | 2.00x (2.00–2.00) | 0.25x (0.25–0.25) |\n" +
		"| Open AES-128 | 1024 | 2.15 µs | 2.00x (2.00–2.00) | 0.25x (0.25–0.25) |\n"
	assert.Equal(t, want, out.String())

	// Two references: one table each.
	out.Reset()
	err = run(t.Context(), []string{"-load", file, "-pair", "*=stdlib,fast=slow", "-bench", "^Seal/AES-128/16/", "-md", "-", "-md-row", "size"}, ".", &out, &errOut)
	require.NoError(t, err)
	assert.Contains(t, out.String(), "| | size | stdlib | fast | slow |\n")
	assert.Contains(t, out.String(), "\n\nSeal AES-128: median time of `slow`;")
	assert.Contains(t, out.String(), "| | size | slow | fast |\n| --- | --- | --- | --- |\n| Seal AES-128 | 16 | 536 ns | 8.00x (8.00–8.00) |\n")
}

func TestFormatTime(t *testing.T) {
	for sec, want := range map[float64]string{
		58.14e-9: "58.1 ns", 105.2e-9: "105 ns", 999.4e-9: "999 ns", 999.7e-9: "1.00 µs", 1.534e-6: "1.53 µs",
		16.4e-6: "16.4 µs", 8.66e-3: "8.66 ms", 2.5: "2.50 s", 3e-9: "3.00 ns",
	} {
		assert.Equal(t, want, formatTime(sec), "%g", sec)
	}
}

func TestNiceSteps(t *testing.T) {
	assert.Equal(t, []float64{1e7, 2e7, 5e7, 1e8, 2e8}, niceSteps(1.2e7, 1.9e8))
	assert.Equal(t, []float64{2e8, 5e8, 1e9}, niceSteps(2e8, 1e9))
	assert.Equal(t, []float64{5, 10}, niceSteps(7, 7))
}

// svgNode is a generic XML element, for checking the chart's structure.
type svgNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []svgNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n *svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// walk calls f on n and every element below it.
func (n *svgNode) walk(f func(*svgNode)) {
	f(n)
	for i := range n.Children {
		n.Children[i].walk(f)
	}
}

// parseSVG parses an SVG chart and checks what every chart must satisfy:
// well-formed XML in the SVG namespace with a size, a title, and every
// series a polyline with one circle per point, all inside the plot. It
// returns the series by name with their points.
func parseSVG(t *testing.T, data []byte) (root svgNode, series map[string][][2]float64) {
	t.Helper()
	require.NoError(t, xml.Unmarshal(data, &root))
	require.Equal(t, "svg", root.XMLName.Local)
	require.Equal(t, "http://www.w3.org/2000/svg", root.XMLName.Space)
	require.NotEmpty(t, root.attr("width"))
	require.NotEmpty(t, root.attr("viewBox"))
	series = map[string][][2]float64{}
	root.walk(func(n *svgNode) {
		if n.attr("class") != "series" {
			return
		}
		name := n.attr("data-name")
		require.NotEmpty(t, name)
		var circles int
		for _, c := range n.Children {
			switch c.XMLName.Local {
			case "polyline":
				for _, p := range strings.Fields(c.attr("points")) {
					xs, ys, ok := strings.Cut(p, ",")
					require.True(t, ok, p)
					x, err := strconv.ParseFloat(xs, 64)
					require.NoError(t, err)
					y, err := strconv.ParseFloat(ys, 64)
					require.NoError(t, err)
					require.True(t, x >= plotL-0.05 && x <= plotR+0.05 && y >= plotT-0.05 && y <= plotB+0.05, "%s: point %s outside the plot", name, p)
					series[name] = append(series[name], [2]float64{x, y})
				}
			case "circle":
				circles++
			}
		}
		require.Equal(t, len(series[name]), circles, "%s: one circle per point", name)
	})
	return root, series
}

func TestSVGChart(t *testing.T) {
	file := writeTemp(t, "r.txt", figureResults())
	svg := filepath.Join(t.TempDir(), "c.svg")
	var out, errOut strings.Builder
	require.NoError(t, run(t.Context(), []string{"-load", file, "-pair", "*=stdlib", "-bench", "^Seal/", "-svg", svg}, ".", &out, &errOut), errOut.String())
	assert.Empty(t, out.String())
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	root, series := parseSVG(t, data)
	assert.Equal(t, []string{"fast", "slow", "stdlib"}, slices.Sorted(maps.Keys(series)))
	for name, pts := range series {
		require.Len(t, pts, 2, name)
		assert.Less(t, pts[0][0], pts[1][0], "%s: sizes increase to the right", name)
	}
	// Faster is higher (smaller y) at every size; the reference is dashed.
	assert.Less(t, series["fast"][1][1], series["stdlib"][1][1])
	assert.Less(t, series["stdlib"][1][1], series["slow"][1][1])
	var title string
	var dashed []string
	root.walk(func(n *svgNode) {
		if n.XMLName.Local == "title" && title == "" {
			title = n.Text
		}
		if n.XMLName.Local == "polyline" && n.attr("stroke-dasharray") != "" {
			dashed = append(dashed, "x")
		}
	})
	assert.Equal(t, "aead Seal AES-128: throughput by message size", title)
	assert.Len(t, dashed, 1)
	assert.Contains(t, string(data), "median of 3 rounds · Test CPU (family 1, model 2), 2 CPUs · 2026-12-01 · go1.26.8")

	// The same input gives the same bytes (the README check relies on it).
	svg2 := filepath.Join(t.TempDir(), "d.svg")
	require.NoError(t, run(t.Context(), []string{"-load", file, "-pair", "*=stdlib", "-bench", "^Seal/", "-svg", svg2}, ".", io.Discard, io.Discard))
	data2, err := os.ReadFile(svg2)
	require.NoError(t, err)
	assert.Equal(t, data, data2)

	// One group only.
	err = run(t.Context(), []string{"-load", file, "-svg", svg}, ".", io.Discard, io.Discard)
	assert.ErrorContains(t, err, "one benchmark group")
}

// TestCommittedCharts checks every chart committed under ci/results the same
// way: they are what the README shows.
func TestCommittedCharts(t *testing.T) {
	files, err := filepath.Glob("../../results/*/*.svg")
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		_, series := parseSVG(t, data)
		assert.GreaterOrEqual(t, len(series), 2, f)
	}
}

func TestFigureFlags(t *testing.T) {
	for args, want := range map[string]string{
		"-md - ./aesgcm":                    "use them with -load",
		"-load f -md -":                     "give -pair",
		"-load f -pair stdlib -md - -svg -": "cannot both",
	} {
		_, err := parseFlags(strings.Fields(args), io.Discard)
		assert.ErrorContains(t, err, want, args)
	}
	_, err := parseFlags(strings.Fields("-load f -bench ( -svg x"), io.Discard)
	require.NoError(t, err)
	err = run(t.Context(), []string{"-load", writeTemp(t, "r.txt", figureResults()), "-bench", "(", "-svg", "x"}, ".", io.Discard, io.Discard)
	assert.ErrorContains(t, err, "-bench")
}
