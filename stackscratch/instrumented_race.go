//go:build race

package stackscratch

const instrumented = true
