//go:build valgrind && amd64

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
