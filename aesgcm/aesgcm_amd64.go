//go:build amd64 && !purego

package aesgcm

// implementations lists the backends compiled into this build. The assembly
// backends (aesni, aesni-avx, vaes-avx2, vaes-avx512) join this list as they
// land; New picks among them with cpufeat.Select.
var implementations = []implementation{
	{name: "generic", newKey: newGenericKey},
}
