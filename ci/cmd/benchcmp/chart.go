package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/vgcrypto/vg/ci/peers"
)

// A throughput chart of one benchmark group of a results file, as -svg
// writes it: message size across (log scale, base 2), throughput up (log
// scale, decimal MB/s and GB/s as go test reports them), one line per last
// name element (each backend; each reference implementation, dashed; each
// peer of the peer harness, dotted in its own colour),
// through the median B/s of each size over the rounds.
//
// The group is the benchmark name without its last two elements: in
// "Seal/AES-128/1350/aesni" the group is "Seal/AES-128", the size 1350 and
// the line "aesni". Every benchmark left after -bench must be in one group.
type chart struct {
	title, subtitle string
	lines           []chartLine
}

// chartLine is one line of a chart, its points in increasing size.
type chartLine struct {
	name string
	ref  bool // a reference implementation (drawn dashed)
	pts  []chartPoint
}

// chartPoint is one median throughput at one message size.
type chartPoint struct {
	size int     // bytes
	bps  float64 // bytes per second
}

// buildChart collects the chart of set's one benchmark group; refs names the
// lines that are reference implementations.
func buildChart(set *resultSet, refs []string, prov provenance) (*chart, error) {
	const unit = "B/s"
	var groups, pkgs []string
	byLine := make(map[string]*chartLine)
	var order []string
	for _, id := range set.benches {
		v := set.values[measureKey{id, unit}]
		if len(v) == 0 {
			continue
		}
		p := splitName(id.Name)
		i := strings.LastIndex(p.Parent, "/")
		if i < 0 {
			return nil, fmt.Errorf("%s: want GROUP/SIZE/NAME", id.Name)
		}
		group, sizeText := p.Parent[:i], p.Parent[i+1:]
		size, err := strconv.Atoi(sizeText)
		if err != nil || size <= 0 {
			return nil, fmt.Errorf("%s: the element before the last, %q, is not a size in bytes", id.Name, sizeText)
		}
		groups = orderedUnion(groups, []string{group})
		pkgs = orderedUnion(pkgs, []string{id.Pkg})
		l := byLine[p.Elem]
		if l == nil {
			l = &chartLine{name: p.Elem, ref: slices.Contains(refs, p.Elem)}
			byLine[p.Elem] = l
			order = append(order, p.Elem)
		}
		l.pts = append(l.pts, chartPoint{size: size, bps: summarize(v).summary.Center})
	}
	switch {
	case len(groups) == 0:
		return nil, fmt.Errorf("no %s measurements to chart (benchmarks need b.SetBytes)", unit)
	case len(groups) > 1 || len(pkgs) > 1:
		return nil, fmt.Errorf("a chart shows one benchmark group; -bench matches %d (%s): narrow it, e.g. -bench '^%s/'",
			len(groups), strings.Join(groups, ", "), groups[0])
	}
	c := &chart{title: fmt.Sprintf("%s %s: throughput by message size", path.Base(pkgs[0]), strings.ReplaceAll(groups[0], "/", " "))}
	var sub []string
	if n := maxRounds(set); n > 0 {
		sub = append(sub, fmt.Sprintf("median of %d rounds", n))
	}
	for _, s := range []string{prov.CPU, prov.Date, prov.Go} {
		if s != "" {
			sub = append(sub, s)
		}
	}
	c.subtitle = strings.Join(sub, " · ")
	for _, name := range order {
		l := byLine[name]
		slices.SortFunc(l.pts, func(a, b chartPoint) int { return a.size - b.size })
		c.lines = append(c.lines, *l)
	}
	return c, nil
}

// Geometry of the SVG, in pixels.
const (
	chartW, chartH         = 760, 460
	plotL, plotT           = 80, 64
	plotR, plotB           = 600, 400 // right and bottom edges of the plot
	legendX, legendY, legH = 620, 72, 22
)

// chartColors are the line colours of the backends, in order; references are
// black.
var chartColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#bcbd22", "#7f7f7f", "#393b79"}

// peerColors are the colours of the peers' lines (ci/peers), drawn dotted,
// the same in every chart; none is a backend's.
var peerColors = map[string]string{
	peers.BoringSSL: "#8c564b",
	peers.AWSLC:     "#e377c2",
	peers.OpenSSL:   "#17becf",
	peers.BestPeer:  "#000000",
}

// niceSteps returns the 1-2-5 values (1, 2, 5, 10, 20, ...) from the
// largest one at or below lo to the smallest one at or above hi (0 < lo <= hi).
func niceSteps(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); ; e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v <= lo {
				out = out[:0] // a later step is still at or below lo
			}
			out = append(out, v)
			if v >= hi {
				return out
			}
		}
	}
}

// formatRate formats bytes per second as decimal MB/s or GB/s.
func formatRate(bps float64) string {
	if bps >= 1e9 {
		return strconv.FormatFloat(bps/1e9, 'f', -1, 64) + " GB/s"
	}
	return strconv.FormatFloat(bps/1e6, 'f', -1, 64) + " MB/s"
}

// formatSize formats a message size for an axis label: "256", "4 KiB".
func formatSize(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return strconv.Itoa(n)
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// writeSVG draws the chart.
func (c *chart) writeSVG(w io.Writer) error {
	minSize, maxSize := math.MaxInt, 0
	minBps, maxBps := math.Inf(1), 0.0
	for _, l := range c.lines {
		for _, p := range l.pts {
			minSize, maxSize = min(minSize, p.size), max(maxSize, p.size)
			minBps, maxBps = min(minBps, p.bps), max(maxBps, p.bps)
		}
	}
	if maxSize == minSize {
		maxSize = minSize * 2
	}
	x0, x1 := math.Log2(float64(minSize)), math.Log2(float64(maxSize))
	steps := niceSteps(minBps, maxBps)
	y0, y1 := math.Log10(steps[0]), math.Log10(steps[len(steps)-1])
	px := func(size int) float64 {
		return plotL + (math.Log2(float64(size))-x0)/(x1-x0)*(plotR-plotL)
	}
	py := func(bps float64) float64 {
		return plotB - (math.Log10(bps)-y0)/(y1-y0)*(plotB-plotT)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`+"\n",
		chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(c.title))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", chartW, chartH)
	fmt.Fprintf(&b, `<text class="title" x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", plotL, esc(c.title))
	fmt.Fprintf(&b, `<text class="subtitle" x="%d" y="44" fill="#555555">%s</text>`+"\n", plotL, esc(c.subtitle))

	b.WriteString(`<g class="grid" stroke="#dddddd" stroke-width="1">` + "\n")
	var yTicks strings.Builder
	for _, v := range steps {
		y := f(py(v))
		fmt.Fprintf(&b, `<line x1="%d" y1="%s" x2="%d" y2="%s"/>`+"\n", plotL, y, plotR, y)
		fmt.Fprintf(&yTicks, `<text x="%d" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", plotL-6, y, esc(formatRate(v)))
	}
	var xTicks strings.Builder
	for s := 1; s <= maxSize; s *= 4 {
		if s < minSize {
			continue
		}
		x := f(px(s))
		fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d"/>`+"\n", x, plotT, x, plotB)
		fmt.Fprintf(&xTicks, `<text x="%s" y="%d" text-anchor="middle">%s</text>`+"\n", x, plotB+18, esc(formatSize(s)))
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g class="axes" fill="#000000">` + "\n")
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#000000"/>`+"\n", plotL, plotT, plotR-plotL, plotB-plotT)
	b.WriteString(yTicks.String())
	b.WriteString(xTicks.String())
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">message size, bytes (log scale)</text>`+"\n", (plotL+plotR)/2, plotB+40)
	fmt.Fprintf(&b, `<text x="16" y="%d" text-anchor="middle" transform="rotate(-90 16 %d)">throughput (log scale)</text>`+"\n", (plotT+plotB)/2, (plotT+plotB)/2)
	b.WriteString("</g>\n")

	color := 0
	for i, l := range c.lines {
		stroke, dash := "#000000", ` stroke-dasharray="6 4"`
		if c, ok := peerColors[l.name]; ok && !l.ref {
			stroke, dash = c, ` stroke-dasharray="2 3"`
		} else if !l.ref {
			stroke, dash = chartColors[color%len(chartColors)], ""
			color++
		}
		fmt.Fprintf(&b, `<g class="series" data-name="%s" stroke="%s" fill="%s">`+"\n", esc(l.name), stroke, stroke)
		var pts []string
		for _, p := range l.pts {
			pts = append(pts, f(px(p.size))+","+f(py(p.bps)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke-width="2"%s points="%s"/>`+"\n", dash, strings.Join(pts, " "))
		for _, p := range l.pts {
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3"><title>%s, %d bytes: %s</title></circle>`+"\n",
				f(px(p.size)), f(py(p.bps)), esc(l.name), p.size, esc(strconv.FormatFloat(p.bps/1e6, 'f', 0, 64)+" MB/s"))
		}
		y := legendY + i*legH
		fmt.Fprintf(&b, `<line class="legend" x1="%d" y1="%d" x2="%d" y2="%d" stroke-width="2"%s/>`+"\n", legendX, y, legendX+28, y, dash)
		fmt.Fprintf(&b, `<text class="legend" x="%d" y="%d" stroke="none" fill="#000000" dominant-baseline="middle">%s</text>`+"\n", legendX+36, y, esc(l.name))
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
