package cpufeat

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
)

// Registration is one backend an algorithm module compiled into this
// build, as the module's list registers it: the name cpufeat declares for
// it and the module's value for it (in every module, the function that
// prepares a key for the backend).
type Registration[T any] struct {
	// Name is the backend's name as cpufeat declares it for the algorithm.
	Name string
	// Value is what the module calls to use the backend.
	Value T
	// Doc says in one line how the backend works, for reports such as the
	// backends table of vg's README (generated from it).
	Doc string
}

// BackendInfo describes one backend a module compiled into this build, as
// the module's Backends function lists it. Each algorithm module exports it
// under the name Backend. It is apart from [Backend], the declaration, which
// holds what is true of the backend everywhere and reports with its method
// Available whether a given feature set runs it; BackendInfo holds whether
// it runs here and the module's Doc.
type BackendInfo struct {
	// Name is the backend's stable name, as declared in cpufeat and as the
	// module's WithBackend option takes it.
	Name string
	// Requires is the set of CPU features the backend needs.
	Requires Set
	// Available reports whether Requires is within [Enabled]: whether the
	// module's constructors can use the backend here and now.
	Available bool
	// Doc is the module's one-line description of the backend.
	Doc string
}

// Registry holds the backends one algorithm module compiled into this
// build, in the order cpufeat declares them (best first), and makes the
// choice at the module's constructors: the best available backend, or the
// one named by the module's WithBackend option. Every module's choice and
// its errors are therefore the same.
type Registry[T any] struct {
	alg   Algorithm
	regs  []Registration[T] // in declared order
	decls []Backend         // decls[i] declares regs[i]
	best  Registration[T]   // the default choice under the package's state
}

// NewRegistry returns the registry of alg's backends in regs, the module's
// registration list for this build (in any order). It panics when a name is
// not declared for alg, appears twice, or when the generic backend, which
// every build has, is missing: the list is fixed at compile time, so this is
// a programming error that the module's first test finds.
func NewRegistry[T any](alg Algorithm, regs []Registration[T]) *Registry[T] {
	r := &Registry[T]{alg: alg}
	seen := make(map[string]bool, len(regs))
	for _, rg := range regs {
		if _, ok := Lookup(alg, rg.Name); !ok {
			panic(fmt.Sprintf("cpufeat: %s registers backend %q, which is not declared for it", alg, rg.Name))
		}
		if seen[rg.Name] {
			panic(fmt.Sprintf("cpufeat: %s registers backend %q twice", alg, rg.Name))
		}
		seen[rg.Name] = true
	}
	if !seen[GenericBackend] {
		panic(fmt.Sprintf("cpufeat: %s does not register its %s backend", alg, GenericBackend))
	}
	for _, d := range Backends(alg) {
		for _, rg := range regs {
			if rg.Name == d.Name {
				r.regs = append(r.regs, rg)
				r.decls = append(r.decls, d)
			}
		}
	}
	// The default choice depends only on the state fixed at
	// initialisation, which precedes every registry's: make it once, so
	// that a constructor (per connection, per key update) does not walk
	// the list.
	r.best, _ = r.choose("", r.here(nil))
	return r
}

// here is the package's state at initialisation, as an env.
func (r *Registry[T]) here(warn func()) env {
	return env{enabled: Enabled(), err: Err(), override: override, overrideSet: overrideSet, preferYMM: preferYMM, warn: warn}
}

// Names returns the names of the backends in r, best first.
func (r *Registry[T]) Names() []string {
	names := make([]string, len(r.regs))
	for i, rg := range r.regs {
		names[i] = rg.Name
	}
	return names
}

// Registrations returns the backends in r, best first, whether or not
// they can run here.
func (r *Registry[T]) Registrations() []Registration[T] {
	return append([]Registration[T](nil), r.regs...)
}

// Backends describes the backends in r, best first, with their availability
// under [Enabled].
func (r *Registry[T]) Backends() []BackendInfo { return r.backends(Enabled()) }

func (r *Registry[T]) backends(enabled Set) []BackendInfo {
	infos := make([]BackendInfo, len(r.regs))
	for i, d := range r.decls {
		infos[i] = BackendInfo{Name: d.Name, Requires: d.Requires, Available: d.Available(enabled), Doc: r.regs[i].Doc}
	}
	return infos
}

// Choose returns the backend a constructor uses: with name "", the best one
// in r whose features are enabled (the generic backend when no other is),
// passing over the ZMM backends where [PreferYMM] is true;
// otherwise the one called name. It fails, with errors prefixed by the
// algorithm's package name, when name is not declared for the algorithm,
// when it is declared but not in r, and when the features it requires are
// not all enabled. An invalid VG_CPU_FEATURES is not an error here: the first
// Choose in the process prints [Err] once on standard error, and every choice
// follows [Enabled], which holds what the valid part of the value allows.
func (r *Registry[T]) Choose(name string) (Registration[T], error) {
	if name == "" {
		return *r.Default(), nil
	}
	return r.choose(name, r.here(warnInvalidOnce))
}

// Pick is Choose returning the registration by pointer: with name "" the
// one Default returns, made once when r was built and not copied.
func (r *Registry[T]) Pick(name string) (*Registration[T], error) {
	if name == "" {
		return r.Default(), nil
	}
	reg, err := r.Choose(name)
	if err != nil {
		return nil, err
	}
	return &reg, nil
}

// Default returns the registration Choose("") returns, for a constructor
// called without options: the same choice, made once when r was built,
// without copying it.
func (r *Registry[T]) Default() *Registration[T] {
	if enabledErr != nil {
		warnInvalidOnce()
	}
	return &r.best
}

// warnInvalidOnce reports an invalid VG_CPU_FEATURES on standard error, the
// first time a constructor chooses a backend.
var warnInvalidOnce = sync.OnceFunc(func() {
	fmt.Fprintf(os.Stderr, "vg: %v; ignoring the unknown names, enabled features: %s\n", enabledErr, enabled)
})

// env is what a choice depends on besides the registry: the package's
// state at initialisation, or a test's.
type env struct {
	enabled     Set
	err         error
	override    string
	overrideSet bool
	preferYMM   bool   // skip ZMM backends in the default choice
	warn        func() // called when err is not nil
}

func (r *Registry[T]) choose(name string, e env) (Registration[T], error) {
	if e.err != nil && e.warn != nil {
		e.warn()
	}
	if name == "" {
		name = selectBackend(r.alg, r.Names(), e.enabled, e.preferYMM).Name
	}
	for i, d := range r.decls {
		if d.Name != name {
			continue
		}
		if !d.Available(e.enabled) {
			msg := fmt.Sprintf("%s: backend %q needs CPU features %s; enabled here: %s", r.alg, name, d.Requires, e.enabled)
			if e.overrideSet {
				msg += fmt.Sprintf(" (%s=%q)", EnvVar, e.override)
			}
			return Registration[T]{}, errors.New(msg)
		}
		return r.regs[i], nil
	}
	if _, declared := Lookup(r.alg, name); declared {
		return Registration[T]{}, fmt.Errorf("%s: backend %q is not built in this build (built: %s)",
			r.alg, name, strings.Join(r.Names(), ", "))
	}
	var valid []string
	for _, d := range Backends(r.alg) {
		valid = append(valid, d.Name)
	}
	return Registration[T]{}, fmt.Errorf("%s: unknown backend %q (valid: %s)", r.alg, name, strings.Join(valid, ", "))
}
