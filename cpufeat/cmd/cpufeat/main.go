// Command cpufeat prints the CPU features vg detects and enables, the
// VG_CPU_FEATURES override in force, and the configurations the test matrix
// runs. It exits with status 2 when the override is invalid.
//
// With -configs it prints instead one line per configuration, tab-separated:
// its name, its VG_CPU_FEATURES value, and the features it enables on this
// machine. ci/test reads that form.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/vgcrypto/vg/cpufeat"
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
}
