package main

import (
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/exp/apidiff"
	"golang.org/x/mod/semver"
	"golang.org/x/tools/go/packages"
)

// trees holds the checkout at commits, extracted with git archive, so that
// the API of a module can be type-checked as it was released.
type trees struct {
	r    *repo
	tmp  string
	dirs map[string]string
}

func (t *trees) close() {
	if t.tmp != "" {
		os.RemoveAll(t.tmp)
	}
}

// at returns a directory holding the whole checkout at commit.
func (t *trees) at(commit string) (string, error) {
	if d, ok := t.dirs[commit]; ok {
		return d, nil
	}
	if t.tmp == "" {
		tmp, err := os.MkdirTemp("", "vg-release-trees-")
		if err != nil {
			return "", err
		}
		t.tmp, t.dirs = tmp, map[string]string{}
	}
	d := filepath.Join(t.tmp, strconv.Itoa(len(t.dirs)))
	if err := os.Mkdir(d, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("sh", "-c", `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, "sh", t.r.top, commit, d)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("extracting %.12s: %v: %s", commit, err, out)
	}
	t.dirs[commit] = d
	return d, nil
}

// api type-checks the packages of a module at a commit that any vg module
// may import: all but commands and the module's own internal packages.
func (t *trees) api(dir, commit string) (*apidiff.Module, error) {
	root, err := t.at(commit)
	if err != nil {
		return nil, err
	}
	modPath := t.r.prefix + "/" + dir
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if _, err := os.Stat(filepath.Join(root, "go.work")); err == nil {
		env = append(os.Environ(), "GOWORK="+filepath.Join(root, "go.work"))
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes,
		Dir:  filepath.Join(root, filepath.FromSlash(dir)),
		Env:  env,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("loading %s at %.12s: %w", dir, commit, err)
	}
	m := &apidiff.Module{Path: modPath}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("loading %s at %.12s: %v", p.PkgPath, commit, p.Errors[0])
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, modPath), "/")
		if p.Name == "main" || slices.Contains(strings.Split(rel, "/"), "internal") {
			continue
		}
		m.Packages = append(m.Packages, p.Types)
	}
	slices.SortFunc(m.Packages, func(a, b *types.Package) int { return strings.Compare(a.Path(), b.Path()) })
	return m, nil
}

// diff reports the API changes of a module from one commit to another.
func (t *trees) diff(dir, oldCommit, newCommit string) (apidiff.Report, error) {
	old, err := t.api(dir, oldCommit)
	if err != nil {
		return apidiff.Report{}, err
	}
	nw, err := t.api(dir, newCommit)
	if err != nil {
		return apidiff.Report{}, err
	}
	return apidiff.ModuleChanges(old, nw), nil
}

// An apiChange is the kind of change a report holds, in rising order.
type apiChange int

const (
	apiSame         apiChange = iota // nothing an importer can see
	apiAdded                         // compatible additions
	apiIncompatible                  // a change that can break an importer
)

func (c apiChange) String() string {
	return [...]string{"no API change", "compatible API additions", "incompatible API change"}[c]
}

func kind(rep apidiff.Report) apiChange {
	k := apiSame
	for _, c := range rep.Changes {
		if !c.Compatible {
			return apiIncompatible
		}
		k = apiAdded
	}
	return k
}

// parts splits a canonical vX.Y.Z.
func parts(v string) (major, minor, patch int) {
	fs := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	major, _ = strconv.Atoi(fs[0])
	minor, _ = strconv.Atoi(fs[1])
	patch, _ = strconv.Atoi(fs[2])
	return
}

// next returns the version after prev for a change of kind k: at v0 an
// incompatible change takes the minor step, Go's convention for v0, since
// a major step needs a new module path.
func next(dir, prev string, k apiChange) (string, error) {
	major, minor, patch := parts(prev)
	switch {
	case k == apiIncompatible && major > 0:
		return "", fmt.Errorf("%s: an incompatible API change after %s needs major version v%d, which Go gives a new module path (%s/v%d): not supported",
			dir, prev, major+1, dir, major+1)
	case k >= apiAdded:
		return fmt.Sprintf("v%d.%d.0", major, minor+1), nil
	}
	return fmt.Sprintf("v%d.%d.%d", major, minor, patch+1), nil
}

// stepAllows reports whether going from prev to nxt is a step large enough
// for a change of kind k.
func stepAllows(prev, nxt string, k apiChange) bool {
	if semver.Compare(nxt, prev) <= 0 {
		return false
	}
	pmaj, pmin, _ := parts(prev)
	nmaj, nmin, _ := parts(nxt)
	minorStep := nmaj > pmaj || nmin > pmin
	switch k {
	case apiIncompatible:
		if pmaj == 0 {
			return minorStep
		}
		return nmaj > pmaj
	case apiAdded:
		return minorStep
	}
	return true
}
