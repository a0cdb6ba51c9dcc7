package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// A step is one planned release.
type step struct {
	dir, version string
	prev         *record // nil for a first release
	why          string
}

// plan lists the releases HEAD needs, required modules first, and the version
// every released module has once they are made.
func (r *repo) plan(t *trees) ([]step, map[string]string, error) {
	versions := map[string]string{}
	var steps []step
	for _, dir := range r.released {
		var stale []string
		for _, req := range r.siblingRequires(r.mods[dir].file) {
			if want := versions[r.sibling(req.Mod.Path)]; req.Mod.Version != want {
				stale = append(stale, fmt.Sprintf("requires %s %s", r.sibling(req.Mod.Path), want))
			}
		}
		prev := r.latest(dir)
		if prev == nil {
			versions[dir] = "v0.1.0"
			steps = append(steps, step{dir: dir, version: "v0.1.0", why: "first release"})
			continue
		}
		h, err := r.hashAt(dir, prev.version, "HEAD")
		if err != nil {
			return nil, nil, err
		}
		if h == prev.hash && len(stale) == 0 {
			versions[dir] = prev.version
			continue
		}
		rep, err := t.diff(dir, prev.commit, "HEAD")
		if err != nil {
			return nil, nil, err
		}
		k := kind(rep)
		v, err := next(dir, prev.version, k)
		if err != nil {
			return nil, nil, fmt.Errorf("%w\n%s", err, rep)
		}
		why := k.String()
		if h == prev.hash {
			why = strings.Join(stale, ", ")
		}
		versions[dir] = v
		steps = append(steps, step{dir: dir, version: v, prev: prev, why: why})
	}
	return steps, versions, nil
}

// release prints the plan and, with write, makes it.
func (r *repo) release(w io.Writer, write bool) error {
	t := &trees{r: r}
	defer t.close()
	steps, versions, err := r.plan(t)
	if err != nil {
		return err
	}
	if len(steps) == 0 {
		fmt.Fprintln(w, "every released module is released as HEAD has it")
		return nil
	}
	for _, s := range steps {
		from := "(new)"
		if s.prev != nil {
			from = s.prev.version
		}
		fmt.Fprintf(w, "%-22s %-7s -> %-7s %s\n", s.dir, from, s.version, s.why)
	}
	if !write {
		fmt.Fprintln(w, "(a plan: go run ./ci/cmd/release -w makes these releases)")
		return nil
	}
	if status, err := r.git("status", "--porcelain", "--untracked-files=no"); err != nil {
		return err
	} else if status != "" {
		return fmt.Errorf("the tree has uncommitted changes; release what is committed:\n%s", status)
	}
	changed, err := r.requireVersions(versions)
	if err != nil {
		return err
	}
	var names []string
	for _, s := range steps {
		names = append(names, s.dir+" "+s.version)
	}
	if len(changed) > 0 {
		msg := "release: go.mod files require the vg modules at the versions released next\n\n" +
			"Released as " + strings.Join(names, ", ") + ".\n"
		if _, err := r.git(append([]string{"commit", "-q", "-m", msg, "--"}, changed...)...); err != nil {
			return err
		}
	}
	head, err := r.git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	var recs []record
	for _, s := range steps {
		h, err := r.hashAt(s.dir, s.version, "HEAD")
		if err != nil {
			return err
		}
		recs = append(recs, record{dir: s.dir, version: s.version, commit: strings.TrimSpace(head), hash: h})
	}
	if err := r.appendRecords(recs); err != nil {
		return err
	}
	if _, err := r.git("add", recordsFile); err != nil {
		return err
	}
	if _, err := r.git("commit", "-q", "-m", "release: record "+strings.Join(names, ", "), "--", recordsFile); err != nil {
		return err
	}
	fmt.Fprintf(w, "recorded in %s at %.12s; go run ./ci/cmd/release tags makes the tags\n", recordsFile, head)
	return nil
}

// requireVersions rewrites every go.mod of the tree that requires a released
// module at another version than versions gives, and returns their names.
func (r *repo) requireVersions(versions map[string]string) ([]string, error) {
	var changed []string
	for _, m := range sortedMods(r.mods) {
		name := filepath.Join(r.top, filepath.FromSlash(m.dir), "go.mod")
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, err
		}
		for _, req := range r.siblingRequires(f) {
			if v, ok := versions[r.sibling(req.Mod.Path)]; ok && req.Mod.Version != v {
				if err := f.AddRequire(req.Mod.Path, v); err != nil {
					return nil, err
				}
			}
		}
		out, err := f.Format()
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(out, data) {
			if err := os.WriteFile(name, out, 0o644); err != nil {
				return nil, err
			}
			changed = append(changed, m.dir+"/go.mod")
		}
	}
	return changed, nil
}

func sortedMods(mods map[string]*mod) []*mod {
	out := slices.Collect(maps.Values(mods))
	slices.SortFunc(out, func(a, b *mod) int { return strings.Compare(a.dir, b.dir) })
	return out
}

// tags creates the tag of every recorded release that has none, and fails
// on a tag that names another commit.
func (r *repo) tags(w io.Writer) error {
	for _, rec := range r.records {
		have, err := r.git("tag", "--list", rec.tag())
		if err != nil {
			return err
		}
		if strings.TrimSpace(have) != "" {
			at, err := r.git("rev-parse", rec.tag()+"^{commit}")
			if err != nil {
				return err
			}
			if strings.TrimSpace(at) != rec.commit {
				return fmt.Errorf("tag %s names %.12s, but %s:%d records %.12s", rec.tag(), at, recordsFile, rec.line, rec.commit)
			}
			continue
		}
		if _, err := r.git("tag", rec.tag(), rec.commit); err != nil {
			return err
		}
		fmt.Fprintf(w, "tagged %s at %.12s\n", rec.tag(), rec.commit)
	}
	return nil
}
