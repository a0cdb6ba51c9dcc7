// Command ctgrind checks the constant time of vg's Go code and of its
// assembly under valgrind's memcheck, for every backend.
//
//	go run ./ci/cmd/ctgrind [-run regexp] [-short] [-v] [-model auto|all|only|off] [-backends list] [-p n] ./aesgcm ./rsa ...
//
// For each package it builds the tests with -tags valgrind (Go's
// valgrind-aware runtime, the packages' CTGrind tests and their declassify
// points) and runs the tests matching -run (default "CTGrind") under memcheck
// with --track-origins=yes, -p packages at a time (default: one per CPU;
// memcheck runs a program's threads one at a time, so a package keeps one
// CPU busy), each package's output printed whole, in the order given. The
// tests mark their secrets undefined with
// stackscratch/ctgrind.Undefined. A report of kind "Conditional jump or move
// depends on uninitialised value(s)" (UninitCondition) or "Use of
// uninitialised value" (UninitValue: a memory address, or a value a system
// call receives) is a failure when
//
//   - its origin is a secret: memcheck says the value was created by a
//     client request, and the origin's stack is ctgrind.Undefined, or
//     asmgen/x86sim's remarkSecret (a result the model computed from
//     secrets, below) (the Go runtime makes its own client requests, and
//     memcheck also reports its reads of stack words it never wrote,
//     "created by a stack allocation": those are not about secrets and are
//     ignored); or memcheck lost the origin (it does through vector
//     instructions: a tag verdict computed in assembly) and the innermost
//     frame is vg code;
//   - and a frame of its stack is vg code (a function of a
//     github.com/vgcrypto/vg/ package). Secret-dependent reports whose
//     every frame is in the runtime or the standard library without a vg
//     caller (the garbage collector, the scheduler) are filtered out,
//     counted, and listed with -v.
//
// # Which backends each run covers
//
// The tests say, per backend, whether they ran it (stackscratch/ctgrind's
// Backend logs "ctgrind: backend NAME: ..."), and ctgrind prints it per
// run. Natively, valgrind runs the backends whose instructions its CPU
// decodes: generic everywhere, aesni and aesni-avx, ssse3 and avx2, and adx
// (valgrind decodes ADCX and ADOX but its CPUID hides ADX; cpufeat adds it
// under the build tag valgrind). Valgrind 3.19 decodes no AVX-512, VAES or
// VPCLMULQDQ, so with -model auto (the default) ctgrind builds the tests
// again with -tags valgrind,vgsim and runs the backends the native run left
// out on the x86sim model, still under memcheck: the Go code around every
// assembly call is checked as natively, and each call on the model takes
// its secrets from memcheck (asmgen/x86sim's UnderValgrind), failing when a
// value derived from a secret reaches an argument or memory declared Public
// (a Public scalar a caller computed from a secret: the annotation is
// checked against the caller, not trusted); it prints, per assembly file,
// which functions had their arguments checked that way and which no call
// reached. -model all runs every backend with assembly on the model too
// (ci/test does: every backend's annotations are then checked against
// their callers); -model only on the model alone; -model off only
// natively. -backends restricts both runs to a list (ci/cmd/mutants runs one
// backend). A package whose tests name a backend no run covered fails.
//
// # The test binary's environment
//
// Valgrind shows its guest a CPUID of its own, which can claim features the
// host lacks and its decoder then rejects: where the host hides RDTSCP (on
// the AMD Zen 5 machines this project has had), valgrind 3.19's CPUID still
// reports it, the Go runtime's cputicks executes it, and the binary dies at
// its first instruction. ctgrind therefore always runs the test binary with
// cpu.rdtscp=off added to its GODEBUG (childEnv; the runtime then reads the
// TSC with RDTSC and fences, as on a CPU without RDTSCP), and drops from the
// binary's output the one line golang.org/x/sys/cpu prints about that option,
// which it does not know.
//
// # Instructions valgrind cannot decode
//
// When the binary reaches an instruction valgrind cannot decode, ctgrind
// prints one line saying where (the address, and the function from the
// binary's symbol table), its bytes, and what to do, instead of the Go
// runtime's SIGILL dump; the run fails, and every backend it left
// uncovered is listed with that cause.
//
// A failing run prints each report's kind and stack. The exit status is 1
// when a report fails, a test fails, a backend is not covered, valgrind
// cannot decode an instruction the tests reach, or valgrind is missing.
package main

import (
	"debug/elf"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"
)

// genericBackend is every algorithm's portable backend (cpufeat's
// GenericBackend), which has no assembly.
const genericBackend = "generic"

// What stackscratch/ctgrind's Backend uses (its BackendsEnv and
// BackendLine; TestBackendProtocol checks they agree).
const (
	backendsEnv    = "VG_CTGRIND_BACKENDS"
	backendLineTag = "ctgrind: backend "
)

func main() {
	run := flag.String("run", "CTGrind", "the tests to run (-test.run)")
	short := flag.Bool("short", false, "run the tests with -test.short (the small input set)")
	verbose := flag.Bool("v", false, "print the filtered reports too")
	model := flag.String("model", "auto", "run on the x86sim model under memcheck: auto (the backends the native run left out), all (and natively), only (not natively), off")
	backends := flag.String("backends", "", "comma-separated: run only these backends (default: every one)")
	parallel := flag.Int("p", runtime.NumCPU(), "how many packages to check at a time")
	flag.Parse()
	if flag.NArg() == 0 || (*model != "auto" && *model != "all" && *model != "only" && *model != "off") {
		fmt.Fprintln(os.Stderr, "usage: ctgrind [-run regexp] [-short] [-v] [-model auto|all|only|off] [-backends list] [-p n] package...")
		os.Exit(2)
	}
	var only []string
	if *backends != "" {
		only = strings.Split(*backends, ",")
	}
	if out, err := exec.Command("valgrind", "--version").Output(); err == nil {
		fmt.Printf("ctgrind: %s\n", strings.TrimSpace(string(out)))
	}
	ok := forEachPackage(flag.Args(), *parallel, os.Stdout, func(pkg string, w io.Writer) bool {
		return checkPackage(pkg, *run, *short, *model, only, *verbose, w)
	})
	if !ok {
		os.Exit(1)
	}
}

// forEachPackage runs check on each package, up to parallel at a time (at
// least one), each writing to a buffer of its own that is copied to w in
// the order of pkgs as soon as the packages before it are done, and
// reports whether every check passed.
func forEachPackage(pkgs []string, parallel int, w io.Writer, check func(pkg string, w io.Writer) bool) bool {
	type out struct {
		buf  strings.Builder
		ok   bool
		done chan struct{}
	}
	outs := make([]*out, len(pkgs))
	for i := range outs {
		outs[i] = &out{done: make(chan struct{})}
	}
	var g errgroup.Group
	g.SetLimit(max(parallel, 1))
	// g.Go waits for a free slot: the packages start from a goroutine of
	// their own, so that the outputs are written as they complete.
	go func() {
		for i, pkg := range pkgs {
			g.Go(func() error {
				defer close(outs[i].done)
				outs[i].ok = check(pkg, &outs[i].buf)
				return nil
			})
		}
	}()
	ok := true
	for _, o := range outs {
		<-o.done
		io.WriteString(w, o.buf.String())
		ok = ok && o.ok
	}
	return ok
}

// checkPackage runs pkg's tests natively under memcheck, then on the model
// as -model says (only: the model alone), restricted to the backends in
// only when it is not nil, prints what each run found and covered, and
// reports whether everything passed and every backend was covered.
func checkPackage(pkg, run string, short bool, model string, only []string, verbose bool, w io.Writer) bool {
	var native *Result
	if model == "only" {
		native = &Result{Pkg: pkg}
	} else {
		var err error
		native, err = checkRepeated(Options{Pkg: pkg, Run: run, Short: short, Backends: only}, w)
		if err != nil {
			fmt.Fprintf(w, "ctgrind: %s: %v\n", pkg, err)
			return false
		}
		native.print(w, verbose)
	}
	ok := native.ok()
	covered := map[string]string{}
	for _, b := range native.Ran {
		covered[b] = "native"
	}
	var left []string
	for _, b := range native.Backends() {
		if only != nil && !slices.Contains(only, b) {
			continue
		}
		// generic has no assembly: on the model it would run the same Go
		// code as natively, slower.
		if _, ran := covered[b]; !ran || model == "all" && b != genericBackend {
			left = append(left, b)
		}
	}
	if model == "only" {
		left = only
	}
	var onModel *Result
	var err error
	if model != "off" && (len(left) > 0 || model == "only") {
		onModel, err = checkRepeated(Options{Pkg: pkg, Run: run, Short: short, Model: true, Backends: left}, w)
		if err != nil {
			fmt.Fprintf(w, "ctgrind: %s: on the model: %v\n", pkg, err)
			return false
		}
		onModel.print(w, verbose)
		ok = ok && onModel.ok()
		for _, b := range onModel.Ran {
			if covered[b] == "" {
				covered[b] = "model"
			} else {
				covered[b] += "+model"
			}
		}
	}
	all := native.Backends()
	if model == "only" && onModel != nil {
		all = onModel.Backends()
	}
	if only != nil {
		all = slices.DeleteFunc(slices.Clone(all), func(b string) bool { return !slices.Contains(only, b) })
	}
	if len(all) == 0 {
		return ok
	}
	var parts, missing []string
	for _, b := range all {
		if how := covered[b]; how != "" {
			parts = append(parts, b+" ("+how+")")
		} else {
			missing = append(missing, b)
		}
	}
	fmt.Fprintf(w, "ctgrind: %s: backends covered: %s\n", pkg, strings.Join(parts, ", "))
	if len(missing) > 0 {
		fmt.Fprintf(w, "ctgrind: %s: FAIL: backends no valgrind run covered: %s\n", pkg, strings.Join(missing, ", "))
		for _, b := range missing {
			runs := []*Result{onModel}
			if model != "only" {
				runs = append([]*Result{native}, runs...)
			}
			for _, why := range uncoveredWhy(b, runs...) {
				fmt.Fprintf(w, "    %s\n", why)
			}
		}
		return false
	}
	return ok
}

// uncoveredWhy says, for each run that could have covered backend b, why
// it did not: what the tests logged, or how the run ended before they
// reached it. It never returns an empty list.
func uncoveredWhy(b string, runs ...*Result) []string {
	var why []string
	for _, r := range runs {
		if r == nil {
			continue
		}
		switch {
		case r.NotRun[b] != "":
			why = append(why, fmt.Sprintf("%s (%s): %s", b, r.mode(), r.NotRun[b]))
		case r.Undecodable != nil:
			why = append(why, fmt.Sprintf("%s (%s): the run stopped before the tests reached it, at an instruction valgrind cannot decode (above)", b, r.mode()))
		case r.TestFailed:
			why = append(why, fmt.Sprintf("%s (%s): the test binary failed before the tests reached it (its output is above)", b, r.mode()))
		case !slices.Contains(r.order, b):
			why = append(why, fmt.Sprintf("%s (%s): the tests did not name it", b, r.mode()))
		}
	}
	if len(why) == 0 {
		why = append(why, b+": no run was asked to cover it (-model off, or -backends left it out)")
	}
	return why
}

// Options say how to run one package's tests.
type Options struct {
	Pkg   string
	Run   string
	Short bool
	// Model builds with -tags valgrind,vgsim: the assembly runs on the
	// x86sim model, which takes its secrets from memcheck.
	Model bool
	// Backends, when set, restricts the tests to these backends
	// (ctgrind.BackendsEnv).
	Backends []string
	// Env is added to the test binary's environment.
	Env []string
}

// Result is what one run of a package's tests found.
type Result struct {
	Pkg string
	// Model is set for the run on the model.
	Model bool
	// Ran lists the backends the tests ran, in their order; NotRun says
	// why each other backend they named was not run.
	Ran    []string
	NotRun map[string]string
	order  []string
	// Failures are the reports of secret origin with a vg frame.
	Failures []Report
	// Filtered are the reports of secret origin without a vg frame.
	Filtered []Report
	// Other is the number of reports of other origins (the runtime's).
	Other int
	// Unrepeated are the failures of a first run that a second did not
	// repeat, all inside the runtime (checkRepeated).
	Unrepeated []Report
	// TestFailed is set when the test binary failed under the marked run.
	TestFailed bool
	// Undecodable is set when the run stopped at an instruction valgrind
	// cannot decode.
	Undecodable *Undecodable
	// Output is the test binary's output of the marked run.
	Output string
}

func (r *Result) ok() bool { return len(r.Failures) == 0 && !r.TestFailed }

// Backends returns every backend the tests named, run or not.
func (r *Result) Backends() []string { return r.order }

func (r *Result) mode() string {
	if r.Model {
		return "on the model under memcheck, -tags valgrind,vgsim"
	}
	return "native under memcheck, -tags valgrind"
}

// backendLine matches what ctgrind.RunsBackend logs.
var backendLine = regexp.MustCompile(regexp.QuoteMeta(backendLineTag) + `([^:\s]+): (.*)$`)

// collectBackends reads the backend lines of the tests' output.
func (r *Result) collectBackends() {
	r.NotRun = map[string]string{}
	seen := map[string]bool{}
	for _, line := range strings.Split(r.Output, "\n") {
		m := backendLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name, what := m[1], strings.TrimSpace(m[2])
		if !seen[name] {
			seen[name] = true
			r.order = append(r.order, name)
		}
		if strings.HasPrefix(what, "run ") {
			if !slices.Contains(r.Ran, name) {
				r.Ran = append(r.Ran, name)
			}
			delete(r.NotRun, name)
		} else if !slices.Contains(r.Ran, name) {
			r.NotRun[name] = strings.TrimPrefix(what, "not run: ")
		}
	}
}

func (r *Result) print(w io.Writer, verbose bool) {
	status := "ok"
	if !r.ok() {
		status = "FAIL"
	}
	fmt.Fprintf(w, "ctgrind: %s (%s): %s: %d reports in vg code depend on secrets, %d without a vg frame filtered, %d of other origins ignored\n",
		r.Pkg, r.mode(), status, len(r.Failures), len(r.Filtered), r.Other)
	if len(r.order) > 0 {
		ran := strings.Join(r.Ran, ", ")
		if ran == "" {
			ran = "none"
		}
		fmt.Fprintf(w, "ctgrind: %s (%s): ran backends %s\n", r.Pkg, r.mode(), ran)
		for _, b := range r.order {
			if why, ok := r.NotRun[b]; ok {
				fmt.Fprintf(w, "    not run: %s: %s\n", b, why)
			}
		}
	}
	// On the model: which generated functions had their arguments checked
	// against their callers (x86sim.RunTests prints it).
	for _, line := range strings.Split(r.Output, "\n") {
		if strings.HasPrefix(line, "x86sim: under memcheck, ") {
			fmt.Fprintf(w, "    %s\n", strings.TrimPrefix(line, "x86sim: under memcheck, "))
		}
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "%s\n", f.String())
	}
	if len(r.Unrepeated) > 0 {
		fmt.Fprintf(w, "ctgrind: %s (%s): %d reports inside the runtime did not recur on a second run (the runtime reading freed memory marked secret; it depends on when the collector runs), the first:\n%s\n",
			r.Pkg, r.mode(), len(r.Unrepeated), r.Unrepeated[0].String())
	}
	if verbose {
		for _, f := range r.Filtered {
			fmt.Fprintf(w, "filtered: %s\n", f.String())
		}
	}
	switch {
	case r.Undecodable != nil:
		fmt.Fprintf(w, "ctgrind: %s (%s): FAIL: %s\n", r.Pkg, r.mode(), r.Undecodable)
		if verbose {
			fmt.Fprintf(w, "ctgrind: %s: the test binary's output:\n%s\n", r.Pkg, r.Output)
		}
	case r.TestFailed:
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

// secretFns are the functions whose client requests mark secrets: a
// test's (ctgrind.Undefined), and the model's, which marks the results it
// computed from them (x86sim's remarkSecret, under -tags valgrind,vgsim).
var secretFns = []string{
	vgPrefix + "stackscratch/ctgrind.Undefined",
	vgPrefix + "asmgen/x86sim.remarkSecret",
}

// secretOrigin reports whether the value was marked undefined by one of
// secretFns.
func (r Report) secretOrigin() bool {
	if !strings.Contains(r.Origin, "client request") {
		return false
	}
	for _, f := range r.OriginFrames {
		for _, fn := range secretFns {
			if strings.HasPrefix(f.Fn, fn) {
				return true
			}
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

// checkRepeated is check, run a second time when every failure of the
// first has its innermost frame in the runtime (its allocator, say, reading
// freed memory that a test or the model marked secret and the runtime
// reuses: whether that happens depends on when the collector runs). The
// tests' inputs are fixed, so a secret-dependent branch of vg code, an
// allocation whose size depends on a secret among them, fails both runs;
// the second run's verdict is the result, with the first run's failures it
// did not repeat kept in Unrepeated.
func checkRepeated(o Options, log io.Writer) (*Result, error) {
	first, err := check(o, log)
	if err != nil || len(first.Failures) == 0 || slices.ContainsFunc(first.Failures, func(r Report) bool { return !r.inRuntime() }) {
		return first, err
	}
	again, err := check(o, log)
	if err != nil {
		return nil, err
	}
	return settle(first, again), nil
}

// settle is the verdict of a second run: its own, with the first run's
// failures it did not repeat (by their stacks) in Unrepeated.
func settle(first, again *Result) *Result {
	seen := map[string]bool{}
	for _, r := range again.Failures {
		seen[r.key()] = true
	}
	for _, r := range first.Failures {
		if !seen[r.key()] {
			again.Unrepeated = append(again.Unrepeated, r)
		}
	}
	return again
}

// inRuntime reports whether the innermost frame is the runtime's.
func (r Report) inRuntime() bool {
	return len(r.Frames) > 0 && strings.HasPrefix(r.Frames[0].Fn, "runtime.")
}

// check builds the package's tests and runs them under memcheck.
func check(o Options, log io.Writer) (*Result, error) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return nil, fmt.Errorf("valgrind is not on PATH (Debian: apt-get install valgrind)")
	}
	dir, err := os.MkdirTemp("", "ctgrind")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "pkg.test")
	tags := "valgrind"
	if o.Model {
		tags = "valgrind,vgsim"
	}
	build := exec.Command("go", "test", "-c", "-tags", tags, "-o", bin, o.Pkg)
	build.Stdout, build.Stderr = log, log
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("building the tests: %v", err)
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no test binary (no tests in the package?)")
	}
	srcDir, err := exec.Command("go", "list", "-f", "{{.Dir}}", o.Pkg).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	args := []string{"-test.run", o.Run, "-test.v", "-test.timeout", "60m"}
	if o.Short {
		args = append(args, "-test.short")
	}
	extra := slices.Clone(o.Env)
	if o.Backends != nil {
		extra = append(extra, backendsEnv+"="+strings.Join(o.Backends, ","))
	}
	env := childEnv(os.Environ(), extra...)
	reports, out, testErr, err := memcheck(dir, strings.TrimSpace(string(srcDir)), bin, args, env)
	out = dropSysCPUWarning(out)
	if u := findUndecodable(out, bin); u != nil {
		// The binary died at the instruction, and memcheck often with
		// it: what its XML holds, if anything, is not a verdict.
		res := &Result{Pkg: o.Pkg, Model: o.Model, Output: out, TestFailed: true, Undecodable: u}
		res.collectBackends()
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Pkg: o.Pkg, Model: o.Model, Output: out, TestFailed: testErr != nil && !passedBeforeExitCrash(out)}
	res.collectBackends()
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

// passedBeforeExitCrash reports whether the test binary's output shows every
// test passed and valgrind then failed on its own: memcheck 3.19 sometimes
// stops on an assertion in its leak checker at exit ("Block ... overlaps
// with block ...", "the 'impossible' happened" in mc_leakcheck.c), about the
// heap blocks Go's valgrind-aware runtime declares, after the binary printed
// its final PASS.
func passedBeforeExitCrash(out string) bool {
	return strings.Contains(out, "\nPASS\n") && !strings.Contains(out, "--- FAIL") && !strings.Contains(out, "\nFAIL") &&
		strings.Contains(out, "mc_leakcheck.c") && strings.Contains(out, "the 'impossible' happened")
}

// memcheck runs bin under memcheck in the package's directory wd and returns
// its reports, the test output, and the test binary's failure.
func memcheck(dir, wd, bin string, args, env []string) ([]Report, string, error, error) {
	xmlFile := filepath.Join(dir, "memcheck.xml")
	vargs := append([]string{"--tool=memcheck", "--error-limit=no", "--leak-check=no", "--num-callers=30",
		"--track-origins=yes", "--xml=yes", "--xml-file=" + xmlFile, bin}, args...)
	cmd := exec.Command("valgrind", vargs...)
	cmd.Dir = wd
	cmd.Env = env
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

// runtimeGODEBUG is what ctgrind adds to the test binary's GODEBUG: the
// CPU features of valgrind's CPUID the Go runtime must not use, because
// valgrind may not decode them (see the package doc).
const runtimeGODEBUG = "cpu.rdtscp=off"

// sysCPUWarning is the line golang.org/x/sys/cpu prints at init for each
// GODEBUG cpu option it does not know: rdtscp is the runtime's alone.
const sysCPUWarning = `GODEBUG sys/cpu: unknown cpu feature "rdtscp"`

// childEnv returns the test binary's environment: base with extra's
// variables set (an extra entry replaces base's of the same name) and
// runtimeGODEBUG added to GODEBUG, after any options the caller set. The Go
// runtime and os.Getenv read only the first GODEBUG of an environment, so
// there is exactly one.
func childEnv(base []string, extra ...string) []string {
	name := func(kv string) string {
		if i := strings.IndexByte(kv, '='); i >= 0 {
			return kv[:i]
		}
		return kv
	}
	var env []string
	seen := map[string]bool{}
	for _, kv := range slices.Concat(extra, base) {
		n := name(kv)
		if seen[n] {
			continue
		}
		seen[n] = true
		env = append(env, kv)
	}
	for i, kv := range env {
		if name(kv) == "GODEBUG" {
			if v := kv[len("GODEBUG="):]; v != "" {
				env[i] = "GODEBUG=" + v + "," + runtimeGODEBUG
			} else {
				env[i] = "GODEBUG=" + runtimeGODEBUG
			}
			return env
		}
	}
	return append(env, "GODEBUG="+runtimeGODEBUG)
}

// dropSysCPUWarning removes from a test binary's output the lines of
// sysCPUWarning, which childEnv's GODEBUG causes in every binary that
// imports golang.org/x/sys/cpu.
func dropSysCPUWarning(out string) string {
	lines := strings.SplitAfter(out, "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.TrimRight(l, "\n") == sysCPUWarning })
	return strings.Join(lines, "")
}

// Undecodable is an instruction valgrind could not decode, where a run
// stopped.
type Undecodable struct {
	// Addr is the instruction's address, Fn the function of the test
	// binary that holds it ("" when the symbol table does not say).
	Addr uint64
	Fn   string
	// Bytes are the bytes valgrind printed from Addr on (the instruction
	// and what follows it).
	Bytes []byte
}

// vexUnhandled and vgUnrecognised are the lines valgrind prints when its
// decoder rejects an instruction, before it raises SIGILL.
var (
	vexUnhandled   = regexp.MustCompile(`vex amd64->IR: unhandled instruction bytes:((?: 0x[0-9A-Fa-f]+)+)`)
	vgUnrecognised = regexp.MustCompile(`valgrind: Unrecognised instruction at address 0x([0-9A-Fa-f]+)`)
)

// findUndecodable reads the first instruction valgrind could not decode
// from a run's output, and its function from bin's symbol table; nil when
// valgrind decoded everything the run reached.
func findUndecodable(out, bin string) *Undecodable {
	m := vgUnrecognised.FindStringSubmatch(out)
	if m == nil {
		return nil
	}
	u := &Undecodable{}
	fmt.Sscanf(m[1], "%x", &u.Addr)
	if b := vexUnhandled.FindStringSubmatch(out); b != nil {
		for _, f := range strings.Fields(b[1]) {
			var x byte
			fmt.Sscanf(f, "0x%x", &x)
			u.Bytes = append(u.Bytes, x)
		}
	}
	u.Fn = funcAt(bin, u.Addr)
	return u
}

// funcAt returns the name of bin's function that holds addr, or "" (Go's
// test binaries on linux/amd64 are not position-independent, so valgrind
// runs them at their link addresses).
func funcAt(bin string, addr uint64) string {
	f, err := elf.Open(bin)
	if err != nil {
		return ""
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return ""
	}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value <= addr && addr < s.Value+s.Size {
			return s.Name
		}
	}
	return ""
}

// what names the instruction's kind where its first bytes say it.
func (u *Undecodable) what() string {
	switch {
	case len(u.Bytes) >= 3 && u.Bytes[0] == 0x0f && u.Bytes[1] == 0x01 && u.Bytes[2] == 0xf9:
		return "RDTSCP"
	case len(u.Bytes) >= 1 && u.Bytes[0] == 0x62:
		return "an EVEX-encoded (AVX-512) instruction"
	case len(u.Bytes) >= 1 && (u.Bytes[0] == 0xc4 || u.Bytes[0] == 0xc5):
		return "a VEX-encoded instruction"
	}
	return "an instruction"
}

// advice says what to do about it: vg's assembly belongs on the model; an
// instruction of the runtime's or the standard library's is one the Go
// runtime chose from valgrind's CPUID, which GODEBUG can turn off.
func (u *Undecodable) advice() string {
	switch {
	case strings.HasPrefix(u.Fn, vgPrefix):
		return "this is vg's assembly: a backend that uses it must be unavailable under the build tag valgrind (cpufeat) and run on the model (-model auto or all)"
	case u.Fn == "":
		return "no function of the test binary holds the address: see the binary's output with -v"
	}
	return "the Go code chose it from valgrind's CPUID: turn the feature off for the runtime in the test binary's GODEBUG (ci/cmd/ctgrind's runtimeGODEBUG, which has " + runtimeGODEBUG + ")"
}

func (u *Undecodable) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "valgrind cannot decode %s at %#x", u.what(), u.Addr)
	if u.Fn != "" {
		fmt.Fprintf(&b, " in %s", u.Fn)
	}
	if len(u.Bytes) > 0 {
		fmt.Fprintf(&b, " (bytes % x)", u.Bytes)
	}
	fmt.Fprintf(&b, ", where the test binary stopped; %s", u.advice())
	return b.String()
}
