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
	nTaintBits = 5
)

// Bit indexes of the taints, for val.why.
const (
	bitSecret = iota
	bitSecretPtr
	bitDescPtr
	bitStackPtr
	bitScratchPtr
)

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
// stack frame.
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
	frame    int
	findings map[string]taintFinding
	report   bool
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
	a := &taintAnalysis{fn: fn, avx: g.backend.Requires.Has(cpufeat.AVX), is: is, frame: fn.ir.LocalSize, findings: map[string]taintFinding{}}
	bs := basicBlocks(is)
	if len(bs) == 0 {
		return nil
	}
	in := make([]*tstate, len(bs))
	in[0] = &tstate{stack: make([]val, a.frame)}
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
	if !a.report {
		return
	}
	key := fmt.Sprintf("%d/%s", idx, kind)
	if _, ok := a.findings[key]; ok {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "asmgen: %s: instruction %d %q: %s; secret because:", a.fn.name, idx, instText(a.is[idx]), problem)
	for o, depth := why, 0; o != nil && depth < 32; o, depth = o.from, depth+1 {
		fmt.Fprintf(&b, "\n\t%q (instruction %d) %s", o.text, o.idx, o.why)
	}
	a.findings[key] = taintFinding{idx: idx, kind: kind, msg: b.String()}
}

// checkAddr reports a memory operand whose base or index is secret.
func (a *taintAnalysis) checkAddr(s *tstate, idx int, m operand.Mem) {
	for _, r := range []reg.Register{m.Base, m.Index} {
		if r == nil {
			continue
		}
		if v := s.get(r); v.t&tSecret != 0 {
			a.find(idx, "addr", fmt.Sprintf("memory address %s uses secret %s", m.Asm(), r.Asm()), v.why[bitSecret])
		}
	}
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

// load returns the taint of the value an instruction reads from memory m.
func (a *taintAnalysis) load(s *tstate, idx int, text string, m operand.Mem, width int, exact bool) val {
	var out val
	switch m.Base {
	case reg.FramePointer:
		if slot, ok := a.fn.argSlotAt(m.Disp); ok && slot.taint != 0 {
			out.add(source(slot.taint, idx, text, fmt.Sprintf("loads argument %s, which %s", slot.name, slot.what)))
		}
		return out
	case reg.StaticBase:
		return out
	case reg.StackPointer:
		lo, hi := m.Disp, m.Disp+width
		if m.Index != nil || !exact {
			lo, hi = 0, len(s.stack)
		}
		why := "loads stack " + m.Asm()
		for b := max(lo, 0); b < hi && b < len(s.stack); b++ {
			if s.stack[b].t&^out.t != 0 {
				out.add(derive(s.stack[b], idx, text, why))
			}
		}
		return out
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
		if v.t&(tStackPtr|tScratchPtr) != 0 {
			why, end := fmt.Sprintf("loads through %s, which points into the stack frame", r.Asm()), len(s.stack)
			if v.t&tStackPtr == 0 {
				why, end = fmt.Sprintf("loads through %s, which points into the stack scratch", r.Asm()), a.fn.cfg.scratch
			}
			for b := range min(end, len(s.stack)) {
				if s.stack[b].t&^out.t != 0 {
					out.add(derive(s.stack[b], idx, text, why))
				}
			}
		}
	}
	return out
}

// store records that the instruction writes v to memory m.
func (a *taintAnalysis) store(s *tstate, idx int, text string, m operand.Mem, width int, exact bool, v val) {
	var via taint
	for _, r := range []reg.Register{m.Base, m.Index} {
		if r != nil {
			via |= s.get(r).t & (tStackPtr | tScratchPtr)
		}
	}
	if m.Base != reg.StackPointer && via == 0 {
		return // argument results and heap memory are not tracked
	}
	stored := derive(v, idx, text, fmt.Sprintf("stores it to %s", m.Asm()))
	// The bytes the store may write: exactly those addressed from SP, the
	// Scratch area through a pointer into it, else any byte of the frame.
	exactSP := m.Base == reg.StackPointer && m.Index == nil && exact
	lo, hi := 0, len(s.stack)
	switch {
	case exactSP:
		lo, hi = max(m.Disp, 0), min(m.Disp+width, len(s.stack))
	case m.Base != reg.StackPointer && via == tScratchPtr:
		hi = min(a.fn.cfg.scratch, hi)
	}
	if v.t&tSecret != 0 {
		for _, sp := range a.fn.spills {
			if sp.mem.Disp < hi && lo < sp.mem.Disp+8 {
				a.find(idx, "spill "+sp.name, fmt.Sprintf("stores a secret into spill slot %s (%s), which is not wiped", sp.name, sp.mem.Asm()), v.why[bitSecret])
			}
		}
	}
	for b := lo; b < hi; b++ {
		if exactSP {
			s.stack[b] = stored
		} else {
			s.stack[b].add(stored)
		}
	}
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
			in.add(derive(s.get(op), n, text, "reads "+op.Asm()))
		case operand.Mem:
			if info.addrOnly {
				if op.Base == reg.StackPointer {
					if op.Index == nil && op.Disp >= 0 && op.Disp < a.fn.cfg.scratch {
						in.add(source(tScratchPtr, n, text, "takes the address of "+op.Asm()+", in the stack scratch"))
					} else {
						in.add(source(tStackPtr, n, text, "takes the address of "+op.Asm()))
					}
				}
				for _, r := range []reg.Register{op.Base, op.Index} {
					if r != nil {
						in.add(derive(s.get(r), n, text, "computes an address from "+r.Asm()))
					}
				}
				continue
			}
			a.checkAddr(s, n, op)
			in.add(a.load(s, n, text, op, width, exact))
		}
	}
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
	if i.IsConditional && in.t&tSecret != 0 {
		a.find(n, "branch", "conditional branch on a secret", in.why[bitSecret])
	}
	if info.varTime && in.t&tSecret != 0 {
		a.find(n, "vartime", fmt.Sprintf("variable-time instruction %s on a secret", i.Opcode), in.why[bitSecret])
	}
	for _, op := range i.Outputs {
		switch op := op.(type) {
		case reg.Register:
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
			a.store(s, n, text, op, width, exact, in)
		}
	}
	if info.wr&fCF != 0 {
		s.cf = in
	}
	if info.wr&fOther != 0 {
		s.of = in
	}
}
