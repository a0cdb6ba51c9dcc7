package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/conformance/prove"
)

const repoRoot = "../../.."

// TestKeysFollowWhatAProofProves checks that a proof's key is the same on
// every computation and changes with the generated file, the function and
// the proof's statement, and differs between proofs.
func TestKeysFollowWhatAProofProves(t *testing.T) {
	rows, err := prove.Rows(repoRoot)
	require.NoError(t, err)
	ks, err := keys(repoRoot, rows)
	require.NoError(t, err)
	again, err := keys(repoRoot, rows)
	require.NoError(t, err)
	require.Equal(t, ks, again)
	seen := map[string]string{}
	for name, k := range ks {
		require.NotContains(t, seen, k, "%s and %s share a key", name, seen[k])
		seen[k] = name
	}

	// The same rows read from a copy of the root whose first file differs
	// in one byte: every key of that file changes, no other.
	var first prove.Row
	for _, r := range rows {
		if r.Proof != nil {
			first = r
			break
		}
	}
	tmp := t.TempDir()
	for _, g := range prove.Generated {
		src, err := os.ReadFile(filepath.Join(repoRoot, g.File))
		require.NoError(t, err)
		if g.File == first.File {
			src = append(src, '\n')
		}
		require.NoError(t, os.MkdirAll(filepath.Join(tmp, filepath.Dir(g.File)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(tmp, g.File), src, 0o644))
	}
	// The copy has no prover sources: hash its files with this checkout's.
	changed := map[string]string{}
	ph, err := proverHash(repoRoot)
	require.NoError(t, err)
	for _, r := range rows {
		if r.Proof != nil {
			changed[recordName(r)] = proofKey(ph, r, mustRead(t, filepath.Join(tmp, r.File)))
		}
	}
	for name, k := range ks {
		if strings.HasPrefix(name, first.File+" ") {
			require.NotEqual(t, k, changed[name], name)
		} else {
			require.Equal(t, k, changed[name], name)
		}
	}

	// A different statement is a different key.
	pr := *first.Proof
	pr.Covers += "."
	r := first
	r.Proof = &pr
	require.NotEqual(t, ks[recordName(first)], proofKey(ph, r, mustRead(t, filepath.Join(repoRoot, first.File))))
}

func mustRead(t *testing.T, name string) []byte {
	src, err := os.ReadFile(name)
	require.NoError(t, err)
	return src
}

// TestRecordRoundTrip checks that a written record reads back as written
// and that a run with a failed or missing proof writes none.
func TestRecordRoundTrip(t *testing.T) {
	rows, err := prove.Rows(repoRoot)
	require.NoError(t, err)
	ks, err := keys(repoRoot, rows)
	require.NoError(t, err)
	results := map[*prove.Proof]prove.Result{}
	for _, r := range rows {
		if r.Proof != nil {
			results[r.Proof] = prove.Result{Time: 1500 * time.Millisecond}
		}
	}
	tmp := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, filepath.Dir(recordFile)), 0o755))
	require.NoError(t, writeRecord(tmp, rows, ks, results))
	rec, err := readRecord(tmp)
	require.NoError(t, err)
	require.Len(t, rec, len(ks))
	for name, k := range ks {
		require.Equal(t, recordLine{k, 1.5}, rec[name])
	}

	for _, r := range rows {
		if r.Proof != nil {
			delete(results, r.Proof)
			require.ErrorContains(t, writeRecord(tmp, rows, ks, results), "not proven in this run")
			break
		}
	}
}
