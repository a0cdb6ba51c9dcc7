package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCPUInfo(t *testing.T) {
	const info = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\nmodel name\t: other\n"
	assert.Equal(t, "AMD EPYC (family 25, model 17), 2 CPUs", parseCPUInfo(strings.NewReader(info), 2))
	assert.Equal(t, "Some CPU, 1 CPUs", parseCPUInfo(strings.NewReader("model name : Some CPU\n"), 1))
}

func TestProvenanceRoundTrip(t *testing.T) {
	cfg := &config{run: runOptions{count: 10, bench: "Seal", benchtime: "0.02s", taskset: "1"}, pairs: []pairSpec{{}}}
	var buf bytes.Buffer
	writeProvenance(&buf, cfg, time.Date(2026, 12, 1, 23, 59, 0, 0, time.FixedZone("x", -3600)))
	p := readProvenance(&buf)
	assert.Equal(t, "2026-12-02", p.Date, "the date is UTC")
	require.NotEmpty(t, p.CPU)
	assert.True(t, strings.HasPrefix(p.Go, "go"), p.Go)
	assert.Equal(t, `10 rounds, -bench "Seal" -benchtime 0.02s, pinned with taskset -c 1`, p.Runs)
}
