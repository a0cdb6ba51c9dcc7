//go:build !(amd64 || arm64 || ppc64 || ppc64le || s390x) || purego

package rsa

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (backend.go): off amd64 and the stdlib
// GOARCHes (rsa_stdlib.go), and under purego, only the portable one.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}
