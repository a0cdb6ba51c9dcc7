package asmgen

import "strings"

// flagSet is a set of EFLAGS groups, which avo does not model: the carry
// flag apart (ADC, ADCX, INC and DEC treat it apart) and the other arithmetic
// flags together.
type flagSet uint8

const (
	fCF    flagSet = 1 << iota // carry
	fOther                     // zero, sign, overflow, parity, adjust
	fAll   = fCF | fOther
)

// opInfo is what the constant-time checker needs to know about an opcode
// beyond avo's operand actions.
type opInfo struct {
	// rd and wr are the flags the instruction reads and writes. Writing a
	// flag only sometimes (a shift by a zero count) counts as reading it too.
	rd, wr flagSet
	// countRead marks shifts and rotates: with a register count, which may
	// be zero, the flags keep their old value, so they are read.
	countRead bool
	// varTime marks instructions whose timing depends on their operands
	// (division, square root): a secret input is an error.
	varTime bool
	// addrOnly marks LEA: its memory operand is arithmetic, not an access.
	addrOnly bool
	// bitOffset marks BT, BTS, BTR and BTC: with a register bit offset and
	// a memory operand the offset selects the byte accessed, so it is part of
	// the address.
	bitOffset bool
	// width is the size in bytes of the instruction's memory access when it
	// differs from its widest register operand (MOVQ X0, m64 moves 8 bytes).
	width int
}

// opTable is the explicit table of every opcode the checker accepts. An
// opcode missing from it fails the generation: the checker never guesses an
// instruction's effect on flags or its timing.
var opTable = map[string]opInfo{}

func addOps(info opInfo, names ...string) {
	for _, n := range names {
		if _, dup := opTable[n]; dup {
			panic("asmgen: duplicate opcode in table: " + n)
		}
		opTable[n] = info
	}
}

// sizes expands each stem with the GP size suffixes B, W, L, Q.
func sizes(stems ...string) []string {
	var out []string
	for _, s := range stems {
		for _, z := range []string{"B", "W", "L", "Q"} {
			out = append(out, s+z)
		}
	}
	return out
}

// lq expands each stem with the suffixes L and Q.
func lq(stems ...string) []string {
	var out []string
	for _, s := range stems {
		out = append(out, s+"L", s+"Q")
	}
	return out
}

func fields(s string) []string { return strings.Fields(s) }

// conditions are the Go assembler condition suffixes.
var conditions = fields("EQ NE CS CC HI LS MI PL GT GE LT LE OS OC PS PC")

func init() {
	addGPOps()
	addControlOps()
	addSSEOps()
	addAVXOps()
	addAVX512Ops()
}

// addGPOps adds the general-purpose instructions.
func addGPOps() {
	// General-purpose arithmetic.
	addOps(opInfo{wr: fAll}, sizes("ADD", "SUB", "AND", "OR", "XOR", "CMP", "TEST", "NEG", "MUL", "IMUL")...)
	addOps(opInfo{wr: fAll}, "IMUL3W", "IMUL3L", "IMUL3Q")
	addOps(opInfo{wr: fAll}, lq("ANDN")...)
	addOps(opInfo{rd: fCF, wr: fAll}, sizes("ADC", "SBB")...)
	addOps(opInfo{wr: fOther}, sizes("INC", "DEC")...)
	addOps(opInfo{wr: fAll, countRead: true}, sizes("SHL", "SHR", "SAR")...)
	addOps(opInfo{rd: fAll, wr: fAll}, sizes("ROL", "ROR", "RCL", "RCR")...)
	addOps(opInfo{rd: fCF, wr: fCF}, lq("ADCX")...)
	addOps(opInfo{rd: fOther, wr: fOther}, lq("ADOX")...)
	addOps(opInfo{rd: fAll, wr: fAll, bitOffset: true}, "BTW", "BTL", "BTQ", "BTSW", "BTSL", "BTSQ", "BTRW", "BTRL", "BTRQ", "BTCW", "BTCL", "BTCQ")
	addOps(opInfo{wr: fAll, varTime: true}, sizes("DIV", "IDIV")...)
	addOps(opInfo{}, sizes("NOT")...)
	addOps(opInfo{}, lq("BSWAP", "MULX", "SHLX", "SHRX", "SARX", "RORX")...)
	addOps(opInfo{wr: fAll}, lq("BZHI")...)
	addOps(opInfo{width: 1}, "MOVB", "MOVBLZX", "MOVBQZX", "MOVBWZX", "MOVBLSX", "MOVBQSX", "MOVBWSX")
	addOps(opInfo{width: 2}, "MOVW", "MOVWLZX", "MOVWQZX", "MOVWLSX", "MOVWQSX")
	addOps(opInfo{width: 4}, "MOVL", "MOVLQZX", "MOVLQSX")
	addOps(opInfo{width: 8}, "MOVQ")
	addOps(opInfo{addrOnly: true}, "LEAW", "LEAL", "LEAQ")
	for _, c := range conditions {
		addOps(opInfo{rd: fAll}, "CMOVW"+c, "CMOVL"+c, "CMOVQ"+c, "SET"+c)
	}
}

// addControlOps adds the branches, and the floating-point instructions
// whose time depends on their operands.
func addControlOps() {
	// Control flow. Conditional branches read the flags of their condition;
	// the checker rejects them when those flags are secret.
	addOps(opInfo{rd: fCF}, fields("JCS JCC JB JAE JC JNC JNAE JNB")...)
	addOps(opInfo{rd: fAll}, fields("JHI JLS JA JBE JNBE JNA")...)
	addOps(opInfo{rd: fOther}, fields(`JEQ JNE JMI JPL JGT JGE JLT JLE JOS JOC JPS JPC
		JE JZ JNZ JG JL JNG JNGE JNL JNLE JNO JNP JNS JO JP JPE JPO JS`)...)
	addOps(opInfo{}, "JCXZL", "JCXZQ") // branch on CX itself, not on flags
	addOps(opInfo{}, "JMP", "RET")

	// Variable-time floating point.
	addOps(opInfo{varTime: true}, fields("DIVPS DIVPD DIVSS DIVSD SQRTPS SQRTPD SQRTSS SQRTSD VDIVPS VDIVPD VDIVSS VDIVSD VSQRTPS VSQRTPD VSQRTSS VSQRTSD")...)

}

// addSSEOps adds SSE, SSE2, SSSE3, SSE4.1, AES-NI and PCLMULQDQ.
func addSSEOps() {
	// SSE, SSE2, SSSE3, SSE4.1, AES-NI, PCLMULQDQ: data only, no flags.
	addOps(opInfo{}, fields(`MOVOU MOVOA MOVUPS MOVAPS MOVHLPS MOVLHPS
		PXOR PAND PANDN POR XORPS ANDPS ANDNPS ORPS
		PADDB PADDW PADDL PADDQ PSUBB PSUBW PSUBL PSUBQ PMULULQ PMULLD
		PSLLDQ PSRLDQ PSLLW PSLLL PSLLQ PSRLW PSRLL PSRLQ PSRAW PSRAL
		PSHUFD PSHUFL PSHUFHW PSHUFLW PSHUFB PALIGNR SHUFPS SHUFPD
		PUNPCKLBW PUNPCKHBW PUNPCKLWL PUNPCKHWL PUNPCKLLQ PUNPCKHLQ PUNPCKLQDQ PUNPCKHQDQ
		PCMPEQB PCMPEQW PCMPEQL PCMPEQQ PCMPGTB PCMPGTW PCMPGTL
		PBLENDW PBLENDVB PMOVMSKB
		AESENC AESENCLAST AESDEC AESDECLAST AESIMC AESKEYGENASSIST PCLMULQDQ`)...)
	addOps(opInfo{width: 1}, "PINSRB", "PEXTRB")
	addOps(opInfo{width: 2}, "PINSRW", "PEXTRW")
	addOps(opInfo{width: 4}, "PINSRD", "PEXTRD")
	addOps(opInfo{width: 8}, "PINSRQ", "PEXTRQ", "MOVHPS", "MOVLPS", "MOVHPD", "MOVLPD")
	addOps(opInfo{wr: fAll}, "PTEST")
}

// addAVXOps adds AVX, AVX2, VAES and VPCLMULQDQ.
func addAVXOps() {
	// AVX, AVX2, VAES, VPCLMULQDQ.
	addOps(opInfo{}, fields(`VMOVDQU VMOVDQA VMOVUPS VMOVAPS VMOVHLPS VMOVLHPS
		VPXOR VPAND VPANDN VPOR VXORPS VANDPS VANDNPS VORPS
		VPADDB VPADDW VPADDD VPADDQ VPSUBB VPSUBW VPSUBD VPSUBQ VPMULUDQ VPMULLD
		VPSLLDQ VPSRLDQ VPSLLW VPSLLD VPSLLQ VPSRLW VPSRLD VPSRLQ VPSRAW VPSRAD
		VPSLLVD VPSLLVQ VPSRLVD VPSRLVQ
		VPSHUFD VPSHUFHW VPSHUFLW VPSHUFB VPALIGNR VSHUFPS VSHUFPD
		VPUNPCKLBW VPUNPCKHBW VPUNPCKLWD VPUNPCKHWD VPUNPCKLDQ VPUNPCKHDQ VPUNPCKLQDQ VPUNPCKHQDQ
		VPCMPEQB VPCMPEQW VPCMPEQD VPCMPEQQ VPCMPGTB VPCMPGTW VPCMPGTD VPCMPGTQ
		VPBLENDW VPBLENDD VPBLENDVB VPMOVMSKB
		VPERM2I128 VPERM2F128 VPERMQ VPERMD VPERMPD VPERMPS
		VAESENC VAESENCLAST VAESDEC VAESDECLAST VAESIMC VAESKEYGENASSIST VPCLMULQDQ
		VZEROUPPER VZEROALL`)...)
	addOps(opInfo{width: 1}, "VPINSRB", "VPEXTRB", "VPBROADCASTB")
	addOps(opInfo{width: 2}, "VPINSRW", "VPEXTRW", "VPBROADCASTW")
	addOps(opInfo{width: 4}, "VPINSRD", "VPEXTRD", "VPBROADCASTD", "VMOVD", "VBROADCASTSS")
	addOps(opInfo{width: 8}, "VPINSRQ", "VPEXTRQ", "VPBROADCASTQ", "VMOVQ", "VBROADCASTSD")
	addOps(opInfo{width: 16}, "VINSERTI128", "VEXTRACTI128", "VINSERTF128", "VEXTRACTF128", "VBROADCASTI128",
		"VINSERTI32X4", "VINSERTI64X2", "VEXTRACTI32X4", "VEXTRACTI64X2", "VBROADCASTI32X4", "VBROADCASTI64X2")
	addOps(opInfo{width: 32}, "VINSERTI64X4", "VINSERTI32X8", "VEXTRACTI64X4", "VEXTRACTI32X8", "VBROADCASTI64X4", "VBROADCASTI32X8")
	addOps(opInfo{wr: fAll}, "VPTEST")
}

// addAVX512Ops adds AVX-512 (F, BW, DQ, VL, IFMA, VBMI) and the opmask
// instructions.
func addAVX512Ops() {
	// AVX-512 (F, BW, DQ, VL, IFMA, VBMI).
	addOps(opInfo{}, fields(`VMOVDQU8 VMOVDQU16 VMOVDQU32 VMOVDQU64 VMOVDQA32 VMOVDQA64
		VPXORD VPXORQ VPANDD VPANDQ VPORD VPORQ VPANDND VPANDNQ VPTERNLOGD VPTERNLOGQ
		VPROLD VPROLQ VPRORD VPRORQ VPROLVD VPROLVQ VPRORVD VPRORVQ VPSRAQ VPSRAVQ
		VSHUFI32X4 VSHUFI64X2 VALIGND VALIGNQ
		VPERMB VPERMW VPERMT2B VPERMT2W VPERMT2D VPERMT2Q VPERMI2B VPERMI2W VPERMI2D VPERMI2Q
		VPBLENDMB VPBLENDMW VPBLENDMD VPBLENDMQ
		VPCMPB VPCMPUB VPCMPD VPCMPUD VPCMPQ VPCMPUQ
		VPMADD52LUQ VPMADD52HUQ VPMULLQ
		VPMOVQD VPMOVZXDQ VPMOVZXBD VPMOVZXWD VPEXPANDQ VPCOMPRESSQ`)...)
	for _, s := range []string{"B", "W", "D", "Q"} {
		addOps(opInfo{}, "KMOV"+s, "KXOR"+s, "KXNOR"+s, "KAND"+s, "KANDN"+s, "KOR"+s, "KNOT"+s, "KSHIFTL"+s, "KSHIFTR"+s)
		addOps(opInfo{wr: fAll}, "KORTEST"+s, "KTEST"+s)
	}
}

// zeroIdioms are the opcodes that zero a register when all their register
// operands are the same register.
var zeroIdioms = map[string]bool{
	"PXOR": true, "XORPS": true, "VPXOR": true, "VXORPS": true, "VPXORD": true, "VPXORQ": true,
	"KXORB": true, "KXORW": true, "KXORD": true, "KXORQ": true,
	"XORL": true, "XORQ": true, "SUBL": true, "SUBQ": true,
}
