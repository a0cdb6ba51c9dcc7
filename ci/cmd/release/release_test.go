package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scratch is a git repository of two modules of vg's path: a, and b, which
// requires a through a replace, as vg's modules do.
type scratch struct {
	t   *testing.T
	top string
}

func newScratch(t *testing.T) *scratch {
	t.Setenv("GIT_AUTHOR_NAME", "release test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "release test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	s := &scratch{t: t, top: t.TempDir()}
	s.git("init", "-q", "-b", "main")
	s.write("a/go.mod", "module github.com/vgcrypto/vg/a\n\ngo 1.26.0\n")
	s.write("a/a.go", "package a\n\nfunc F() int { return 1 }\n\nfunc H() int { return 2 }\n")
	s.write("a/_asm/go.mod", "module github.com/vgcrypto/vg/a/_asm\n\ngo 1.26.0\n\nrequire github.com/vgcrypto/vg/a v0.0.0\n\nreplace github.com/vgcrypto/vg/a => ..\n")
	s.write("b/go.mod", "module github.com/vgcrypto/vg/b\n\ngo 1.26.0\n\nrequire github.com/vgcrypto/vg/a v0.0.0\n\nreplace github.com/vgcrypto/vg/a => ../a\n")
	s.write("b/b.go", "package b\n\nimport \"github.com/vgcrypto/vg/a\"\n\nfunc B() int { return a.H() }\n")
	s.commit("two modules")
	return s
}

func (s *scratch) git(args ...string) string {
	out, err := gitOut(s.top, args...)
	require.NoError(s.t, err)
	return strings.TrimSpace(out)
}

func (s *scratch) write(name, text string) {
	p := filepath.Join(s.top, filepath.FromSlash(name))
	require.NoError(s.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(s.t, os.WriteFile(p, []byte(text), 0o644))
}

func (s *scratch) read(name string) string {
	data, err := os.ReadFile(filepath.Join(s.top, filepath.FromSlash(name)))
	require.NoError(s.t, err)
	return string(data)
}

// edit replaces the first old in a file with new; old must be there.
func (s *scratch) edit(name, old, new string) {
	text := s.read(name)
	require.Contains(s.t, text, old)
	s.write(name, strings.Replace(text, old, new, 1))
}

func (s *scratch) commit(msg string) {
	s.git("add", "-A")
	s.git("commit", "-q", "-m", msg)
}

func (s *scratch) open() *repo {
	r, err := openRepo(s.top, []string{"b"})
	require.NoError(s.t, err)
	return r
}

// recordByHand records a release of HEAD with its true hash, as a careless
// edit of the record would, bypassing the plan.
func (s *scratch) recordByHand(dir, version string) {
	head := s.git("rev-parse", "HEAD")
	r := s.open()
	h, err := r.hashAt(dir, version, head)
	require.NoError(s.t, err)
	require.NoError(s.t, r.appendRecords([]record{{dir: dir, version: version, commit: head, hash: h}}))
}

// release runs release -w and returns what it printed.
func (s *scratch) release() string {
	var out bytes.Buffer
	require.NoError(s.t, s.open().release(&out, true))
	return out.String()
}

// check runs release check and returns its error.
func (s *scratch) check() error {
	var out bytes.Buffer
	return s.open().check(&out)
}

func TestFirstRelease(t *testing.T) {
	s := newScratch(t)
	r := s.open()
	assert.Equal(t, []string{"a", "b"}, r.released, "a module comes after what it requires")
	require.ErrorContains(t, s.check(), "a: never released")

	out := s.release()
	assert.Contains(t, out, "a                      (new)   -> v0.1.0  first release")
	assert.Contains(t, out, "b                      (new)   -> v0.1.0  first release")
	assert.Contains(t, s.read("b/go.mod"), "require github.com/vgcrypto/vg/a v0.1.0\n")
	assert.Contains(t, s.read("b/go.mod"), "replace github.com/vgcrypto/vg/a => ../a", "the replace stays for development")
	assert.Contains(t, s.read("a/_asm/go.mod"), "require github.com/vgcrypto/vg/a v0.1.0\n", "unreleased modules follow too")

	recs := s.open().records
	require.Len(t, recs, 2)
	released := s.git("rev-parse", "HEAD~1")
	assert.Equal(t, "release: record a v0.1.0, b v0.1.0", s.git("log", "-1", "--format=%s"))
	assert.Equal(t, released, recs[0].commit, "the record names the commit whose go.mod files require the released versions")
	assert.Equal(t, "a/v0.1.0", recs[0].tag())
	require.NoError(t, s.check())

	assert.Contains(t, s.release(), "every released module is released as HEAD has it")

	var tags bytes.Buffer
	require.NoError(t, s.open().tags(&tags))
	assert.Contains(t, tags.String(), "tagged b/v0.1.0")
	assert.Equal(t, released, s.git("rev-parse", "b/v0.1.0^{commit}"))
}

func TestProxy(t *testing.T) {
	s := newScratch(t)
	s.release()
	dir := t.TempDir()
	require.NoError(t, s.open().proxy(dir))
	v := filepath.Join(dir, "github.com/vgcrypto/vg/b/@v")
	list, err := os.ReadFile(filepath.Join(v, "list"))
	require.NoError(t, err)
	assert.Equal(t, "v0.1.0\n", string(list))
	mod, err := os.ReadFile(filepath.Join(v, "v0.1.0.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(mod), "require github.com/vgcrypto/vg/a v0.1.0")
	info, err := os.ReadFile(filepath.Join(v, "v0.1.0.info"))
	require.NoError(t, err)
	assert.Contains(t, string(info), `"Version":"v0.1.0"`)

	// The go command fetches b from the proxy, with a, from an empty module.
	user := t.TempDir()
	goCmd := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = user
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOPROXY=file://"+filepath.ToSlash(dir), "GONOSUMDB=github.com/vgcrypto/vg",
			"GOMODCACHE="+filepath.Join(user, "cache"), "GOFLAGS=-mod=mod -modcacherw")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s: %s", strings.Join(args, " "), out)
		return string(out)
	}
	goCmd("mod", "init", "example.com/user")
	goCmd("get", "github.com/vgcrypto/vg/b@latest")
	assert.Contains(t, goCmd("list", "-m", "all"), "github.com/vgcrypto/vg/a v0.1.0")

	// A tampered record is caught.
	recs := s.read(recordsFile)
	i := strings.LastIndex(recs, " h1:") + len(" h1:")
	s.write(recordsFile, recs[:i]+"x"+recs[i:])
	require.ErrorContains(t, s.open().proxy(t.TempDir()), "not the recorded h1:x")
	require.ErrorContains(t, s.check(), "not the recorded h1:x")
}

func TestChangedModuleNeedsRelease(t *testing.T) {
	s := newScratch(t)
	s.release()
	s.write("a/a.go", s.read("a/a.go")+"\nfunc G() int { return 3 }\n")
	s.commit("a: G")
	require.ErrorContains(t, s.check(), "a: changed since its release v0.1.0")

	out := s.release()
	assert.Contains(t, out, "a                      v0.1.0  -> v0.2.0  compatible API additions")
	assert.Contains(t, out, "b                      v0.1.0  -> v0.1.1  requires a v0.2.0", "b changes only by what it requires")
	require.NoError(t, s.check())

	// A change that adds nothing to the API is a patch.
	s.edit("a/a.go", "return 3", "return 4")
	s.commit("a: G returns 4")
	assert.Contains(t, s.release(), "a                      v0.2.0  -> v0.2.1  no API change")
	require.NoError(t, s.check())

	// A removal is incompatible: at v0 the minor step.
	s.edit("a/a.go", "func F() int { return 1 }\n", "")
	s.commit("a: no F")
	assert.Contains(t, s.release(), "a                      v0.2.1  -> v0.3.0  incompatible API change")
	require.NoError(t, s.check())
}

func TestCheckCatchesSmallStep(t *testing.T) {
	s := newScratch(t)
	s.release()
	s.edit("a/a.go", "func F() int { return 1 }\n", "")
	s.commit("a: no F")
	s.recordByHand("a", "v0.1.1")
	err := s.check()
	require.ErrorContains(t, err, "a v0.1.1: incompatible API change since v0.1.0 needs a larger step")
	assert.Contains(t, err.Error(), "F: removed")
}

func TestCheckCatchesUnreleasedRequirement(t *testing.T) {
	s := newScratch(t)
	s.release()
	s.edit("b/go.mod", "a v0.1.0", "a v0.9.0")
	s.commit("b: requires a version of a that was never released")
	s.recordByHand("b", "v0.1.1")
	require.ErrorContains(t, s.check(), "b v0.1.1: its go.mod requires a v0.9.0, a version never released")
}

func TestReleaseNeedsCleanTree(t *testing.T) {
	s := newScratch(t)
	s.write("a/a.go", s.read("a/a.go")+"\n// uncommitted\n")
	require.ErrorContains(t, s.open().release(&bytes.Buffer{}, true), "uncommitted changes")
}

func TestSteps(t *testing.T) {
	for _, c := range []struct {
		prev string
		k    apiChange
		want string
	}{
		{"v0.1.0", apiSame, "v0.1.1"},
		{"v0.1.3", apiAdded, "v0.2.0"},
		{"v0.1.3", apiIncompatible, "v0.2.0"},
		{"v1.4.2", apiSame, "v1.4.3"},
		{"v1.4.2", apiAdded, "v1.5.0"},
	} {
		got, err := next("m", c.prev, c.k)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s after %s", c.k, c.prev)
		assert.True(t, stepAllows(c.prev, got, c.k))
	}
	_, err := next("m", "v1.4.2", apiIncompatible)
	assert.ErrorContains(t, err, "new module path (m/v2)")

	assert.False(t, stepAllows("v0.1.0", "v0.1.1", apiIncompatible))
	assert.False(t, stepAllows("v0.1.0", "v0.1.1", apiAdded))
	assert.False(t, stepAllows("v1.1.0", "v1.2.0", apiIncompatible))
	assert.False(t, stepAllows("v0.2.0", "v0.1.9", apiSame))
	assert.True(t, stepAllows("v0.1.0", "v0.2.0", apiSame))
}
