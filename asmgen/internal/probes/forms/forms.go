// Package forms lists the instruction forms of Go-syntax amd64 assembly: each
// instruction's mnemonic (with its EVEX .Z and .BCST suffixes) and the kinds
// of its operands, in the notation of x86sim's Program.Forms ("ADDQ imm, r",
// "VPXOR y, y, y", "MOVOU m, x", "JCS label"), except that an EVEX write
// mask stays in the list as "k" ("VPADDD.Z z, z, k, z").
//
// It reads the text alone, so that it lists forms no model or assembler
// knows yet: the probe generator and its tests use it to find every form the
// committed assembly uses.
package forms

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// An Arg is one operand of an instruction.
type Arg struct {
	// Kind is "imm", "m", "r" (a general register named by a 16-, 32- or
	// 64-bit name), "r8" (a byte register), "x", "y", "z" (vector
	// registers), "k" (opmask) or "label".
	Kind string
	// Imm is the value of an immediate.
	Imm int64
	// Text is the operand as written.
	Text string
}

// An Inst is one instruction of a file.
type Inst struct {
	File string
	Line int
	// Op is the mnemonic with its suffixes, e.g. "VPADDD.Z".
	Op   string
	Args []Arg
}

// Form returns the instruction's form, e.g. "VPTERNLOGD imm, z, z, k, z".
func (in Inst) Form() string {
	if len(in.Args) == 0 {
		return in.Op
	}
	k := make([]string, len(in.Args))
	for i, a := range in.Args {
		k[i] = a.Kind
	}
	return in.Op + " " + strings.Join(k, ", ")
}

// Imms returns the values of the instruction's immediates.
func (in Inst) Imms() []int64 {
	var v []int64
	for _, a := range in.Args {
		if a.Kind == "imm" {
			v = append(v, a.Imm)
		}
	}
	return v
}

// Parse returns the instructions of the assembly text src (named file in
// errors and in the result).
func Parse(file string, src []byte) ([]Inst, error) {
	var out []Inst
	for i, raw := range strings.Split(string(src), "\n") {
		s := raw
		if j := strings.Index(s, "//"); j >= 0 {
			s = s[:j]
		}
		s = strings.TrimSpace(s)
		if s == "" || s[0] == '#' {
			continue
		}
		if strings.HasPrefix(s, "TEXT ") || strings.HasPrefix(s, "DATA ") || strings.HasPrefix(s, "GLOBL ") {
			continue
		}
		if strings.HasSuffix(s, ":") && !strings.ContainsAny(s, " \t") {
			continue
		}
		op, rest, _ := strings.Cut(s, " ")
		in := Inst{File: file, Line: i + 1, Op: op}
		rest = strings.TrimSpace(rest)
		if rest != "" {
			ops := split(rest)
			for _, o := range ops {
				a, err := parseArg(o, branch(op))
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %s: %v", file, i+1, s, err)
				}
				in.Args = append(in.Args, a)
			}
		}
		out = append(out, in)
	}
	return out, nil
}

func branch(op string) bool {
	return op == "JMP" || op == "CALL" || len(op) >= 2 && op[0] == 'J'
}

func split(s string) []string {
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
	return append(out, strings.TrimSpace(s[start:]))
}

func parseArg(s string, isBranch bool) (Arg, error) {
	a := Arg{Text: s}
	switch {
	case strings.HasPrefix(s, "$"):
		v, err := parseInt(s[1:])
		if err != nil {
			return a, fmt.Errorf("immediate %q: %v", s, err)
		}
		a.Kind, a.Imm = "imm", v
	case strings.HasSuffix(s, ")"):
		a.Kind = "m"
	case isBranch:
		a.Kind = "label"
	default:
		k := regKind(s)
		if k == "" {
			return a, fmt.Errorf("unknown operand %q", s)
		}
		a.Kind = k
	}
	return a, nil
}

func parseInt(s string) (int64, error) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
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

// regKind returns the kind of register name s, or "".
func regKind(s string) string {
	switch s {
	case "AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI":
		return "r"
	case "AL", "CL", "DL", "BL", "SPB", "BPB", "SIB", "DIB", "AH", "CH", "DH", "BH":
		return "r8"
	}
	num := func(p string, lo, hi int) bool {
		n, err := strconv.Atoi(p)
		return err == nil && n >= lo && n <= hi && strconv.Itoa(n) == p
	}
	if len(s) >= 2 && s[0] == 'R' {
		t := s[1:]
		switch {
		case num(t, 8, 15):
			return "r"
		case strings.HasSuffix(t, "B") && num(t[:len(t)-1], 8, 15):
			return "r8"
		case (strings.HasSuffix(t, "W") || strings.HasSuffix(t, "L")) && num(t[:len(t)-1], 8, 15):
			return "r"
		}
	}
	if len(s) >= 2 {
		switch s[0] {
		case 'X', 'Y', 'Z':
			if num(s[1:], 0, 31) {
				return strings.ToLower(s[:1])
			}
		case 'K':
			if num(s[1:], 0, 7) {
				return "k"
			}
		}
	}
	return ""
}

// CommittedFiles returns the generated amd64 assembly files of the repository
// whose root is root: every root/<dir>/*.s except those of asmgen (its
// example and probes) and cpufeat (a hand-written CPUID stub the model does
// not run).
func CommittedFiles(root string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(root, "*", "*.s"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		switch filepath.Base(filepath.Dir(f)) {
		case "asmgen", "cpufeat":
			continue
		}
		out = append(out, f)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("forms: no assembly files under %s", root)
	}
	return out, nil
}

// Committed parses every file of CommittedFiles(root), with file names
// relative to root.
func Committed(root string) ([]Inst, error) {
	files, err := CommittedFiles(root)
	if err != nil {
		return nil, err
	}
	var all []Inst
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, f)
		if err != nil {
			rel = f
		}
		ins, err := Parse(filepath.ToSlash(rel), src)
		if err != nil {
			return nil, err
		}
		all = append(all, ins...)
	}
	return all, nil
}
