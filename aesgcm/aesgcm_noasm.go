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

// stdState is empty: no backend of this build takes the nonce itself, and
// nonced's constant nil lets the compiler drop the AEAD's branches to one,
// which the shortest Seals feel.
type stdState struct{}

func (*stdState) nonced() nonceImpl   { return nil }
func (*stdState) setNonced(nonceImpl) {}
