module github.com/vgcrypto/vg/aesgcm

go 1.26.0

require github.com/vgcrypto/vg/cpufeat v0.0.0

require github.com/stretchr/testify v1.12.1 // indirect

replace github.com/vgcrypto/vg/cpufeat => ../cpufeat
