//go:build amd64 && !purego

package chacha20poly1305

import "github.com/vgcrypto/vg/cpufeat"

//go:generate env GOWORK=off go -C _asm run .

// implementations lists the backends compiled into this build, for registry
// (chacha20poly1305.go), which orders them as cpufeat declares them and
// chooses one at New. The assembly backends' glue is in asm_amd64.go.
var implementations = []cpufeat.Impl[backend]{
	{Name: "avx2", Value: avx2Backend{}},
	{Name: "ssse3", Value: ssse3Backend{}},
	{Name: cpufeat.GenericBackend, Value: genericBackend{}},
}
