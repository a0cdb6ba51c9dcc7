package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A function is dead only when every run that loaded its package found it
// unreachable; a run that never loaded the package says nothing of it.
func TestDeadEverywhere(t *testing.T) {
	results := []result{
		{dead: map[string]string{"a/x.go#F": "a/x.go:1", "a/x.go#G": "a/x.go:2", "b/y.go#H": "b/y.go:3"}, loaded: map[string]bool{"a": true, "b": true}},
		{dead: map[string]string{"a/x.go#F": "a/x.go:1"}, loaded: map[string]bool{"a": true}}, // G reached here
		{dead: map[string]string{}, loaded: map[string]bool{"c": true}},                       // loads neither a nor b
		{dead: map[string]string{"b/y.go#H": "b/y.go:3"}, loaded: map[string]bool{"a": false, "b": true}},
	}
	assert.Equal(t, map[string]string{"a/x.go#F": "a/x.go:1", "b/y.go#H": "b/y.go:3"}, deadEverywhere(results))
}
