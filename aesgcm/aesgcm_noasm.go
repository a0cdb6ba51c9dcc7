//go:build !amd64 || purego

package aesgcm

import "github.com/vgcrypto/vg/cpufeat"

// implementations lists the backends compiled into this build, for
// registry (aesgcm.go): without assembly, only the portable one.
var implementations = []cpufeat.Impl[newKeyFunc]{
	{Name: cpufeat.GenericBackend, Value: newGenericKey, Doc: genericDoc},
}
