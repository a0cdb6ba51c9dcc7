// Package probes validates x86sim, the executable model of the assembly
// asmgen generates, against the hardware.
//
// For every instruction form the committed assembly uses, and for the
// AVX-512, VAES, VPCLMULQDQ and BMI forms the coming backends will use, the
// generator in _asm writes probes (probes_amd64.s): tiny functions that load
// every general register, the vector and opmask registers of the form and the
// flags from an input buffer, execute the form once, and store every register,
// the five status flags (SETcc) and any memory the form writes into an output
// buffer. The test runs each probe natively, where the CPU has the probe's
// features, and on the model, over edge values and random inputs, and requires
// bit-identical results (flags the SDM leaves undefined excepted).
//
// Regenerate with: cd _asm && GOWORK=off go run .
package probes
