//go:build purego

package rsa

// purego is set under the build tag purego, which removes all assembly.
const purego = true
