module github.com/vgcrypto/vg/stackscratch

go 1.26
