//go:build valgrind && amd64 && gc && !purego && !vgsim

#include "textflag.h"

// func valgrindRequest(req *[6]uintptr) uintptr
//
// Valgrind's client request: the address of the request words in AX, the
// special preamble (four rotates of DI summing to 128 bits, which leave DI
// unchanged), then XCHGQ BX, BX. Valgrind answers in DX; natively the
// sequence does nothing and DX keeps its zero.
TEXT ·valgrindRequest(SB), NOSPLIT, $0-16
	MOVQ req+0(FP), AX
	XORL DX, DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+8(FP)
	RET

// func adcxAdox(a, b, c, d uint64) (x, y uint64)
TEXT ·adcxAdox(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	MOVQ c+16(FP), CX
	MOVQ d+24(FP), DX
	STC                  // CF = 1
	MOVQ $0x7fffffffffffffff, R8
	MOVQ $1, R9
	ADDQ R8, R9          // OF = 1 (signed overflow), CF = 0
	STC                  // CF = 1 again; OF stays
	ADCXQ BX, AX
	ADOXQ DX, CX
	MOVQ AX, x+32(FP)
	MOVQ CX, y+40(FP)
	RET
