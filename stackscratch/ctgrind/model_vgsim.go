//go:build vgsim

package ctgrind

// OnModel reports whether the generated assembly runs on the x86sim model
// (build tag vgsim) rather than on the CPU: under valgrind, the model then
// takes its secrets from memcheck.
const OnModel = true
