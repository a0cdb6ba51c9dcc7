package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// check verifies every recorded release and that HEAD is released. It
// reports every problem it finds, one per line, and fails if there is one.
func (r *repo) check(w io.Writer) error {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	released := map[string]bool{} // "dir version"
	for _, rec := range r.records {
		released[rec.String()] = true
	}
	prevOf := map[string]*record{}
	t := &trees{r: r}
	defer t.close()
	for i := range r.records {
		rec := &r.records[i]
		where := fmt.Sprintf("%s:%d: %s", recordsFile, rec.line, rec)
		if _, err := r.git("cat-file", "-e", rec.commit+"^{commit}"); err != nil {
			fail("%s: commit %.12s is not in this history", where, rec.commit)
			continue
		}
		if h, err := r.hashAt(rec.dir, rec.version, rec.commit); err != nil {
			fail("%s: %v", where, err)
			continue
		} else if h != rec.hash {
			fail("%s: the module at %.12s hashes to %s, not the recorded %s", where, rec.commit, h, rec.hash)
		}
		data, err := r.fileAt(rec.commit, rec.dir+"/go.mod")
		if err != nil {
			fail("%s: %v", where, err)
			continue
		}
		f, err := modfile.Parse(rec.dir+"/go.mod", data, nil)
		if err != nil {
			fail("%s: %v", where, err)
			continue
		}
		for _, req := range r.siblingRequires(f) {
			dep := r.sibling(req.Mod.Path) + " " + req.Mod.Version
			if !released[dep] {
				fail("%s: its go.mod requires %s, a version never released", where, dep)
			}
		}
		prev := prevOf[rec.dir]
		prevOf[rec.dir] = rec
		if prev == nil {
			continue
		}
		if semver.Compare(rec.version, prev.version) <= 0 {
			fail("%s: not above the earlier release %s", where, prev.version)
			continue
		}
		rep, err := t.diff(rec.dir, prev.commit, rec.commit)
		if err != nil {
			fail("%s: %v", where, err)
			continue
		}
		if k := kind(rep); !stepAllows(prev.version, rec.version, k) {
			fail("%s: %s since %s needs a larger step:\n%s", where, k, prev.version, indent(rep.String()))
		}
	}

	for _, dir := range r.released {
		last := r.latest(dir)
		if last == nil {
			fail("%s: never released (go run ./ci/cmd/release -w)", dir)
			continue
		}
		h, err := r.hashAt(dir, last.version, "HEAD")
		if err != nil {
			fail("%s: %v", dir, err)
			continue
		}
		if h != last.hash {
			fail("%s: changed since its release %s (%.12s) and not released again (go run ./ci/cmd/release -w)", dir, last.version, last.commit)
			continue
		}
		fmt.Fprintf(w, "%-22s %-7s released at %.12s, as HEAD has it\n", dir, last.version, last.commit)
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t")
}
