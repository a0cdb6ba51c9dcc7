//go:build !amd64 || purego

package rsa

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (backend.go): without assembly, only the
// portable one.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}
