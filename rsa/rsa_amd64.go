//go:build amd64 && !purego

package rsa

// implemented lists the backends of this build, in any order; NewPrivateKey
// picks the best available one with cpufeat.Select. The assembly backends
// (adx, ifma) join this list when they land.
var implemented = []backend{genericBackend{}}
