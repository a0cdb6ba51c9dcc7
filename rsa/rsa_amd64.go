//go:build amd64 && !purego

package rsa

import "github.com/vgcrypto/vg/cpufeat"

// implementations lists the backends compiled into this build, for registry
// (backend.go), which orders them as cpufeat declares them and chooses one
// when a key is prepared. adx is in asm_amd64.go (its kernels in the
// generated asm_adx_amd64.s).
var implementations = []cpufeat.Impl[backend]{
	{Name: "adx", Value: adxBackend{},
		Doc: "MULX/ADCX/ADOX kernels for 8..128 limbs, dedicated squaring, almost-Montgomery, interleaved constant-time gather"},
	{Name: cpufeat.GenericBackend, Value: genericBackend{}, Doc: genericDoc},
}
