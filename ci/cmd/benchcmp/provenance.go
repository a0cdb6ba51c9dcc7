package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// Keys of the provenance lines that -o writes at the top of a raw results
// file ("# benchcmp KEY: value"), so that a committed file says when, where
// and how it was measured. -load reads them back (see [readProvenance]).
const (
	provDate = "date" // UTC date of the run, 2006-01-02
	provCPU  = "cpu"  // CPU model name with its family and model numbers
	provGo   = "go"   // Go version of the benchcmp that ran the binaries
	provRuns = "runs" // rounds, -bench, -benchtime, tags, env, pinning
)

// writeProvenance writes the provenance lines of a raw results file.
func writeProvenance(w io.Writer, cfg *config, now time.Time) {
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provDate, now.UTC().Format(time.DateOnly))
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provCPU, cpuDescription())
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provGo, runtime.Version())
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provRuns, strings.TrimPrefix(runHeader(cfg), "runs: "))
}

// cpuDescription names this machine's CPU as /proc/cpuinfo does, with the
// family and model numbers (which tell Zen 3 from Zen 4 when the model name
// is just "AMD EPYC"), and the number of CPUs. Elsewhere it gives GOARCH.
func cpuDescription() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return fmt.Sprintf("%s, %d CPUs", runtime.GOARCH, runtime.NumCPU())
	}
	defer f.Close()
	return parseCPUInfo(f, runtime.NumCPU())
}

// parseCPUInfo reads the first processor's model name, family and model from
// /proc/cpuinfo text.
func parseCPUInfo(r io.Reader, ncpu int) string {
	fields := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" && len(fields) > 0 {
			break // end of the first processor
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	name := fields["model name"]
	if name == "" {
		name = runtime.GOARCH
	}
	s := name
	if fam, model := fields["cpu family"], fields["model"]; fam != "" && model != "" {
		s += fmt.Sprintf(" (family %s, model %s)", fam, model)
	}
	return fmt.Sprintf("%s, %d CPUs", s, ncpu)
}

// provenance is what the provenance lines of a results file say; empty
// fields were not recorded.
type provenance struct {
	Date, CPU, Go, Runs string
}

// readProvenance returns the provenance lines of a results file.
func readProvenance(r io.Reader) provenance {
	var p provenance
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "# benchcmp ")
		if !ok {
			continue
		}
		k, v, ok := strings.Cut(rest, ": ")
		if !ok {
			continue
		}
		switch k {
		case provDate:
			p.Date = v
		case provCPU:
			p.CPU = v
		case provGo:
			p.Go = v
		case provRuns:
			p.Runs = v
		}
	}
	return p
}
