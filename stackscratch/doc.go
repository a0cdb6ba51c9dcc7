// Package stackscratch is the run-time side of vg's secret hygiene: wiping Go
// buffers in a way the compiler keeps, and a test harness that proves a
// function left no secret on the stack it used.
package stackscratch
