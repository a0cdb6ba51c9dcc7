package x86sim

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unsafe"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// Symbolic mode: the same parsed functions run over values of package sym
// (bit-vector words in canonical form) instead of bytes, so that one run
// computes a function's outputs for every value of the inputs a caller made
// variables. Addresses, branch conditions and loop counts must come out as
// constants: vg's functions take them from public lengths only, and a run
// whose control flow depends on a variable is refused, not guessed.
//
// Each instruction form has symbolic semantics of its own (symOps); the
// tests check them against the concrete model on random states
// (TestSymbolicAgreesWithModel), and general-register instructions whose
// operands are all constants run the concrete model's own semantics.

// A SymMem is memory a symbolic call may access: its bytes, each an 8-bit
// word, which the call updates in place.
type SymMem struct {
	Name     string
	Bytes    []*sym.Word
	ReadOnly bool
	// Pointers are addresses of other memory the call may access, stored
	// in Bytes (8 bytes each, little-endian) when the call starts: slice
	// headers, for example.
	Pointers []SymPointer
}

// A SymPointer is the address of Mem's byte Off, stored at byte At of the
// memory that lists it.
type SymPointer struct {
	At  int
	Mem *SymMem
	Off int
}

// A SymArg is one 8-byte word of a symbolic call's argument frame: a pointer
// to Mem (at byte Off), or the 64-bit Word.
type SymArg struct {
	Mem  *SymMem
	Off  int
	Word *sym.Word
}

// A SymError is a symbolic run the model refused: control flow or an
// address that depends on a variable, an instruction form without symbolic
// semantics, or an access outside every region.
type SymError struct {
	Func string
	Line int
	Inst string
	Msg  string
}

func (e *SymError) Error() string {
	return fmt.Sprintf("x86sim: symbolic %s (line %d: %s): %s", e.Func, e.Line, e.Inst, e.Msg)
}

type symRegion struct {
	name     string
	base     uint64
	bytes    []*sym.Word
	readOnly bool
}

type symMachine struct {
	ctx *sym.Ctx
	p   *Program
	fn  *Func
	pc  int
	gp  [16]*sym.Word
	vec [32]*sym.Word
	k   [8]*sym.Word
	// fl are the flags, nil where unknown (set from a variable).
	fl      [nFlags]*sym.Word
	regions []*symRegion
	fp      uint64
	jumped  bool
	cuts    map[int][]*SymCut
	visits  map[int]int
	stopped bool
}

// A SymCut cuts a loop for a proof: each time the run reaches the
// instruction after the label Label (as the .s names it, "polyloop_1"),
// Visit gets the visit's number (0 the first) and the general registers,
// and may replace their words: with fresh variables, say, after checking
// that the words they stand for keep the loop's invariant. Whatever the run
// then proves holds for every value of those variables, the real one among
// them.
//
// Label "phase: NAME" cuts at the first instruction of the phase asmgen
// named with a comment "// phase: NAME..." (the one phase whose name starts
// with NAME). Label SymReturn cuts at the function's RET: Mem there reads
// what the run left in memory and registers before it returns (a frame's
// scratch, say). Several cuts at one place (two labels of one instruction,
// say) run in the order given, each with the place's visit number.
type SymCut struct {
	Label string
	Visit func(n int, gp *[16]*sym.Word)
	// Exit moves the cut to the loop's exit: the instruction after the
	// last jump back to Label, reached once the loop is done.
	Exit bool
	// Mem, when set, is called at each visit after Visit (which may be
	// nil) with the run's memory: a loop whose state is in memory (a
	// stack frame's limbs) is cut by reading and replacing its words.
	Mem func(n int, gp *[16]*sym.Word, mem SymMemory)
	// Vec, when set, is called at each visit after Mem with the vector
	// registers (Z0..Z31, 512 bits each) and the opmask registers: a loop
	// whose state is in zmm lanes is cut by replacing them.
	Vec func(n int, vec *[32]*sym.Word, k *[8]*sym.Word)
	// Stop ends the run at the cut's first visit, after its callbacks: a
	// proof of the part of a function before it (RunSymbolic then
	// returns no results).
	Stop bool
}

// SymReturn is the SymCut label of a function's RET.
const SymReturn = "RET"

// retPC is where the cuts keep a SymReturn cut: no instruction's index.
const retPC = -2

// SymMemory is a symbolic run's memory at a cut, addressed as the run's
// registers hold addresses; an access outside every region fails the run.
type SymMemory struct{ m *symMachine }

// Load returns the n bytes at addr as one word (little-endian).
func (s SymMemory) Load(addr uint64, n int) *sym.Word { return s.m.load(addr, n) }

// Store writes w (a multiple of 8 bits) at addr.
func (s SymMemory) Store(addr uint64, w *sym.Word) { s.m.store(addr, w) }

func (m *symMachine) failf(format string, args ...any) {
	e := &SymError{Func: m.fn.Name, Msg: fmt.Sprintf(format, args...)}
	if m.pc >= 0 && m.pc < len(m.fn.insts) {
		e.Line = m.fn.insts[m.pc].line
		e.Inst = m.fn.insts[m.pc].String()
	}
	panic(e)
}

const (
	symMemBase   = 0x100000000000
	symMemStride = 0x100000000
	symStackBase = 0x700000000000
)

// RunSymbolic runs the function name on an argument frame of args (8 bytes
// each, in order; the slots after them are the results) with ctx's words,
// and returns the result slots' bytes; cuts are called at their labels.
// Every register starts as a variable ("entry.AX", "entry.Z3", ...), the
// stack below the arguments as variables ("stack+i"), and the DATA tables as
// their constants.
func (p *Program) RunSymbolic(ctx *sym.Ctx, name string, args []SymArg, cuts ...SymCut) (results []*sym.Word, err error) {
	fn := p.funcs[name]
	if fn == nil {
		return nil, fmt.Errorf("x86sim: no function %s", name)
	}
	var at map[int][]*SymCut
	for i := range cuts {
		pc, ok := fn.labels[cuts[i].Label]
		if cuts[i].Label == SymReturn {
			pc, ok = retPC, true
		}
		if name, isPhase := strings.CutPrefix(cuts[i].Label, "phase: "); isPhase {
			for ph, at := range fn.phases {
				if strings.HasPrefix(ph, name) {
					if ok {
						return nil, fmt.Errorf("x86sim: %s has more than one phase %q", fn.Name, name)
					}
					pc, ok = at, true
				}
			}
		}
		if !ok {
			return nil, fmt.Errorf("x86sim: %s has no label %s", name, cuts[i].Label)
		}
		if cuts[i].Exit {
			last := -1
			for j, in := range fn.insts {
				if in.target == pc && j >= pc {
					last = j
				}
			}
			if last < 0 || last+1 >= len(fn.insts) {
				return nil, fmt.Errorf("x86sim: %s has no loop back to %s", name, cuts[i].Label)
			}
			pc = last + 1
		}
		if at == nil {
			at = map[int][]*SymCut{}
		}
		at[pc] = append(at[pc], &cuts[i])
	}
	if 8*len(args) > fn.Args {
		return nil, fmt.Errorf("x86sim: %s takes %d bytes of arguments, given %d", name, fn.Args, 8*len(args))
	}
	m := &symMachine{ctx: ctx, p: p, fn: fn, pc: -1, cuts: at, visits: map[int]int{}}
	bp := 0
	if fn.Frame > 0 {
		bp = 8
	}
	argAt := StackBelowSP + fn.Frame + bp + 8
	stack := &symRegion{name: "stack", base: symStackBase, bytes: make([]*sym.Word, argAt+fn.Args)}
	for i := range stack.bytes[:argAt] {
		stack.bytes[i] = ctx.Var(fmt.Sprintf("stack+%d", i), 8)
	}
	m.fp = symStackBase + uint64(argAt)
	mems := map[*SymMem]uint64{}
	var place func(mem *SymMem) uint64
	place = func(mem *SymMem) uint64 {
		base, ok := mems[mem]
		if !ok {
			base = symMemBase + uint64(len(mems))*symMemStride
			mems[mem] = base
			m.regions = append(m.regions, &symRegion{name: mem.Name, base: base, bytes: mem.Bytes, readOnly: mem.ReadOnly})
			for _, p := range mem.Pointers {
				copy(mem.Bytes[p.At:p.At+8], sym.Const(64, place(p.Mem)+uint64(p.Off)).Bytes())
			}
		}
		return base
	}
	for i, a := range args {
		w := a.Word
		if a.Mem != nil {
			w = sym.Const(64, place(a.Mem)+uint64(a.Off))
		}
		if w == nil || w.Width() != 64 {
			return nil, fmt.Errorf("x86sim: argument %d of %s is neither memory nor a 64-bit word", i, name)
		}
		copy(stack.bytes[argAt+8*i:], w.Bytes())
	}
	for i := argAt + 8*len(args); i < argAt+fn.Args; i++ {
		stack.bytes[i] = sym.Zero(8)
	}
	m.regions = append(m.regions, stack)
	m.regions = append(m.regions, p.symData()...)
	for i := range m.gp {
		m.gp[i] = ctx.Var("entry."+gpNames[i], 64)
	}
	m.gp[rSP] = sym.Const(64, symStackBase+StackBelowSP)
	for i := range m.vec {
		m.vec[i] = ctx.Var(fmt.Sprintf("entry.Z%d", i), 512)
	}
	for i := range m.k {
		m.k[i] = ctx.Var(fmt.Sprintf("entry.K%d", i), 64)
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*SymError)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	m.run()
	if m.stopped {
		return nil, nil
	}
	return stack.bytes[argAt+8*len(args):], nil
}

// symData is the DATA tables as constant regions at the addresses the
// concrete model reads them from.
func (p *Program) symData() []*symRegion {
	var rs []*symRegion
	for _, d := range p.dataRegions() {
		r := &symRegion{name: strings.TrimSuffix(d.names[0], "<>(SB)"), base: d.base, readOnly: true}
		for _, b := range unsafe.Slice((*byte)(d.ptr), d.end-d.base) {
			r.bytes = append(r.bytes, sym.Const(8, uint64(b)))
		}
		rs = append(rs, r)
	}
	return rs
}

func (m *symMachine) run() {
	insts := m.fn.insts
	steps := 0
	m.pc = 0
	for {
		if m.pc >= len(insts) {
			m.failf("ran past the last instruction without RET")
		}
		in := &insts[m.pc]
		steps++
		if steps > 1<<24 {
			m.failf("more than %d steps", 1<<24)
		}
		at := m.pc
		if in.op == "RET" {
			at = retPC
		}
		if cs := m.cuts[at]; cs != nil {
			for _, c := range cs {
				if c.Visit != nil {
					c.Visit(m.visits[at], &m.gp)
				}
				if c.Mem != nil {
					c.Mem(m.visits[at], &m.gp, SymMemory{m})
				}
				if c.Vec != nil {
					c.Vec(m.visits[at], &m.vec, &m.k)
				}
				m.stopped = m.stopped || c.Stop
			}
			if m.stopped {
				return
			}
			m.visits[at]++
		}
		if in.op == "RET" {
			return
		}
		m.jumped = false
		m.step(in)
		if m.jumped {
			m.pc = in.target
		} else {
			m.pc++
		}
	}
}

func (m *symMachine) step(in *inst) {
	if f := symOps[in.op]; f != nil {
		f(m, in)
		return
	}
	if !hasSymbolic(in) {
		m.failf("no symbolic semantics for %s", in.op)
	}
	m.concreteGP(in)
}

// gpConcreteOps are the general-register instructions that run with the
// concrete model's semantics when their operands are constants.
var gpConcreteOps = map[string]bool{}

func init() {
	for _, op := range []string{"ADD", "SUB", "CMP", "DEC", "INC", "AND", "OR", "XOR", "TEST", "SHR", "SHL", "SAR", "NEG", "NOT", "MOV"} {
		for _, s := range []string{"Q", "L"} {
			gpConcreteOps[op+s] = true
		}
	}
}

// concreteGP runs a general-register instruction (no memory operand) whose
// register operands and read flags are constants on a scratch concrete
// machine, and takes back every register and flag it wrote.
func (m *symMachine) concreteGP(in *inst) {
	if in.target >= 0 && in.op != "JMP" {
		for _, f := range condFlags[in.cond] {
			if m.fl[f] == nil {
				m.failf("branch on a flag that is not a constant")
			}
		}
	}
	var regs [16]uint64
	var known [16]bool
	// A compare or test writes no register and reads only its operand
	// width, which may be a constant part of a register.
	cmp := strings.HasPrefix(in.op, "CMP") || strings.HasPrefix(in.op, "TEST")
	for i, w := range m.gp {
		if cmp && in.w > 0 && in.w < 8 {
			w = m.ctx.Low(w, 8*in.w)
		}
		regs[i], known[i] = w.Uint64()
	}
	for _, a := range in.args {
		switch {
		case a.kind == kMem:
			m.failf("memory operand on the concrete path")
		case a.kind == kReg && a.cls == cGP && !known[a.reg]:
			m.failf("register %s is not a constant", gpNames[a.reg])
		case a.kind == kReg && a.cls != cGP:
			m.failf("%s operand", a)
		}
	}
	// Two runs, unknown flags false then true: a flag that differs between
	// them was not written.
	var out [2]*Machine
	for r := range out {
		s := &Machine{fn: m.fn, pc: m.pc}
		s.gp = regs
		for f := range m.fl {
			if m.fl[f] != nil {
				v, _ := m.fl[f].Uint64()
				s.fl[f] = v != 0
			} else {
				s.fl[f] = r == 1
			}
		}
		func() {
			defer func() {
				if e := recover(); e != nil {
					if f, ok := e.(*Fault); ok {
						m.failf("%s", f.Msg)
					}
					panic(e)
				}
			}()
			in.exec(s, in)
		}()
		out[r] = s
	}
	for i := range regs {
		if cmp {
			break
		}
		if out[0].gp[i] != out[1].gp[i] {
			m.failf("%s depends on an unknown flag", gpNames[i])
		}
		if !known[i] && out[0].gp[i] == regs[i] {
			continue
		}
		if !known[i] || out[0].gp[i] != regs[i] {
			m.gp[i] = sym.Const(64, out[0].gp[i])
		}
	}
	for f := range m.fl {
		if out[0].fl[f] == out[1].fl[f] {
			m.fl[f] = sym.Const(1, map[bool]uint64{true: 1}[out[0].fl[f]])
		}
	}
	if (out[0].pc == -2) != (out[1].pc == -2) {
		m.failf("branch depends on an unknown flag")
	}
	m.jumped = out[0].pc == -2
}

// Memory.

func (m *symMachine) addr(o *operand) uint64 {
	if o.sym != nil {
		for _, r := range m.regions {
			if r.name == o.sym.name && r.readOnly {
				return r.base + uint64(o.disp)
			}
		}
		m.failf("no DATA %s", o.sym.name)
	}
	if o.fp {
		return m.fp + uint64(o.disp)
	}
	a := uint64(o.disp)
	if o.base >= 0 {
		v, ok := m.gp[o.base].Uint64()
		if !ok {
			m.failf("address from %s, which is not a constant", gpNames[o.base])
		}
		a += v
	}
	if o.index >= 0 {
		v, ok := m.gp[o.index].Uint64()
		if !ok {
			m.failf("address from index %s, which is not a constant", gpNames[o.index])
		}
		a += v * uint64(o.scale)
	}
	return a
}

func (m *symMachine) region(a uint64, n int, write bool) (*symRegion, int) {
	for _, r := range m.regions {
		if a >= r.base && a+uint64(n) <= r.base+uint64(len(r.bytes)) {
			if write && r.readOnly {
				m.failf("write to read-only %s", r.name)
			}
			return r, int(a - r.base)
		}
	}
	m.failf("%d-byte access at %#x outside every region", n, a)
	return nil, 0
}

func (m *symMachine) load(a uint64, n int) *sym.Word {
	r, off := m.region(a, n, false)
	return sym.Concat(r.bytes[off : off+n]...)
}

func (m *symMachine) store(a uint64, v *sym.Word) {
	r, off := m.region(a, v.Width()/8, true)
	copy(r.bytes[off:], v.Bytes())
}

// Operands.

// read is the low n bytes of a register, memory or immediate operand.
func (m *symMachine) read(o *operand, n int) *sym.Word {
	switch o.kind {
	case kImm:
		return sym.Const(8*n, uint64(o.imm))
	case kMem:
		return m.load(m.addr(o), n)
	case kReg:
		switch o.cls {
		case cGP:
			if n > 8 {
				return m.gp[o.reg].ZeroExtend(8 * n)
			}
			return m.ctx.Low(m.gp[o.reg], 8*n)
		case cVec:
			return m.vec[o.reg].Extract(0, 8*n)
		case cK:
			return m.k[o.reg].Extract(0, 8*n)
		}
	}
	m.failf("operand %s", o)
	return nil
}

// readB is read with an EVEX embedded broadcast of esize-byte elements.
func (m *symMachine) readB(in *inst, o *operand, n, esize int) *sym.Word {
	if !in.bcst || o.kind != kMem {
		return m.read(o, n)
	}
	e := m.load(m.addr(o), esize)
	parts := make([]*sym.Word, n/esize)
	for i := range parts {
		parts[i] = e
	}
	return sym.Concat(parts...)
}

// repeat is n copies of x side by side.
func repeat(x *sym.Word, n int) *sym.Word {
	parts := make([]*sym.Word, n)
	for i := range parts {
		parts[i] = x
	}
	return sym.Concat(parts...)
}

// maskedLoad reads the elements of memory operand o that in's write mask
// enables, zero elsewhere.
func (m *symMachine) maskedLoad(in *inst, o *operand, n, esize int) *sym.Word {
	k, ok := m.k[in.kmask].Uint64()
	if !ok {
		m.failf("write mask K%d is not a constant", in.kmask)
	}
	a := m.addr(o)
	es := make([]*sym.Word, n/esize)
	for i := range es {
		if k>>i&1 != 0 {
			es[i] = m.load(a+uint64(i*esize), esize)
		} else {
			es[i] = sym.Zero(8 * esize)
		}
	}
	return sym.Concat(es...)
}

// writeGP writes a general-register or memory destination of width n bytes:
// 32-bit register writes zero the upper half, 8- and 16-bit ones keep it.
func (m *symMachine) writeGP(o *operand, v *sym.Word) {
	n := v.Width() / 8
	switch {
	case o.kind == kMem:
		m.store(m.addr(o), v)
	case o.kind == kReg && o.cls == cGP:
		switch n {
		case 8:
			m.gp[o.reg] = v
		case 4:
			m.gp[o.reg] = v.ZeroExtend(64)
		default:
			m.gp[o.reg] = sym.Concat(v, m.gp[o.reg].Extract(8*n, 64-8*n))
		}
	default:
		m.failf("destination %s", o)
	}
}

// vwrite writes the low n bytes of a vector result: legacy SSE keeps the
// register's bits above them, VEX and EVEX zero them; under an EVEX write
// mask of esize-byte elements, disabled elements keep the destination's or
// become zero, and in memory are not written. A mask bit that is not a
// constant selects its element (SymSelect) in a register; a store under
// one fails.
func (m *symMachine) vwrite(in *inst, o *operand, v *sym.Word, esize int) {
	n := v.Width() / 8
	if in.kmask != 0 {
		k := m.k[in.kmask]
		es := v.Lanes(8 * esize)
		if o.kind == kMem {
			kc, ok := k.Uint64()
			if !ok {
				m.failf("a store under write mask K%d, which is not a constant", in.kmask)
			}
			a := m.addr(o)
			for i := range es {
				if kc>>i&1 != 0 {
					m.store(a+uint64(i*esize), es[i])
				}
			}
			return
		}
		os := m.read(o, n).Lanes(8 * esize)
		for i := range es {
			if in.zeroing {
				os[i] = sym.Zero(8 * esize)
			}
			es[i] = SymSelect(m.ctx, k.Extract(i, 1), es[i], os[i])
		}
		v = sym.Concat(es...)
	}
	switch {
	case o.kind == kMem:
		m.store(m.addr(o), v)
	case o.kind == kReg && o.cls == cVec:
		if in.vex {
			m.vec[o.reg] = v.ZeroExtend(512)
		} else {
			m.vec[o.reg] = sym.Concat(v, m.vec[o.reg].Extract(8*n, 512-8*n))
		}
	default:
		m.failf("vector destination %s", o)
	}
}

// vops splits a vector instruction's operands as vbinary does: an optional
// immediate, the second source (register or memory), the first source (the
// destination for legacy SSE) and the destination.
func vops(in *inst) (imm int, s2, s1, d *operand) {
	a := in.args
	if a[0].kind == kImm {
		imm = int(uint8(a[0].imm))
		a = a[1:]
	}
	d = &in.args[len(in.args)-1]
	s2 = &a[0]
	s1 = d
	if in.vex && len(a) >= 3 {
		s1 = &in.args[len(in.args)-2]
	}
	return
}

func mapLanes(x *sym.Word, bits int, f func(i int, e *sym.Word) *sym.Word) *sym.Word {
	es := x.Lanes(bits)
	for i := range es {
		es[i] = f(i, es[i])
	}
	return sym.Concat(es...)
}

func zipLanes(a, b *sym.Word, bits int, f func(x, y *sym.Word) *sym.Word) *sym.Word {
	as, bs := a.Lanes(bits), b.Lanes(bits)
	for i := range as {
		as[i] = f(as[i], bs[i])
	}
	return sym.Concat(as...)
}

// symOps are the symbolic semantics, by mnemonic.
var symOps = map[string]func(m *symMachine, in *inst){}

func esizeOf(op string) int {
	switch {
	case strings.HasSuffix(op, "64"), strings.HasSuffix(op, "Q"):
		return 8
	case strings.HasSuffix(op, "32"), strings.HasSuffix(op, "D"), strings.HasSuffix(op, "L"):
		return 4
	}
	return 1
}

func init() {
	for _, op := range []string{"MOVOU", "MOVOA", "MOVUPS", "MOVAPS", "VMOVDQU", "VMOVDQA", "VMOVDQU8", "VMOVDQU32", "VMOVDQU64", "VMOVDQA32", "VMOVDQA64"} {
		es := 1
		switch {
		case strings.HasSuffix(op, "32"):
			es = 4
		case strings.HasSuffix(op, "64"):
			es = 8
		}
		symOps[op] = func(m *symMachine, in *inst) {
			src := &in.args[0]
			if in.kmask != 0 && src.kind == kMem {
				// A masked load reads only the enabled elements.
				m.vwrite(in, &in.args[1], m.maskedLoad(in, src, in.w, es), es)
				return
			}
			m.vwrite(in, &in.args[1], m.read(src, in.w), es)
		}
	}
	bitwise := func(f func(m *symMachine, a, b *sym.Word) *sym.Word) func(m *symMachine, in *inst) {
		return func(m *symMachine, in *inst) {
			_, s2, s1, d := vops(in)
			es := esizeOf(in.op)
			m.vwrite(in, d, f(m, m.read(s1, in.w), m.readB(in, s2, in.w, es)), es)
		}
	}
	for _, op := range []string{"PXOR", "VPXOR", "VPXORD", "VPXORQ", "XORPS", "VXORPS"} {
		symOps[op] = bitwise(func(_ *symMachine, a, b *sym.Word) *sym.Word { return sym.Xor(a, b) })
	}
	for _, op := range []string{"POR", "VPOR", "VPORD", "VPORQ"} {
		symOps[op] = bitwise(func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.Or(a, b) })
	}
	for _, op := range []string{"PAND", "VPAND", "VPANDD", "VPANDQ"} {
		symOps[op] = bitwise(func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.And(a, b) })
	}
	for _, op := range []string{"PANDN", "VPANDN", "VPANDND", "VPANDNQ"} {
		symOps[op] = bitwise(func(m *symMachine, a, b *sym.Word) *sym.Word { return m.ctx.And(sym.Not(a), b) })
	}
	for _, a := range []struct {
		sse, v string
		es     int
	}{{"PADDL", "VPADDD", 4}, {"PADDQ", "VPADDQ", 8}} {
		es := a.es
		f := func(m *symMachine, in *inst) {
			_, s2, s1, d := vops(in)
			r := zipLanes(m.read(s1, in.w), m.readB(in, s2, in.w, es), 8*es, func(x, y *sym.Word) *sym.Word { return m.ctx.Add(x, y) })
			m.vwrite(in, d, r, es)
		}
		symOps[a.sse], symOps[a.v] = f, f
	}
	// Shifts and rotates by an immediate: "$imm, x" (SSE) or "$imm, src, dst".
	for _, s := range []struct {
		sse, v string
		es     int
		f      func(x *sym.Word, k int) *sym.Word
	}{
		{"PSLLL", "VPSLLD", 4, (*sym.Word).Shl}, {"PSRLL", "VPSRLD", 4, (*sym.Word).Shr},
		{"PSLLQ", "VPSLLQ", 8, (*sym.Word).Shl}, {"PSRLQ", "VPSRLQ", 8, (*sym.Word).Shr},
		{"", "VPROLD", 4, (*sym.Word).RotateLeft}, {"", "VPROLQ", 8, (*sym.Word).RotateLeft},
		{"PSRAL", "VPSRAD", 4, sar},
	} {
		s := s
		f := func(m *symMachine, in *inst) {
			if in.args[0].kind != kImm {
				m.failf("shift count not an immediate")
			}
			k := int(uint8(in.args[0].imm))
			src := &in.args[1]
			d := &in.args[len(in.args)-1]
			r := mapLanes(m.readB(in, src, in.w, s.es), 8*s.es, func(_ int, e *sym.Word) *sym.Word { return s.f(e, k) })
			m.vwrite(in, d, r, s.es)
		}
		if s.sse != "" {
			symOps[s.sse] = f
		}
		symOps[s.v] = f
	}
	pshufd := func(m *symMachine, in *inst) {
		imm, s2, _, d := vops(in)
		x := m.readB(in, s2, in.w, 4).Lanes(32)
		r := make([]*sym.Word, len(x))
		for l := 0; l < len(x); l += 4 {
			for i := 0; i < 4; i++ {
				r[l+i] = x[l+imm>>(2*i)&3]
			}
		}
		m.vwrite(in, d, sym.Concat(r...), 4)
	}
	symOps["PSHUFD"], symOps["VPSHUFD"] = pshufd, pshufd
	pshufb := func(m *symMachine, in *inst) {
		_, ctl, s1, d := vops(in)
		c, ok := m.read(ctl, in.w).Value()
		if !ok {
			m.failf("shuffle control is not a constant")
		}
		x := m.read(s1, in.w).Bytes()
		r := make([]*sym.Word, len(x))
		for i := range r {
			b := new(big.Int).Rsh(c, uint(8*i)).Uint64() & 0xff
			if b&0x80 != 0 {
				r[i] = sym.Zero(8)
			} else {
				r[i] = x[i&^15+int(b&15)]
			}
		}
		m.vwrite(in, d, sym.Concat(r...), 1)
	}
	symOps["PSHUFB"], symOps["VPSHUFB"] = pshufb, pshufb
	for _, u := range []struct {
		sse, v string
		es     int
		hi     bool
	}{
		{"PUNPCKLLQ", "VPUNPCKLDQ", 4, false}, {"PUNPCKLQDQ", "VPUNPCKLQDQ", 8, false},
		{"PUNPCKHLQ", "VPUNPCKHDQ", 4, true}, {"PUNPCKHQDQ", "VPUNPCKHQDQ", 8, true},
	} {
		u := u
		f := func(m *symMachine, in *inst) {
			_, s2, s1, d := vops(in)
			a, b := m.read(s1, in.w).Lanes(8*u.es), m.readB(in, s2, in.w, u.es).Lanes(8*u.es)
			per := 16 / u.es
			base := 0
			if u.hi {
				base = per / 2
			}
			r := make([]*sym.Word, len(a))
			for l := 0; l < len(a); l += per {
				for i := 0; i < per/2; i++ {
					r[l+2*i], r[l+2*i+1] = a[l+base+i], b[l+base+i]
				}
			}
			m.vwrite(in, d, sym.Concat(r...), u.es)
		}
		symOps[u.sse], symOps[u.v] = f, f
	}
	symOps["VPERM2I128"] = func(m *symMachine, in *inst) {
		imm, s2, s1, d := vops(in)
		src := [2][]*sym.Word{m.read(s1, 32).Lanes(128), m.read(s2, 32).Lanes(128)}
		r := make([]*sym.Word, 2)
		for j := range r {
			c := imm >> (4 * j)
			if c&8 != 0 {
				r[j] = sym.Zero(128)
			} else {
				r[j] = src[c>>1&1][c&1]
			}
		}
		m.vwrite(in, d, sym.Concat(r...), 1)
	}
	for _, op := range []string{"VSHUFI32X4", "VSHUFI64X2"} {
		es := 4
		if strings.HasSuffix(op, "X2") {
			es = 8
		}
		symOps[op] = func(m *symMachine, in *inst) {
			imm, s2, s1, d := vops(in)
			a, b := m.read(s1, in.w).Lanes(128), m.readB(in, s2, in.w, es).Lanes(128)
			nl := len(a)
			bits, mk := 2, 3
			if nl == 2 {
				bits, mk = 1, 1
			}
			r := make([]*sym.Word, nl)
			for j := range r {
				s := a
				if j >= nl/2 {
					s = b
				}
				r[j] = s[imm>>(bits*j)&mk]
			}
			m.vwrite(in, d, sym.Concat(r...), es)
		}
	}
	for _, b := range []struct {
		op string
		es int
	}{{"VPBROADCASTD", 4}, {"VPBROADCASTQ", 8}} {
		es := b.es
		symOps[b.op] = func(m *symMachine, in *inst) {
			m.vwrite(in, &in.args[1], repeat(m.read(&in.args[0], es), in.args[1].size/es), es)
		}
	}
	symOps["VZEROUPPER"] = func(m *symMachine, in *inst) {
		for i := 0; i < 16; i++ {
			m.vec[i] = m.vec[i].Extract(0, 128).ZeroExtend(512)
		}
	}
}

// sar is x shifted right by k with copies of its sign bit shifted in (a
// count of the width or more fills it with the sign).
func sar(x *sym.Word, k int) *sym.Word {
	w := x.Width()
	k = min(k, w-1)
	parts := []*sym.Word{x.Extract(k, w-k)}
	sign := x.Extract(w-1, 1)
	for i := 0; i < k; i++ {
		parts = append(parts, sign)
	}
	return sym.Concat(parts...)
}

// Labels are the labels of the function name, in the order they appear:
// the places a SymCut may name.
func (p *Program) Labels(name string) []string {
	fn := p.funcs[name]
	if fn == nil {
		return nil
	}
	ls := make([]string, 0, len(fn.labels))
	for l := range fn.labels {
		ls = append(ls, l)
	}
	slices.SortFunc(ls, func(a, b string) int { return cmp.Or(fn.labels[a]-fn.labels[b], strings.Compare(a, b)) })
	return ls
}

// Phases are the phase names ("// phase: NAME" comments) of the function
// name, in the order they appear: a SymCut names one as "phase: " and a
// prefix of it.
func (p *Program) Phases(name string) []string {
	fn := p.funcs[name]
	if fn == nil {
		return nil
	}
	ps := make([]string, 0, len(fn.phases))
	for ph := range fn.phases {
		ps = append(ps, ph)
	}
	slices.SortFunc(ps, func(a, b string) int { return cmp.Or(fn.phases[a]-fn.phases[b], strings.Compare(a, b)) })
	return ps
}
