//go:build !amd64 || purego

package rsa

// implemented lists the backends of this build: without assembly, only the
// portable one.
var implemented = []backend{genericBackend{}}
