//go:build !(amd64 || arm64 || ppc64 || ppc64le || s390x) || purego

package aesgcm

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (aesgcm.go): on a GOARCH where neither
// vg nor the standard library has assembly for AES-GCM (or under purego),
// only the portable one.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}
