module github.com/vgcrypto/vg/cpufeat

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
