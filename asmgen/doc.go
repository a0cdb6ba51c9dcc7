// Package asmgen is what every vg assembly generator shares: backends as data,
// function framing with secret annotations and wiped stack scratch, common
// loops, and the generation-time checks (arch gates, constant-time taint, wipe
// present) that fail a generator.
//
// It is imported only by the generator modules under <alg>/_asm/, never by the
// algorithm packages, so avo never becomes a dependency of a vg user.
package asmgen
