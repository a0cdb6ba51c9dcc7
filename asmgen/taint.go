package asmgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/cpufeat"
)

// taint is what the constant-time checker knows about a value.
type taint uint8

const (
	// tSecret: the value is derived from secret data.
	tSecret taint = 1 << iota
	// tSecretPtr: the value is a (public) pointer into secret memory, or
	// was computed from one.
	tSecretPtr
	// tDescPtr: the value is a (public) pointer to public slice headers
	// whose elements point into secret memory.
	tDescPtr
	// tStackPtr: the value is an address in the stack frame (LEAQ x(SP)).
	// Loads through it read, and stores through it may write, any byte of
	// the frame.
	tStackPtr
	// tScratchPtr: the value is an address in the function's Scratch area
	// (LEAQ of an address in it, and what is computed from that, such as
	// the scratch aligned through a register). Loads through it read, and
	// stores through it may write, any byte of the Scratch area, but not
	// the spill slots beyond it.
	tScratchPtr
	// tAnyStackPtr: the value is a copy of SP (MOVQ SP, r), an address
	// LEAQ computed outside the frame (below SP, or in the argument frame),
	// or one computed from those. Loads through it read, and stores through
	// it may write, any byte the analysis tracks: below SP, the frame, the
	// argument and result slots.
	tAnyStackPtr
	// tPublicPtr: the value is a pointer to public input memory (an
	// argument declared Public, or a slice-header array of SecretSlices),
	// or was computed from one: storing a secret through it is an error.
	tPublicPtr
	nTaintBits = 7
)

// Bit indexes of the taints, for val.why.
const (
	bitSecret = iota
	bitSecretPtr
	bitDescPtr
	bitStackPtr
	bitScratchPtr
	bitAnyStackPtr
	bitPublicPtr
)

// stackBelowSP is how many bytes below SP the analysis tracks at least (the
// model, x86sim, checks as many at every return): a function may use them as
// scratch, and they must be wiped like the frame.
const stackBelowSP = 256

// isSP reports whether r is the hardware stack pointer (avo's SP pseudo
// register as a memory base, or RSP as a general register).
func isSP(r reg.Register) bool {
	if r == nil {
		return false
	}
	if r == reg.StackPointer {
		return true
	}
	p := reg.ToPhysical(r)
	return p != nil && p.Kind() == reg.KindGP && p.PhysicalIndex() == reg.RSP.PhysicalIndex()
}

// stackLayout is the part of the stack a function sees, as byte offsets from
// SP: lo (at most -stackBelowSP, lower when the function addresses lower)
// below SP, the frame [0, frame), the saved BP and the return address, and
// the argument frame [argAt, top), whose first results bytes are the
// arguments and the rest the results.
type stackLayout struct {
	lo, frame, argAt, results, top int
}

func layoutOf(fn *Func) stackLayout {
	l := stackLayout{lo: -stackBelowSP, frame: fn.ir.LocalSize}
	bp := 0
	if l.frame > 0 {
		bp = 8 // the Go assembler saves BP at the top of a non-empty frame
	}
	l.argAt = l.frame + bp + 8
	l.results = fn.ir.Signature.Params().Bytes()
	l.top = l.argAt + fn.ir.ArgumentBytes()
	for _, i := range fn.ir.Instructions() {
		for _, op := range i.Operands {
			if m, ok := op.(operand.Mem); ok && isSP(m.Base) && m.Disp < l.lo {
				l.lo = m.Disp
			}
		}
	}
	return l
}

// size is the number of bytes the layout tracks.
func (l stackLayout) size() int { return l.top - l.lo }

// origin explains why a value carries one taint bit: the instruction that
// produced it, how, and the origin of the input it came from.
type origin struct {
	idx  int
	text string
	why  string
	from *origin
}

// val is a tainted value with one origin per taint bit.
type val struct {
	t   taint
	why [nTaintBits]*origin
}

// add merges o into v, keeping v's origin for bits it already had. It reports
// whether v changed.
func (v *val) add(o val) bool {
	changed := false
	for b := 0; b < nTaintBits; b++ {
		bit := taint(1) << b
		if o.t&bit != 0 && v.t&bit == 0 {
			v.t |= bit
			v.why[b] = o.why[b]
			changed = true
		}
	}
	return changed
}

// derive returns v with each origin wrapped in a new origin for instruction
// idx, saying why.
func derive(v val, idx int, text, why string) val {
	var out val
	out.t = v.t
	for b := 0; b < nTaintBits; b++ {
		if v.t&(1<<b) != 0 {
			out.why[b] = &origin{idx: idx, text: text, why: why, from: v.why[b]}
		}
	}
	return out
}

// source returns a value with taint t originating at instruction idx.
func source(t taint, idx int, text, why string) val {
	var v val
	v.t = t
	for b := 0; b < nTaintBits; b++ {
		if t&(1<<b) != 0 {
			v.why[b] = &origin{idx: idx, text: text, why: why}
		}
	}
	return v
}

// tstate is the taint of every register, the flags, and each byte of the
// stack the function sees (stackLayout, indexed from its lo).
type tstate struct {
	gp    [16]val
	vec   [32]val
	k     [8]val
	cf    val // carry flag
	of    val // the other arithmetic flags
	stack []val
}

func (s *tstate) clone() *tstate {
	c := *s
	c.stack = append([]val(nil), s.stack...)
	return &c
}

func (s *tstate) join(o *tstate) bool {
	changed := false
	for i := range s.gp {
		changed = s.gp[i].add(o.gp[i]) || changed
	}
	for i := range s.vec {
		changed = s.vec[i].add(o.vec[i]) || changed
	}
	for i := range s.k {
		changed = s.k[i].add(o.k[i]) || changed
	}
	changed = s.cf.add(o.cf) || changed
	changed = s.of.add(o.of) || changed
	for i := range s.stack {
		changed = s.stack[i].add(o.stack[i]) || changed
	}
	return changed
}

// slot returns the state slot of a physical register, or nil for pseudo
// registers.
func (s *tstate) slot(r reg.Register) *val {
	p := reg.ToPhysical(r)
	if p == nil {
		return nil
	}
	idx := int(p.PhysicalIndex())
	switch p.Kind() {
	case reg.KindGP:
		if idx < len(s.gp) {
			return &s.gp[idx]
		}
	case reg.KindVector:
		if idx < len(s.vec) {
			return &s.vec[idx]
		}
	case reg.KindOpmask:
		if idx < len(s.k) {
			return &s.k[idx]
		}
	}
	return nil
}

func (s *tstate) get(r reg.Register) val {
	if p := s.slot(r); p != nil {
		return *p
	}
	return val{}
}

// block is a basic block: instructions [start, end) and successor blocks.
type block struct {
	start, end int
	succ       []int
}

// basicBlocks splits is into basic blocks using avo's CFG.
func basicBlocks(is []*ir.Instruction) []block {
	index := map[*ir.Instruction]int{}
	for n, i := range is {
		index[i] = n
	}
	leader := make([]bool, len(is)+1)
	if len(is) > 0 {
		leader[0] = true
	}
	for n, i := range is {
		if !i.IsBranch && !i.IsTerminal {
			continue
		}
		leader[n+1] = true
		for _, s := range i.Succ {
			if s != nil {
				leader[index[s]] = true
			}
		}
	}
	var bs []block
	blockOf := make([]int, len(is))
	for n := 0; n < len(is); {
		end := n + 1
		for end < len(is) && !leader[end] {
			end++
		}
		for k := n; k < end; k++ {
			blockOf[k] = len(bs)
		}
		bs = append(bs, block{start: n, end: end})
		n = end
	}
	for b := range bs {
		last := is[bs[b].end-1]
		for _, s := range last.Succ {
			if s != nil {
				bs[b].succ = append(bs[b].succ, blockOf[index[s]])
			}
		}
	}
	return bs
}

// taintFinding is one constant-time violation.
type taintFinding struct {
	idx  int
	kind string
	msg  string
}

type taintAnalysis struct {
	fn       *Func
	avx      bool // upper vector lanes exist: legacy SSE writes keep them
	is       []*ir.Instruction
	l        stackLayout
	findings map[string]taintFinding
	report   bool
}

// entryOrigin marks the taint an argument slot holds on entry: loading it
// reports "loads argument <text>, which <why>".
const entryOrigin = -1

// entryStack returns the stack on entry: nothing tainted but the argument
// slots, with what their declarations say.
func (a *taintAnalysis) entryStack() []val {
	st := make([]val, a.l.size())
	for _, slot := range a.fn.slots {
		if slot.taint == 0 {
			continue
		}
		v := source(slot.taint, entryOrigin, slot.name, slot.what)
		for b := slot.off; b < slot.end; b++ {
			if k := a.l.argAt + b - a.l.lo; k >= 0 && k < len(st) {
				st[k] = v
			}
		}
	}
	return st
}

// fromStack returns the taint a load at instruction idx gets from a stack
// byte holding v: each origin wrapped in one saying why, except the entry
// taint of an argument slot, which the load is the source of.
func fromStack(v val, idx int, text, why string) val {
	var out val
	out.t = v.t
	for b := 0; b < nTaintBits; b++ {
		if v.t&(1<<b) == 0 {
			continue
		}
		if o := v.why[b]; o != nil && o.idx == entryOrigin {
			out.why[b] = &origin{idx: idx, text: text, why: fmt.Sprintf("loads argument %s, which %s", o.text, o.why)}
		} else {
			out.why[b] = &origin{idx: idx, text: text, why: why, from: o}
		}
	}
	return out
}

// readStack returns the taint of the stack bytes [lo, hi) (offsets from SP,
// clipped to what is tracked) as a load at instruction idx gets it.
func (a *taintAnalysis) readStack(s *tstate, idx int, text, why string, lo, hi int) val {
	var out val
	for b := max(lo, a.l.lo); b < hi && b < a.l.top; b++ {
		if v := s.stack[b-a.l.lo]; v.t&^out.t != 0 {
			out.add(fromStack(v, idx, text, why))
		}
	}
	return out
}

// checkTaint is the constant-time check: a taint analysis over the function's
// control-flow graph, after register allocation.
func (g *Generator) checkTaint(fn *Func) []error {
	is := fn.ir.Instructions()
	var unknown []string
	for n, i := range is {
		if _, ok := opTable[i.Opcode]; !ok {
			unknown = append(unknown, fmt.Sprintf("instruction %d %q", n, instText(i)))
		}
	}
	if len(unknown) > 0 {
		return []error{fmt.Errorf("asmgen: %s: opcode not in asmgen's constant-time table (add it to optable.go with its flags and timing): %s",
			fn.name, strings.Join(unknown, "; "))}
	}
	a := &taintAnalysis{fn: fn, avx: g.backend.Requires.Has(cpufeat.AVX), is: is, l: layoutOf(fn), findings: map[string]taintFinding{}}
	bs := basicBlocks(is)
	if len(bs) == 0 {
		return nil
	}
	in := make([]*tstate, len(bs))
	in[0] = &tstate{stack: a.entryStack()}
	for changed := true; changed; {
		changed = false
		for b := range bs {
			if in[b] == nil {
				continue
			}
			s := in[b].clone()
			for n := bs[b].start; n < bs[b].end; n++ {
				a.step(s, n)
			}
			for _, succ := range bs[b].succ {
				if in[succ] == nil {
					in[succ] = s.clone()
					changed = true
				} else if in[succ].join(s) {
					changed = true
				}
			}
		}
	}
	a.report = true
	for b := range bs {
		if in[b] == nil {
			continue
		}
		s := in[b].clone()
		for n := bs[b].start; n < bs[b].end; n++ {
			a.step(s, n)
		}
	}
	fs := make([]taintFinding, 0, len(a.findings))
	for _, f := range a.findings {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].idx != fs[j].idx {
			return fs[i].idx < fs[j].idx
		}
		return fs[i].kind < fs[j].kind
	})
	var errs []error
	for _, f := range fs {
		errs = append(errs, fmt.Errorf("%s", f.msg))
	}
	return errs
}

func (a *taintAnalysis) find(idx int, kind, problem string, why *origin) {
	a.findWith(idx, kind, problem, "secret because", why)
}

// findWith records a finding whose origin chain why is introduced by label
// (none when label is empty).
func (a *taintAnalysis) findWith(idx int, kind, problem, label string, why *origin) {
	if !a.report {
		return
	}
	key := fmt.Sprintf("%d/%s", idx, kind)
	if _, ok := a.findings[key]; ok {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "asmgen: %s: instruction %d %q: %s", a.fn.name, idx, instText(a.is[idx]), problem)
	if label != "" {
		fmt.Fprintf(&b, "; %s:%s", label, chain(why))
	}
	a.findings[key] = taintFinding{idx: idx, kind: kind, msg: b.String()}
}

// checkAddr reports a memory operand whose base or index is secret, and the
// bit offset of BT, BTS, BTR or BTC on memory (it selects the byte accessed).
func (a *taintAnalysis) checkAddr(s *tstate, idx int, m operand.Mem) {
	for _, r := range []reg.Register{m.Base, m.Index} {
		if r == nil {
			continue
		}
		if v := s.get(r); v.t&tSecret != 0 {
			a.find(idx, "addr", fmt.Sprintf("memory address %s uses secret %s", m.Asm(), r.Asm()), v.why[bitSecret])
		}
	}
	if r := bitOffsetReg(a.is[idx]); r != nil {
		if v := s.get(r); v.t&tSecret != 0 {
			a.find(idx, "addr", fmt.Sprintf("bit offset %s, which selects the byte of %s accessed, is secret", r.Asm(), m.Asm()), v.why[bitSecret])
		}
	}
}

// bitOffsetReg returns the bit-offset register of BT, BTS, BTR or BTC with a
// memory operand (the offset, signed, selects the byte: any byte of memory
// from the operand's address on, or before it), or nil.
func bitOffsetReg(i *ir.Instruction) reg.Register {
	if !opTable[i.Opcode].bitOffset || len(i.Operands) != 2 {
		return nil
	}
	if _, isMem := i.Operands[1].(operand.Mem); !isMem {
		return nil
	}
	r, _ := i.Operands[0].(reg.Register)
	return r
}

// accessWidth returns the number of bytes the instruction accesses in memory
// and whether that is exact.
func accessWidth(i *ir.Instruction, info opInfo) (int, bool) {
	if info.width != 0 {
		return info.width, true
	}
	w := 0
	for _, op := range i.Operands {
		if r, ok := op.(reg.Register); ok && int(r.Size()) > w {
			w = int(r.Size())
		}
	}
	if w > 0 {
		return w, true
	}
	switch i.Opcode[len(i.Opcode)-1] {
	case 'B':
		return 1, true
	case 'W':
		return 2, true
	case 'L':
		return 4, true
	case 'Q':
		return 8, true
	}
	return 64, false
}

// stackRange returns the stack bytes (offsets from SP) a memory operand
// addressed from SP or FP may access, and whether that is exactly them.
func (a *taintAnalysis) stackRange(m operand.Mem, width int, exact bool) (lo, hi int, exactly bool) {
	base := m.Disp
	if m.Base == reg.FramePointer {
		base += a.l.argAt
	}
	if m.Index != nil || !exact {
		return a.l.lo, a.l.top, false
	}
	return base, base + width, true
}

// pointsTo returns the stack bytes a register with taint t may point to, and
// a phrase saying where that is; ok is false when t holds no stack address.
func (a *taintAnalysis) pointsTo(t taint) (lo, hi int, where string, ok bool) {
	switch {
	case t&tAnyStackPtr != 0:
		return a.l.lo, a.l.top, "anywhere on the stack (a copy of SP, or an address outside the frame)", true
	case t&tStackPtr != 0:
		return 0, a.l.frame, "into the stack frame", true
	case t&tScratchPtr != 0:
		return 0, a.fn.cfg.scratch, "into the stack scratch", true
	}
	return 0, 0, "", false
}

// load returns the taint of the value an instruction reads from memory m.
func (a *taintAnalysis) load(s *tstate, idx int, text string, m operand.Mem, width int, exact bool) val {
	var out val
	if bitOffsetReg(a.is[idx]) != nil {
		exact = false
	}
	switch {
	case m.Base == reg.StaticBase:
		return out
	case m.Base == reg.FramePointer || isSP(m.Base):
		lo, hi, _ := a.stackRange(m, width, exact)
		return a.readStack(s, idx, text, "loads stack "+m.Asm(), lo, hi)
	}
	for _, r := range []reg.Register{m.Base, m.Index} {
		if r == nil {
			continue
		}
		v := s.get(r)
		if v.t&tSecretPtr != 0 {
			var p val
			p.t = tSecret
			p.why[bitSecret] = &origin{idx: idx, text: text, why: fmt.Sprintf("loads through %s, which points to secret memory", r.Asm()), from: v.why[bitSecretPtr]}
			out.add(p)
		}
		if v.t&tDescPtr != 0 {
			var p val
			p.t = tSecretPtr
			p.why[bitSecretPtr] = &origin{idx: idx, text: text, why: fmt.Sprintf("loads a pointer through %s, which points to slice headers of secret memory", r.Asm()), from: v.why[bitDescPtr]}
			out.add(p)
		}
		if v.t&tSecret != 0 {
			out.add(derive(val{t: tSecret, why: v.why}, idx, text, fmt.Sprintf("loads through secret address %s", r.Asm())))
		}
		if lo, hi, where, ok := a.pointsTo(v.t); ok {
			out.add(a.readStack(s, idx, text, fmt.Sprintf("loads through %s, which points %s", r.Asm(), where), lo, hi))
		}
	}
	return out
}

// memWrite is a memory operand an instruction writes: width bytes at m,
// exactly those (exact) or somewhere in the range m's registers allow.
type memWrite struct {
	m     operand.Mem
	width int
	exact bool
}

// store records that the instruction writes v to w, and reports a secret
// stored where a secret may not go: public input memory (an argument
// declared Public, a SecretSlices header array, a table), an argument slot
// other than a secret scalar's, a spill slot.
func (a *taintAnalysis) store(s *tstate, idx int, text string, w memWrite, v val) {
	m, width, exact := w.m, w.width, w.exact
	if bitOffsetReg(a.is[idx]) != nil {
		exact = false
	}
	secret := v.t&tSecret != 0
	lo, hi, exactly := 0, 0, false
	stack, via := false, ""
	switch {
	case m.Base == reg.StaticBase:
		if secret {
			a.find(idx, "public", fmt.Sprintf("stores a secret into %s, a table of public constants", m.Asm()), v.why[bitSecret])
		}
		return
	case m.Base == reg.FramePointer || isSP(m.Base):
		lo, hi, exactly = a.stackRange(m, width, exact)
		stack = true
	default:
		lo, hi = 0, 0
		for _, r := range []reg.Register{m.Base, m.Index} {
			if r == nil {
				continue
			}
			rv := s.get(r)
			if l, h, where, ok := a.pointsTo(rv.t); ok {
				if !stack || h-l > hi-lo {
					via = ", which points " + where
				}
				if !stack {
					lo, hi = l, h
				}
				lo, hi, stack = min(lo, l), max(hi, h), true
			}
			if secret && rv.t&(tPublicPtr|tDescPtr) != 0 {
				why := rv.why[bitPublicPtr]
				what := "public input memory"
				if rv.t&tPublicPtr == 0 {
					why, what = rv.why[bitDescPtr], "public slice headers (declared SecretSlices)"
				}
				a.findWith(idx, "public", fmt.Sprintf("stores a secret through %s, which points to %s (declare the argument Output if it receives results); secret because:%s",
					r.Asm(), what, chain(v.why[bitSecret])), "the pointer because", why)
			}
		}
	}
	if !stack {
		return // heap memory: loads back through Secret and Output pointers are secret anyway
	}
	lo, hi = max(lo, a.l.lo), min(hi, a.l.top)
	stored := derive(v, idx, text, fmt.Sprintf("stores it to %s%s", m.Asm(), via))
	if secret {
		for _, sp := range a.fn.spills {
			if sp.mem.Disp < hi && lo < sp.mem.Disp+8 {
				a.find(idx, "spill "+sp.name, fmt.Sprintf("stores a secret into spill slot %s (%s), which is not wiped", sp.name, sp.mem.Asm()), v.why[bitSecret])
			}
		}
		for _, slot := range a.fn.slots {
			sl, sh := a.l.argAt+slot.off, a.l.argAt+slot.end
			if slot.taint == tSecret || slot.off >= a.l.results || sh <= lo || hi <= sl {
				continue
			}
			a.find(idx, "arg "+slot.name, fmt.Sprintf("stores a secret into the argument slot of %s (%d-%d(FP)), which is public input", slot.name, slot.off, slot.end-1), v.why[bitSecret])
		}
	}
	for b := lo; b < hi; b++ {
		if exactly {
			s.stack[b-a.l.lo] = stored
		} else {
			s.stack[b-a.l.lo].add(stored)
		}
	}
}

// chain formats an origin chain as find does, for a message that explains
// two values.
func chain(o *origin) string {
	var b strings.Builder
	for depth := 0; o != nil && depth < 32; o, depth = o.from, depth+1 {
		fmt.Fprintf(&b, "\n\t%q (instruction %d) %s", o.text, o.idx, o.why)
	}
	return b.String()
}

func sameRegister(a, b operand.Op) bool {
	ra, ok1 := a.(reg.Register)
	rb, ok2 := b.(reg.Register)
	if !ok1 || !ok2 {
		return false
	}
	pa, pb := reg.ToPhysical(ra), reg.ToPhysical(rb)
	if pa == nil || pb == nil {
		return false
	}
	return pa.Kind() == pb.Kind() && pa.PhysicalIndex() == pb.PhysicalIndex()
}

// cancelling reports whether the instruction's result does not depend on its
// inputs (XORQ AX, AX; PXOR X1, X1; CMPQ AX, AX).
func cancelling(i *ir.Instruction) bool {
	return i.CancellingInputs && len(i.Inputs) >= 2 && sameRegister(i.Inputs[0], i.Inputs[1])
}

// partialWrite reports whether writing r leaves part of the old register
// value in place: 8- and 16-bit general-purpose writes, legacy SSE writes
// (which keep the upper lanes) in a backend with AVX, and merge-masked
// AVX-512 writes.
func partialWrite(i *ir.Instruction, r reg.Register, avx bool) bool {
	p := reg.ToPhysical(r)
	if p == nil {
		return false
	}
	switch p.Kind() {
	case reg.KindGP:
		return p.Size() < 4
	case reg.KindVector:
		if !strings.HasPrefix(i.Opcode, "V") {
			return avx
		}
		for _, op := range i.Operands {
			if q, ok := op.(reg.Register); ok && q.Kind() == reg.KindOpmask {
				return !contains(i.Suffixes, "Z")
			}
		}
	}
	return false
}

// step applies instruction n to s.
func (a *taintAnalysis) step(s *tstate, n int) {
	i := a.is[n]
	info := opTable[i.Opcode]
	in := a.flagInputs(s, n, a.inputs(s, n))
	if i.IsConditional && in.t&tSecret != 0 {
		a.find(n, "branch", "conditional branch on a secret", in.why[bitSecret])
	}
	if info.varTime && in.t&tSecret != 0 {
		a.find(n, "vartime", fmt.Sprintf("variable-time instruction %s on a secret", i.Opcode), in.why[bitSecret])
	}
	a.outputs(s, n, in)
	if info.wr&fCF != 0 {
		s.cf = in
	}
	if info.wr&fOther != 0 {
		s.of = in
	}
}

// inputs returns what instruction n reads from registers and memory.
func (a *taintAnalysis) inputs(s *tstate, n int) val {
	i := a.is[n]
	info := opTable[i.Opcode]
	text := instText(i)
	width, exact := accessWidth(i, info)
	var in val
	cancel := cancelling(i)
	for _, op := range i.Inputs {
		switch op := op.(type) {
		case reg.Register:
			if cancel {
				continue
			}
			if isSP(op) {
				in.add(source(tAnyStackPtr, n, text, "copies SP"))
				continue
			}
			in.add(derive(s.get(op), n, text, "reads "+op.Asm()))
		case operand.Mem:
			if info.addrOnly {
				in.add(a.addressOf(s, n, text, op))
				continue
			}
			a.checkAddr(s, n, op)
			in.add(a.load(s, n, text, op, width, exact))
		}
	}
	return in
}

// addressOf returns the value of the address of op, which instruction n
// computes (LEA) without reading memory.
func (a *taintAnalysis) addressOf(s *tstate, n int, text string, op operand.Mem) val {
	var in val
	switch {
	case op.Base == reg.FramePointer:
		in.add(source(tAnyStackPtr, n, text, "takes the address of "+op.Asm()+", in the argument frame"))
	case !isSP(op.Base):
	case op.Index == nil && op.Disp >= 0 && op.Disp < a.fn.cfg.scratch:
		in.add(source(tScratchPtr, n, text, "takes the address of "+op.Asm()+", in the stack scratch"))
	case op.Index == nil && op.Disp >= 0 && op.Disp < a.l.frame:
		in.add(source(tStackPtr, n, text, "takes the address of "+op.Asm()))
	default:
		in.add(source(tAnyStackPtr, n, text, "takes the address of "+op.Asm()+", outside the frame"))
	}
	for _, r := range []reg.Register{op.Base, op.Index} {
		if r != nil && !isSP(r) {
			in.add(derive(s.get(r), n, text, "computes an address from "+r.Asm()))
		}
	}
	return in
}

// flagInputs adds to in the flags instruction n reads, and reports a
// conditional branch on secret flags.
func (a *taintAnalysis) flagInputs(s *tstate, n int, in val) val {
	i := a.is[n]
	info := opTable[i.Opcode]
	text := instText(i)
	rd := info.rd
	if info.countRead && len(i.Operands) > 0 {
		if _, isReg := i.Operands[0].(reg.Register); isReg {
			rd = fAll
		}
	}
	if rd&fCF != 0 {
		if i.IsConditional && s.cf.t&tSecret != 0 {
			a.find(n, "branch", "conditional branch on secret flags (carry)", s.cf.why[bitSecret])
		}
		in.add(derive(s.cf, n, text, "reads the carry flag"))
	}
	if rd&fOther != 0 {
		if i.IsConditional && s.of.t&tSecret != 0 {
			a.find(n, "branch", "conditional branch on secret flags", s.of.why[bitSecret])
		}
		in.add(derive(s.of, n, text, "reads flags"))
	}
	return in
}

// outputs writes in to the registers and memory instruction n writes.
func (a *taintAnalysis) outputs(s *tstate, n int, in val) {
	i := a.is[n]
	text := instText(i)
	width, exact := accessWidth(i, opTable[i.Opcode])
	for _, op := range i.Outputs {
		switch op := op.(type) {
		case reg.Register:
			if isSP(op) {
				a.findWith(n, "sp", "writes SP: the checks address the stack from a fixed SP (use Scratch and Spills)", "", nil)
				continue
			}
			p := s.slot(op)
			if p == nil {
				continue
			}
			v := in
			if partialWrite(i, op, a.avx) {
				v.add(*p)
			}
			*p = v
		case operand.Mem:
			a.checkAddr(s, n, op)
			a.store(s, n, text, memWrite{op, width, exact}, in)
		}
	}
}
