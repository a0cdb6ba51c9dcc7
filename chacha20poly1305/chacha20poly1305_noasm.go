//go:build !(amd64 || arm64 || loong64 || ppc64 || ppc64le || s390x) || purego

package chacha20poly1305

import "github.com/vgcrypto/vg/cpufeat"

// registrations lists the backends compiled into this build, each with
// its key constructor, for registry (backend.go): on a GOARCH where
// neither vg nor golang.org/x/crypto has ChaCha20 assembly (or under
// purego), the portable backend only.
var registrations = []cpufeat.Registration[newKeyFunc]{
	{Name: cpufeat.GenericBackend, Value: newKeyGeneric, Doc: genericDoc},
}

// xorBlocks is the ChaCha20 block kernel k: without assembly, the Go one.
func (kernels) xorBlocks(s *[16]uint32, dst, src []byte) { xorBlocksGeneric(s, dst, src) }

// polyBlocks is the Poly1305 block kernel k: without assembly, the Go one.
func (kernels) polyBlocks(p *polyState, msg []byte) { polyBlocksGeneric(p, msg) }
