package ctgrind

import "unsafe"

func unsafePointer(p *int) unsafe.Pointer { return unsafe.Pointer(p) }
