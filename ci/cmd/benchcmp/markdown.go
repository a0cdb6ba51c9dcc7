package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A speed table of a results file, as -md writes it for a README: one
// markdown table per reference name, one row per benchmark parent
// ("Seal/AES-128/1350"), one column per candidate. A parent's last element is
// the row ("1350", under the -md-row header), the elements before it the
// row's label ("Seal AES-128", printed on the first row of its group). The
// reference column holds the reference's median time; each candidate's cell
// holds its median per-round speed-up over the reference (the reference's
// time over the candidate's, within each round) with the quartiles of the
// per-round ratios:
//
//	| | bytes | stdlib | vaes-avx2 | aesni |
//	| --- | --- | --- | --- | --- |
//	| Seal AES-128 | 16 | 75.3 ns | 2.70x (2.61–2.77) | 1.80x (1.74–1.83) |
//	| | 64 | 104 ns | 2.48x (2.41–2.55) | 1.79x (1.77–1.82) |
//
// When every pair has the same candidate, named literally, and there are
// several references (-pair 'vaes-avx512=stdlib,vaes-avx512=best-peer'),
// one table holds them all, turned around: the candidate's median time,
// then per reference the candidate's median per-round speed-up over it:
//
//	| | bytes | vaes-avx512 | vs stdlib | vs best-peer |
//	| --- | --- | --- | --- | --- |
//	| Seal AES-128 | 16 | 20.1 ns | 3.70x (3.51–3.82) | 1.52x (1.40–1.61) |
type mdTable struct {
	ref    string   // the reference, or in a byCand table the candidate
	cands  []string // candidate names (in a byCand table the references), in order of first appearance
	byCand bool
	pkgs   []string // packages of the rows
	rows   []*mdRow
}

// mdRow is one row of an mdTable.
type mdRow struct {
	label, row string
	refTime    float64            // median sec/op of the reference
	cells      map[string]float64 // per-round speed-ups by candidate: median
	q1, q3     map[string]float64 // and quartiles
}

// filterSet returns the part of s whose benchmark names match re.
func filterSet(s *resultSet, re *regexp.Regexp) *resultSet {
	out := newResultSet()
	for k, v := range s.config {
		out.config[k] = v
	}
	for _, id := range s.benches {
		if !re.MatchString(id.Name) {
			continue
		}
		out.seen[id] = true
		out.benches = append(out.benches, id)
		for _, u := range s.units {
			if v := s.values[measureKey{id, u}]; len(v) > 0 {
				if !out.unitSeen[u] {
					out.unitSeen[u] = true
					out.units = append(out.units, u)
				}
				out.values[measureKey{id, u}] = v
			}
		}
	}
	return out
}

// rowOf splits a benchmark parent ("Seal/AES-128/1350") into its label
// ("Seal AES-128") and its row element ("1350").
func rowOf(parent string) (label, row string) {
	parts := strings.Split(parent, "/")
	return strings.Join(parts[:len(parts)-1], " "), parts[len(parts)-1]
}

// speedTables builds the -md tables of the pairs specs selects in set, from
// their sec/op measurements.
func speedTables(set *resultSet, specs []pairSpec) ([]*mdTable, error) {
	pairs := pairBenchmarks(set.benches, specs)
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no benchmark pairs match -pair (last elements seen: %s)", strings.Join(lastElems(set.benches), ", "))
	}
	const unit = "sec/op"
	byCand := oneCandidate(specs)
	var tables []*mdTable
	byRef := make(map[string]*mdTable)
	rowsByKey := make(map[[2]string]*mdRow) // ref, parent
	for _, p := range pairs {
		ref, cand := set.values[measureKey{p.Ref, unit}], set.values[measureKey{p.Cand, unit}]
		xs := pairedSpeedups(ref, cand, -1)
		if xs == nil {
			return nil, fmt.Errorf("%s and %s: no per-round speed-ups (%d and %d %s values)", p.Ref.Name, p.Cand.Name, len(ref), len(cand), unit)
		}
		parts := splitName(p.Cand.Name)
		// The table's key and its column: the reference and the
		// candidate, or in a byCand table the other way round.
		tkey, col, timed := p.RefName, parts.Elem, ref
		if byCand {
			tkey, col, timed = parts.Elem, p.RefName, cand
		}
		t := byRef[tkey]
		if t == nil {
			t = &mdTable{ref: tkey, byCand: byCand}
			byRef[tkey] = t
			tables = append(tables, t)
		}
		t.cands = orderedUnion(t.cands, []string{col})
		t.pkgs = orderedUnion(t.pkgs, []string{p.Cand.Pkg})
		key := [2]string{tkey, parts.Parent + parts.Procs}
		r := rowsByKey[key]
		if r == nil {
			label, row := rowOf(parts.Parent)
			r = &mdRow{label: label, row: row, refTime: summarize(timed).summary.Center,
				cells: map[string]float64{}, q1: map[string]float64{}, q3: map[string]float64{}}
			t.rows = append(t.rows, r)
			rowsByKey[key] = r
		}
		r.q1[col], r.cells[col], r.q3[col] = quartiles(xs)
	}
	return tables, nil
}

// oneCandidate reports whether specs compare one candidate, named literally,
// with several references: the -md tables are then turned around.
func oneCandidate(specs []pairSpec) bool {
	refs := make(map[string]bool)
	for _, s := range specs {
		if s.Cand != specs[0].Cand || strings.ContainsAny(s.Cand, "*?[\\") {
			return false
		}
		refs[s.Ref] = true
	}
	return len(refs) > 1
}

// formatTime formats seconds with three significant digits in the unit that
// suits them: "58.1 ns", "105 ns", "1.53 µs", "8.66 ms".
func formatTime(sec float64) string {
	units := []struct {
		scale float64
		name  string
	}{{1e-9, "ns"}, {1e-6, "µs"}, {1e-3, "ms"}, {1, "s"}}
	u := units[0]
	for _, c := range units[1:] {
		if sec >= c.scale*0.9995 {
			u = c
		}
	}
	v := sec / u.scale
	switch {
	case v >= 99.95:
		return fmt.Sprintf("%.0f %s", v, u.name)
	case v >= 9.995:
		return fmt.Sprintf("%.1f %s", v, u.name)
	default:
		return fmt.Sprintf("%.2f %s", v, u.name)
	}
}

// writeMarkdown writes the tables as markdown, each after a caption line that
// says what the numbers are and where they come from.
func writeMarkdown(w io.Writer, tables []*mdTable, rowHeader, file string, prov provenance, rounds int) error {
	var b strings.Builder
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\n")
		}
		if t.byCand {
			fmt.Fprintf(&b, "%s: median time of `%s`; against each reference the median over the rounds of its speed-up over the reference in that round (reference time / %s time: above 1, %s is faster), quartiles in brackets. %s",
				strings.Join(tableLabels(t), ", "), t.ref, t.ref, t.ref, provenanceSentence(file, prov, rounds))
		} else {
			fmt.Fprintf(&b, "%s: median time of `%s`; for each backend the median over the rounds of its speed-up over `%s` in that round (%s time / backend time), quartiles in brackets. %s",
				strings.Join(tableLabels(t), ", "), t.ref, t.ref, t.ref, provenanceSentence(file, prov, rounds))
		}
		if pc := peerCaption(prov, t.pkgs, append([]string{t.ref}, t.cands...)); pc != "" {
			b.WriteString(" " + pc)
		}
		b.WriteString("\n\n")
		b.WriteString("| | " + rowHeader + " | " + t.ref)
		for _, c := range t.cands {
			if t.byCand {
				c = "vs " + c
			}
			b.WriteString(" | " + c)
		}
		b.WriteString(" |\n|" + strings.Repeat(" --- |", 3+len(t.cands)) + "\n")
		prev := ""
		for _, r := range t.rows {
			label := r.label
			if label == prev {
				label = ""
			}
			prev = r.label
			cells := []string{label, r.row, formatTime(r.refTime)}
			for _, c := range t.cands {
				cell := ""
				if x, ok := r.cells[c]; ok {
					cell = fmt.Sprintf("%.2fx (%.2f–%.2f)", x, r.q1[c], r.q3[c])
				}
				cells = append(cells, cell)
			}
			b.WriteString(markdownRow(cells))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownRow returns a table row of cells, an empty cell as "| |".
func markdownRow(cells []string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		if c == "" {
			b.WriteString(" |")
		} else {
			b.WriteString(" " + c + " |")
		}
	}
	return b.String() + "\n"
}

// tableLabels returns the distinct row labels of t, in order.
func tableLabels(t *mdTable) []string {
	var labels []string
	for _, r := range t.rows {
		labels = orderedUnion(labels, []string{r.label})
	}
	return labels
}

// provenanceSentence says where results come from: "Measured 2026-12-01 at
// 67989f3 on AMD EPYC (family 25, model 17), 2 CPUs with go1.26.8 (20
// rounds, ...); raw results: `ci/results/x.txt`." The commit is named when
// the measured working tree was clean.
func provenanceSentence(file string, prov provenance, rounds int) string {
	var parts []string
	if prov.Date != "" {
		parts = append(parts, prov.Date)
	}
	if c, ok := strings.CutPrefix(prov.Head, "working tree at "); ok {
		// The commit measured, when the tree was clean.
		if c, ok := strings.CutSuffix(c, ", clean"); ok {
			parts = append(parts, "at "+c)
		}
	}
	if prov.CPU != "" {
		parts = append(parts, "on "+prov.CPU)
	}
	if prov.Go != "" {
		parts = append(parts, "with "+prov.Go)
	}
	s := "Measured"
	if len(parts) > 0 {
		s += " " + strings.Join(parts, " ")
	}
	if prov.Runs != "" {
		s += " (" + prov.Runs + ")"
	} else {
		s += fmt.Sprintf(" (%d rounds)", rounds)
	}
	return s + "; raw results: `" + file + "`."
}

// maxRounds returns the largest number of values of any sec/op measurement
// in set.
func maxRounds(set *resultSet) int {
	n := 0
	for k, v := range set.values {
		if k.Unit == "sec/op" {
			n = max(n, len(v))
		}
	}
	return n
}

// writeFigures writes -md's tables and -svg's chart of set, each to its file
// or, for "-", to stdout.
func writeFigures(cfg *config, set *resultSet, prov provenance, stdout io.Writer) error {
	write := func(name string, f func(io.Writer) error) error {
		if name == "-" {
			return f(stdout)
		}
		var b strings.Builder
		if err := f(&b); err != nil {
			return err
		}
		return os.WriteFile(name, []byte(b.String()), 0o644)
	}
	if cfg.md != "" {
		tables, err := speedTables(set, cfg.pairs)
		if err != nil {
			return err
		}
		if err := write(cfg.md, func(w io.Writer) error {
			return writeMarkdown(w, tables, cfg.mdRow, filepath.ToSlash(cfg.load), prov, maxRounds(set))
		}); err != nil {
			return err
		}
	}
	if cfg.svg != "" {
		var refs []string
		for _, p := range cfg.pairs {
			refs = orderedUnion(refs, []string{p.Ref})
		}
		c, err := buildChart(set, refs, prov)
		if err != nil {
			return err
		}
		if err := write(cfg.svg, c.writeSVG); err != nil {
			return err
		}
	}
	return nil
}
