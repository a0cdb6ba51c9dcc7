// Package ci holds vg's continuous-integration tooling: the test matrix
// (ci/test), the interleaved benchmark comparer (cmd/benchcmp), the
// documentation check (cmd/doccheck), and the generated-code checks.
package ci
