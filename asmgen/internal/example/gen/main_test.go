package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/asmgen/internal/example/decl"
)

// TestGeneratedFilesUpToDate regenerates every backend of the example and
// compares with the committed files: the generation is deterministic and
// passes asmgen's checks, and the committed assembly is what it produces.
// After changing asmgen or this generator, run
//
//	go generate ./asmgen/internal/example
func TestGeneratedFilesUpToDate(t *testing.T) {
	for _, b := range decl.Backends {
		t.Run(b.Name, func(t *testing.T) {
			g := asmgen.New(b)
			declare(g)
			asm, stubs, err := g.Build()
			require.NoError(t, err)
			base := filepath.Join("..", asmgen.FileBase(b.Name)+"_amd64")
			sim, err := g.Trampolines(filepath.Base(base + ".s"))
			require.NoError(t, err)
			wantAsm, err := os.ReadFile(base + ".s")
			require.NoError(t, err)
			wantStubs, err := os.ReadFile(base + ".go")
			require.NoError(t, err)
			wantSim, err := os.ReadFile(asmgen.SimPath(base + ".go"))
			require.NoError(t, err)
			assert.Equal(t, string(wantAsm), string(asm), "%s.s is stale: run go generate ./asmgen/internal/example", base)
			assert.Equal(t, string(wantStubs), string(stubs), "%s.go is stale: run go generate ./asmgen/internal/example", base)
			assert.Equal(t, string(wantSim), string(sim), "%s is stale: run go generate ./asmgen/internal/example", asmgen.SimPath(base+".go"))
		})
	}
}
