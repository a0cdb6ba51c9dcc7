//go:build purego

package aesgcm_test

// purego is set under the build tag purego, which removes all assembly.
const purego = true
