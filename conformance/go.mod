module github.com/vgcrypto/vg/conformance

go 1.26
