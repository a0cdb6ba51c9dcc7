package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of go test -json (test2json's TestEvent, and the
// build-output events of go test -json since Go 1.24).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string
	FailedBuild string // on a package's fail: the package that did not build
}

// keepLines is how many lines of output are kept per test and package.
const keepLines = 30

// results is what one or more go test -json outputs say (the later ones
// overriding the earlier for the tests and packages they have).
type results struct {
	tests     map[string]string // package + " " + test -> pass, fail or skip
	packages  map[string]string // package -> pass, fail or skip
	testOrder []string
	output    map[string][]string // test key or package -> its last output lines
	build     map[string][]string // import path -> its build output
	failedBy  map[string]string   // package -> the import path whose build failed it
}

func newResults() *results {
	return &results{
		tests:    map[string]string{},
		packages: map[string]string{},
		output:   map[string][]string{},
		build:    map[string][]string{},
		failedBy: map[string]string{},
	}
}

// readResults reads the go test -json outputs names, each overriding the
// results of the ones before it for the tests and packages it has.
func readResults(names ...string) (*results, error) {
	res := newResults()
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		err = res.parse(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return res, nil
}

func appendLine(lines []string, s string) []string {
	lines = append(lines, strings.TrimRight(s, "\n"))
	if len(lines) > keepLines {
		lines = lines[len(lines)-keepLines:]
	}
	return lines
}

// parse adds one go test -json output to res.
func (res *results) parse(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	seenPkg := map[string]bool{}
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e event
		if line[0] != '{' || json.Unmarshal(line, &e) != nil {
			res.build[""] = appendLine(res.build[""], string(line))
			continue
		}
		if e.Action == "build-output" {
			res.build[e.ImportPath] = appendLine(res.build[e.ImportPath], e.Output)
			continue
		}
		if e.Package == "" {
			continue
		}
		k := e.Package
		if e.Test != "" {
			k += " " + e.Test
		}
		if !seenPkg[k] {
			// A later file replaces the output of an earlier one.
			seenPkg[k] = true
			delete(res.output, k)
		}
		switch e.Action {
		case "output":
			res.output[k] = appendLine(res.output[k], e.Output)
		case "pass", "fail", "skip":
			if e.Test == "" {
				res.packages[e.Package] = e.Action
				if e.FailedBuild != "" {
					res.failedBy[e.Package] = e.FailedBuild
				}
				continue
			}
			if _, seen := res.tests[k]; !seen {
				res.testOrder = append(res.testOrder, k)
			}
			res.tests[k] = e.Action
		}
	}
	return sc.Err()
}

// counts returns the passed, failed and skipped tests, and the packages that
// failed with no failing test of their own.
func (res *results) counts() (pass, fail, skip int, pkgFail []string) {
	failedIn := map[string]bool{}
	for k, a := range res.tests {
		switch a {
		case "pass":
			pass++
		case "fail":
			fail++
			failedIn[pkgOf(k)] = true
		case "skip":
			skip++
		}
	}
	for p, a := range res.packages {
		if a == "fail" && !failedIn[p] {
			pkgFail = append(pkgFail, p)
		}
	}
	sort.Strings(pkgFail)
	return
}

func pkgOf(key string) string {
	p, _, _ := strings.Cut(key, " ")
	return p
}

// topTest is the top-level test of a test key ("pkg TestX/sub" -> TestX).
func topTest(key string) string {
	_, t, _ := strings.Cut(key, " ")
	t, _, _ = strings.Cut(t, "/")
	return t
}

func countMain(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	label := fs.String("label", "", "`text` that starts the line")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return fmt.Errorf("count: want results.json [rerun.json]")
	}
	res, err := readResults(fs.Arg(0))
	if err != nil {
		return err
	}
	reruns := newResults()
	if fs.NArg() == 2 {
		if reruns, err = readResults(fs.Arg(1)); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, countLine(*label, res, reruns))
	return nil
}

// countLine is count's line for res; reruns (maybe empty) are the results
// of running again tests that did not pass in res.
func countLine(label string, res, reruns *results) string {
	pass, fail, skip, pkgFail := res.counts()
	s := fmt.Sprintf("%s%5d passed %4d failed %4d skipped  (%d packages", label, pass, fail, skip, len(res.packages))
	rerunPass := 0
	for k, a := range res.tests {
		if a != "pass" && reruns.tests[k] == "pass" {
			rerunPass++
		}
	}
	if rerunPass > 0 {
		s += fmt.Sprintf("; %d of those not passing passed on a rerun", rerunPass)
	}
	if len(pkgFail) > 0 {
		s += fmt.Sprintf("; failed without a failing test: %s", strings.Join(pkgFail, " "))
	}
	return s + ")"
}

func compareMain(args []string, out io.Writer) (bool, error) {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	list := fs.String("rerun-list", "", "write to `file` one line \"package ^(TestA|TestB)$\" per package with regressions, to rerun them")
	if err := fs.Parse(args); err != nil {
		return false, err
	}
	if fs.NArg() < 2 || fs.NArg() > 3 {
		return false, fmt.Errorf("compare: want before.json after.json [rerun.json]")
	}
	before, err := readResults(fs.Arg(0))
	if err != nil {
		return false, err
	}
	after, err := readResults(fs.Arg(1))
	if err != nil {
		return false, err
	}
	reruns := newResults()
	if fs.NArg() == 3 {
		if reruns, err = readResults(fs.Arg(2)); err != nil {
			return false, err
		}
	}
	regressed := compare(before, after, reruns, out)
	if *list != "" {
		if err := os.WriteFile(*list, []byte(rerunList(regressed)), 0o644); err != nil {
			return false, err
		}
	}
	return len(regressed) == 0, nil
}

// rerunList returns, for the regressed test keys, one line per package: the
// package and a -run pattern of its top-level tests.
func rerunList(regressed []string) string {
	tops := map[string]map[string]bool{}
	for _, k := range regressed {
		p := pkgOf(k)
		if p == "" {
			continue
		}
		if tops[p] == nil {
			tops[p] = map[string]bool{}
		}
		if t := topTest(k); t != "" {
			tops[p][t] = true
		}
	}
	var pkgs []string
	for p := range tops {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	for _, p := range pkgs {
		var ts []string
		for t := range tops[p] {
			ts = append(ts, t)
		}
		sort.Strings(ts)
		pattern := "." // the package failed as a whole: all of it again
		if len(ts) > 0 {
			pattern = "^(" + strings.Join(ts, "|") + ")$"
		}
		fmt.Fprintf(&b, "%s %s\n", p, pattern)
	}
	return b.String()
}

// compare reports what passed in before and not in after (see the package
// comment) and returns the regressed test keys (a package name alone when a
// whole package failed). reruns, the results of running those tests again
// (maybe empty), only say which regressions are intermittent: a test that
// fails once with vg is a regression even if it passes the next time (a
// quic-go test that picks a cipher suite at random does just that).
func compare(before, after, reruns *results, out io.Writer) []string {
	var regressed []string
	bp, _, _, _ := before.counts()
	if bp == 0 {
		fmt.Fprintln(out, "REGRESSION: no test passed before the swap: nothing to compare (did the client build?)")
		regressed = append(regressed, "")
	}
	for _, k := range before.testOrder {
		if before.tests[k] == "fail" {
			fmt.Fprintf(out, "warning: %s failed before the swap too (not compared)\n", k)
		}
	}
	// Packages that failed after as a whole: reported once, with their
	// build output, not as every test that did not run.
	var pkgs []string
	for p := range before.packages {
		pkgs = append(pkgs, p)
	}
	for p := range after.packages {
		if _, ok := before.packages[p]; !ok {
			pkgs = append(pkgs, p)
		}
	}
	sort.Strings(pkgs)
	wholeFail := map[string]bool{}
	_, _, _, afterPkgFail := after.counts()
	for _, p := range afterPkgFail {
		wholeFail[p] = true
	}
	for _, p := range pkgs {
		a, ran := after.packages[p]
		switch {
		case before.packages[p] == "pass" && !ran:
			fmt.Fprintf(out, "REGRESSION: package %s passed before the swap, did not run after\n", p)
			regressed = append(regressed, p)
			wholeFail[p] = true
		case a == "fail" && before.packages[p] != "fail" && wholeFail[p]:
			fmt.Fprintf(out, "REGRESSION: package %s failed after the swap, not before, with no failing test:\n", p)
			if b := after.failedBy[p]; b != "" {
				printLines(out, after.build[b])
			}
			printLines(out, after.output[p])
			regressed = append(regressed, p)
		}
	}
	if lines := after.build[""]; len(lines) > 0 {
		fmt.Fprintln(out, "go test printed, outside its JSON events:")
		printLines(out, lines)
	}
	// rerun says what the rerun of k gave.
	rerun := func(k string) string {
		switch a, ran := reruns.tests[k]; {
		case len(reruns.tests) == 0 && len(reruns.packages) == 0:
			return ""
		case !ran:
			return " (not run on a rerun)"
		case a == "pass":
			return " (passed on a rerun: intermittent)"
		default:
			return " (" + map[string]string{"fail": "failed", "skip": "skipped"}[a] + " again on a rerun)"
		}
	}
	failed := func(k string) {
		regressed = append(regressed, k)
		if after.tests[k] == "fail" {
			printLines(out, after.output[k])
		}
	}
	for _, k := range before.testOrder {
		if before.tests[k] != "pass" {
			continue
		}
		a, ran := after.tests[k]
		switch {
		case !ran && wholeFail[pkgOf(k)]:
			// Reported with its package.
		case !ran:
			fmt.Fprintf(out, "REGRESSION: %s passed before the swap, did not run after%s\n", k, rerun(k))
			failed(k)
		case a != "pass":
			fmt.Fprintf(out, "REGRESSION: %s passed before the swap, %s after%s\n", k, map[string]string{"fail": "failed", "skip": "skipped"}[a], rerun(k))
			failed(k)
		}
	}
	for _, k := range after.testOrder {
		if _, ran := before.tests[k]; !ran && after.tests[k] == "fail" {
			fmt.Fprintf(out, "REGRESSION: %s failed after the swap (it did not run before)%s\n", k, rerun(k))
			failed(k)
		}
	}
	return regressed
}

func printLines(out io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(out, "    "+l)
	}
}
