//go:build amd64 && !purego

package rsa

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (backend.go), which orders them as
// cpufeat declares them and chooses one when a key is prepared. adx's key
// type is in adx_amd64.go (its kernels in the generated asm_adx_amd64.s),
// ifma's in ifma_amd64.go (asm_ifma_amd64.s).
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: "ifma", Value: newKeyIFMA,
		Doc: "AVX-512 IFMA: 52-bit digits in zmm, almost-Montgomery VPMADD52LUQ/HUQ kernels for 20/30/40 digits, both CRT halves in one dual loop, masked full-table lookups; adx's kernels for primes above 2078 bits and for public operations"},
	{Name: "adx", Value: newKeyADX,
		Doc: "MULX/ADCX/ADOX kernels for 8..128 limbs, dedicated squaring, almost-Montgomery, interleaved constant-time gather"},
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}
