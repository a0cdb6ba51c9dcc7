package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

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

// TestBackendProtocol checks that the runner reads what
// stackscratch/ctgrind.Backend writes, and collects the backends a run
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
