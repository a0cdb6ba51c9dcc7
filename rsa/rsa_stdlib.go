//go:build (arm64 || ppc64 || ppc64le || s390x) && !purego

package rsa

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with its
// key constructor, for registry (backend.go): on the GOARCHes where
// crypto/rsa's arithmetic has assembly and vg has none, crypto/rsa's
// operations (stdlib.go), then the portable one. stdlib's key is the
// generic one, which NewPrivateKey's checks run on; its operations go to
// crypto/rsa.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: stdlibBackend, Value: newKeyGeneric, Doc: cpufeat.MustLookup(cpufeat.RSA, stdlibBackend).Doc},
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}
