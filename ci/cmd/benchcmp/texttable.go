package main

import (
	"io"
	"strings"
	"unicode/utf8"
)

// align is the horizontal alignment of a text table cell.
type align int

const (
	alignLeft align = iota
	alignRight
	alignCenter
)

// textCell is one cell of a textTable; it spans span columns (at least 1).
type textCell struct {
	text  string
	span  int
	align align
}

// textTable lays out rows of cells in a fixed-width font. Each column has an
// alignment and a left margin (the separator printed before it, replaced by
// spaces when the cell is empty); a cell that spans several columns is laid
// out over their combined width.
type textTable struct {
	aligns  []align
	margins []string
	rows    [][]textCell
}

// newTextTable returns a table whose column i has alignment aligns[i] and is
// preceded by margins[i].
func newTextTable(aligns []align, margins []string) *textTable {
	if len(aligns) != len(margins) {
		panic("benchcmp: textTable aligns and margins differ in length")
	}
	return &textTable{aligns: aligns, margins: margins}
}

// row appends a row of single-column cells using the column alignments.
func (t *textTable) row(cells ...string) {
	r := make([]textCell, len(cells))
	for i, c := range cells {
		r[i] = textCell{text: c, span: 1, align: t.aligns[i]}
	}
	t.rows = append(t.rows, r)
}

// spanRow appends a row of cells that may span columns.
func (t *textTable) spanRow(cells ...textCell) {
	t.rows = append(t.rows, cells)
}

// width returns the display width of s, in runes (benchmark tables hold
// "µ", "±", "∞" and superscript digits, all one column wide).
func width(s string) int { return utf8.RuneCountInString(s) }

// layout returns the width of every column.
func (t *textTable) layout() []int {
	widths := make([]int, len(t.aligns))
	for _, r := range t.rows {
		col := 0
		for _, c := range r {
			if c.span == 1 && col < len(widths) {
				widths[col] = max(widths[col], width(c.text))
			}
			col += c.span
		}
	}
	// Widen the last column of a span if its text does not fit.
	for _, r := range t.rows {
		col := 0
		for _, c := range r {
			if c.span > 1 {
				have := t.spanWidth(widths, col, c.span)
				if need := width(c.text); need > have {
					widths[col+c.span-1] += need - have
				}
			}
			col += c.span
		}
	}
	return widths
}

// spanWidth returns the width of columns [col, col+span), counting the
// margins between them but not the margin before col.
func (t *textTable) spanWidth(widths []int, col, span int) int {
	w := 0
	for i := col; i < col+span && i < len(widths); i++ {
		w += widths[i]
		if i > col {
			w += width(t.margins[i])
		}
	}
	return w
}

// write prints the table to w, trimming trailing spaces from each line.
func (t *textTable) write(w io.Writer) error {
	widths := t.layout()
	var b strings.Builder
	for _, r := range t.rows {
		var line strings.Builder
		col := 0
		for _, c := range r {
			if col >= len(widths) {
				break
			}
			span := max(c.span, 1)
			if c.text == "" {
				// An empty cell shows no separator (such as " ± ").
				line.WriteString(strings.Repeat(" ", width(t.margins[col])))
			} else {
				line.WriteString(t.margins[col])
			}
			cw := t.spanWidth(widths, col, span)
			pad := cw - width(c.text)
			switch c.align {
			case alignRight:
				line.WriteString(strings.Repeat(" ", pad))
				line.WriteString(c.text)
			case alignCenter:
				line.WriteString(strings.Repeat(" ", pad/2))
				line.WriteString(c.text)
				line.WriteString(strings.Repeat(" ", pad-pad/2))
			default:
				line.WriteString(c.text)
				line.WriteString(strings.Repeat(" ", pad))
			}
			col += span
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
