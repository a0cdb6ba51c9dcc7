//go:build !purego

package chacha20poly1305_test

// purego is set under the build tag purego, which removes all assembly.
const purego = false
