package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mutant(t *testing.T, name string) Mutant {
	t.Helper()
	for _, m := range mutants {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no defect %s", name)
	return Mutant{}
}

// TestEveryKindSeeded: the set has a defect of each kind a check claims to
// catch, and the scalar annotation lie in each algorithm.
func TestEveryKindSeeded(t *testing.T) {
	kinds := map[string]int{}
	algs := map[string]bool{}
	for _, m := range mutants {
		kinds[m.Kind]++
		if m.Kind == "annotation lie (scalar)" {
			algs[strings.SplitN(m.Name, "-", 2)[0]] = true
		}
		assert.NotEmpty(t, m.Want, m.Name)
	}
	for _, k := range []string{"arch gate", "secret branch", "secret address", "variable-time instruction", "missing wipe",
		"annotation lie (pointer)", "annotation lie (scalar)", "out-of-bounds masked store", "wrong only for rare inputs (proofs)"} {
		assert.Positive(t, kinds[k], "no defect of kind %q", k)
	}
	assert.Equal(t, map[string]bool{"rsa": true, "aesgcm": true, "chacha": true}, algs)
}

// TestEditsApply checks every defect's and every -disable's replacements
// against the tree as it is, without running anything: each text to
// replace occurs exactly once (after the defect's earlier edits), so a
// changed generator shows here first.
func TestEditsApply(t *testing.T) {
	root, err := repoRoot()
	require.NoError(t, err)
	check := func(what string, edits []Edit) {
		files := map[string][]byte{}
		for _, e := range edits {
			b, ok := files[e.File]
			if !ok {
				b, err = os.ReadFile(filepath.Join(root, e.File))
				require.NoError(t, err, what)
			}
			if !assert.Equal(t, 1, bytes.Count(b, []byte(e.Old)), "%s: %s: the text to replace must occur once:\n%s", what, e.File, e.Old) {
				return
			}
			files[e.File] = bytes.Replace(b, []byte(e.Old), []byte(e.New), 1)
		}
	}
	for _, m := range mutants {
		check(m.Name, m.Edits)
	}
	for name, edits := range disables {
		check("-disable "+name, edits)
	}
}

// TestDisabledCheckIsNoticed is the command's own check: with asmgen's
// taint check switched off in the copy, the secret branch it claims is
// missed and the command fails; with it on, the same defect is caught.
func TestDisabledCheckIsNoticed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the rsa generator twice on a scratch copy")
	}
	m := mutant(t, "rsa-secret-branch")
	var out bytes.Buffer
	ok, err := run([]Mutant{m}, disables["taint"], false, &out)
	require.NoError(t, err, out.String())
	assert.False(t, ok, "with the taint check off, the command must fail:\n%s", out.String())
	assert.Contains(t, out.String(), "MISSED")
	t.Log(out.String())

	out.Reset()
	ok, err = run([]Mutant{m}, nil, false, &out)
	require.NoError(t, err, out.String())
	assert.True(t, ok, out.String())
	assert.Contains(t, out.String(), "caught")
}
