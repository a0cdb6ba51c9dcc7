//go:build !(arm64 || loong64 || ppc64 || ppc64le || s390x) || !gc || purego

package cpufeat

// stdFeatures is empty: on this GOARCH (or under purego) vg's portable
// backends are the default.
func stdFeatures() Set { return 0 }
