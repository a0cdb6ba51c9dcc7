// Command ctgrind checks the constant time of vg's Go code (and of the
// assembly valgrind can run) under valgrind's memcheck.
//
//	go run ./ci/cmd/ctgrind [-run regexp] [-short] [-v] ./aesgcm ./rsa ...
//
// For each package it builds the tests with -tags valgrind (Go's
// valgrind-aware runtime, the packages' CTGrind tests and their declassify
// points) and runs the tests matching -run (default "CTGrind") under memcheck
// with --track-origins=yes. The tests mark their secrets undefined with
// stackscratch/ctgrind.Undefined. A report of kind "Conditional jump or move
// depends on uninitialised value(s)" (UninitCondition) or "Use of
// uninitialised value" (UninitValue: a memory address, or a value a system
// call receives) is a failure when
//
//   - its origin is a secret: memcheck says the value was created by a
//     client request, and the origin's stack is ctgrind.Undefined (the Go
//     runtime makes its own client requests, and memcheck also reports its
//     reads of stack words it never wrote, "created by a stack allocation":
//     those are not about secrets and are ignored); or memcheck lost the
//     origin (it does through vector instructions: a tag verdict computed
//     in assembly) and the innermost frame is vg code;
//   - and a frame of its stack is vg code (a function of a
//     github.com/vgcrypto/vg/ package). Secret-dependent reports whose
//     every frame is in the runtime or the standard library without a vg
//     caller (the garbage collector, the scheduler) are filtered out,
//     counted, and listed with -v.
//
// A failing run prints each report's kind and stack. The exit status is 1
// when a report fails, a test fails, or valgrind is missing.
package main

import (
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	run := flag.String("run", "CTGrind", "the tests to run (-test.run)")
	short := flag.Bool("short", false, "run the tests with -test.short (the small input set)")
	verbose := flag.Bool("v", false, "print the filtered reports too")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ctgrind [-run regexp] [-short] [-v] package...")
		os.Exit(2)
	}
	failed := false
	for _, pkg := range flag.Args() {
		res, err := check(pkg, *run, *short, os.Stdout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "ctgrind: %s: %v\n", pkg, err)
			failed = true
			continue
		}
		res.print(os.Stdout, *verbose)
		failed = failed || !res.ok()
	}
	if failed {
		os.Exit(1)
	}
}

// Result is what one package's two runs found.
type Result struct {
	Pkg string
	// Failures are the reports of secret origin with a vg frame.
	Failures []Report
	// Filtered are the reports of secret origin without a vg frame.
	Filtered []Report
	// Other is the number of reports of other origins (the runtime's).
	Other int
	// TestFailed is set when the test binary failed under the marked run.
	TestFailed bool
	// Output is the test binary's output of the marked run.
	Output string
}

func (r *Result) ok() bool { return len(r.Failures) == 0 && !r.TestFailed }

func (r *Result) print(w io.Writer, verbose bool) {
	status := "ok"
	if !r.ok() {
		status = "FAIL"
	}
	fmt.Fprintf(w, "ctgrind: %s: %s: %d reports in vg code depend on secrets, %d without a vg frame filtered, %d of other origins ignored\n",
		r.Pkg, status, len(r.Failures), len(r.Filtered), r.Other)
	for _, f := range r.Failures {
		fmt.Fprintf(w, "%s\n", f.String())
	}
	if verbose {
		for _, f := range r.Filtered {
			fmt.Fprintf(w, "filtered: %s\n", f.String())
		}
	}
	if r.TestFailed {
		fmt.Fprintf(w, "ctgrind: %s: the tests failed:\n%s\n", r.Pkg, r.Output)
	}
}

// Report is one memcheck error: where, and (with --track-origins) where
// the uninitialised value was created.
type Report struct {
	Kind   string
	What   string
	Frames []Frame
	Origin string
	// OriginFrames is the stack of the allocation or client request that
	// created the value.
	OriginFrames []Frame
}

// xmlError is memcheck's XML form of an error: the first stack is where,
// the second (after the auxwhat saying what kind of origin) the origin.
type xmlError struct {
	Kind    string   `xml:"kind"`
	What    string   `xml:"what"`
	AuxWhat []string `xml:"auxwhat"`
	Stacks  []struct {
		Frames []Frame `xml:"frame"`
	} `xml:"stack"`
}

func (e xmlError) report() Report {
	r := Report{Kind: e.Kind, What: e.What}
	if len(e.Stacks) > 0 {
		r.Frames = e.Stacks[0].Frames
	}
	if len(e.Stacks) > 1 {
		r.OriginFrames = e.Stacks[1].Frames
	}
	for _, a := range e.AuxWhat {
		if strings.HasPrefix(a, "Uninitialised value was created") {
			r.Origin = a
		}
	}
	return r
}

// undefinedFn is the function whose client request marks a test's secrets.
const undefinedFn = vgPrefix + "stackscratch/ctgrind.Undefined"

// secretOrigin reports whether the value was marked undefined by
// ctgrind.Undefined.
func (r Report) secretOrigin() bool {
	if !strings.Contains(r.Origin, "client request") {
		return false
	}
	for _, f := range r.OriginFrames {
		if strings.HasPrefix(f.Fn, undefinedFn) {
			return true
		}
	}
	return false
}

// Frame is one frame of a report's stack.
type Frame struct {
	Fn   string `xml:"fn"`
	File string `xml:"file"`
	Line int    `xml:"line"`
}

func (f Frame) String() string {
	if f.File == "" {
		return f.Fn
	}
	return fmt.Sprintf("%s (%s:%d)", f.Fn, f.File, f.Line)
}

// vgPrefix starts the name of every function of vg's packages.
const vgPrefix = "github.com/vgcrypto/vg/"

// inVG reports whether a frame of the report is vg code.
func (r Report) inVG() bool {
	for _, f := range r.Frames {
		if strings.HasPrefix(f.Fn, vgPrefix) {
			return true
		}
	}
	return false
}

// topInVG reports whether the innermost frame is vg code.
func (r Report) topInVG() bool {
	return len(r.Frames) > 0 && strings.HasPrefix(r.Frames[0].Fn, vgPrefix)
}

// key identifies a report.
func (r Report) key() string {
	var b strings.Builder
	b.WriteString(r.Kind)
	for _, f := range r.Frames {
		fmt.Fprintf(&b, "|%s", f)
	}
	return b.String()
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s: %s", r.Kind, r.What)
	if r.Origin == "" {
		b.WriteString(" (origin not tracked)")
	}
	for i, f := range r.Frames {
		if i == 12 {
			fmt.Fprintf(&b, "\n      ... %d more frames", len(r.Frames)-i)
			break
		}
		fmt.Fprintf(&b, "\n      %s", f)
	}
	return b.String()
}

// counted reports whether memcheck errors of kind are constant-time
// findings.
func counted(kind string) bool { return kind == "UninitCondition" || kind == "UninitValue" }

// check builds pkg's tests and runs them under memcheck twice.
func check(pkg, run string, short bool, log io.Writer) (*Result, error) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return nil, fmt.Errorf("valgrind is not on PATH (Debian: apt-get install valgrind)")
	}
	dir, err := os.MkdirTemp("", "ctgrind")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "pkg.test")
	build := exec.Command("go", "test", "-c", "-tags", "valgrind", "-o", bin, pkg)
	build.Stdout, build.Stderr = log, log
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("building the tests: %v", err)
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no test binary (no tests in the package?)")
	}
	srcDir, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	args := []string{"-test.run", run, "-test.v"}
	if short {
		args = append(args, "-test.short")
	}
	reports, out, testErr, err := memcheck(dir, strings.TrimSpace(string(srcDir)), bin, args)
	if err != nil {
		return nil, err
	}
	res := &Result{Pkg: pkg, Output: out, TestFailed: testErr != nil}
	for _, r := range reports {
		switch {
		case !counted(r.Kind):
		case r.Origin == "" && r.topInVG():
			// Origin tracking lost the value's history (through
			// vector instructions, typically): a report in vg code
			// counts.
			res.Failures = append(res.Failures, r)
		case !r.secretOrigin():
			res.Other++
		case r.inVG():
			res.Failures = append(res.Failures, r)
		default:
			res.Filtered = append(res.Filtered, r)
		}
	}
	sort.SliceStable(res.Failures, func(i, j int) bool { return res.Failures[i].key() < res.Failures[j].key() })
	return res, nil
}

// memcheck runs bin under memcheck in the package's directory wd and returns
// its reports, the test output, and the test binary's failure.
func memcheck(dir, wd, bin string, args []string) ([]Report, string, error, error) {
	xmlFile := filepath.Join(dir, "memcheck.xml")
	vargs := append([]string{"--tool=memcheck", "--error-limit=no", "--leak-check=no", "--num-callers=30",
		"--track-origins=yes", "--xml=yes", "--xml-file=" + xmlFile, bin}, args...)
	cmd := exec.Command("valgrind", vargs...)
	cmd.Dir = wd
	out, runErr := cmd.CombinedOutput()
	data, err := os.ReadFile(xmlFile)
	if err != nil {
		return nil, string(out), runErr, fmt.Errorf("valgrind wrote no report (%v): %s", runErr, out)
	}
	var doc struct {
		Errors []xmlError `xml:"error"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, string(out), runErr, fmt.Errorf("reading valgrind's XML: %v", err)
	}
	var rs []Report
	for _, e := range doc.Errors {
		rs = append(rs, e.report())
	}
	return rs, string(out), runErr, nil
}
