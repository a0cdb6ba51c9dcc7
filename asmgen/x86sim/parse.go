package x86sim

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// A Program is the parsed contents of one or more assembly files: their
// functions and read-only data.
type Program struct {
	funcs map[string]*Func
	syms  map[string]*symbol
	// data are the DATA tables' regions, shared by every call.
	dataOnce sync.Once
	data     []*region
}

// A Func is one TEXT function of a Program.
type Func struct {
	Name  string
	File  string
	Line  int
	Frame int // local frame size from TEXT $frame-args
	Args  int // argument frame size
	insts []inst
	// labels maps a label to the index of the instruction it precedes.
	labels map[string]int
	// phases maps the name of each "// phase: NAME" comment asmgen
	// emits to the index of the instruction after it.
	phases map[string]int
	// leaders are the instruction indexes that start basic blocks, and
	// blockLabel names each (a label or "entry" or "after <line>").
	leaders   []int
	blockName []string
	hit       []bool
}

type symbol struct {
	name string
	data []byte
	file string
	line int
}

// A ParseError names the file and line of an assembly text the model does not
// read.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Load parses the assembly source src (named file in errors) into a new
// Program. It accepts the subset of Go assembler syntax that avo and asmgen
// emit: TEXT, DATA, GLOBL, labels, comments, #include, and instructions whose
// operands are registers, immediates, memory references (including
// name+off(FP) and sym<>+off(SB)) and branch targets.
func Load(file string, src []byte) (*Program, error) {
	p := &Program{funcs: map[string]*Func{}, syms: map[string]*symbol{}}
	if err := p.Add(file, src); err != nil {
		return nil, err
	}
	return p, nil
}

// Add parses another file into p.
func (p *Program) Add(file string, src []byte) error {
	var cur *Func
	type pending struct {
		fn   *Func
		in   int
		name string
		line int
	}
	var fixups []pending
	lines := strings.Split(string(src), "\n")
	perr := func(line int, format string, args ...any) error {
		return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	finish := func() error {
		if cur == nil {
			return nil
		}
		for _, f := range fixups {
			t, ok := f.fn.labels[f.name]
			if !ok {
				return perr(f.line, "branch to unknown label %s", f.name)
			}
			f.fn.insts[f.in].target = t
		}
		fixups = fixups[:0]
		cur.computeBlocks()
		cur = nil
		return nil
	}
	for i, raw := range lines {
		ln := i + 1
		s := raw
		if name, ok := strings.CutPrefix(strings.TrimSpace(s), "// phase: "); ok && cur != nil {
			cur.phases[name] = len(cur.insts)
		}
		if j := strings.Index(s, "//"); j >= 0 {
			s = s[:j]
		}
		s = strings.TrimSpace(s)
		if s == "" || strings.HasPrefix(s, "#include") || strings.HasPrefix(s, "#define") {
			continue
		}
		switch {
		case strings.HasPrefix(s, "TEXT "):
			if err := finish(); err != nil {
				return err
			}
			fn, err := parseText(s)
			if err != nil {
				return perr(ln, "%v", err)
			}
			fn.File, fn.Line = file, ln
			if _, dup := p.funcs[fn.Name]; dup {
				return perr(ln, "function %s defined twice", fn.Name)
			}
			p.funcs[fn.Name] = fn
			cur = fn
			continue
		case strings.HasPrefix(s, "DATA "):
			if err := p.parseData(s[5:], file, ln); err != nil {
				return perr(ln, "%v", err)
			}
			continue
		case strings.HasPrefix(s, "GLOBL "):
			if err := p.parseGlobl(s[6:], file, ln); err != nil {
				return perr(ln, "%v", err)
			}
			continue
		}
		if strings.HasSuffix(s, ":") && !strings.ContainsAny(s, " \t") {
			if cur == nil {
				return perr(ln, "label outside a function")
			}
			name := strings.TrimSuffix(s, ":")
			if _, dup := cur.labels[name]; dup {
				return perr(ln, "label %s defined twice", name)
			}
			cur.labels[name] = len(cur.insts)
			continue
		}
		if cur == nil {
			return perr(ln, "instruction outside a function: %q", s)
		}
		in, label, err := p.parseInst(s)
		if err != nil {
			return perr(ln, "%v", err)
		}
		in.line = ln
		in.fn = cur
		if label != "" {
			fixups = append(fixups, pending{cur, len(cur.insts), label, ln})
		}
		cur.insts = append(cur.insts, in)
	}
	if err := finish(); err != nil {
		return err
	}
	for _, fn := range p.funcs {
		for i := range fn.insts {
			in := &fn.insts[i]
			for j := range in.args {
				a := &in.args[j]
				if a.symRef {
					sym := p.syms[a.sym.name]
					if sym == nil {
						return perr(in.line, "unknown symbol %s", a.sym.name)
					}
					a.sym, a.symRef = sym, false
				}
			}
			if in.exec == nil {
				if err := bind(in); err != nil {
					return perr(in.line, "%v", err)
				}
			}
		}
	}
	return nil
}

// parseText reads "TEXT ·name(SB), FLAGS, $frame-args".
func parseText(s string) (*Func, error) {
	parts := splitOperands(strings.TrimSpace(s[5:]))
	if len(parts) < 2 {
		return nil, fmt.Errorf("malformed TEXT %q", s)
	}
	name := parts[0]
	name = strings.TrimSuffix(name, "(SB)")
	name = strings.TrimPrefix(name, "·")
	if k := strings.LastIndex(name, "·"); k >= 0 {
		name = name[k+len("·"):]
	}
	sz := parts[len(parts)-1]
	if !strings.HasPrefix(sz, "$") {
		return nil, fmt.Errorf("TEXT %s: no $frame-args size", name)
	}
	sz = sz[1:]
	fr, ar, ok := strings.Cut(sz, "-")
	if !ok {
		return nil, fmt.Errorf("TEXT %s: size %q has no argument size", name, sz)
	}
	frame, err1 := strconv.Atoi(fr)
	args, err2 := strconv.Atoi(ar)
	if err1 != nil || err2 != nil || frame < 0 {
		return nil, fmt.Errorf("TEXT %s: bad size %q", name, sz)
	}
	return &Func{Name: name, Frame: frame, Args: args, labels: map[string]int{}, phases: map[string]int{}}, nil
}

// parseData reads "sym<>+off(SB)/size, $value".
func (p *Program) parseData(s, file string, line int) error {
	parts := splitOperands(s)
	if len(parts) != 2 {
		return fmt.Errorf("malformed DATA %q", s)
	}
	lhs, val := parts[0], parts[1]
	ref, szs, ok := strings.Cut(lhs, "/")
	if !ok {
		return fmt.Errorf("DATA without size: %q", s)
	}
	size, err := strconv.Atoi(szs)
	if err != nil || size < 1 || size > 8 {
		return fmt.Errorf("DATA size %q", szs)
	}
	name, off, err := parseSymRef(ref)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(val, "$") {
		return fmt.Errorf("DATA value %q is not an immediate", val)
	}
	v, err := parseInt(val[1:])
	if err != nil {
		return fmt.Errorf("DATA value %q: %v", val, err)
	}
	sym := p.syms[name]
	if sym == nil {
		sym = &symbol{name: name, file: file, line: line}
		p.syms[name] = sym
	}
	for len(sym.data) < off+size {
		sym.data = append(sym.data, 0)
	}
	for i := 0; i < size; i++ {
		sym.data[off+i] = byte(uint64(v) >> (8 * i))
	}
	return nil
}

// parseGlobl reads "sym<>(SB), FLAGS, $size".
func (p *Program) parseGlobl(s, file string, line int) error {
	parts := splitOperands(s)
	if len(parts) < 2 {
		return fmt.Errorf("malformed GLOBL %q", s)
	}
	name, off, err := parseSymRef(parts[0])
	if err != nil || off != 0 {
		return fmt.Errorf("GLOBL symbol %q", parts[0])
	}
	szs := parts[len(parts)-1]
	if !strings.HasPrefix(szs, "$") {
		return fmt.Errorf("GLOBL size %q", szs)
	}
	size, err := strconv.Atoi(szs[1:])
	if err != nil || size < 0 {
		return fmt.Errorf("GLOBL size %q", szs)
	}
	if len(parts) == 3 && !strings.Contains(parts[1], "RODATA") {
		return fmt.Errorf("GLOBL %s is not RODATA: the model has read-only data only", name)
	}
	sym := p.syms[name]
	if sym == nil {
		sym = &symbol{name: name, file: file, line: line}
		p.syms[name] = sym
	}
	if len(sym.data) > size {
		return fmt.Errorf("GLOBL %s: DATA past its size %d", name, size)
	}
	for len(sym.data) < size {
		sym.data = append(sym.data, 0)
	}
	sym.data = aligned64(sym.data[:size])
	return nil
}

// aligned64 returns a copy of b at a 64-byte aligned address: the linker
// aligns DATA tables (up to 32 bytes for the larger ones), so an aligned
// vector load of a table must not fault on the model where it does not on
// the CPU.
func aligned64(b []byte) []byte {
	buf := make([]byte, len(b)+64)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63)
	out := buf[off : off+len(b) : off+len(b)]
	copy(out, b)
	return out
}

// parseSymRef reads "name<>+off(SB)" or "name(SB)".
func parseSymRef(s string) (string, int, error) {
	if !strings.HasSuffix(s, "(SB)") {
		return "", 0, fmt.Errorf("%q is not a (SB) reference", s)
	}
	s = strings.TrimSuffix(s, "(SB)")
	off := 0
	if k := strings.IndexAny(s, "+-"); k > 0 {
		v, err := strconv.Atoi(s[k:])
		if err != nil {
			return "", 0, fmt.Errorf("offset in %q", s)
		}
		off = v
		s = s[:k]
	}
	s = strings.TrimSuffix(s, "<>")
	s = strings.TrimPrefix(s, "·")
	return s, off, nil
}

func parseInt(s string) (int64, error) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	u, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, err
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

// splitOperands splits at commas outside parentheses.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// parseInst reads one instruction line. It returns the branch target label
// separately, to be resolved once the function's labels are known.
func (p *Program) parseInst(s string) (inst, string, error) {
	var in inst
	mn, rest, _ := strings.Cut(s, " ")
	mn = strings.TrimSpace(mn)
	rest = strings.TrimSpace(rest)
	if k := strings.IndexByte(mn, '.'); k >= 0 {
		for _, suf := range strings.Split(mn[k+1:], ".") {
			switch suf {
			case "Z":
				in.zeroing = true
			case "BCST":
				in.bcst = true
			default:
				return in, "", fmt.Errorf("%s: unknown suffix .%s", mn, suf)
			}
		}
		mn = mn[:k]
	}
	in.op = mn
	in.target = -1
	if rest == "" {
		return in, "", nil
	}
	ops := splitOperands(rest)
	if isBranch(mn) {
		if len(ops) != 1 {
			return in, "", fmt.Errorf("%s: want one target", mn)
		}
		return in, ops[0], nil
	}
	for _, o := range ops {
		opd, err := p.parseOperand(o)
		if err != nil {
			return in, "", fmt.Errorf("%s: operand %q: %v", mn, o, err)
		}
		in.args = append(in.args, opd)
	}
	return in, "", nil
}

func isBranch(mn string) bool {
	return mn == "JMP" || (len(mn) >= 2 && mn[0] == 'J' && condOf(mn[1:]) >= 0)
}

func (p *Program) parseOperand(s string) (operand, error) {
	var o operand
	switch {
	case strings.HasPrefix(s, "$"):
		v, err := parseInt(s[1:])
		if err != nil {
			return o, err
		}
		o.kind = kImm
		o.imm = v
		return o, nil
	case strings.HasSuffix(s, ")"):
		return p.parseMem(s)
	}
	r, ok := regByName[s]
	if !ok {
		return o, fmt.Errorf("unknown register")
	}
	return r, nil
}

// parseMem reads disp(base)(index*scale), name+off(FP) and sym<>+off(SB).
func (p *Program) parseMem(s string) (operand, error) {
	o := operand{kind: kMem, base: -1, index: -1, scale: 1}
	if strings.HasSuffix(s, "(SB)") {
		name, off, err := parseSymRef(s)
		if err != nil {
			return o, err
		}
		o.sym = &symbol{name: name}
		o.symRef = true
		o.disp = int64(off)
		return o, nil
	}
	if strings.HasSuffix(s, "(FP)") {
		t := strings.TrimSuffix(s, "(FP)")
		k := strings.LastIndexAny(t, "+-")
		if k <= 0 {
			return o, fmt.Errorf("FP reference without name+offset")
		}
		v, err := strconv.Atoi(t[k:])
		if err != nil {
			return o, err
		}
		o.fp = true
		o.fpName = t[:k]
		o.disp = int64(v)
		return o, nil
	}
	k := strings.IndexByte(s, '(')
	if k > 0 {
		v, err := parseInt(s[:k])
		if err != nil {
			return o, fmt.Errorf("displacement: %v", err)
		}
		o.disp = v
	}
	rest := s[k:]
	for rest != "" {
		if rest[0] != '(' {
			return o, fmt.Errorf("malformed address")
		}
		e := strings.IndexByte(rest, ')')
		if e < 0 {
			return o, fmt.Errorf("malformed address")
		}
		part := rest[1:e]
		rest = rest[e+1:]
		if rn, sc, ok := strings.Cut(part, "*"); ok {
			r, okr := regByName[rn]
			if !okr || r.cls != cGP {
				return o, fmt.Errorf("index %q", rn)
			}
			scale, err := strconv.Atoi(sc)
			if err != nil || (scale != 1 && scale != 2 && scale != 4 && scale != 8) {
				return o, fmt.Errorf("scale %q", sc)
			}
			o.index, o.scale = r.reg, uint8(scale)
			continue
		}
		r, okr := regByName[part]
		if !okr || r.cls != cGP {
			return o, fmt.Errorf("base %q", part)
		}
		o.base = r.reg
	}
	return o, nil
}
