// Command cpufeat prints the CPU (vendor, family and model, and whether
// cpufeat.PreferYMM holds), the CPU features vg detects and enables, the
// VG_CPU_FEATURES override in force, the configurations the test matrix
// runs, and, for each algorithm module, the backends of this build: which
// can run here and which one the module's constructors pick on this CPU.
// It exits with status 2 when the override is invalid.
//
//	go run ./cmd/cpufeat
//	VG_CPU_FEATURES=avx2 go run ./cmd/cpufeat
//	go run -tags vgsim ./cmd/cpufeat    # the x86sim model's view
//
// With -configs it prints instead one line per configuration, tab-separated:
// its name, its VG_CPU_FEATURES value, and the features it enables on this
// machine. ci/test reads that form.
//
// It is a module of its own (github.com/vgcrypto/vg/cmd/cpufeat), so
// that it can link the algorithm modules, which depend on cpufeat, without
// making cpufeat depend on them.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

func main() {
	configs := flag.Bool("configs", false, "print the test-matrix configurations, one per line: name, value, features enabled here")
	flag.Parse()
	if *configs {
		for _, c := range cpufeat.Configs() {
			fmt.Printf("%s\t%s\t%s\n", c.Name, c.Value, c.Set(cpufeat.Detected()))
		}
		return
	}
	fmt.Print(cpufeat.Describe())
	if cpufeat.Err() != nil {
		os.Exit(2)
	}
	writeBackends(os.Stdout, builtBackends())
}

// builtBackends returns, per algorithm, the backends its module compiled
// into this build.
func builtBackends() map[cpufeat.Algorithm][]cpufeat.BackendInfo {
	return map[cpufeat.Algorithm][]cpufeat.BackendInfo{
		cpufeat.AESGCM:           aesgcm.Backends(),
		cpufeat.ChaCha20Poly1305: chacha20poly1305.Backends(),
		cpufeat.RSA:              rsa.Backends(),
	}
}

// writeBackends prints every declared backend of every algorithm, best
// first: whether this build has it, whether it can run here, and which one
// the module picks by default (cpufeat.Select over the built ones, the
// choice the modules' constructors make without WithBackend).
func writeBackends(w io.Writer, built map[cpufeat.Algorithm][]cpufeat.BackendInfo) {
	fmt.Fprintln(w, "backends (best first; \"picked\" is what New uses here without WithBackend):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  algorithm\tbackend\tbuilt\truns here\tpicked\trequires")
	for _, alg := range cpufeat.Algorithms() {
		var names []string
		avail := map[string]bool{}
		for _, b := range built[alg] {
			names = append(names, b.Name)
			avail[b.Name] = b.Available
		}
		picked := cpufeat.Select(alg, names, cpufeat.Enabled()).Name
		for _, d := range cpufeat.Backends(alg) {
			isBuilt, runs, mark := "no", "-", ""
			if a, ok := avail[d.Name]; ok {
				isBuilt, runs = "yes", yesNo(a)
			}
			if d.Name == picked {
				mark = "<-"
			}
			req := d.Requires.String()
			if d.Requires == 0 {
				req = "nothing"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", alg, d.Name, isBuilt, runs, mark, strings.ReplaceAll(req, ",", " "))
		}
	}
	tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
