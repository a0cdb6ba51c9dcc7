//go:build race

package chacha20poly1305

const raceEnabled = true
