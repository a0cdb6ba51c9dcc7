//go:build !amd64 || !gc || purego

package cpufeat

// baseline is empty off amd64 (and under purego, where vg uses no assembly and
// detection reports nothing).
const baseline = Set(0)

// simulated is false: there is no assembly to simulate.
const simulated = false

func detect() Set { return 0 }

func osSavesZMM() bool { return false }

func downclocksZMM() bool { return false }
