//go:build amd64 && !purego

package aesgcm

import "github.com/vgcrypto/vg/cpufeat"

// implementations lists the backends compiled into this build, for
// registry (aesgcm.go), which orders them as cpufeat declares them and
// chooses one at New.
var implementations = []cpufeat.Impl[newKeyFunc]{
	{Name: "vaes-avx512", Value: newkeyVAESAVX512},
	{Name: "vaes-avx2", Value: newkeyVAESAVX2},
	{Name: "aesni-avx", Value: newkeyAESNIAVX},
	{Name: "aesni", Value: newkeyAESNI},
	{Name: cpufeat.GenericBackend, Value: newGenericKey},
}
