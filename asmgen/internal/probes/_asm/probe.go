package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/asmgen/internal/probes/forms"
	"github.com/vgcrypto/vg/cpufeat"
)

// A spec is a form to probe: the mnemonic (with its .Z/.BCST suffixes) and
// operand kinds in Go order, the immediates to probe it with (one probe
// each), and how its registers are chosen.
type spec struct {
	op    string
	kinds []string
	imms  []int64
	// regs is "low" (registers 0-15), "high" (EVEX registers 16-31), or
	// "same-low"/"same-high": every register operand of a class is the
	// same register (sources equal to the destination).
	regs   string
	origin string
	// pastEnd > 0 places the memory operand so that only its first pastEnd
	// bytes are inside the buffer; the write mask is restricted to the
	// elements there (the test masks that input).
	pastEnd int
	// esize is the element size of pastEnd's mask.
	esize int
	// vecs are vector registers the probe loads and stores besides those
	// of its operands (VZEROUPPER's).
	vecs []int
	// lea is LEA's address operand, with pool registers as base and index.
	lea *operand.Mem
}

func (s *spec) form() string {
	if len(s.kinds) == 0 {
		return s.op
	}
	return s.op + " " + strings.Join(s.kinds, ", ")
}

// A slot is a piece of a probe's input or output buffer.
type slot struct {
	name      string
	off, size int
	// and masks an input slot's first 8 bytes (0: no mask).
	and uint64
}

type probe struct {
	name, op, form, text, origin string
	inst                         *ir.Instruction
	feats                        cpufeat.Set
	// hw is the harness's vector width: 64 (zmm loads and stores, AVX-512),
	// 32 (ymm, AVX) or 0 (no vector register).
	hw       int
	vecs, ks []int
	adx      bool
	branch   string
	in, out  []slot
	inLen    int
	outLen   int
	flagMask uint8
	// rule and ruleWidth select a flag rule the test evaluates per input
	// (shift and rotate counts in CL).
	rule      string
	ruleWidth int
	noInst    bool
}

// The GP registers every probe loads and stores (all but SP, BP and the two
// buffer pointers R14 and R15), in buffer order.
var gpHarness = []int{0, 3, 1, 2, 6, 7, 8, 9, 10, 11, 12, 13}

// Register pools, in the order operands take them.
var (
	gpPool  = []int{6, 7, 3, 8, 9, 10, 11, 12, 13, 0, 1, 2}
	r8Pool  = []int{3, 0, 1, 2}
	vecLow  = []int{3, 9, 14, 6, 12}
	vecHigh = []int{25, 18, 31, 4, 20}
	kPool   = []int{3, 5, 6, 2, 7}
)

const (
	inFlags = 0  // four words: the flag setup's operands
	inGP    = 32 // 12 words
	inVec   = inGP + 8*12
	outGP   = 8 // after CF PF ZF SF OF and the branch byte
	outVec  = outGP + 8*12
)

var flagNames = []string{"CF", "PF", "ZF", "SF", "OF"}

type aop struct {
	kind  string
	idx   int
	label string
}

func class(kind string) string {
	switch kind {
	case "r", "r8":
		return "gp"
	case "x", "y", "z":
		return "vec"
	case "k":
		return "k"
	}
	return ""
}

func isShift(op string) bool {
	for _, p := range []string{"SHL", "SHR", "SAR", "SAL", "ROL", "ROR", "RCL", "RCR"} {
		if len(op) == len(p)+1 && strings.HasPrefix(op, p) {
			return true
		}
	}
	return false
}

// assign picks the registers of the spec's operands.
func (s *spec) assign() []aop {
	used := map[string]bool{}
	take := func(cls string, pool []int) int {
		for _, r := range pool {
			k := fmt.Sprint(cls, r)
			if !used[k] {
				used[k] = true
				return r
			}
		}
		panic("register pool exhausted: " + s.form())
	}
	ops := make([]aop, len(s.kinds))
	// A shift or rotate count in a register is CL.
	shiftCount := isShift(s.op) && len(s.kinds) == 2 && s.kinds[0] == "r8"
	if shiftCount {
		used["gp1"] = true
	}
	high := strings.HasSuffix(s.regs, "high")
	for i, k := range s.kinds {
		ops[i].kind = k
		switch k {
		case "r":
			ops[i].idx = take("gp", gpPool)
		case "r8":
			if shiftCount && i == 0 {
				ops[i].idx = 1
			} else {
				ops[i].idx = take("gp", r8Pool)
			}
		case "x", "y", "z":
			if high {
				ops[i].idx = take("vec", vecHigh)
			} else {
				ops[i].idx = take("vec", vecLow)
			}
		case "k":
			ops[i].idx = take("k", kPool)
		case "label":
			ops[i].label = "taken"
			if s.op == "JMP" {
				ops[i].label = "skip"
			}
		}
	}
	if strings.HasPrefix(s.regs, "same") {
		target := map[string]int{}
		for _, o := range ops {
			if c := class(o.kind); c != "" && o.kind != "r8" {
				target[c] = o.idx
			}
		}
		if shiftCount {
			target["gp"] = 1
		}
		for i, o := range ops {
			if t, ok := target[class(o.kind)]; ok && o.kind != "r8" {
				ops[i].idx = t
			}
		}
	}
	return ops
}

// sameable reports whether the spec has two register operands of one class.
func sameable(kinds []string) bool {
	n := map[string]int{}
	for _, k := range kinds {
		if c := class(k); c != "" && k != "r8" {
			n[c]++
			if n[c] >= 2 {
				return true
			}
		}
	}
	return false
}

// buildOne constructs one instruction with avo's checked constructor of that
// name, so that avo rejects a form it does not know.
func buildOne(op string, ops []operand.Op) (*ir.Instruction, error) {
	c := build.NewContext()
	c.Function("probe")
	m := reflect.ValueOf(c).MethodByName(strings.ReplaceAll(op, ".", "_"))
	if !m.IsValid() {
		return nil, fmt.Errorf("avo has no instruction %s", op)
	}
	t := m.Type()
	if !t.IsVariadic() && t.NumIn() != len(ops) {
		return nil, fmt.Errorf("%s takes %d operands", op, t.NumIn())
	}
	args := make([]reflect.Value, len(ops))
	for i := range ops {
		args[i] = reflect.ValueOf(&ops[i]).Elem()
	}
	m.Call(args)
	f, err := c.Result()
	if err != nil {
		return nil, err
	}
	is := f.Functions()[0].Instructions()
	if len(is) != 1 {
		return nil, fmt.Errorf("%s built %d instructions", op, len(is))
	}
	return is[0], nil
}

func instText(i *ir.Instruction) string {
	ops := make([]string, len(i.Operands))
	for k, op := range i.Operands {
		ops[k] = op.Asm()
	}
	s := i.OpcodeWithSuffixes()
	if len(ops) > 0 {
		s += " " + strings.Join(ops, ", ")
	}
	return s
}

// immCandidates returns avo constants of value v, narrowest first.
func immCandidates(v int64) []operand.Op {
	var c []operand.Op
	u := uint64(v)
	if v >= 0 && v < 1<<8 {
		c = append(c, operand.U8(v))
	}
	if v >= -128 && v < 128 {
		c = append(c, operand.I8(v))
	}
	if v >= 0 && v < 1<<16 {
		c = append(c, operand.U16(v))
	}
	if v >= -1<<15 && v < 1<<15 {
		c = append(c, operand.I16(v))
	}
	if v >= 0 && v < 1<<32 {
		c = append(c, operand.U32(v))
	}
	if v >= -1<<31 && v < 1<<31 {
		c = append(c, operand.I32(v))
	}
	c = append(c, operand.U64(u), operand.I64(v))
	return c
}

// construct finds the avo operands for the spec's abstract ones: general
// registers of the width the mnemonic takes, an immediate of a width it
// accepts, and checks that the instruction prints as the spec's form.
func (s *spec) construct(aops []aop, imm int64, mem operand.Op) (*ir.Instruction, error) {
	var gp []int
	hasImm := false
	for i, a := range aops {
		switch a.kind {
		case "r":
			gp = append(gp, i)
		case "imm":
			hasImm = true
		}
	}
	sizes := []reg.Spec{reg.S64, reg.S32, reg.S16, reg.S8}
	imms := []operand.Op{nil}
	if hasImm {
		imms = immCandidates(imm)
	}
	n := 1
	for range gp {
		n *= len(sizes)
	}
	var lastErr error
	for c := 0; c < n; c++ {
		for _, ic := range imms {
			ops := make([]operand.Op, len(aops))
			k := c
			ok := true
			for i, a := range aops {
				var r reg.Physical
				switch a.kind {
				case "r":
					r = reg.GeneralPurpose.Lookup(reg.Index(a.idx), sizes[k%len(sizes)])
					k /= len(sizes)
				case "r8":
					r = reg.GeneralPurpose.Lookup(reg.Index(a.idx), reg.S8L)
				case "x":
					r = reg.Vector.Lookup(reg.Index(a.idx), reg.S128)
				case "y":
					r = reg.Vector.Lookup(reg.Index(a.idx), reg.S256)
				case "z":
					r = reg.Vector.Lookup(reg.Index(a.idx), reg.S512)
				case "k":
					r = reg.Opmask.Lookup(reg.Index(a.idx), reg.S64)
				case "imm":
					ops[i] = ic
				case "m":
					ops[i] = mem
				case "label":
					ops[i] = operand.LabelRef(a.label)
				default:
					return nil, fmt.Errorf("operand kind %q", a.kind)
				}
				if ops[i] == nil {
					if r == nil {
						ok = false
						break
					}
					ops[i] = r
				}
			}
			if !ok {
				continue
			}
			inst, err := buildOne(s.op, ops)
			if err != nil {
				lastErr = err
				continue
			}
			got, err := forms.Parse("probe", []byte(instText(inst)))
			if err != nil {
				return nil, err
			}
			if got[0].Form() != s.form() {
				lastErr = fmt.Errorf("built %q, form %s", instText(inst), got[0].Form())
				continue
			}
			if hasImm && got[0].Imms()[0] != imm {
				lastErr = fmt.Errorf("built %q for immediate %#x", instText(inst), imm)
				continue
			}
			return inst, nil
		}
	}
	return nil, fmt.Errorf("no avo operands for %s (immediate %#x): %v", s.form(), imm, lastErr)
}

// isaFeature maps avo's ISA names to cpufeat features; the baseline maps to
// none.
var isaFeature = func() map[string]cpufeat.Feature {
	m := map[string]cpufeat.Feature{}
	for _, f := range cpufeat.AllFeatures() {
		for _, isa := range asmgen.FeatureISAs(f) {
			m[isa] = f
		}
	}
	for _, isa := range asmgen.BaselineISAs {
		m[isa] = cpufeat.SSE2
	}
	return m
}()

var featureConst = map[cpufeat.Feature]string{
	cpufeat.SSE2: "SSE2", cpufeat.SSSE3: "SSSE3", cpufeat.SSE41: "SSE41", cpufeat.AVX: "AVX", cpufeat.AVX2: "AVX2",
	cpufeat.BMI1: "BMI1", cpufeat.BMI2: "BMI2", cpufeat.ADX: "ADX", cpufeat.AES: "AES", cpufeat.PCLMULQDQ: "PCLMULQDQ",
	cpufeat.VAES: "VAES", cpufeat.VPCLMULQDQ: "VPCLMULQDQ", cpufeat.AVX512F: "AVX512F", cpufeat.AVX512BW: "AVX512BW",
	cpufeat.AVX512DQ: "AVX512DQ", cpufeat.AVX512VL: "AVX512VL", cpufeat.AVX512IFMA: "AVX512IFMA", cpufeat.AVX512VBMI: "AVX512VBMI",
}

func features(isas []string) (cpufeat.Set, error) {
	var s cpufeat.Set
	for _, isa := range isas {
		f, ok := isaFeature[isa]
		if !ok {
			return 0, fmt.Errorf("ISA %s has no cpufeat feature", isa)
		}
		if f != cpufeat.SSE2 {
			s |= cpufeat.Of(f)
		}
	}
	return s, nil
}

// regISAs returns the ISAs the registers of op imply beyond the
// instruction's own list (as asmgen's arch gate counts them).
func regISAs(op operand.Op) []string {
	var need []string
	for _, r := range operand.Registers(op) {
		p := reg.ToPhysical(r)
		if p == nil {
			continue
		}
		switch p.Kind() {
		case reg.KindVector:
			if p.Size() == 64 || p.PhysicalIndex() >= 16 {
				need = append(need, "AVX512F")
			}
			if p.PhysicalIndex() >= 16 && p.Size() < 64 {
				need = append(need, "AVX512VL")
			}
		case reg.KindOpmask:
			need = append(need, "AVX512F")
		}
	}
	return need
}

// probes expands the spec into its probes: one per immediate, and for a form
// that needs no AVX-512 a twin whose harness moves ymm registers, for CPUs
// without AVX-512.
func (s *spec) probes() ([]*probe, error) {
	imms := s.imms
	if len(imms) == 0 {
		imms = []int64{0}
	}
	var out []*probe
	for _, v := range imms {
		p, err := s.probe(v, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		if p.hw == 64 && !p.needsAVX512() && !p.highVec() {
			q, err := s.probe(v, 32)
			if err != nil {
				return nil, err
			}
			out = append(out, q)
		}
	}
	return out, nil
}

// highVec reports whether the probe uses a vector register 16-31.
func (p *probe) highVec() bool {
	for _, v := range p.vecs {
		if v >= 16 {
			return true
		}
	}
	return false
}

// needsAVX512 reports whether the probed instruction itself needs an
// AVX-512 feature.
func (p *probe) needsAVX512() bool {
	if p.inst == nil {
		return false
	}
	isas := append([]string(nil), p.inst.ISA...)
	for _, o := range p.inst.Operands {
		isas = append(isas, regISAs(o)...)
	}
	for _, isa := range isas {
		if strings.HasPrefix(isa, "AVX512") {
			return true
		}
	}
	return false
}

func (s *spec) probe(imm int64, hw int) (*probe, error) {
	p := &probe{op: s.op, form: s.form(), origin: s.origin, hw: hw}
	if s.op == "RET" {
		p.noInst = true
		p.text = "RET"
	}
	if strings.HasPrefix(s.op, "J") {
		p.branch = "jcc"
		if s.op == "JMP" {
			p.branch = "jmp"
		}
	}
	aops := s.assign()
	var mem operand.Op = operand.Mem{Base: reg.R14}
	if s.lea != nil {
		mem = *s.lea
	}
	var isas []string
	memWritten, hasMem := false, false
	if !p.noInst {
		inst, err := s.construct(aops, imm, mem)
		if err != nil {
			return nil, err
		}
		p.inst = inst
		isas = append(isas, inst.ISA...)
		for _, o := range inst.Outputs {
			if _, ok := o.(operand.Mem); ok {
				memWritten = true
			}
		}
		seenV, seenK := map[int]bool{}, map[int]bool{}
		for _, list := range [][]operand.Op{inst.Operands, inst.Inputs, inst.Outputs} {
			for _, o := range list {
				if _, ok := o.(operand.Mem); ok && s.lea == nil {
					hasMem = true
				}
				for _, r := range operand.Registers(o) {
					ph := reg.ToPhysical(r)
					if ph == nil {
						continue
					}
					i := int(ph.PhysicalIndex())
					switch ph.Kind() {
					case reg.KindVector:
						if !seenV[i] {
							seenV[i] = true
							p.vecs = append(p.vecs, i)
						}
					case reg.KindOpmask:
						if !seenK[i] {
							seenK[i] = true
							p.ks = append(p.ks, i)
						}
					}
				}
			}
		}
		for _, o := range inst.Operands {
			isas = append(isas, regISAs(o)...)
		}
	}
	p.vecs = append(p.vecs, s.vecs...)
	if len(p.vecs) == 0 {
		p.hw = 0
	}
	switch p.hw {
	case 64:
		isas = append(isas, "AVX512F")
	case 32:
		isas = append(isas, "AVX")
		for _, v := range p.vecs {
			if v >= 16 {
				return nil, fmt.Errorf("ymm harness with register %d", v)
			}
		}
	}
	if len(p.ks) > 0 {
		isas = append(isas, "AVX512BW") // KMOVQ
	}
	p.adx = strings.HasPrefix(s.op, "ADCX") || strings.HasPrefix(s.op, "ADOX")
	if p.adx {
		isas = append(isas, "ADX")
	}
	var err error
	if p.feats, err = features(isas); err != nil {
		return nil, err
	}

	// The input buffer.
	p.in = fixedIn()
	if p.adx {
		p.in = append(p.in, adxIn()...)
	}
	off := inVec
	vecName := func(v int) string { return fmt.Sprintf("%c%d", map[int]byte{64: 'Z', 32: 'Y'}[p.hw], v) }
	for _, v := range p.vecs {
		p.in = append(p.in, slot{name: vecName(v), off: off, size: p.hw})
		off += p.hw
	}
	kAnd := uint64(0)
	if s.pastEnd > 0 {
		kAnd = 1<<(s.pastEnd/s.esize) - 1
	}
	for _, k := range p.ks {
		p.in = append(p.in, slot{name: fmt.Sprintf("K%d", k), off: off, size: 8, and: kAnd})
		off += 8
	}
	memSz := 0
	if hasMem {
		if memSz, err = memSize(s, p.inst); err != nil {
			return nil, err
		}
	}
	area := memSz
	if s.pastEnd > 0 {
		area = s.pastEnd
	}
	memAt := -1
	if hasMem && !memWritten {
		memAt = off
		p.in = append(p.in, slot{name: "mem", off: off, size: area})
		off += area
	}
	p.inLen = off

	// The output buffer.
	p.out = fixedOut()
	if p.branch != "" {
		p.out = append(p.out, branchOut()...)
	}
	off = outVec
	for _, v := range p.vecs {
		p.out = append(p.out, slot{name: vecName(v), off: off, size: p.hw})
		off += p.hw
	}
	for _, k := range p.ks {
		p.out = append(p.out, slot{name: fmt.Sprintf("K%d", k), off: off, size: 8})
		off += 8
	}
	if memWritten {
		memAt = off
		p.out = append(p.out, slot{name: "mem", off: off, size: area})
		off += area
	}
	p.outLen = off

	if hasMem {
		base := reg.R14
		if memWritten {
			base = reg.R15
		}
		if p.inst, err = s.construct(aops, imm, operand.Mem{Base: base, Disp: memAt}); err != nil {
			return nil, err
		}
	}
	if p.inst != nil {
		p.text = instText(p.inst)
	}
	p.flagMask, p.rule, p.ruleWidth = flagRule(s, imm)
	return p, nil
}

// The slots every probe has: the flag setup's first two operands and the
// general registers in; the flags and the general registers out. ADX probes
// have two more flag operands, branch probes the branch's outcome.
func fixedIn() []slot {
	s := []slot{{name: "flagA", off: inFlags, size: 8}, {name: "flagB", off: inFlags + 8, size: 8}}
	for i, r := range gpHarness {
		s = append(s, slot{name: gpName(r), off: inGP + 8*i, size: 8})
	}
	return s
}

func adxIn() []slot {
	return []slot{{name: "flagC", off: inFlags + 16, size: 8}, {name: "flagD", off: inFlags + 24, size: 8}}
}

func fixedOut() []slot {
	var s []slot
	for i, f := range flagNames {
		s = append(s, slot{name: f, off: i, size: 1})
	}
	for i, r := range gpHarness {
		s = append(s, slot{name: gpName(r), off: outGP + 8*i, size: 8})
	}
	return s
}

func branchOut() []slot { return []slot{{name: "taken", off: 5, size: 1}} }

func gpName(r int) string {
	return []string{"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}[r]
}

// opWidth is the operand width in bytes a GP mnemonic's suffix gives.
func opWidth(op string) int {
	switch op[len(op)-1] {
	case 'Q':
		return 8
	case 'L':
		return 4
	case 'W':
		return 2
	case 'B':
		return 1
	}
	return 0
}

// flagRule returns the flags the SDM defines after the instruction (bits
// CF, PF, ZF, SF, OF; a flag the instruction does not touch is defined: it
// keeps the flag setup's value), or a rule the test evaluates from CL.
func flagRule(s *spec, imm int64) (uint8, string, int) {
	const cf, pf, zf, sf, of = 1, 2, 4, 8, 16
	const all = 0x1f
	op := s.op
	switch {
	case op == "MULQ" || op == "MULL" || strings.HasPrefix(op, "IMUL"):
		return cf | of, "ruleStatic", 0
	case strings.HasPrefix(op, "BZHI") || strings.HasPrefix(op, "ANDN"):
		return all &^ pf, "ruleStatic", 0
	case isShift(op):
		w := 8 * opWidth(op)
		rot := strings.HasPrefix(op, "RO") || strings.HasPrefix(op, "RC")
		if s.kinds[0] == "r8" {
			switch {
			case rot:
				return all, "ruleRotateCL", w
			case op[:3] == "SAR":
				return all, "ruleSarCL", w
			}
			return all, "ruleShiftCL", w
		}
		return shiftFlags(uint64(imm), w, rot, op[:3] == "SAR"), "ruleStatic", 0
	}
	return all, "ruleStatic", 0
}

// shiftFlags is the defined-flag mask of a shift or rotate by count.
func shiftFlags(count uint64, w int, rot, sar bool) uint8 {
	const cf, of = 1, 16
	const all = 0x1f
	if w == 64 {
		count &= 63
	} else {
		count &= 31
	}
	m := uint8(all)
	switch {
	case count == 0:
		return m
	case count > 1:
		m &^= of
	}
	if !rot && !sar && int(count) >= w {
		m &^= cf
	}
	return m
}

// memSize is the number of bytes the memory operand of the instruction
// accesses.
func memSize(s *spec, inst *ir.Instruction) (int, error) {
	op := strings.SplitN(s.op, ".", 2)[0]
	if strings.Contains(s.op, ".BCST") {
		switch {
		case op == "VSHUFI64X2" || op == "VALIGNQ" || strings.HasSuffix(op, "Q"):
			return 8, nil
		case strings.HasSuffix(op, "D"):
			return 4, nil
		}
		return 0, fmt.Errorf("broadcast element size of %s", op)
	}
	vlen := 0
	for _, o := range inst.Operands {
		for _, r := range operand.Registers(o) {
			if ph := reg.ToPhysical(r); ph != nil && ph.Kind() == reg.KindVector && int(ph.Size()) > vlen {
				vlen = int(ph.Size())
			}
		}
	}
	fixed := map[string]int{
		"MOVQ": 8, "VMOVQ": 8, "MOVHPS": 8, "MOVLPS": 8, "MOVHPD": 8, "MOVLPD": 8, "MOVD": 4, "VMOVD": 4,
		"VPINSRQ": 8, "VPINSRD": 4, "VPINSRW": 2, "VPINSRB": 1, "PINSRQ": 8, "PINSRD": 4,
		"VPEXTRQ": 8, "VPEXTRD": 4, "PEXTRQ": 8, "PEXTRD": 4,
		"VPBROADCASTQ": 8, "VPBROADCASTD": 4, "VPBROADCASTW": 2, "VPBROADCASTB": 1,
		"VBROADCASTI128": 16, "VBROADCASTI32X4": 16, "VBROADCASTI64X2": 16, "VBROADCASTI32X8": 32, "VBROADCASTI64X4": 32,
		"VINSERTI128": 16, "VINSERTI32X4": 16, "VINSERTI64X2": 16, "VINSERTI64X4": 32, "VINSERTI32X8": 32,
		"VEXTRACTI128": 16, "VEXTRACTI32X4": 16, "VEXTRACTI64X2": 16, "VEXTRACTI64X4": 32, "VEXTRACTI32X8": 32,
		"MOVBQZX": 1, "MOVBLZX": 1, "MOVWQZX": 2, "MOVWLZX": 2, "MOVLQZX": 4,
		"KMOVQ": 8, "KMOVD": 4, "KMOVW": 2, "KMOVB": 1,
	}
	if n, ok := fixed[op]; ok {
		if op == "MOVQ" && vlen == 0 {
			return 8, nil
		}
		return n, nil
	}
	if vlen > 0 {
		return vlen, nil
	}
	if strings.HasPrefix(op, "V") || strings.HasPrefix(op, "P") || strings.HasPrefix(op, "MOVO") || strings.HasPrefix(op, "AES") {
		return 16, nil
	}
	if w := opWidth(op); w > 0 {
		return w, nil
	}
	return 0, fmt.Errorf("memory size of %s", op)
}

// emit adds the probe's function to ctx.
func (p *probe) emit(ctx *build.Context) {
	ctx.Function(p.name)
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr("func(in, out *byte)")
	ctx.Pragma("noescape")
	ctx.Doc(fmt.Sprintf("%s runs %s (%s form %s).", p.name, p.text, p.origin, p.form))
	in := func(off int) operand.Mem { return operand.Mem{Base: reg.R14, Disp: off} }
	out := func(off int) operand.Mem { return operand.Mem{Base: reg.R15, Disp: off} }
	ctx.MOVQ(operand.NewParamAddr("in", 0), reg.R14)
	ctx.MOVQ(operand.NewParamAddr("out", 8), reg.R15)
	ctx.Comment("Flags: CF, PF, ZF, SF and OF from flagA + flagB.")
	ctx.MOVQ(in(inFlags), reg.RAX)
	ctx.ADDQ(in(inFlags+8), reg.RAX)
	if p.adx {
		ctx.Comment("OF anew, independent of CF: the carry of flagC + flagD + OF.")
		ctx.MOVQ(in(inFlags+16), reg.RBX)
		ctx.ADOXQ(in(inFlags+24), reg.RBX)
	}
	for i, r := range gpHarness {
		ctx.MOVQ(in(inGP+8*i), reg.GeneralPurpose.Lookup(reg.Index(r), reg.S64))
	}
	slotOf := func(slots []slot, name string) int {
		for _, s := range slots {
			if s.name == name {
				return s.off
			}
		}
		panic("no slot " + name)
	}
	vreg := func(v int) reg.Register {
		if p.hw == 32 {
			return reg.Vector.Lookup(reg.Index(v), reg.S256)
		}
		return reg.Vector.Lookup(reg.Index(v), reg.S512)
	}
	vname := func(v int) string { return fmt.Sprintf("%c%d", map[int]byte{64: 'Z', 32: 'Y'}[p.hw], v) }
	for _, v := range p.vecs {
		if p.hw == 32 {
			ctx.VMOVDQU(in(slotOf(p.in, vname(v))), vreg(v))
		} else {
			ctx.VMOVDQU64(in(slotOf(p.in, vname(v))), vreg(v))
		}
	}
	for _, k := range p.ks {
		ctx.KMOVQ(in(slotOf(p.in, fmt.Sprintf("K%d", k))), reg.Opmask.Lookup(reg.Index(k), reg.S64))
	}
	ctx.Comment("The probed instruction.")
	switch {
	case p.noInst:
	case p.branch == "jcc":
		ctx.Instruction(p.inst)
		ctx.MOVB(operand.U8(0), out(5))
		ctx.JMP(operand.LabelRef("done"))
		ctx.Label("taken")
		ctx.MOVB(operand.U8(1), out(5))
		ctx.Label("done")
	case p.branch == "jmp":
		ctx.Instruction(p.inst)
		ctx.MOVB(operand.U8(1), out(5))
		ctx.Label("skip")
	default:
		ctx.Instruction(p.inst)
	}
	ctx.Comment("Every flag, register and mask the probe loaded.")
	ctx.SETCS(out(0))
	ctx.SETPS(out(1))
	ctx.SETEQ(out(2))
	ctx.SETMI(out(3))
	ctx.SETOS(out(4))
	for i, r := range gpHarness {
		ctx.MOVQ(reg.GeneralPurpose.Lookup(reg.Index(r), reg.S64), out(outGP+8*i))
	}
	for _, v := range p.vecs {
		if p.hw == 32 {
			ctx.VMOVDQU(vreg(v), out(slotOf(p.out, vname(v))))
		} else {
			ctx.VMOVDQU64(vreg(v), out(slotOf(p.out, vname(v))))
		}
	}
	for _, k := range p.ks {
		ctx.KMOVQ(reg.Opmask.Lookup(reg.Index(k), reg.S64), out(slotOf(p.out, fmt.Sprintf("K%d", k))))
	}
	ctx.RET()
}
