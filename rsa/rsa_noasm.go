//go:build !amd64 || purego

package rsa

import "github.com/vgcrypto/vg/cpufeat"

// implementations lists the backends compiled into this build, for registry
// (backend.go): without assembly, only the portable one.
var implementations = []cpufeat.Impl[backend]{
	{Name: cpufeat.GenericBackend, Value: genericBackend{}, Doc: genericDoc},
}
