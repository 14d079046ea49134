package auth

import (
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"hash"
	"strconv"
	"strings"
	"unicode/utf8"
)

// defaultIterations is the PBKDF2 work factor of Django 5.2's hashers.
const defaultIterations = 1000000

// django32Iterations is the PBKDF2 work factor of Django 3.2's hashers
// (Django32Hashers).
const django32Iterations = 260000

// PBKDF2Hasher is Django's PBKDF2PasswordHasher, its default:
// "pbkdf2_sha256$<iterations>$<salt>$<base64 of the 32-byte key>".
type PBKDF2Hasher struct {
	// Iterations is the work factor of new hashes; 0 means 1,000,000
	// (Django 5.2's). Hashes of any count verify; others are rehashed on
	// login when this hasher is the first.
	Iterations int
}

// PBKDF2SHA1Hasher is Django's PBKDF2SHA1PasswordHasher:
// "pbkdf2_sha1$<iterations>$<salt>$<base64 of the 20-byte key>".
type PBKDF2SHA1Hasher struct {
	// Iterations is as PBKDF2Hasher's.
	Iterations int
}

// Algorithm returns "pbkdf2_sha256".
func (PBKDF2Hasher) Algorithm() string { return "pbkdf2_sha256" }

// Encode hashes password with a new salt.
func (h PBKDF2Hasher) Encode(password string) (string, error) { return h.pbkdf2().encode(password) }

// Verify reports whether password is the one encoded.
func (h PBKDF2Hasher) Verify(password, encoded string) bool {
	return h.pbkdf2().verify(password, encoded)
}

// MustUpdate reports whether encoded has another iteration count or a shorter salt.
func (h PBKDF2Hasher) MustUpdate(encoded string) bool { return h.pbkdf2().mustUpdate(encoded) }

// HardenRuntime runs the iterations encoded has fewer than h.
func (h PBKDF2Hasher) HardenRuntime(password, encoded string) {
	h.pbkdf2().hardenRuntime(password, encoded)
}

func (h PBKDF2Hasher) pbkdf2() pbkdf2Hasher {
	return pbkdf2Hasher{h.Algorithm(), sha256.New, h.Iterations}
}

// Algorithm returns "pbkdf2_sha1".
func (PBKDF2SHA1Hasher) Algorithm() string { return "pbkdf2_sha1" }

// Encode hashes password with a new salt.
func (h PBKDF2SHA1Hasher) Encode(password string) (string, error) {
	return h.pbkdf2().encode(password)
}

// Verify reports whether password is the one encoded.
func (h PBKDF2SHA1Hasher) Verify(password, encoded string) bool {
	return h.pbkdf2().verify(password, encoded)
}

// MustUpdate reports whether encoded has another iteration count or a shorter salt.
func (h PBKDF2SHA1Hasher) MustUpdate(encoded string) bool { return h.pbkdf2().mustUpdate(encoded) }

// HardenRuntime runs the iterations encoded has fewer than h.
func (h PBKDF2SHA1Hasher) HardenRuntime(password, encoded string) {
	h.pbkdf2().hardenRuntime(password, encoded)
}

func (h PBKDF2SHA1Hasher) pbkdf2() pbkdf2Hasher {
	return pbkdf2Hasher{h.Algorithm(), sha1.New, h.Iterations}
}

// pbkdf2Hasher is the logic of both PBKDF2 hashers.
type pbkdf2Hasher struct {
	algorithm  string
	digest     func() hash.Hash
	iterations int
}

func (h pbkdf2Hasher) work() int {
	if h.iterations <= 0 {
		return defaultIterations
	}
	return h.iterations
}

func (h pbkdf2Hasher) encode(password string) (string, error) {
	return h.encodeWith(password, newSalt(), h.work())
}

// encodeWith is Django's PBKDF2PasswordHasher.encode(password, salt, iterations).
func (h pbkdf2Hasher) encodeWith(password, salt string, iterations int) (string, error) {
	key, err := pbkdf2.Key(h.digest, password, []byte(salt), iterations, h.digest().Size())
	if err != nil {
		return "", err
	}
	return h.algorithm + "$" + strconv.Itoa(iterations) + "$" + salt + "$" + base64.StdEncoding.EncodeToString(key), nil
}

// decode splits encoded into its iteration count and salt.
func (h pbkdf2Hasher) decode(encoded string) (iterations int, salt string, ok bool) {
	parts := strings.SplitN(encoded, "$", 4)
	if len(parts) != 4 || parts[0] != h.algorithm {
		return 0, "", false
	}
	iterations, err := strconv.Atoi(parts[1])
	if err != nil || iterations < 1 {
		return 0, "", false
	}
	return iterations, parts[2], true
}

func (h pbkdf2Hasher) verify(password, encoded string) bool {
	iterations, salt, ok := h.decode(encoded)
	if !ok {
		return false
	}
	// As Django does: re-encode and compare the whole strings.
	again, err := h.encodeWith(password, salt, iterations)
	return err == nil && subtle.ConstantTimeCompare([]byte(encoded), []byte(again)) == 1
}

func (h pbkdf2Hasher) mustUpdate(encoded string) bool {
	iterations, salt, ok := h.decode(encoded)
	return !ok || iterations != h.work() || shortSalt(utf8.RuneCountInString(salt))
}

func (h pbkdf2Hasher) hardenRuntime(password, encoded string) {
	iterations, salt, ok := h.decode(encoded)
	if extra := h.work() - iterations; ok && extra > 0 {
		_, _ = h.encodeWith(password, salt, extra)
	}
}
