//go:build amd64 && !purego

package rsa

// implemented lists the backends of this build, in any order; NewPrivateKey
// picks the best available one with cpufeat.Select. adx is in asm_amd64.go
// (its kernels in the generated asm_adx_amd64.s); ifma joins when it lands.
var implemented = []backend{adxBackend{}, genericBackend{}}
