package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// tree is the source of one side of a comparison: the base worktree or the
// working tree (head).
type tree struct {
	side string // "base" or "head"
	desc string // what the side is, for messages: "abc1234 subject"
	root string // top of the tree
	// dir is where package patterns are resolved: the same directory,
	// relative to root, as the one benchcmp was started in.
	dir string
}

// name returns "base (abc1234 subject)" for messages.
func (t tree) name() string {
	if t.desc == "" {
		return t.side
	}
	return t.side + " (" + t.desc + ")"
}

// testPkg is a package with test files in one tree.
type testPkg struct {
	ImportPath string
	Dir        string // absolute directory in its tree
	Rel        string // directory relative to the tree root, slash-separated ("aesgcm")
}

// goEnv returns the environment for go commands and test binaries: the
// current environment without GOWORK (so each tree uses the go.work found
// above its own packages, never the working tree's), plus extra KEY=VAL
// settings, which win.
func goEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GOWORK=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// normalizePatterns turns bare directory names into relative patterns: "aesgcm"
// becomes "./aesgcm" when dir/aesgcm is a directory, since go would read it
// as a standard-library import path. Other patterns are kept.
func normalizePatterns(dir string, patterns []string) []string {
	out := make([]string, len(patterns))
	for i, p := range patterns {
		out[i] = p
		if p == "" || strings.HasPrefix(p, ".") || filepath.IsAbs(p) {
			continue
		}
		first, _, _ := strings.Cut(p, "/")
		if strings.Contains(first, ".") {
			continue // an import path such as github.com/...
		}
		if fi, err := os.Stat(filepath.Join(dir, strings.TrimSuffix(first, "..."))); err == nil && fi.IsDir() {
			out[i] = "./" + p
		}
	}
	return out
}

// splitPattern splits a relative package pattern into the directory to run
// go list in and the pattern to give it there: "./aesgcm/..." becomes
// ("aesgcm", "./..."), "./aesgcm" becomes ("aesgcm", "."). Running go in the
// package's own directory finds its module even when no go.work covers the
// tree. Other patterns (import paths) are returned with dir ".".
func splitPattern(pattern string) (dir, rest string) {
	if !(pattern == "." || pattern == ".." || strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../")) {
		return ".", pattern
	}
	elems := strings.Split(path.Clean(pattern), "/")
	for i, e := range elems {
		if strings.Contains(e, "...") {
			dir = path.Join(elems[:i]...)
			if dir == "" {
				dir = "."
			}
			return dir, "./" + path.Join(elems[i:]...)
		}
	}
	return path.Join(elems...), "."
}

// listPackages returns the packages matching patterns in t (resolved from
// t.dir) that have test files, in go list order. Packages without test files
// are reported in skipped, and so are relative patterns whose directory does
// not exist when missingOK is set (a package added after the base revision);
// otherwise a missing directory is an error.
func listPackages(ctx context.Context, t tree, patterns []string, tags string, env []string, missingOK bool) (pkgs []testPkg, skipped []string, err error) {
	seen := make(map[string]bool)
	for _, pattern := range patterns {
		dir, rest := splitPattern(pattern)
		dir = filepath.Join(t.dir, filepath.FromSlash(dir))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if missingOK {
				skipped = append(skipped, pattern)
				continue
			}
			return nil, nil, fmt.Errorf("%s: package pattern %s: directory %s does not exist", t.name(), pattern, dir)
		}
		args := []string{"list"}
		if tags != "" {
			args = append(args, "-tags", tags)
		}
		args = append(args, "-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}", rest)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			return nil, nil, fmt.Errorf("%s: go list %s failed: %v\n%s", t.name(), pattern, err, strings.TrimSpace(stderr.String()))
		}
		for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			if line == "" {
				continue
			}
			f := strings.Split(line, "\t")
			if len(f) != 4 {
				return nil, nil, fmt.Errorf("%s: unexpected go list output %q", t.name(), line)
			}
			if seen[f[1]] {
				continue
			}
			seen[f[1]] = true
			if f[2] == "0" && f[3] == "0" {
				skipped = append(skipped, f[0])
				continue
			}
			rel, err := filepath.Rel(t.root, f[1])
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, nil, fmt.Errorf("%s: package %s is outside the tree (%s)", t.name(), f[0], f[1])
			}
			pkgs = append(pkgs, testPkg{ImportPath: f[0], Dir: f[1], Rel: filepath.ToSlash(rel)})
		}
	}
	return pkgs, skipped, nil
}

// buildTest compiles the test binary of p (go test -c) into out, running go
// in the package directory so that the tree's own go.work and go.mod apply.
func buildTest(ctx context.Context, t tree, p testPkg, out, tags string, env []string) error {
	args := []string{"test", "-c", "-o", out}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, ".")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = p.Dir
	cmd.Env = env
	output, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: package %s (./%s) does not build: %v\n%s", t.name(), p.ImportPath, p.Rel, err, strings.TrimSpace(string(output)))
	}
	if _, err := os.Stat(out); err != nil {
		return fmt.Errorf("%s: go test -c wrote no test binary for %s:\n%s", t.name(), p.ImportPath, strings.TrimSpace(string(output)))
	}
	return nil
}
