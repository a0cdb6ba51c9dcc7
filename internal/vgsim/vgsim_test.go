package vgsim

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withModel registers m for the rest of the test.
func withModel(t *testing.T, m Model) {
	mu.Lock()
	saved := model
	model = m
	mu.Unlock()
	t.Cleanup(func() { SetModel(saved) })
}

func TestWithoutModel(t *testing.T) {
	withModel(t, nil)
	p := Load("a_amd64.s", nil)
	for range 2 { // the second call panics as clearly as the first
		assert.PanicsWithError(t, `vgsim: a_amd64.s: this binary was built with -tags vgsim but does not link the model; import _ "github.com/vgcrypto/vg/asmgen/x86sim" from one of its files (vg's vgsim test files do)`,
			func() { p.Call("f", Frame{}) })
	}
}

func TestLoadsOnceOnFirstUse(t *testing.T) {
	var loads []string
	var calls []string
	withModel(t, func(file string, src []byte) (any, func(string, Frame, ...Region), error) {
		loads = append(loads, file+":"+string(src))
		return "prog of " + file, func(name string, f Frame, rs ...Region) {
			calls = append(calls, name+" "+rs[0].Kind.String())
		}, nil
	})
	p := Load("b_amd64.s", []byte("TEXT"))
	assert.Contains(t, Programs(), p)
	assert.Equal(t, "b_amd64.s", p.File())
	assert.Empty(t, loads, "nothing is parsed before a call")
	p.Call("f", Frame{}, Region{Kind: Secret})
	p.Call("g", Frame{}, Region{Kind: Output})
	assert.Equal(t, []string{"b_amd64.s:TEXT"}, loads)
	assert.Equal(t, []string{"f secret", "g output"}, calls)
	assert.Equal(t, "prog of b_amd64.s", p.Model())
}

func TestModelError(t *testing.T) {
	withModel(t, func(string, []byte) (any, func(string, Frame, ...Region), error) {
		return nil, nil, errors.New("parse error")
	})
	p := Load("c_amd64.s", nil)
	require.PanicsWithError(t, "parse error", func() { p.Model() })
	require.PanicsWithError(t, "parse error", func() { p.Call("f", Frame{}) })
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "public", Public.String())
	assert.Equal(t, "Kind(7)", Kind(7).String())
}
