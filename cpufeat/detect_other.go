//go:build !amd64 || !gc || purego

package cpufeat

// baseline is empty off amd64 (and under purego, where vg uses no assembly and
// detection reports nothing): "none" turns the standard library's backends
// off too.
const baseline = Set(0)

// simulated is false: there is no assembly to simulate.
const simulated = false

// detect reports the features of the standard library's assembly this CPU
// runs (stdFeatures, per GOARCH); nothing of amd64's.
func detect() Set { return stdFeatures() }

func osSavesZMM() bool { return false }

func downclocksZMM() bool { return false }

// cpuName is empty: vg reads no CPU identity off amd64 (or under purego).
func cpuName() string { return "" }
