package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/x86sim"
)

func writeRecords(t *testing.T, dir, name string, rs ...x86sim.CoverageRecord) {
	var b bytes.Buffer
	for _, r := range rs {
		require.NoError(t, json.NewEncoder(&b).Encode(r))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644))
}

func TestUnionAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	a := x86sim.CoverageRecord{File: "f.s", Func: "seal", Block: 0, Name: "entry", Line: 3}
	b := x86sim.CoverageRecord{File: "f.s", Func: "seal", Block: 1, Name: "tail_1", Line: 9}
	a1, b0 := a, b
	a1.Hit = true
	writeRecords(t, dir, "p1.jsonl", a1, b0)
	var out bytes.Buffer
	ok, err := run(dir, nil, &out)
	require.NoError(t, err)
	require.False(t, ok)
	require.Contains(t, out.String(), "never run: tail_1 (f.s:9)")
	require.Contains(t, out.String(), "1/2")

	b1 := b
	b1.Hit = true
	writeRecords(t, dir, "p2.jsonl", a, b1)
	out.Reset()
	ok, err = run(dir, nil, &out)
	require.NoError(t, err)
	require.True(t, ok, out.String())
	require.Contains(t, out.String(), "2/2 blocks of 1 functions run, from 2 test processes")
}

func TestMismatchedBuilds(t *testing.T) {
	dir := t.TempDir()
	writeRecords(t, dir, "p1.jsonl", x86sim.CoverageRecord{File: "f.s", Func: "seal", Block: 0, Name: "entry", Line: 3})
	writeRecords(t, dir, "p2.jsonl", x86sim.CoverageRecord{File: "f.s", Func: "seal", Block: 0, Name: "loop_1", Line: 5})
	_, err := run(dir, nil, &bytes.Buffer{})
	require.ErrorContains(t, err, "different builds")
}

func TestNoFiles(t *testing.T) {
	_, err := run(t.TempDir(), nil, &bytes.Buffer{})
	require.ErrorContains(t, err, "no coverage files")
}

func TestKnownGaps(t *testing.T) {
	dir := t.TempDir()
	a := x86sim.CoverageRecord{File: "f.s", Func: "seal", Block: 0, Name: "entry", Line: 3, Hit: true}
	b := x86sim.CoverageRecord{File: "f.s", Func: "seal", Block: 1, Name: "tail_1", Line: 9}
	writeRecords(t, dir, "p1.jsonl", a, b)
	known := filepath.Join(t.TempDir(), "known")
	require.NoError(t, os.WriteFile(known, []byte("# gaps\nf.s seal tail_1\n"), 0o644))
	gaps, err := readKnown(known)
	require.NoError(t, err)
	var out bytes.Buffer
	ok, err := run(dir, gaps, &out)
	require.NoError(t, err)
	require.True(t, ok, out.String())
	require.Contains(t, out.String(), "never run (known gap): tail_1")

	// A listed gap that runs fails the check: the list must shrink.
	b.Hit = true
	writeRecords(t, dir, "p2.jsonl", a, b)
	gaps, err = readKnown(known)
	require.NoError(t, err)
	out.Reset()
	ok, err = run(dir, gaps, &out)
	require.NoError(t, err)
	require.False(t, ok)
	require.Contains(t, out.String(), "known gap now covered (or gone): f.s seal tail_1")
}
