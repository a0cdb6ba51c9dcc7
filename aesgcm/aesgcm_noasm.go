//go:build !amd64 || purego

package aesgcm

// implementations lists the backends compiled into this build: without
// assembly, only the portable one.
var implementations = []implementation{
	{name: "generic", newKey: newGenericKey},
}
