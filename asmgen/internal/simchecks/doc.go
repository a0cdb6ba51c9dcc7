// Package simchecks holds the tests that show the x86sim model catching, on an
// executed path, the faults it exists to find: secrets carried through the
// stack below SP, through a general-register copy of SP and through an
// argument slot; secret-indexed loads; a secret bit offset in BT reg, mem; a
// read one byte past an input; a masked tail enabling one lane too many; a key
// left in a vector register on one return path. Each failing function has a
// twin that passes, so a model that faults on everything fails the tests too.
package simchecks
