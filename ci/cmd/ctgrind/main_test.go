package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

func requireValgrind(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind is not installed (ci/test installs it)")
	}
}

// TestSeededLeaksCaught runs stackscratch/ctgrind's seeded leaks under
// memcheck: a loop on a key byte and a table load at a secret index, in Go
// code, each must be a failure naming its function; their constant-time
// twin (a masked full-table scan) must pass.
func TestSeededLeaksCaught(t *testing.T) {
	requireValgrind(t)
	t.Setenv("CTGRIND_SEED", "1")
	var log bytes.Buffer
	res, err := check(Options{Pkg: "github.com/vgcrypto/vg/stackscratch/ctgrind", Run: "CTGrind", Short: true}, &log)
	require.NoError(t, err, log.String())
	require.False(t, res.TestFailed, res.Output)
	var where []string
	for _, f := range res.Failures {
		require.NotEmpty(t, f.Frames)
		where = append(where, f.Kind+" "+strings.TrimPrefix(f.Frames[0].Fn, vgPrefix))
	}
	assert.ElementsMatch(t, []string{
		"UninitCondition stackscratch/ctgrind.branchOnKeyByte",
		"UninitValue stackscratch/ctgrind.tableLoad",
	}, where, "the seeded leaks, and only they")
	assert.False(t, res.ok())
}

// TestCleanPasses runs the same package without the seeds: the table scan
// alone passes.
func TestCleanPasses(t *testing.T) {
	requireValgrind(t)
	t.Setenv("CTGRIND_SEED", "")
	var log bytes.Buffer
	res, err := check(Options{Pkg: "github.com/vgcrypto/vg/stackscratch/ctgrind", Run: "CTGrind", Short: true}, &log)
	require.NoError(t, err, log.String())
	assert.True(t, res.ok(), "%+v", res.Failures)
	assert.Contains(t, res.Output, "--- PASS: TestCTGrindTableScanPasses")
}

// TestClassify checks the filter on memcheck's XML: only values created by
// ctgrind.Undefined's client request count, and only with a vg frame.
func TestClassify(t *testing.T) {
	secret := xmlError{Kind: "UninitCondition", AuxWhat: []string{"Uninitialised value was created by a client request"}}
	secret.Stacks = append(secret.Stacks, struct {
		Frames []Frame `xml:"frame"`
	}{[]Frame{{Fn: "github.com/vgcrypto/vg/rsa.(*modulus).reduce"}}}, struct {
		Frames []Frame `xml:"frame"`
	}{[]Frame{{Fn: "github.com/vgcrypto/vg/stackscratch/ctgrind.clientRequest.abi0"}, {Fn: "github.com/vgcrypto/vg/stackscratch/ctgrind.Undefined"}}})
	r := secret.report()
	assert.True(t, r.secretOrigin())
	assert.True(t, r.inVG())

	runtimeOnly := secret
	runtimeOnly.Stacks = append(runtimeOnly.Stacks[:0:0], struct {
		Frames []Frame `xml:"frame"`
	}{[]Frame{{Fn: "runtime.scanobject"}, {Fn: "runtime.gcDrain"}}}, secret.Stacks[1])
	r = runtimeOnly.report()
	assert.True(t, r.secretOrigin())
	assert.False(t, r.inVG(), "filtered by frame")

	stack := secret
	stack.AuxWhat = []string{"Uninitialised value was created by a stack allocation"}
	assert.False(t, stack.report().secretOrigin(), "the runtime's reads of unwritten stack words")
	runtimeReq := secret
	runtimeReq.Stacks = append(runtimeReq.Stacks[:1:1], struct {
		Frames []Frame `xml:"frame"`
	}{[]Frame{{Fn: "runtime.valgrindClientRequest.abi0"}, {Fn: "runtime.mallocgc"}}})
	assert.False(t, runtimeReq.report().secretOrigin(), "the runtime's own client requests")

	model := secret
	model.Stacks = append(model.Stacks[:1:1], struct {
		Frames []Frame `xml:"frame"`
	}{[]Frame{{Fn: "github.com/vgcrypto/vg/asmgen/x86sim.vgRequest"}, {Fn: "github.com/vgcrypto/vg/asmgen/x86sim.remarkSecret"}}})
	assert.True(t, model.report().secretOrigin(), "a result the model computed from secrets (-tags valgrind,vgsim)")
}

// TestSettle: a second run's verdict stands, with the first run's failures
// it did not repeat set aside; a failure outside the runtime is never run
// twice (inRuntime).
func TestSettle(t *testing.T) {
	at := func(fns ...string) Report {
		r := Report{Kind: "UninitCondition"}
		for _, fn := range fns {
			r.Frames = append(r.Frames, Frame{Fn: fn})
		}
		return r
	}
	malloc := at("runtime.mallocgcSmallScanNoHeader", "runtime.mallocgc", "github.com/vgcrypto/vg/aesgcm.Prepare")
	sweep := at("runtime.(*mspan).sweep", "github.com/vgcrypto/vg/aesgcm.Prepare")
	vg := at("github.com/vgcrypto/vg/rsa.(*modulus).reduce")
	assert.True(t, malloc.inRuntime())
	assert.False(t, vg.inRuntime())

	gone := settle(&Result{Failures: []Report{malloc, sweep}}, &Result{})
	assert.True(t, gone.ok())
	assert.Equal(t, []Report{malloc, sweep}, gone.Unrepeated)

	again := settle(&Result{Failures: []Report{malloc, sweep}}, &Result{Failures: []Report{sweep}})
	assert.False(t, again.ok(), "a failure that recurs fails")
	assert.Equal(t, []Report{malloc}, again.Unrepeated)
}

// TestBackendProtocol checks that the runner reads what
// stackscratch/ctgrind.RunsBackend writes, and collects the backends a run
// covered from a test's output.
func TestBackendProtocol(t *testing.T) {
	assert.Equal(t, ctgrind.BackendsEnv, backendsEnv)
	assert.Equal(t, ctgrind.BackendLine, backendLineTag)
	r := &Result{Output: "=== RUN   TestCTGrindPrivate\n" +
		"    ctgrind_test.go:49: ctgrind: backend ifma: not run: requires avx,avx2, which valgrind's CPU does not decode (ci/cmd/ctgrind runs it on the model)\n" +
		"    ctgrind_test.go:49: ctgrind: backend adx: run natively under memcheck\n" +
		"    ctgrind_test.go:49: ctgrind: backend generic: run natively under memcheck\n"}
	r.collectBackends()
	assert.Equal(t, []string{"ifma", "adx", "generic"}, r.Backends())
	assert.Equal(t, []string{"adx", "generic"}, r.Ran)
	assert.Contains(t, r.NotRun["ifma"], "does not decode")
}

// TestChildEnv checks the test binary's environment: exactly one GODEBUG,
// with cpu.rdtscp=off after what the caller set, and the runner's
// variables in place of the caller's.
func TestChildEnv(t *testing.T) {
	godebug := func(env []string) []string {
		var g []string
		for _, kv := range env {
			if strings.HasPrefix(kv, "GODEBUG=") {
				g = append(g, kv)
			}
		}
		return g
	}
	assert.Equal(t, []string{"GODEBUG=cpu.rdtscp=off"}, godebug(childEnv([]string{"PATH=/bin", "HOME=/root"})))
	assert.Equal(t, []string{"GODEBUG=cpu.rdtscp=off"}, godebug(childEnv([]string{"GODEBUG="})))
	assert.Equal(t, []string{"GODEBUG=madvdontneed=1,cpu.rdtscp=off"},
		godebug(childEnv([]string{"GODEBUG=madvdontneed=1", "GODEBUG=gctrace=1"})),
		"the first GODEBUG is the one the runtime reads; the second goes")
	assert.Equal(t, []string{"GODEBUG=gctrace=1,cpu.rdtscp=off"},
		godebug(childEnv([]string{"GODEBUG=madvdontneed=1"}, "GODEBUG=gctrace=1")), "the runner's own GODEBUG wins")

	env := childEnv([]string{"PATH=/bin", backendsEnv + "=adx"}, backendsEnv+"=ifma", "CTGRIND_SEED=1")
	assert.Contains(t, env, "PATH=/bin")
	assert.Contains(t, env, backendsEnv+"=ifma")
	assert.NotContains(t, env, backendsEnv+"=adx")
	assert.Contains(t, env, "CTGRIND_SEED=1")
}

// TestDropSysCPUWarning checks that only x/sys/cpu's line about the
// runtime's option goes.
func TestDropSysCPUWarning(t *testing.T) {
	out := "GODEBUG sys/cpu: unknown cpu feature \"rdtscp\"\n=== RUN   TestX\n" +
		"GODEBUG sys/cpu: unknown cpu feature \"avx\"\n--- PASS: TestX\nPASS\n"
	assert.Equal(t, "=== RUN   TestX\nGODEBUG sys/cpu: unknown cpu feature \"avx\"\n--- PASS: TestX\nPASS\n", dropSysCPUWarning(out))
}

// TestUndecodableOneLine runs a test that executes an instruction valgrind
// cannot decode (an AVX-512 one, on any CPU) under memcheck: the runner must
// name the function, the bytes and what to do in one line, print no
// goroutine dump, and list the backend the run did not reach with its
// cause. The test binary also shows the GODEBUG the runner gave it, and the
// warning golang.org/x/sys/cpu prints about it must be gone.
func TestUndecodableOneLine(t *testing.T) {
	requireValgrind(t)
	t.Setenv("CTGRIND_UNDECODABLE", "1")
	t.Setenv("GODEBUG", "madvdontneed=1")
	var log bytes.Buffer
	const pkg = "github.com/vgcrypto/vg/ci/cmd/ctgrind/testdata/undecodable"
	res, err := check(Options{Pkg: pkg, Run: "CTGrind", Short: true}, &log)
	require.NoError(t, err, log.String())
	require.NotNil(t, res.Undecodable, res.Output)
	assert.Equal(t, pkg+".evexInstruction.abi0", res.Undecodable.Fn)
	require.NotEmpty(t, res.Undecodable.Bytes)
	assert.Equal(t, byte(0x62), res.Undecodable.Bytes[0], "an EVEX prefix")
	assert.False(t, res.ok())
	assert.Equal(t, []string{"generic"}, res.Ran)
	assert.Contains(t, res.Output, "GODEBUG=madvdontneed=1,cpu.rdtscp=off")
	assert.NotContains(t, res.Output, "sys/cpu")

	var w bytes.Buffer
	res.print(&w, false)
	printed := w.String()
	assert.NotContains(t, printed, "goroutine ")
	assert.NotContains(t, printed, "SIGILL")
	var line string
	for _, l := range strings.Split(printed, "\n") {
		if strings.Contains(l, "cannot decode") {
			require.Empty(t, line, "one line: %s", printed)
			line = l
		}
	}
	assert.Contains(t, line, "an EVEX-encoded (AVX-512) instruction")
	assert.Contains(t, line, "in "+pkg+".evexInstruction")
	assert.Contains(t, line, "(bytes 62 ")
	assert.Contains(t, line, "this is vg's assembly")

	assert.Equal(t, []string{"evex (native under memcheck, -tags valgrind): the run stopped before the tests reached it, at an instruction valgrind cannot decode (above)"},
		uncoveredWhy("evex", res))
}

// TestUndecodableAdvice checks the line for RDTSCP in the Go runtime (a
// host whose CPUID hides it, such as some Zen 5 VMs), where the fix is
// GODEBUG.
func TestUndecodableAdvice(t *testing.T) {
	u := &Undecodable{Addr: 0x46b2a0, Fn: "runtime.cputicks.abi0", Bytes: []byte{0x0f, 0x01, 0xf9, 0x48, 0xc1}}
	assert.Equal(t, "valgrind cannot decode RDTSCP at 0x46b2a0 in runtime.cputicks.abi0 (bytes 0f 01 f9 48 c1), where the test binary stopped; "+
		"the Go code chose it from valgrind's CPUID: turn the feature off for the runtime in the test binary's GODEBUG (ci/cmd/ctgrind's runtimeGODEBUG, which has cpu.rdtscp=off)", u.String())
	out := "vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9 0x48 0xC1\n==7== valgrind: Unrecognised instruction at address 0x46b2a0.\nSIGILL: illegal instruction\n"
	got := findUndecodable(out, "/nonexistent")
	require.NotNil(t, got)
	assert.Equal(t, uint64(0x46b2a0), got.Addr)
	assert.Equal(t, []byte{0x0f, 0x01, 0xf9, 0x48, 0xc1}, got.Bytes)
	assert.Empty(t, got.Fn)
	assert.Nil(t, findUndecodable("PASS\n", "/nonexistent"))
}

// TestForEachPackage checks that packages run at most parallel at a time,
// that their outputs come out whole and in the order given whatever order
// they finish in, and that one failure fails the whole.
func TestForEachPackage(t *testing.T) {
	pkgs := []string{"a", "b", "c", "d", "e"}
	for _, parallel := range []int{0, 1, 2, 5} {
		var mu sync.Mutex
		running, most := 0, 0
		// The later a package, the sooner it finishes: with parallel
		// above one they finish out of order.
		var w bytes.Buffer
		ok := forEachPackage(pkgs, parallel, &w, func(pkg string, out io.Writer) bool {
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(time.Duration('f'-pkg[0]) * time.Millisecond)
			fmt.Fprintf(out, "%s: first line\n", pkg)
			time.Sleep(time.Millisecond)
			fmt.Fprintf(out, "%s: second line\n", pkg)
			mu.Lock()
			running--
			mu.Unlock()
			return pkg != "c"
		})
		assert.False(t, ok, "parallel %d: c failed", parallel)
		assert.LessOrEqual(t, most, max(parallel, 1), "parallel %d", parallel)
		var want strings.Builder
		for _, p := range pkgs {
			fmt.Fprintf(&want, "%s: first line\n%s: second line\n", p, p)
		}
		assert.Equal(t, want.String(), w.String(), "parallel %d", parallel)
	}
	assert.True(t, forEachPackage(pkgs, 2, io.Discard, func(string, io.Writer) bool { return true }))
}
