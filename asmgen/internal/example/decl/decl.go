// Package decl declares the backends of asmgen's example package once, for
// both its generator and its Go dispatch, the way cpufeat declares the
// backends of vg's algorithms.
package decl

import "github.com/vgcrypto/vg/cpufeat"

// Algorithm names the example's backends.
const Algorithm cpufeat.Algorithm = "asmgen-example"

// Backends are the example's backends, best first.
var Backends = []cpufeat.Backend{
	{Algorithm: Algorithm, Name: "avx2", Requires: cpufeat.Of(cpufeat.AVX, cpufeat.AVX2)},
	{Algorithm: Algorithm, Name: "sse2", Requires: cpufeat.Of(cpufeat.SSE2)},
}

// Lookup returns the backend called name.
func Lookup(name string) (cpufeat.Backend, bool) {
	for _, b := range Backends {
		if b.Name == name {
			return b, true
		}
	}
	return cpufeat.Backend{}, false
}
