//go:build !amd64 || purego

package ctgrind

// clientRequest has no client-request sequence here: valgrind is never
// running.
func clientRequest(req *[6]uintptr) uintptr { return 0 }
