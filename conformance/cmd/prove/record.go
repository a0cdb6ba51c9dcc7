package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/vgcrypto/vg/conformance/prove"
)

// recordFile is the record of the last full run, relative to the root: for
// each proof, the key of what it proved and how long it took. ci/test runs
// -changed, which proves again every proof whose key the record lacks.
const recordFile = "conformance/cmd/prove/record.txt"

const recordHeader = `# The proofs as last proven in full: go run ./conformance/cmd/prove -w writes
# this after every proof passed. A line is a function, the key of what its
# proof proved (SHA-256 of the prover's Go sources, the Go version, the
# generated file and the proof's statement) and the proof's time in seconds.
# go run ./conformance/cmd/prove -changed (ci/test) proves every proof whose
# key differs from the one here.
`

// A record maps a proof's file and function to its key and time.
type record map[string]recordLine

type recordLine struct {
	key     string
	seconds float64
}

// recordName and proofName are a proof's name in the record: its file and
// function.
func recordName(r prove.Row) string    { return r.File + " " + r.Func }
func proofName(pr *prove.Proof) string { return pr.File + " " + pr.Func }

// proverHash hashes the Go sources of this command and every package it
// imports that is not in the standard library, and the Go version: what
// decides whether a proof that passed passes again on the same file.
func proverHash(root string) (string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}} {{join .EmbedFiles \" \"}}{{end}}", "./conformance/cmd/prove")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list: %v: %s", err, stderr.Bytes())
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", runtime.Version())
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return "", fmt.Errorf("go list printed %q", line)
		}
		for _, name := range strings.Fields(f[2]) {
			src, err := os.ReadFile(filepath.Join(f[1], name))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s %d\n", f[0], name, len(src))
			h.Write(src)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// keys returns the key of each row's proof: the prover's hash, the
// generated file, the function and what its proof covers.
func keys(root string, rows []prove.Row) (map[string]string, error) {
	ph, err := proverHash(root)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	ks := map[string]string{}
	for _, r := range rows {
		if r.Proof == nil {
			continue
		}
		src, ok := files[r.File]
		if !ok {
			if src, err = os.ReadFile(filepath.Join(root, r.File)); err != nil {
				return nil, err
			}
			files[r.File] = src
		}
		ks[recordName(r)] = proofKey(ph, r, src)
	}
	return ks, nil
}

// proofKey is the key of row r's proof, with ph the prover's hash and src
// the generated file.
func proofKey(ph string, r prove.Row, src []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s %d\n", ph, r.File, len(src))
	h.Write(src)
	fmt.Fprintf(h, "\n%s\n%s\n%s\n", r.Func, r.Proof.Covers, r.Proof.Part)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func readRecord(root string) (record, error) {
	f, err := os.Open(filepath.Join(root, recordFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec := record{}
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want file, function, key and seconds", recordFile, n)
		}
		sec, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", recordFile, n, err)
		}
		rec[f[0]+" "+f[1]] = recordLine{f[2], sec}
	}
	return rec, s.Err()
}

// writeRecord writes the record of a full run in which every proof passed.
func writeRecord(root string, rows []prove.Row, ks map[string]string, results map[*prove.Proof]prove.Result) error {
	var b strings.Builder
	b.WriteString(recordHeader)
	for _, r := range rows {
		if r.Proof == nil {
			continue
		}
		res, ok := results[r.Proof]
		if !ok || res.Err != nil {
			return fmt.Errorf("%s: not proven in this run", r.Func)
		}
		fmt.Fprintf(&b, "%s %s %s %.1f\n", r.File, r.Func, ks[recordName(r)], res.Time.Seconds())
	}
	return os.WriteFile(filepath.Join(root, recordFile), []byte(b.String()), 0o644)
}
