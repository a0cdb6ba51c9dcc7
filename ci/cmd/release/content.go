package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

// zipAt writes the module zip of a module directory at a commit, as the go
// command would download it for that version, to the file name.
func (r *repo) zipAt(dir, version, commit, name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	m := module.Version{Path: r.prefix + "/" + dir, Version: version}
	if err := zip.CreateFromVCS(f, m, r.top, commit, dir); err != nil {
		f.Close()
		return fmt.Errorf("zip of %s at %.12s: %w", m, commit, err)
	}
	return f.Close()
}

// hashAt returns the h1: hash go.sum would record for a module directory at
// a commit, released as version.
func (r *repo) hashAt(dir, version, commit string) (string, error) {
	tmp, err := os.MkdirTemp("", "vg-release-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	name := filepath.Join(tmp, "m.zip")
	if err := r.zipAt(dir, version, commit, name); err != nil {
		return "", err
	}
	return dirhash.HashZip(name, dirhash.Hash1)
}

// proxy writes every recorded release into dir in the layout the go command
// reads with GOPROXY=file://dir: MODULE/@v/list, VERSION.info, .mod, .zip.
// Each zip is made from its commit and must hash to what was recorded.
func (r *repo) proxy(dir string) error {
	lists := map[string][]string{}
	for _, rec := range r.records {
		modPath := r.prefix + "/" + rec.dir
		esc, err := module.EscapePath(modPath)
		if err != nil {
			return err
		}
		vdir := filepath.Join(dir, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(vdir, 0o755); err != nil {
			return err
		}
		base := filepath.Join(vdir, rec.version)
		if err := r.zipAt(rec.dir, rec.version, rec.commit, base+".zip"); err != nil {
			return err
		}
		h, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
		if err != nil {
			return err
		}
		if h != rec.hash {
			return fmt.Errorf("%s:%d: %s at %.12s hashes to %s, not the recorded %s", recordsFile, rec.line, rec, rec.commit, h, rec.hash)
		}
		gomod, err := r.fileAt(rec.commit, rec.dir+"/go.mod")
		if err != nil {
			return err
		}
		if err := os.WriteFile(base+".mod", gomod, 0o644); err != nil {
			return err
		}
		when, err := r.git("show", "-s", "--format=%cI", rec.commit)
		if err != nil {
			return err
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(when))
		if err != nil {
			return err
		}
		info, err := json.Marshal(struct {
			Version string
			Time    time.Time
		}{rec.version, t.UTC()})
		if err != nil {
			return err
		}
		if err := os.WriteFile(base+".info", info, 0o644); err != nil {
			return err
		}
		lists[vdir] = append(lists[vdir], rec.version)
	}
	for vdir, versions := range lists {
		if err := os.WriteFile(filepath.Join(vdir, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}
