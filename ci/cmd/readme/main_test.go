package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

func TestRegenerate(t *testing.T) {
	const text = "# title\n<!-- BEGIN GENERATED: a -->\nold a\n<!-- END GENERATED -->\ntext\n<!-- BEGIN GENERATED: benchcmp -x 'y z' -->\n<!-- END GENERATED -->\nend\n"
	var specs []string
	gen := func(spec string) (string, error) {
		specs = append(specs, spec)
		if spec == "a" {
			return "old a", nil // without its newline: one is added
		}
		return "new b\n", nil
	}
	out, stale, err := regenerate(text, gen)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "benchcmp -x 'y z'"}, specs)
	assert.Equal(t, []string{"benchcmp -x 'y z'"}, stale)
	assert.Equal(t, strings.Replace(text, "-->\n<!-- END", "-->\nnew b\n<!-- END", 1), out)

	again, stale, err := regenerate(out, gen)
	require.NoError(t, err)
	assert.Empty(t, stale)
	assert.Equal(t, out, again)

	for _, bad := range []string{
		"<!-- BEGIN GENERATED: a -->\nno end\n",
		"<!-- END GENERATED -->\n",
		"<!-- BEGIN GENERATED: a\n<!-- END GENERATED -->\n",
		"<!-- BEGIN GENERATED: a -->\n<!-- BEGIN GENERATED: b -->\n<!-- END GENERATED -->\n",
	} {
		_, _, err := regenerate(bad, gen)
		assert.Error(t, err, bad)
	}
}

func TestSplitArgs(t *testing.T) {
	w, err := splitArgs(`-load f.txt  -pair '*=stdlib' -bench '^(Seal|Open)/A B/'`)
	require.NoError(t, err)
	assert.Equal(t, []string{"-load", "f.txt", "-pair", "*=stdlib", "-bench", "^(Seal|Open)/A B/"}, w)
	_, err = splitArgs("'open")
	assert.Error(t, err)
}

func TestBackendsTable(t *testing.T) {
	rows := []declared{
		{decl: cpufeat.Backend{Algorithm: cpufeat.RSA, Name: "ifma", Requires: cpufeat.Of(cpufeat.AVX512IFMA, cpufeat.ADX), GOARCHes: []string{"amd64"}}},
		{decl: cpufeat.Backend{Algorithm: cpufeat.RSA, Name: "adx", Requires: cpufeat.Of(cpufeat.ADX), GOARCHes: []string{"amd64"}}, built: true, doc: "kernels"},
		{decl: cpufeat.Backend{Algorithm: cpufeat.RSA, Name: "stdlib", Requires: cpufeat.Of(cpufeat.StdAES), GOARCHes: []string{"arm64", "s390x"}, Doc: "crypto/rsa"}},
		{decl: cpufeat.Backend{Algorithm: cpufeat.RSA, Name: "generic"}, built: true, doc: "a | b"},
	}
	got, err := backendsTable(rows)
	if !asmBuild {
		require.Error(t, err)
		return
	}
	require.NoError(t, err)
	assert.Equal(t, "| algorithm | backend | requires | built for | how it works |\n| --- | --- | --- | --- | --- |\n"+
		"| rsa | `ifma` | adx, avx512ifma | not yet | declared in cpufeat; not implemented in this version |\n"+
		"| rsa | `adx` | adx | amd64 | kernels |\n"+
		"| rsa | `stdlib` | stdaes | arm64, s390x | crypto/rsa |\n"+
		"| rsa | `generic` | nothing | every GOARCH | a \\| b |\n", got)

	rows[3].doc = ""
	_, err = backendsTable(rows)
	assert.ErrorContains(t, err, `rsa backend "generic" has no Doc`)
}

// TestDeclaredBackends checks the table of this build against cpufeat: every
// declared backend once, in declared order, and every built one documented.
func TestDeclaredBackends(t *testing.T) {
	rows := declaredBackends()
	i := 0
	for _, alg := range cpufeat.Algorithms() {
		for _, d := range cpufeat.Backends(alg) {
			require.Less(t, i, len(rows))
			assert.Equal(t, d, rows[i].decl)
			if rows[i].built {
				assert.NotEmpty(t, rows[i].doc, "%s/%s", alg, d.Name)
			}
			i++
		}
	}
	assert.Len(t, rows, i)
}

func TestReadmes(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"README.md":        "# root\n",
		"mod/README.md":    "x\n<!-- BEGIN GENERATED: backends -->\n<!-- END GENERATED -->\n",
		"other/README.md":  "no parts\n",
		"deep/a/README.md": "<!-- BEGIN GENERATED: backends -->\n<!-- END GENERATED -->\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	files, err := readmes(root)
	require.NoError(t, err)
	assert.Equal(t, []string{"README.md", "mod/README.md"}, files)

	for _, tc := range []struct{ dir, svg, want string }{
		{".", "ci/results/x/a.svg", "ci/results/x/a.svg"},
		{"aesgcm", "ci/results/x/a.svg", "../ci/results/x/a.svg"},
	} {
		got, err := imageLink(tc.dir, tc.svg)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
}
