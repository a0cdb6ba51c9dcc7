package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

// TestWriteBackends checks the table against this build: every declared
// backend listed once, built ones as the modules list them, one pick per
// algorithm, and that pick the best available built backend.
func TestWriteBackends(t *testing.T) {
	built := builtBackends()
	var b strings.Builder
	writeBackends(&b, built)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Greater(t, len(lines), 2)
	rows := map[string][]string{}
	picks := map[string]string{}
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		require.GreaterOrEqual(t, len(f), 5, l)
		rows[f[0]+"/"+f[1]] = f
		if f[4] == "<-" {
			assert.Empty(t, picks[f[0]], "two picks for %s", f[0])
			picks[f[0]] = f[1]
		}
	}
	for _, alg := range cpufeat.Algorithms() {
		names := map[string]cpufeat.BackendInfo{}
		for _, bi := range built[alg] {
			names[bi.Name] = bi
		}
		for _, d := range cpufeat.Backends(alg) {
			f, ok := rows[string(alg)+"/"+d.Name]
			require.True(t, ok, "%s/%s missing", alg, d.Name)
			bi, isBuilt := names[d.Name]
			assert.Equal(t, yesNo(isBuilt), f[2], d.Name)
			if isBuilt {
				assert.Equal(t, yesNo(bi.Available), f[3], d.Name)
			}
		}
		require.NotEmpty(t, picks[string(alg)], alg)
		assert.True(t, names[picks[string(alg)]].Available, "%s picks %s, which cannot run here", alg, picks[string(alg)])
	}
}
