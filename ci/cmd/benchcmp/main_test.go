package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-base", "main~2", "-pkg", "./aesgcm,./rsa", "-count", "8", "-env", "VG_CPU_FEATURES=none", "-taskset", "none", "./chacha20poly1305"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "main~2", cfg.base)
	assert.True(t, cfg.baseSet)
	assert.Equal(t, []string{"./aesgcm", "./rsa", "./chacha20poly1305"}, cfg.patterns)
	assert.Equal(t, 8, cfg.run.count)
	assert.Equal(t, []string{"VG_CPU_FEATURES=none"}, cfg.env)
	assert.Equal(t, "", cfg.run.taskset)
	assert.Equal(t, ".", cfg.run.bench)

	cfg, err = parseFlags([]string{"-pair", "vg-*=stdlib", "./aesgcm"}, io.Discard)
	require.NoError(t, err)
	assert.False(t, cfg.baseSet)
	assert.Equal(t, "HEAD", cfg.base)
	assert.Equal(t, []pairSpec{{"vg-*", "stdlib"}}, cfg.pairs)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no packages"},
		{[]string{"-count", "0", "./x"}, "-count 0"},
		{[]string{"-env", "NOEQUALS", "./x"}, "KEY=VAL"},
		{[]string{"-env", "=v", "./x"}, "KEY=VAL"},
		{[]string{"-pair", "x=x", "./x"}, "same"},
		{[]string{"-pair", "stdlib", "-base", "HEAD~1", "./x"}, "cannot be combined with -base"},
		{[]string{"-load", "f", "./x"}, "-load"},
		{[]string{"-bench", "", "./x"}, "-bench is empty"},
		{[]string{"./x", "-count", "3"}, "looks like a flag"},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		if assert.Error(t, err, "%q", tc.args) {
			assert.Contains(t, err.Error(), tc.want, "%q", tc.args)
		}
	}
}

func TestRunOptions(t *testing.T) {
	o := runOptions{bench: "Seal", benchtime: "100x", benchmem: true, timeout: "1m", taskset: "1"}
	assert.Equal(t, []string{"taskset", "-c", "1", "/b/x.test", "-test.run", "^$", "-test.bench", "Seal", "-test.count", "1",
		"-test.benchtime", "100x", "-test.benchmem", "-test.timeout", "1m"}, o.command("/b/x.test"))
	o = runOptions{bench: "."}
	assert.Equal(t, []string{"/b/x.test", "-test.run", "^$", "-test.bench", ".", "-test.count", "1"}, o.command("/b/x.test"))
}

func TestNormalizePatterns(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "aesgcm"), 0o755))
	assert.Equal(t,
		[]string{"./aesgcm", "./aesgcm/...", "./rsa", "github.com/x/y", "nosuchdir", "."},
		normalizePatterns(dir, []string{"aesgcm", "aesgcm/...", "./rsa", "github.com/x/y", "nosuchdir", "."}))
}

func TestSplitPattern(t *testing.T) {
	for _, tc := range []struct{ in, dir, rest string }{
		{"./aesgcm", "aesgcm", "."},
		{"./aesgcm/", "aesgcm", "."},
		{"./aesgcm/...", "aesgcm", "./..."},
		{"./conformance/spec/...", "conformance/spec", "./..."},
		{"./...", ".", "./..."},
		{".", ".", "."},
		{"../rsa", "../rsa", "."},
		{"./a/b...c/d", "a", "./b...c/d"},
		{"github.com/vgcrypto/vg/aesgcm", ".", "github.com/vgcrypto/vg/aesgcm"},
	} {
		dir, rest := splitPattern(tc.in)
		assert.Equal(t, tc.dir, dir, tc.in)
		assert.Equal(t, tc.rest, rest, tc.in)
	}
}

func TestTail(t *testing.T) {
	assert.Equal(t, "a\nb", tail("a\nb\n", 3))
	assert.Equal(t, "[... 2 lines omitted]\nc\nd", tail("a\nb\nc\nd\n", 2))
}

// The tiny module the end-to-end tests benchmark. work(n) costs about n
// dependent multiply-adds; the head side makes it slowFactor times slower.
const (
	tinyGoMod = "module example.com/tiny\n\ngo 1.26\n"
	tinyCode  = `package tiny

// Factor scales the work done per call.
const Factor = 1

// Work does about n*Factor dependent multiply-adds.
func Work(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n*Factor; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}
`
	tinyTest = `package tiny

import "testing"

var sink uint64

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Work(2000)
	}
}

func BenchmarkPair(b *testing.B) {
	b.Run("fast", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += Work(100)
		}
	})
	b.Run("slow", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += Work(4000)
		}
	})
}
`
	slowFactor = "20"
)

// gitEnv isolates git from the user's and system configuration.
func gitEnv(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "benchcmp test")
	t.Setenv("GIT_AUTHOR_EMAIL", "benchcmp@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "benchcmp test")
	t.Setenv("GIT_COMMITTER_EMAIL", "benchcmp@example.com")
}

// gitT runs git in dir and fails the test on error.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

// writeFiles writes name -> content files under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// newTinyRepo creates a git repository holding the tiny module in tiny/,
// committed with the given code, and returns its root.
func newTinyRepo(t *testing.T, code string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	gitEnv(t)
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	gitT(t, root, "init", "-q", "-b", "main")
	writeFiles(t, root, map[string]string{
		"tiny/go.mod":       tinyGoMod,
		"tiny/tiny.go":      code,
		"tiny/tiny_test.go": tinyTest,
		"README":            "tiny\n",
	})
	gitT(t, root, "add", ".")
	gitT(t, root, "commit", "-q", "-m", "tiny")
	return root
}

// runCmd runs benchcmp in dir and returns its report, its progress output
// and its error.
func runCmd(ctx context.Context, dir string, args ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	err := run(ctx, args, dir, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// assertNoWorktrees checks that benchcmp cleaned up its base worktree.
func assertNoWorktrees(t *testing.T, root string) {
	t.Helper()
	list := strings.TrimSpace(gitT(t, root, "worktree", "list", "--porcelain"))
	assert.Equal(t, 1, strings.Count(list, "worktree "), "leftover worktrees:\n%s", list)
	assert.NoDirExists(t, filepath.Join(root, ".git", "worktrees"))
}

// row returns the fields of the report line of benchmark name in the table
// of unit, split on runs of two or more spaces.
func row(t *testing.T, report, unit, name string) []string {
	t.Helper()
	inTable := false
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, unit+" ") {
			inTable = true
			continue
		}
		if line == "" {
			inTable = false
		}
		if inTable && strings.HasPrefix(line, name+" ") {
			return regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), -1)
		}
	}
	require.Failf(t, "row not found", "%s %s in\n%s", unit, name, report)
	return nil
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the end-to-end benchcmp test in -short mode: it builds and runs a temporary module's benchmarks (about 10 s)")
	}
	root := newTinyRepo(t, tinyCode)
	// The working tree makes Work 20 times slower.
	writeFiles(t, root, map[string]string{"tiny/tiny.go": strings.Replace(tinyCode, "const Factor = 1", "const Factor = "+slowFactor, 1)})
	ctx := context.Background()

	t.Run("compare", func(t *testing.T) {
		raw := filepath.Join(t.TempDir(), "raw.txt")
		report, progress, err := runCmd(ctx, root, "-count", "5", "-benchtime", "200x", "-bench", "Work", "-o", raw, "./tiny")
		require.NoError(t, err, progress)
		t.Logf("report:\n%s", report)
		assertNoWorktrees(t, root)

		assert.Contains(t, report, "base: ")
		assert.Contains(t, report, "head: working tree at ")
		assert.Contains(t, report, "+ uncommitted changes")
		assert.Contains(t, report, "pkg: example.com/tiny")
		assert.Contains(t, progress, "round 5/5 head")
		// The only benchmark: base, head, change, p-value.
		f := row(t, report, "sec/op", "Work")
		require.Len(t, f, 4, f)
		delta, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(f[3][:strings.Index(f[3], " ")], "+"), "%"), 64)
		require.NoError(t, err, f)
		assert.Greater(t, delta, 300.0, "head does 20x the work: %v", f)
		// Five disjoint samples against five: p = 2/C(10,5) = 0.008.
		assert.Contains(t, f[3], "(p=0.008 n=5)")
		assert.NotContains(t, report, "Pair/", "-bench Work selects only BenchmarkWork")

		// The raw file holds both sides, and -load reproduces the report.
		data, err := os.ReadFile(raw)
		require.NoError(t, err)
		assert.Equal(t, 5, strings.Count(string(data), "side: base\n"))
		assert.Equal(t, 5, strings.Count(string(data), "side: head\n"))
		loaded, _, err := runCmd(ctx, root, "-load", raw)
		require.NoError(t, err)
		assert.Equal(t, report[strings.Index(report, "\npkg: "):], loaded[strings.Index(loaded, "\npkg: "):])
	})

	t.Run("pair", func(t *testing.T) {
		report, progress, err := runCmd(ctx, root, "-count", "4", "-benchtime", "100x", "-bench", "Pair", "-pair", "fast=slow", "./tiny")
		require.NoError(t, err, progress)
		t.Logf("report:\n%s", report)
		assert.Contains(t, report, "build: head (working tree at ")
		// fast does 1/40 of slow's work: its speed-up is far above 1.
		f := row(t, report, "sec/op", "Pair/fast")
		require.Len(t, f, 6, f)
		assert.True(t, strings.HasPrefix(f[3], "-"), "fast is faster than slow: %v", f)
		assert.Contains(t, f[3], "(p=0.029 n=4)")
		x, err := strconv.ParseFloat(strings.TrimSuffix(f[4], "x"), 64)
		require.NoError(t, err, f)
		assert.Greater(t, x, 5.0, f)
		// The per-round column: the median of the 4 rounds' own ratios,
		// with their quartiles, all far above 1 too.
		var med, q1, q3 float64
		_, err = fmt.Sscanf(f[5], "%fx (%f–%f)", &med, &q1, &q3)
		require.NoError(t, err, f)
		assert.Greater(t, q1, 5.0, f)
		assert.LessOrEqual(t, q1, med, f)
		assert.LessOrEqual(t, med, q3, f)
	})

	t.Run("no match", func(t *testing.T) {
		// The check is shared by both modes; pair mode needs one build only.
		_, _, err := runCmd(ctx, root, "-count", "2", "-bench", "NoSuchBenchmark", "-pair", "fast=slow", "./tiny")
		require.ErrorIs(t, err, errNoMatch)
		assert.Contains(t, err.Error(), `-bench "NoSuchBenchmark" in example.com/tiny`)
	})

	t.Run("unknown revision", func(t *testing.T) {
		_, _, err := runCmd(ctx, root, "-base", "no-such-branch", "./tiny")
		require.Error(t, err)
		assert.Contains(t, err.Error(), `unknown revision "no-such-branch"`)
	})

	t.Run("interrupt", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var stdout bytes.Buffer
		// Cancel while the head test binary builds, after the base
		// worktree exists.
		progress := &cancelOnWrite{cancel: cancel, trigger: "building head"}
		err := run(ctx, []string{"-count", "50", "-benchtime", "100x", "./tiny"}, root, &stdout, progress)
		require.ErrorIs(t, err, context.Canceled)
		assertNoWorktrees(t, root)
	})
}

// cancelOnWrite is a progress writer that cancels a context when the output
// contains trigger, simulating Ctrl-C.
type cancelOnWrite struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	cancel  context.CancelFunc
	trigger string
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.trigger) {
		w.cancel()
	}
	return len(p), nil
}

func TestEndToEndErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the end-to-end benchcmp error tests in -short mode: they build a temporary module")
	}
	ctx := context.Background()

	t.Run("base does not build", func(t *testing.T) {
		broken := strings.Replace(tinyCode, "return x", "return undefinedName", 1)
		root := newTinyRepo(t, broken)
		writeFiles(t, root, map[string]string{"tiny/tiny.go": tinyCode})
		_, _, err := runCmd(ctx, root, "-count", "1", "./tiny")
		require.Error(t, err)
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, "base ("), msg)
		assert.Contains(t, msg, "example.com/tiny (./tiny) does not build")
		assert.Contains(t, msg, "undefined: undefinedName", "the compiler output is shown")
		assertNoWorktrees(t, root)
	})

	t.Run("head does not build", func(t *testing.T) {
		root := newTinyRepo(t, tinyCode)
		writeFiles(t, root, map[string]string{"tiny/tiny.go": strings.Replace(tinyCode, "return x", "return y", 1)})
		_, _, err := runCmd(ctx, root, "-count", "1", "./tiny")
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), "head ("), err.Error())
		assert.Contains(t, err.Error(), "undefined: y")
		assertNoWorktrees(t, root)
	})

	t.Run("not a git repository", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
		_, _, err := runCmd(ctx, dir, "./x")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "not in a git repository")
	})

	t.Run("bad package", func(t *testing.T) {
		root := newTinyRepo(t, tinyCode)
		_, _, err := runCmd(ctx, root, "./nosuchdir")
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), "head ("), err.Error())
		assert.Contains(t, err.Error(), "package pattern ./nosuchdir: directory")
	})
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "head-only.txt")
	require.NoError(t, os.WriteFile(f, []byte("BenchmarkA/x 10 100 ns/op\nBenchmarkA/y 10 300 ns/op\n"), 0o644))
	_, _, err := runCmd(context.Background(), dir, "-load", f)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "needs results of both sides")

	// The same file works in pair mode (with one sample, nothing is
	// significant, but the speed-up is printed).
	report, _, err := runCmd(context.Background(), dir, "-load", f, "-pair", "x=y")
	require.NoError(t, err)
	fields := row(t, report, "sec/op", "A/x")
	assert.Equal(t, "3.00x", fields[len(fields)-2], report)
	assert.Equal(t, "3.00x (3.00–3.00)", fields[len(fields)-1], report)

	_, _, err = runCmd(context.Background(), dir, "-load", filepath.Join(dir, "missing.txt"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
}
