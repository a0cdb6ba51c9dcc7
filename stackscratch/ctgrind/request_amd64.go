//go:build amd64 && !purego

package ctgrind

//go:noescape
func clientRequest(req *[6]uintptr) uintptr
