// Package conformance holds vg's cross-backend test material: the pinned
// Wycheproof vectors (package wycheproof), readable reference implementations
// used only by tests (spec/...), the backend-agreement driver (package agree),
// and the conformance runner (cmd/conformance).
package conformance
