// Command deadcheck fails when the repository has a function nothing
// reaches: golang.org/x/tools' deadcode, run with its -test flag, in every
// configuration the code is built in, reporting only the functions
// unreachable in all of them.
//
//	go run ./ci/cmd/deadcheck
//
// A function can be reachable in one build only: under the build tag vgsim
// (the model), valgrind,vgsim (the model under memcheck), purego, or from a
// generator in an _asm module (asmgen's API), whose own go.mod lists it
// outside the workspace. deadcheck builds deadcode once from the ci
// module's tool dependency, runs it over the workspace's modules in each
// tag configuration and in each _asm module (GOWORK=off), one run per CPU
// at a time, and prints each function none of the runs reached,
// file:line: name, relative to the repository root. It exits with status
// 1 when there is any.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"
)

// deadFunc is one function of deadcode's -json output.
type deadFunc struct {
	Name     string
	Position struct {
		File string
		Line int
	}
	Generated bool
}

// deadPackage is one package of deadcode's -json output.
type deadPackage struct {
	Path  string
	Funcs []deadFunc
}

// run is one deadcode invocation: its folder, environment and arguments.
type run struct {
	dir  string
	env  []string
	args []string
}

func main() {
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	tmp, err := os.MkdirTemp("", "deadcheck")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	tool := filepath.Join(tmp, "deadcode")
	build := exec.Command("go", "build", "-o", tool, "golang.org/x/tools/cmd/deadcode")
	build.Dir = filepath.Join(root, "ci")
	if out, err := build.CombinedOutput(); err != nil {
		fail(fmt.Errorf("building deadcode: %v\n%s", err, out))
	}
	runs, err := plan(root)
	if err != nil {
		fail(err)
	}
	results, err := runAll(tool, root, runs, runtime.NumCPU())
	if err != nil {
		fail(err)
	}
	for i, r := range runs {
		fmt.Fprintf(os.Stderr, "deadcheck: %s %s: %d unreachable, %d packages loaded\n", r.dir, strings.Join(r.env, " "), len(results[i].dead), len(results[i].loaded))
	}
	left := deadEverywhere(results)
	keys := make([]string, 0, len(left))
	for k := range left {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s: unreachable func %s\n", left[k], strings.SplitN(k, "#", 2)[1])
	}
	fmt.Printf("deadcheck: %d runs, %d unreachable functions\n", len(runs), len(keys))
	if len(keys) > 0 {
		os.Exit(1)
	}
}

// runAll does the runs, up to parallel at a time (one deadcode
// invocation spends much of its time on one CPU), and returns their
// results in the order of runs, or the first error a run met.
func runAll(tool, root string, runs []run, parallel int) ([]result, error) {
	results := make([]result, len(runs))
	var g errgroup.Group
	g.SetLimit(max(parallel, 1))
	for i, r := range runs {
		g.Go(func() error {
			dead, err := deadcode(tool, root, r)
			if err != nil {
				return err
			}
			loaded, err := loadedDirs(root, r)
			results[i] = result{dead, loaded}
			return err
		})
	}
	return results, g.Wait()
}

// plan returns the runs: the workspace's modules under each tag
// configuration, then each _asm generator module on its own.
func plan(root string) ([]run, error) {
	var pkgs []string
	out, err := exec.Command("go", "-C", root, "work", "edit", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("go work edit -json: %v", err)
	}
	var work struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(out, &work); err != nil {
		return nil, err
	}
	for _, u := range work.Use {
		pkgs = append(pkgs, u.DiskPath+"/...")
	}
	var runs []run
	for _, tags := range []string{"", "vgsim", "valgrind,vgsim", "purego"} {
		args := []string{"-test", "-json", "-filter", "github.com/vgcrypto/vg"}
		if tags != "" {
			args = append(args, "-tags", tags)
		}
		runs = append(runs, run{dir: root, args: append(args, pkgs...)})
	}
	mods, err := filepath.Glob(filepath.Join(root, "*", "_asm", "go.mod"))
	if err != nil {
		return nil, err
	}
	more, err := filepath.Glob(filepath.Join(root, "*", "*", "*", "_asm", "go.mod"))
	if err != nil {
		return nil, err
	}
	for _, m := range append(mods, more...) {
		runs = append(runs, run{dir: filepath.Dir(m), env: []string{"GOWORK=off"},
			args: []string{"-test", "-json", "-filter", "github.com/vgcrypto/vg", "./..."}})
	}
	return runs, nil
}

// deadcode runs the tool and returns the unreachable functions it found,
// keyed by file#name, with file:line as the value.
func deadcode(tool, root string, r run) (map[string]string, error) {
	cmd := exec.Command(tool, r.args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("deadcode %s in %s: %v\n%s", strings.Join(r.args, " "), r.dir, err, stderr.String())
	}
	var pkgs []deadPackage
	if len(bytes.TrimSpace(out)) > 0 {
		if err := json.Unmarshal(out, &pkgs); err != nil {
			return nil, fmt.Errorf("deadcode output in %s: %v", r.dir, err)
		}
	}
	dead := map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.Funcs {
			if f.Generated {
				continue
			}
			if strings.HasPrefix(f.Name, "Example") && strings.HasSuffix(f.Position.File, "_test.go") {
				continue // an example without output is documentation, compiled only
			}
			abs := f.Position.File
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(r.dir, abs)
			}
			file, err := filepath.Rel(root, abs)
			if err != nil || strings.HasPrefix(file, "..") {
				continue // outside the repository (the module cache)
			}
			dead[file+"#"+f.Name] = fmt.Sprintf("%s:%d", file, f.Position.Line)
		}
	}
	return dead, nil
}

// result is what one run found: its unreachable functions (file#name to
// file:line) and the folders of the packages it loaded (relative to the
// repository root), in which every other function was reached.
type result struct {
	dead   map[string]string
	loaded map[string]bool
}

// deadEverywhere returns the functions that every run loading their
// package found unreachable.
func deadEverywhere(results []result) map[string]string {
	left := map[string]string{}
	for _, r := range results {
		for k, v := range r.dead {
			left[k] = v
		}
	}
	for k := range left {
		dir := filepath.Dir(strings.SplitN(k, "#", 2)[0])
		for _, r := range results {
			if _, dead := r.dead[k]; r.loaded[dir] && !dead {
				delete(left, k)
				break
			}
		}
	}
	return left
}

// loadedDirs returns the folders, relative to root, of the packages run r
// loads: its patterns, their tests and everything they import.
func loadedDirs(root string, r run) (map[string]bool, error) {
	args := []string{"list", "-deps", "-test", "-f", "{{.Dir}}"}
	var pats []string
	for i := 0; i < len(r.args); i++ {
		switch a := r.args[i]; {
		case a == "-tags":
			args = append(args, "-tags", r.args[i+1])
			i++
		case a == "-filter":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pats = append(pats, a)
		}
	}
	cmd := exec.Command("go", append(args, pats...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %v", r.dir, err)
	}
	dirs := map[string]bool{}
	for _, d := range strings.Fields(string(out)) {
		if rel, err := filepath.Rel(root, d); err == nil && !strings.HasPrefix(rel, "..") {
			dirs[rel] = true
		}
	}
	return dirs, nil
}

// repoRoot returns the top of the git checkout around the current folder.
func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("not in a git checkout: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "deadcheck:", err)
	os.Exit(2)
}
