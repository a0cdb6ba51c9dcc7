//go:build vgsim

package aesgcm

import (
	"os"
	"testing"

	"github.com/vgcrypto/vg/asmgen/x86sim"
)

// TestMain writes the model's block coverage for ci/cmd/simcover
// (VG_SIM_COVERAGE) and prints its counts (VG_SIM_STATS).
func TestMain(m *testing.M) { os.Exit(x86sim.RunTests(m, "aesgcm")) }
