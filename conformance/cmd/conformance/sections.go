package main

import (
	"errors"
	"fmt"

	"github.com/vgcrypto/vg/conformance/aeadcontract"
	"github.com/vgcrypto/vg/conformance/agree"
	"github.com/vgcrypto/vg/conformance/wycheproof"
)

// sections is the runner's table: one entry per algorithm, in report order.
// To run an algorithm's backends, set its run; for an AEAD,
// aeadRun(backends, cfg) does the whole job.
var sections = []section{
	{name: "aesgcm", globs: []string{wycheproof.GlobAESGCM}},
	{name: "chacha20poly1305", globs: []string{wycheproof.GlobChaCha20Poly1305}},
	{name: "xchacha20poly1305", globs: []string{wycheproof.GlobXChaCha20Poly1305}},
	{name: "rsa", globs: wycheproof.RSAGlobs()},
}

// setRun sets the run of the section called name. Each algorithm's file calls
// it from init; a name missing from the table is a bug, so it panics.
func setRun(name string, run func([]wycheproof.VectorFile) ([]row, error)) {
	for i := range sections {
		if sections[i].name == name {
			sections[i].run = run
			return
		}
	}
	panic("conformance: no section " + name)
}

// aeadUnderTest is one implementation an AEAD section checks.
type aeadUnderTest struct {
	// impl names the backend and builds it for the agreement driver (with
	// its gather seal and encryptor, if any).
	impl agree.Impl
	// vectors builds it for a Wycheproof test.
	vectors aeadcontract.NewVectorAEAD
}

// aeadRun returns the run of an AEAD section: every backend runs every AEAD
// file of the section (a row each), then all backends run the agreement
// driver together (in its short form, to keep the runner fast), which sets
// each row's agreement or adds a failed row naming the disagreement.
// backends is called when the section runs.
func aeadRun(backends func() ([]aeadUnderTest, error), cfg agree.Config) func([]wycheproof.VectorFile) ([]row, error) {
	return func(files []wycheproof.VectorFile) ([]row, error) {
		bs, err := backends()
		if err != nil {
			return nil, err
		}
		if len(bs) == 0 {
			return nil, errors.New("no backends")
		}
		var rows []row
		impls := make([]agree.Impl, len(bs))
		for i, b := range bs {
			impls[i] = b.impl
			for _, vf := range files {
				f, ok := vf.(*wycheproof.AEADFile)
				if !ok {
					return rows, fmt.Errorf("%s is not an AEAD file (%s)", vf.Info().Name, vf.Info().Schema)
				}
				res := aeadcontract.RunVectors(f, b.vectors)
				r := row{backend: b.impl.Name, file: f.Name, pass: res.Pass, fail: res.Fail, skip: res.Skip}
				if len(res.Failures) > 0 {
					r.err = fmt.Errorf("%d failures, first: %s", len(res.Failures), res.Failures[0])
				}
				rows = append(rows, r)
			}
		}
		cfg.Short = true
		if _, err := agree.Check(cfg, impls...); err != nil {
			var d *agree.Disagreement
			name := "agreement"
			if errors.As(err, &d) {
				name = d.Impl
			}
			rows = append(rows, row{backend: name, agreement: "FAIL", err: err})
			return rows, nil
		}
		for i := range rows {
			rows[i].agreement = "ok"
		}
		return rows, nil
	}
}
