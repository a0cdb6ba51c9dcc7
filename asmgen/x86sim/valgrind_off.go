//go:build !(valgrind && amd64)

package x86sim

import "unsafe"

// Without the build tag valgrind the model's taint comes from the
// annotations alone (see valgrind.go).

// UnderValgrind reports whether the model takes its taint from valgrind's
// memcheck: never without the build tag valgrind.
func UnderValgrind() bool { return false }

type vbitsCall struct{}

func (m *Machine) valgrindEnter(string, Frame, int, uint64, uint64) (*vbitsCall, error) {
	return nil, nil
}

func (m *Machine) valgrindLeave(*vbitsCall, unsafe.Pointer, uintptr) {}

func (m *Machine) valgrindAbort(*vbitsCall) {}

func valgrindReport() string { return "" }
