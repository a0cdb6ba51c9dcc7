//go:build vgsim

package aesgcm

import (
	"fmt"
	"os"
	"testing"

	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestMain writes the model's basic-block coverage of the generated assembly
// for ci/cmd/simcover when VG_SIM_COVERAGE names a directory, and prints the
// model's counts when VG_SIM_STATS is set.
func TestMain(m *testing.M) {
	code := m.Run()
	if os.Getenv("VG_SIM_STATS") != "" {
		fmt.Fprintln(os.Stderr, x86sim.Stats.String())
	}
	if err := x86sim.CoverageFromEnv("aesgcm"); err != nil {
		fmt.Fprintln(os.Stderr, "x86sim coverage:", err)
		code = 1
	}
	os.Exit(code)
}
