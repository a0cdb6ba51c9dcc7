package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/vgcrypto/vg/cpufeat"
)

// Keys of the provenance lines that -o writes at the top of a raw results
// file ("# benchcmp KEY: value"), so that a committed file says when, where
// and how it was measured. -load reads them back (see [readProvenance]).
const (
	provDate = "date" // UTC date of the run, 2006-01-02
	provCPU  = "cpu"  // CPU model name with its family and model numbers
	provGo   = "go"   // Go version of the benchcmp that ran the binaries
	provRuns = "runs" // rounds, -bench, -benchtime, tags, env, pinning
	// provPeer starts the key of a peer's line ("# benchcmp peer boringssl:
	// ..."): its version and code paths, as the peer harness prints them.
	provPeer = "peer"
	// provTier is the tier the runs were held to (-tier), with vg's default
	// backends there and the environment that held vg and the peers to it.
	provTier = "tier"
)

// writeProvenance writes the provenance lines of a raw results file.
func writeProvenance(w io.Writer, cfg *config, now time.Time) {
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provDate, now.UTC().Format(time.DateOnly))
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provCPU, cpuDescription())
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provGo, runtime.Version())
	runs := strings.TrimPrefix(runHeader(cfg), "runs: ")
	if cfg.run.taskset == "" && runtime.NumCPU() < machineCPUs() {
		// benchcmp itself was pinned (taskset -c 1 go run ...): its runs
		// inherit that affinity.
		runs += fmt.Sprintf(", pinned by the caller's affinity (%d of %d CPUs)", runtime.NumCPU(), machineCPUs())
	}
	fmt.Fprintf(w, "# benchcmp %s: %s\n", provRuns, runs)
	if cfg.tier != nil {
		line, err := cfg.tier.line(cpufeat.Detected())
		if err != nil {
			line = cfg.tier.Name + ": " + err.Error()
		}
		fmt.Fprintf(w, "# benchcmp %s: %s\n", provTier, line)
	}
}

// machineCPUs returns the number of processors /proc/cpuinfo lists (the
// machine's, whatever this process's affinity), or runtime.NumCPU.
func machineCPUs() int {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.NumCPU()
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if k, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "processor" {
			n++
		}
	}
	return max(n, runtime.NumCPU())
}

// cpuDescription names this machine's CPU as /proc/cpuinfo does, with the
// family and model numbers (which tell Zen 3 from Zen 4 when the model name
// is just "AMD EPYC"), and the number of CPUs of the machine. Elsewhere it
// gives GOARCH.
func cpuDescription() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return fmt.Sprintf("%s, %d CPUs", runtime.GOARCH, runtime.NumCPU())
	}
	defer f.Close()
	return parseCPUInfo(f, machineCPUs())
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
	// Tier is the tier line (-tier), "" for a run on the machine as it is.
	Tier string
	// Head is what the head build was ("working tree at 67989f3, clean").
	Head string
	// Peers holds the provenance line of each peer measured, by name.
	Peers map[string]string
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
		case provTier:
			p.Tier = v
		case "head":
			p.Head = v
		default:
			if name, ok := strings.CutPrefix(k, provPeer+" "); ok {
				if p.Peers == nil {
					p.Peers = make(map[string]string)
				}
				p.Peers[name] = v
			}
		}
	}
	return p
}
