//go:build amd64 && !purego

package main

// asmBuild reports whether this is the build whose backends the README's
// table lists: amd64, with the assembly.
const asmBuild = true
