// Package rsa implements RSA private-key operations in constant time
// (signing and decryption with every padding: RSASSA-PSS, RSASSA-PKCS1-v1_5,
// RSAES-OAEP, RSAES-PKCS1-v1_5) and the matching public operations, with one
// Montgomery-arithmetic backend per CPU feature set.
//
// # Keys
//
// [NewPrivateKey] takes a *crypto/rsa.PrivateKey with two primes;
// [ParsePKCS1PrivateKey], [ParsePKCS8PrivateKey] and [ParsePEMPrivateKey]
// parse DER and PEM with crypto/x509. A [*PrivateKey] implements
// crypto.Signer (PSS when the options are a *crypto/rsa.PSSOptions, PKCS #1
// v1.5 otherwise, hash 0 meaning a pre-formatted input) and crypto.Decrypter
// (PKCS #1 v1.5, with crypto/rsa's session-key option, and OAEP), so it can be
// the PrivateKey of a crypto/tls certificate or the signer of
// x509.CreateCertificate. Its Public method returns a *crypto/rsa.PublicKey.
// [PrivateKey.Wipe] zeroes the key's secrets in every form the backend keeps
// them; afterwards any use of them, through the key or any copy of it,
// panics.
// [NewPublicKey] prepares a public key for verification and encryption.
// Moduli of 1024 to 8192 bits are supported.
//
// The paddings behave as crypto/rsa's (Go 1.26): the same PKCS #1 v1.5
// hashes (MD5, SHA-1, SHA-2, SHA-3, RIPEMD-160, MD5+SHA1), the same PSS
// salt-length conventions (opts.Hash honoured by SignPSS and ignored by
// VerifyPSS), and errors that match crypto/rsa's sentinel errors with
// errors.Is wherever crypto/rsa returns one, with vg's own explanation in
// the text. Where crypto/rsa panics on bad input (a hash no linked package
// implements), vg returns an error.
//
// Everything that depends only on the key is computed once, when it is
// prepared: the Montgomery constants and R^2 of n, p and q (for each prime
// with one Montgomery multiplication modulo n when the lengths allow, the
// doubling-and-squaring chain otherwise), the CRT exponents and the CRT
// coefficient. Validation uses the package's own constant-time arithmetic,
// not math/big: n = p*q, dp = d mod (p-1) and e*dp = 1 mod (p-1) (the same for
// q), precomputed values if the key carries them, and one private operation
// checked against the public key.
//
// # Backends
//
// The backend is chosen once, at NewPrivateKey: the best of the implemented
// backends whose CPU features VG_CPU_FEATURES allows (see package cpufeat), or
// the one named with [WithBackend]. [Backends] lists them, as [Backend]
// values. The backends are
// "generic" (portable Go), "adx" on amd64 with BMI2 and ADX (Montgomery
// kernels generated with avo: MULX with the ADCX and ADOX carry chains,
// almost Montgomery multiplication, a fixed 5-bit window with a
// constant-time gather over an interleaved table), and "ifma" (AVX-512
// IFMA, both CRT halves in one loop).
//
// On arm64, ppc64, ppc64le and s390x, where vg has no assembly and
// crypto/rsa's constant-time arithmetic has, the default backend is
// "stdlib" (cpufeat's stdrsa): the key is checked and prepared as on every
// backend, each operation checks its arguments with vg's code (so errors
// for bad arguments are vg's), then signs, decrypts, verifies or encrypts
// with crypto/rsa on vg's own copy of the key, so vg is never slower there
// than what it replaces. What crypto/rsa cannot express runs on the
// generic code: PSS with an MGF1 hash other than the message hash, and PSS
// with a salt length of zero. crypto/rsa checks its own private-operation
// results; its failures are reported as ErrDecryption for decryptions and
// ErrVerification for verifications, as vg's are. Wipe zeroes vg's copy of
// the key but not the form crypto/rsa precomputes from it, which it cannot
// reach (the garbage collector frees it unzeroed).
//
// # Constant time
//
// Every backend keeps numbers in fixed-width 64-bit limbs whose count
// follows from the modulus size. Montgomery multiplication and a dedicated
// squaring, a fixed 5-bit window (generic: 4 bits below 1024-bit exponents) whose
// table lookups read every entry and select with masks, and no branch, loop
// bound or memory index that depends on a secret. After CRT recombination
// the result s is checked with s^e == m (constant time in s); on a mismatch
// the operation returns [ErrFault] and withholds the value. PKCS #1 v1.5 and
// OAEP decryption check the padding without secret-dependent branches (the
// final valid/invalid outcome is, as in crypto/rsa, returned). Scratch that
// held secrets is wiped. Public operations (verify, encrypt, and the
// exponentiation by e) are variable time in public values only; their names
// say so where it matters (publicOpVarTime, expVarTime).
package rsa
