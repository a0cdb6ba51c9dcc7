// Command cpufeat prints the CPU features vg detects and enables, the
// VG_CPU_FEATURES override in force, and the configurations the test matrix
// runs. It exits with status 2 when the override is invalid.
package main

import (
	"fmt"
	"os"

	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	fmt.Print(cpufeat.Describe())
	if cpufeat.Err() != nil {
		os.Exit(2)
	}
}
