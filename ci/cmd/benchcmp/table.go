package main

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchunit"
)

// table is the comparison of one metric (one unit) across a group of
// benchmarks: one row per benchmark with the reference and candidate
// medians, their confidence intervals, the change and its p-value, and in
// pair mode the speed-up (of the medians) and the per-round speed-up (the
// median and quartiles of the rounds' own ratios). A geomean row follows
// when there are several rows.
type table struct {
	unit      string // tidied unit, e.g. "sec/op"
	refName   string // column header of the reference ("base", "stdlib")
	candName  string // column header of the candidate ("head", "vg-generic")
	deltaName string // header of the change column ("vs base")
	dir       int    // +1 higher is better, -1 lower is better, 0 unknown
	speedup   bool   // add a speed-up column (pair mode)
	rows      []comparison
}

// Column indexes of a table.
const (
	colLabel = iota
	colRefCenter
	colRefRange
	colCandCenter
	colCandRange
	colDelta
	colNote
	colSpeedup
	colPaired
	numCols
)

// superscript returns n in superscript digits, for footnote marks.
func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	d := []rune(digits)
	s := fmt.Sprint(n)
	var b strings.Builder
	for _, c := range s {
		b.WriteRune(d[c-'0'])
	}
	return b.String()
}

// footnotes numbers distinct warning messages in order of first use.
type footnotes struct {
	list []string
	idx  map[string]int
}

// mark returns the footnote marks for errs (" ¹ ²"), each distinct message
// marked once, or "" if there are none.
func (f *footnotes) mark(errs ...[]error) string {
	if f.idx == nil {
		f.idx = make(map[string]int)
	}
	var marks []string
	marked := make(map[int]bool)
	for _, list := range errs {
		for _, err := range list {
			msg := err.Error()
			i, ok := f.idx[msg]
			if !ok {
				f.list = append(f.list, msg)
				i = len(f.list)
				f.idx[msg] = i
			}
			if !marked[i] {
				marked[i] = true
				marks = append(marks, superscript(i))
			}
		}
	}
	if len(marks) == 0 {
		return ""
	}
	return " " + strings.Join(marks, " ")
}

// allZero reports whether every measurement in the table is zero, as B/op
// and allocs/op usually are for vg.
func (t *table) allZero() bool {
	for _, r := range t.rows {
		for _, s := range []*summary{r.ref, r.cand} {
			if s == nil {
				continue
			}
			for _, v := range s.sample.Values {
				if v != 0 {
					return false
				}
			}
		}
	}
	return true
}

// write prints the table to w. A table whose measurements are all zero is
// shortened to one line.
func (t *table) write(w io.Writer) error {
	if len(t.rows) > 0 && t.allZero() {
		_, err := fmt.Fprintf(w, "%s: 0 in every run of all %d benchmarks\n", t.unit, len(t.rows))
		return err
	}
	cls := benchunit.ClassOf(t.unit)
	aligns := make([]align, numCols)
	margins := make([]string, numCols)
	for i := range aligns {
		aligns[i] = alignRight
	}
	aligns[colLabel], aligns[colNote] = alignLeft, alignLeft
	margins[colRefCenter], margins[colRefRange] = "  ", " ± "
	margins[colCandCenter], margins[colCandRange] = "   ", " ± "
	margins[colDelta], margins[colNote], margins[colSpeedup], margins[colPaired] = "   ", " ", "  ", "  "
	cols := numCols
	if !t.speedup {
		cols = colSpeedup
		aligns, margins = aligns[:cols], margins[:cols]
	}
	tt := newTextTable(aligns, margins)

	header := []textCell{
		{text: t.unit, span: 1, align: alignLeft},
		{text: t.refName, span: 2, align: alignCenter},
		{text: t.candName, span: 2, align: alignCenter},
		{text: t.deltaName, span: 2, align: alignLeft},
	}
	if t.speedup {
		header = append(header, textCell{text: "speed-up", span: 1, align: alignRight},
			textCell{text: "per round", span: 1, align: alignRight})
	}
	tt.spanRow(header...)

	var notes footnotes
	var refCenters, candCenters, ratios, speedups, pairedMedians []float64
	pairedRows := 0
	missing := 0
	for _, r := range t.rows {
		cells := make([]string, cols)
		cells[colLabel] = r.label
		var centers []float64
		for _, s := range []*summary{r.ref, r.cand} {
			if s != nil {
				centers = append(centers, s.summary.Center)
			}
		}
		scaler := benchunit.CommonScale(centers, cls)
		if r.ref != nil {
			cells[colRefCenter] = scaler.Format(r.ref.summary.Center)
			cells[colRefRange] = r.ref.summary.PctRangeString()
		}
		if r.cand != nil {
			cells[colCandCenter] = scaler.Format(r.cand.summary.Center)
			cells[colCandRange] = r.cand.summary.PctRangeString()
		}
		warns := [][]error{r.ref.warnings(), r.cand.warnings()}
		if r.both() {
			warns = append(warns, r.cmp.Warnings)
		}
		marks := notes.mark(warns...)
		switch {
		case r.both():
			cells[colDelta] = r.delta()
			cells[colNote] = "(" + r.cmp.String() + ")" + marks
			rc, cc := r.ref.summary.Center, r.cand.summary.Center
			refCenters, candCenters = append(refCenters, rc), append(candCenters, cc)
			switch {
			case rc == cc:
				ratios = append(ratios, 1)
			case rc != 0:
				ratios = append(ratios, cc/rc)
			}
			if t.speedup {
				if x, ok := speedup(rc, cc, t.dir); ok {
					cells[colSpeedup] = formatSpeedup(x)
					speedups = append(speedups, x)
				}
				if len(r.paired) > 0 {
					cells[colPaired] = formatPaired(r.paired)
					_, med, _ := quartiles(r.paired)
					pairedMedians = append(pairedMedians, med)
					pairedRows++
				}
			}
		case r.ref != nil:
			cells[colNote] = "(" + t.refName + " only)" + marks
			missing++
		default:
			cells[colNote] = "(" + t.candName + " only)" + marks
			missing++
		}
		tt.row(cells...)
	}

	if len(t.rows) > 1 {
		cells := make([]string, cols)
		cells[colLabel] = "geomean"
		var warns []error
		if missing > 0 {
			warns = append(warns, fmt.Errorf("geomean over the %d benchmarks measured on both sides", len(refCenters)))
		}
		if gm, ok := geomean(refCenters); ok {
			cells[colRefCenter] = benchunit.Scale(gm, cls)
		}
		if gm, ok := geomean(candCenters); ok {
			cells[colCandCenter] = benchunit.Scale(gm, cls)
		}
		if gm, ok := geomean(ratios); ok && len(ratios) == len(refCenters) {
			cells[colDelta] = fmt.Sprintf("%+.2f%%", (gm-1)*100)
		} else if len(refCenters) > 0 {
			cells[colDelta] = "?"
			warns = append(warns, fmt.Errorf("ratios must be >0 to compute geomean"))
		}
		cells[colNote] = strings.TrimSpace(notes.mark(warns))
		if t.speedup {
			if gm, ok := geomean(speedups); ok {
				cells[colSpeedup] = formatSpeedup(gm)
			}
			if gm, ok := geomean(pairedMedians); ok && pairedRows == len(refCenters) {
				cells[colPaired] = formatSpeedup(gm)
			}
		}
		tt.row(cells...)
	}

	if err := tt.write(w); err != nil {
		return err
	}
	for i, msg := range notes.list {
		if _, err := fmt.Fprintf(w, "%s %s\n", superscript(i+1), msg); err != nil {
			return err
		}
	}
	return nil
}
