//go:build goexperiment.runtimesecret && linux && (amd64 || arm64)

package stackscratch

import (
	"runtime/secret"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRuntimeSecretErasesGoLocal shows how vg relates to runtime/secret: a Go
// function that leaves its key in a local array is caught by Scan, and the
// same function run inside secret.Do leaves nothing, because secret.Do erases
// the stack f used before returning.
func TestRuntimeSecretErasesGoLocal(t *testing.T) {
	key := randomKey(t)
	var out [32]byte
	r, err := Scan(func() { expand(key, &out, false) }, Windows(8, key[:]))
	require.NoError(t, err)
	require.False(t, r.Clean(), "without secret.Do the key is left: %v", r)

	r, err = Scan(func() { secret.Do(func() { expand(key, &out, false) }) }, Windows(8, key[:]))
	require.NoError(t, err)
	assert.True(t, r.Clean(), "secret.Do erases the stack: %v", r)
}
