// Package ci holds vg's continuous-integration tooling: the test matrix
// (ci/test), the interleaved benchmark comparer (cmd/benchcmp), the
// documentation check (cmd/doccheck), the generated-code checks, the
// constant-time runner under valgrind's memcheck (cmd/ctgrind) and the
// mutation check that seeds one defect per check and requires each caught
// (cmd/mutants).
package ci
