// Command conformance is vg's conformance runner. It prints the CPU features
// detected and enabled (VG_CPU_FEATURES applies), then, per algorithm, every
// pinned Wycheproof file the algorithm needs with its number of vectors, and
// the rows the algorithm's section reports: per backend and file, the vectors
// passed, failed and skipped, and whether the backends agree. It ends with a
// summary line.
//
//	go run ./conformance/cmd/conformance
//
// It exits with status 1 when a file does not load or a section reports a
// failure. Sections are listed in sections.go: adding an algorithm is one
// entry there.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vgcrypto/vg/conformance/wycheproof"
	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	if !runAll(os.Stdout, sections) {
		os.Exit(1)
	}
}

// section is one algorithm's part of the run.
type section struct {
	// name is the algorithm's name (a cpufeat.Algorithm, as a string).
	name string
	// globs select the Wycheproof files the algorithm needs (see
	// wycheproof.Files); each must match at least one file.
	globs []string
	// run checks the algorithm's backends against the loaded files (in
	// glob order) and returns one row per backend and file, plus any
	// agreement rows. A nil run only loads and counts the files. An error
	// is a failure of the section.
	run func(files []wycheproof.VectorFile) ([]row, error)
}

// row is one line of a section's report.
type row struct {
	// backend names the implementation (a backend name).
	backend string
	// file is the Wycheproof file the counts are for; empty for a row
	// that is only about agreement.
	file             string
	pass, fail, skip int
	// agreement is "ok" when the backend agreed with the others, "" when
	// no agreement check ran for this row.
	agreement string
	// err is a failure that is not a vector count (a disagreement, a
	// constructor error); it fails the row.
	err error
}

func (r row) failed() bool { return r.fail > 0 || r.err != nil }

// totals is what the summary line counts.
type totals struct {
	files, vectors, loadErrors int
	rows, failedRows           int
	sectionErrors              int
}

// runAll runs every section, writes the report to w, and reports whether
// everything loaded and passed.
func runAll(w io.Writer, secs []section) bool {
	start := time.Now()
	fmt.Fprintf(w, "== CPU features\n%s", cpufeat.Describe())
	fmt.Fprintf(w, "== Wycheproof %s@%s\n", wycheproof.Module, wycheproof.Version)
	var t totals
	for _, s := range secs {
		runSection(w, s, &t)
	}
	ok := t.loadErrors == 0 && t.failedRows == 0 && t.sectionErrors == 0
	verdict := "PASS"
	if !ok {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "== %s: %d sections, %d files, %d vectors; %d load errors, %d rows, %d failed rows, %d section errors (%.1fs)\n",
		verdict, len(secs), t.files, t.vectors, t.loadErrors, t.rows, t.failedRows, t.sectionErrors, time.Since(start).Seconds())
	return ok
}

func runSection(w io.Writer, s section, t *totals) {
	start := time.Now()
	defer func() { fmt.Fprintf(w, "  (%s: %.1fs)\n", s.name, time.Since(start).Seconds()) }()
	fmt.Fprintf(w, "\n== %s\n", s.name)
	var files []wycheproof.VectorFile
	loadFailed := false
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, glob := range s.globs {
		names, err := wycheproof.Files(glob)
		if err != nil {
			fmt.Fprintf(tw, "  LOAD ERROR\t%s\t%v\n", glob, indent(err))
			t.loadErrors++
			loadFailed = true
			continue
		}
		for _, name := range names {
			f, err := wycheproof.LoadFile(name)
			if err != nil {
				fmt.Fprintf(tw, "  LOAD ERROR\t%s\t%v\n", name, indent(err))
				t.loadErrors++
				loadFailed = true
				continue
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d vectors\n", name, f.Info().Schema, f.Count())
			files = append(files, f)
			t.files++
			t.vectors += f.Count()
		}
	}
	tw.Flush()
	switch {
	case s.run == nil:
		fmt.Fprintf(w, "  (no backends registered: vectors loaded and counted only)\n")
		return
	case loadFailed:
		fmt.Fprintf(w, "  not run: a file did not load\n")
		t.sectionErrors++
		return
	}
	rows, err := s.run(files)
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "  BACKEND\tFILE\tPASS\tFAIL\tSKIP\tAGREEMENT\t\n")
	for _, r := range rows {
		t.rows++
		status := ""
		if r.failed() {
			t.failedRows++
			status = "FAIL"
		}
		file, agreement := orDash(r.file), orDash(r.agreement)
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%s\t%s\n", r.backend, file, r.pass, r.fail, r.skip, agreement, status)
	}
	tw.Flush()
	for _, r := range rows {
		if r.err != nil {
			fmt.Fprintf(w, "  %s: %v\n", r.backend, indent(r.err))
		}
	}
	if err != nil {
		fmt.Fprintf(w, "  SECTION ERROR: %v\n", indent(err))
		t.sectionErrors++
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// indent keeps a multi-line error inside its section.
func indent(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "\n      ")
}
