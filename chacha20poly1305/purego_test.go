//go:build purego

package chacha20poly1305

// purego is set under the build tag purego, which removes all assembly.
const purego = true
