package forms

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	src := `// Code generated. DO NOT EDIT.
#include "textflag.h"

DATA mask<>+0(SB)/8, $0x0001020304050607
GLOBL mask<>(SB), RODATA|NOPTR, $8

// func f(p *byte)
TEXT ·f(SB), NOSPLIT, $0-8
	MOVQ   p+0(FP), AX
	ADDQ   $-16, AX // a comment
	MOVB   (DI), R10
	SETEQ  CL
	XORL   R12, R13
	LEAQ   -8(CX)(DX*1), CX
	VPTERNLOGD.BCST $0x96, 8(AX), Z25, K3, Z18
	VPCMPUQ $0x01, Y25, Y18, K3, K5
	PSHUFB mask<>+0(SB), X0
loop:
	JCS    loop
	VZEROUPPER
	RET
`
	insts, err := Parse("f.s", []byte(src))
	require.NoError(t, err)
	var got []string
	for _, in := range insts {
		got = append(got, in.Form())
	}
	assert.Equal(t, []string{
		"MOVQ m, r", "ADDQ imm, r", "MOVB m, r", "SETEQ r8", "XORL r, r", "LEAQ m, r",
		"VPTERNLOGD.BCST imm, m, z, k, z", "VPCMPUQ imm, y, y, k, k", "PSHUFB m, x",
		"JCS label", "VZEROUPPER", "RET",
	}, got)
	assert.Equal(t, []int64{-16}, insts[1].Imms())
	assert.Equal(t, []int64{0x96}, insts[6].Imms())
	assert.Equal(t, 9, insts[0].Line)

	_, err = Parse("bad.s", []byte("\tADDQ $1, Q9\n"))
	assert.ErrorContains(t, err, "bad.s:1")
}

func TestCommitted(t *testing.T) {
	files, err := CommittedFiles("../../../..")
	require.NoError(t, err)
	for _, f := range files {
		assert.NotContains(t, f, "cpufeat")
		assert.NotContains(t, f, "asmgen")
	}
	insts, err := Committed("../../../..")
	require.NoError(t, err)
	assert.NotEmpty(t, insts)
}
