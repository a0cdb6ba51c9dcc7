package aead

// Panics holds the messages of the panics crypto/cipher's contract asks for
// on an invalid overlap, with a module's name in front.
type Panics struct {
	pkg                            string
	overlapInput, overlapAD, wiped string
}

// NewPanics returns the panic messages of the module pkg.
func NewPanics(pkg string) *Panics {
	return &Panics{
		pkg:          pkg,
		overlapInput: pkg + ": invalid buffer overlap of output and input",
		overlapAD:    pkg + ": invalid buffer overlap of output and additional data",
		wiped:        pkg + ": use of a wiped key",
	}
}

// SealBuffers returns what Seal appends to dst: ret, the whole result, and
// out, its new len(plaintext)+tagSize bytes. It panics when out overlaps
// plaintext other than in place (plaintext[:0] as dst) or overlaps
// additionalData at all.
func (p *Panics) SealBuffers(dst, plaintext, additionalData []byte, tagSize int) (ret, out []byte) {
	ret, out = SliceForAppend(dst, len(plaintext)+tagSize)
	if InexactOverlap(out, plaintext) {
		panic(p.overlapInput)
	}
	if AnyOverlap(out, additionalData) {
		panic(p.overlapAD)
	}
	return ret, out
}

// OpenBuffers splits a sealed message of at least tagSize bytes into its
// text and tag and returns what Open appends to dst: ret, the whole result,
// and out, its new len(text) bytes. It panics, as crypto/cipher's Open
// does, when out overlaps the sealed message other than in place
// (ciphertext[:0] as dst; the tag is never overwritten) or overlaps
// additionalData at all.
func (p *Panics) OpenBuffers(dst, ciphertext, additionalData []byte, tagSize int) (ret, out, text, tag []byte) {
	n := len(ciphertext) - tagSize
	text, tag = ciphertext[:n], ciphertext[n:]
	ret, out = SliceForAppend(dst, n)
	if InexactOverlap(out, text) || AnyOverlap(out, tag) {
		panic(p.overlapInput)
	}
	if AnyOverlap(out, additionalData) {
		panic(p.overlapAD)
	}
	return ret, out, text, tag
}

// GatherBuffers is SealBuffers for SealGather: pieces is the text, of
// total bytes (from Gather, with touches), each piece
// either exactly its own part of out or disjoint from out, text and tag.
func (p *Panics) GatherBuffers(dst []byte, pieces [][]byte, total uint64, touches bool, additionalData []byte, tagSize int) (ret, out []byte) {
	ret, out = SliceForAppend(dst, int(total)+tagSize)
	if touches && !GatherOverlapOK(out, pieces) {
		panic(p.overlapInput)
	}
	if AnyOverlap(out, additionalData) {
		panic(p.overlapAD)
	}
	return ret, out
}

// StreamBuffers returns what an Encryptor's Encrypt appends to dst for the
// next chunk, plaintext: ret, the whole result, and out, its new
// len(plaintext) bytes. It panics after Finish (finished), with a wiped key
// (wiped), when the message, done bytes so far, would grow past max (with
// tooLarge), and when out overlaps plaintext other than in place
// (plaintext[:0] as dst).
func (p *Panics) StreamBuffers(dst, plaintext []byte, finished, wiped bool, done, max uint64, tooLarge string) (ret, out []byte) {
	if finished {
		panic(p.pkg + ": Encrypt after Finish")
	}
	if wiped {
		panic(p.wiped)
	}
	if done+uint64(len(plaintext)) > max {
		panic(tooLarge)
	}
	ret, out = SliceForAppend(dst, len(plaintext))
	if InexactOverlap(out, plaintext) {
		panic(p.overlapInput)
	}
	return ret, out
}

// Apply returns o with the options opts applied, each a function setting
// its fields. Constructors call it only when they were given options: the
// copy the options write to escapes to the heap.
func Apply[O any, F ~func(*O)](o O, opts []F) O {
	p := &o
	for _, opt := range opts {
		opt(p)
	}
	return *p
}
