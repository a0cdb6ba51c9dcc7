//go:build amd64 && gc && !purego && vgsim

package cpufeat

// baseline is what every amd64 CPU has; "none" keeps it.
const baseline = Set(1 << SSE2)

// simulated is true: with the build tag vgsim every generated function runs
// on x86sim, the executable model of the generated assembly
// (asmgen/x86sim), not on the CPU.
const simulated = true

// detect reports every amd64 feature cpufeat knows, whatever the host CPU:
// the model implements them all (as a Zen 4 or Zen 5 has them), so that
// VG_CPU_FEATURES selects any backend, the AVX-512 ones included, and the
// test matrix runs every backend on any amd64 machine.
func detect() Set { return amd64Features }

// osSavesZMM is true: the model has the opmask and ZMM state.
func osSavesZMM() bool { return true }

// downclocksZMM is false: the model has no clock.
func downclocksZMM() bool { return false }

// cpuName names the model: the generated assembly runs on it, not on the
// host CPU.
func cpuName() string { return "the x86sim model (build tag vgsim)" }
