package auth

import (
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/scrypt"
)

// ScryptHasher is Django's ScryptPasswordHasher (Django 4.0 and later):
// "scrypt$<N>$<salt>$<r>$<p>$<base64 of the 64-byte key>".
type ScryptHasher struct {
	// WorkFactor is N, a power of two; 0 means 16384 (2^14), Django's.
	WorkFactor int
	// BlockSize is r; 0 means 8, Django's.
	BlockSize int
	// Parallelism is p; 0 means 5, Django 4.2's and later's (1 before).
	Parallelism int
	// MaxMemory is the most memory in bytes a hash may take to compute,
	// 128·r·(N+p+2); 0 means 32 MiB, the limit of Django's (OpenSSL's
	// default). Hashes that would need more never verify.
	MaxMemory int
}

// Django's scrypt parameters.
const (
	scryptN      = 1 << 14
	scryptR      = 8
	scryptP      = 5
	scryptKeyLen = 64
	scryptMaxMem = 32 << 20
)

// errScryptMemory refuses parameters beyond MaxMemory.
var errScryptMemory = errors.New("auth: scrypt parameters exceed the memory limit")

// Algorithm returns "scrypt".
func (ScryptHasher) Algorithm() string { return "scrypt" }

func (h ScryptHasher) params() (n, r, p int) {
	n, r, p = h.WorkFactor, h.BlockSize, h.Parallelism
	if n == 0 {
		n = scryptN
	}
	if r == 0 {
		r = scryptR
	}
	if p == 0 {
		p = scryptP
	}
	return n, r, p
}

// Encode hashes password with a new salt.
func (h ScryptHasher) Encode(password string) (string, error) {
	n, r, p := h.params()
	return h.encode(password, newSalt(), n, r, p)
}

// encode is Django's ScryptPasswordHasher.encode(password, salt, n, r, p).
func (h ScryptHasher) encode(password, salt string, n, r, p int) (string, error) {
	limit := h.MaxMemory
	if limit == 0 {
		limit = scryptMaxMem
	}
	if n < 2 || r < 1 || p < 1 || r > limit/128 || n > limit/(128*r) || 128*r*(n+p+2) > limit {
		return "", errScryptMemory
	}
	key, err := scrypt.Key([]byte(password), []byte(salt), n, r, p, scryptKeyLen)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("scrypt$%d$%s$%d$%d$%s", n, salt, r, p, base64.StdEncoding.EncodeToString(key)), nil
}

// decode splits encoded into its parameters and salt.
func (ScryptHasher) decode(encoded string) (n, r, p int, salt string, ok bool) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "scrypt" {
		return 0, 0, 0, "", false
	}
	var errs [3]error
	n, errs[0] = strconv.Atoi(parts[1])
	r, errs[1] = strconv.Atoi(parts[3])
	p, errs[2] = strconv.Atoi(parts[4])
	return n, r, p, parts[2], errors.Join(errs[:]...) == nil
}

// Verify reports whether password is the one encoded.
func (h ScryptHasher) Verify(password, encoded string) bool {
	n, r, p, salt, ok := h.decode(encoded)
	if !ok {
		return false
	}
	again, err := h.encode(password, salt, n, r, p)
	return err == nil && subtle.ConstantTimeCompare([]byte(encoded), []byte(again)) == 1
}

// MustUpdate reports whether encoded has other parameters than h or a
// shorter salt.
func (h ScryptHasher) MustUpdate(encoded string) bool {
	n, r, p, salt, ok := h.decode(encoded)
	wn, wr, wp := h.params()
	return !ok || n != wn || r != wr || p != wp || shortSalt(utf8.RuneCountInString(salt))
}

// HardenRuntime does nothing: as in Django, scrypt's cost is too involved
// to make up for.
func (ScryptHasher) HardenRuntime(password, encoded string) {}
