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
// The forms and immediates come from the committed assembly (package forms
// reads it), so regenerate the probes after regenerating a backend:
//
//	cd asmgen/internal/probes/_asm && GOWORK=off go run .
//
// CI's regeneration step fails on stale probes, and
// TestEveryCommittedFormHasAProbe names any committed form without one.
//
// Each probe loads all twelve general registers but SP, BP and the buffer
// pointers R14 and R15, every vector register it names in full (64 bytes, so
// that the upper-bit rules are compared: legacy SSE keeps bits 511:128, VEX
// and EVEX zero them), the opmask registers it names, and sets CF, PF, ZF,
// SF and OF with an ADDQ of two input words (ADCX and ADOX probes then set OF
// anew with an ADOXQ of two more, so that CF and OF vary independently).
// Loads come from the input buffer, stores and read-modify-writes go to the
// output buffer, whose initial contents are part of the input; a memory
// operand ends its buffer, which ends where an unmapped page begins, so that
// an access past it faults natively as it does on the model.
package probes
