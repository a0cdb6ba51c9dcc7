package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// A repo is a checkout of vg as HEAD holds it: its modules and its records.
type repo struct {
	top      string          // the checkout's top directory
	prefix   string          // the module path of the checkout's root: github.com/vgcrypto/vg
	mods     map[string]*mod // every module of the tree by directory, testdata excluded
	released []string        // the released modules' directories, required ones first
	records  []record        // ci/releases.txt, oldest first
}

// A mod is one module at HEAD.
type mod struct {
	dir  string // relative to the checkout, slash-separated
	path string // module path
	file *modfile.File
}

// A record is one release.
type record struct {
	dir, version, commit, hash string
	line                       int
}

func (rec record) tag() string { return rec.dir + "/" + rec.version }

func (rec record) String() string { return rec.dir + " " + rec.version }

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

func (r *repo) git(args ...string) (string, error) { return gitOut(r.top, args...) }

// fileAt returns a file's content at a commit.
func (r *repo) fileAt(commit, name string) ([]byte, error) {
	out, err := r.git("show", commit+":"+name)
	return []byte(out), err
}

// openRepo reads the modules at HEAD and the records. The released modules
// are rootDirs and every module of the tree they require.
func openRepo(top string, rootDirs []string) (*repo, error) {
	r := &repo{top: top, mods: map[string]*mod{}}
	list, err := r.git("ls-tree", "-r", "--name-only", "HEAD")
	if err != nil {
		return nil, err
	}
	for _, name := range strings.Split(strings.TrimSpace(list), "\n") {
		if path.Base(name) != "go.mod" || slices.Contains(strings.Split(name, "/"), "testdata") {
			continue
		}
		data, err := r.fileAt("HEAD", name)
		if err != nil {
			return nil, err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, err
		}
		dir := path.Dir(name)
		r.mods[dir] = &mod{dir: dir, path: f.Module.Mod.Path, file: f}
	}
	if len(rootDirs) == 0 {
		return nil, fmt.Errorf("no root modules")
	}
	first, ok := r.mods[rootDirs[0]]
	if !ok {
		return nil, fmt.Errorf("no module %s at HEAD", rootDirs[0])
	}
	r.prefix = strings.TrimSuffix(first.path, "/"+rootDirs[0])
	for _, m := range r.mods {
		if m.path != r.prefix+"/"+m.dir {
			return nil, fmt.Errorf("%s/go.mod: module %s, want %s/%s", m.dir, m.path, r.prefix, m.dir)
		}
	}
	if r.released, err = r.closure(rootDirs); err != nil {
		return nil, err
	}
	if r.records, err = r.readRecords(); err != nil {
		return nil, err
	}
	return r, nil
}

// sibling returns the directory of a vg module path, or "" for another module.
func (r *repo) sibling(modPath string) string {
	if dir, ok := strings.CutPrefix(modPath, r.prefix+"/"); ok {
		return dir
	}
	return ""
}

// siblingRequires lists the vg modules a go.mod requires, by directory.
func (r *repo) siblingRequires(f *modfile.File) []*modfile.Require {
	var reqs []*modfile.Require
	for _, req := range f.Require {
		if r.sibling(req.Mod.Path) != "" {
			reqs = append(reqs, req)
		}
	}
	return reqs
}

// closure returns rootDirs and every module they require, transitively,
// ordered so that a module comes after every module it requires.
func (r *repo) closure(rootDirs []string) ([]string, error) {
	var order []string
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(dir, from string) error
	visit = func(dir, from string) error {
		switch state[dir] {
		case 1:
			return fmt.Errorf("module cycle through %s", dir)
		case 2:
			return nil
		}
		m, ok := r.mods[dir]
		if !ok {
			return fmt.Errorf("%s requires %s/%s, which is not a module of the tree", from, r.prefix, dir)
		}
		state[dir] = 1
		var deps []string
		for _, req := range r.siblingRequires(m.file) {
			deps = append(deps, r.sibling(req.Mod.Path))
		}
		slices.Sort(deps)
		for _, d := range deps {
			if err := visit(d, dir); err != nil {
				return err
			}
		}
		state[dir] = 2
		order = append(order, dir)
		return nil
	}
	sorted := slices.Sorted(slices.Values(rootDirs))
	for _, d := range sorted {
		if err := visit(d, "the roots"); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// readRecords parses ci/releases.txt at HEAD's working tree: lines
// "dir version commit hash", # comments and blank lines ignored.
func (r *repo) readRecords() ([]record, error) {
	f, err := os.Open(filepath.Join(r.top, recordsFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 4 {
			return nil, fmt.Errorf("%s:%d: want \"module-dir version commit h1:hash\", have %q", recordsFile, n, line)
		}
		rec := record{dir: fs[0], version: fs[1], commit: fs[2], hash: fs[3], line: n}
		if !semver.IsValid(rec.version) || semver.Canonical(rec.version) != rec.version || semver.Prerelease(rec.version) != "" {
			return nil, fmt.Errorf("%s:%d: %q is not a release version (vMAJOR.MINOR.PATCH)", recordsFile, n, rec.version)
		}
		if len(rec.commit) != 40 || strings.Trim(rec.commit, "0123456789abcdef") != "" {
			return nil, fmt.Errorf("%s:%d: %q is not a full commit hash", recordsFile, n, rec.commit)
		}
		if !strings.HasPrefix(rec.hash, "h1:") {
			return nil, fmt.Errorf("%s:%d: %q is not an h1: hash", recordsFile, n, rec.hash)
		}
		recs = append(recs, rec)
	}
	return recs, sc.Err()
}

// latest returns a module's last release, or nil.
func (r *repo) latest(dir string) *record {
	var last *record
	for i := range r.records {
		if rec := &r.records[i]; rec.dir == dir && (last == nil || semver.Compare(rec.version, last.version) > 0) {
			last = rec
		}
	}
	return last
}

// appendRecords adds lines to ci/releases.txt, creating it with its header.
func (r *repo) appendRecords(recs []record) error {
	name := filepath.Join(r.top, recordsFile)
	var buf bytes.Buffer
	if _, err := os.Stat(name); os.IsNotExist(err) {
		buf.WriteString(recordsHeader)
	}
	for _, rec := range recs {
		fmt.Fprintf(&buf, "%s %s %s %s\n", rec.dir, rec.version, rec.commit, rec.hash)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

const recordsHeader = `# vg's releases, oldest first, written by go run ./ci/cmd/release -w:
# module directory, version, the commit released, and go.sum's h1: hash of the
# module zip made from that commit. The tags (DIR/VERSION) are made from it with
# go run ./ci/cmd/release tags; ci/test's proxy step serves and checks it.
`
