package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// defaultRounds is the bcrypt work factor (log2 of the rounds) of Django's
// bcrypt hashers.
const defaultRounds = 12

// BCryptSHA256Hasher is Django's BCryptSHA256PasswordHasher: bcrypt of the
// hex SHA-256 of the password (so that no part of a long password is
// lost), stored as "bcrypt_sha256$$2b$<rounds>$<salt and hash>".
type BCryptSHA256Hasher struct {
	// Rounds is the work factor, 4 to 31; 0 means 12 (Django's).
	Rounds int
}

// BCryptHasher is Django's BCryptPasswordHasher: bcrypt of the password
// itself, of which only the first 72 bytes count (prefer
// BCryptSHA256Hasher), stored as "bcrypt$$2b$<rounds>$<salt and hash>".
type BCryptHasher struct {
	// Rounds is as BCryptSHA256Hasher's.
	Rounds int
}

// Algorithm returns "bcrypt_sha256".
func (BCryptSHA256Hasher) Algorithm() string { return "bcrypt_sha256" }

// Encode hashes password with a new salt.
func (h BCryptSHA256Hasher) Encode(password string) (string, error) {
	return h.bcrypt().encode(password)
}

// Verify reports whether password is the one encoded.
func (h BCryptSHA256Hasher) Verify(password, encoded string) bool {
	return h.bcrypt().verify(password, encoded)
}

// MustUpdate reports whether encoded has another work factor.
func (h BCryptSHA256Hasher) MustUpdate(encoded string) bool { return h.bcrypt().mustUpdate(encoded) }

// HardenRuntime runs bcrypt as many more times as encoded's lower work
// factor falls short of h's.
func (h BCryptSHA256Hasher) HardenRuntime(password, encoded string) {
	h.bcrypt().hardenRuntime(password, encoded)
}

func (h BCryptSHA256Hasher) bcrypt() bcryptHasher {
	return bcryptHasher{h.Algorithm(), true, h.Rounds}
}

// Algorithm returns "bcrypt".
func (BCryptHasher) Algorithm() string { return "bcrypt" }

// Encode hashes password with a new salt.
func (h BCryptHasher) Encode(password string) (string, error) { return h.bcrypt().encode(password) }

// Verify reports whether password is the one encoded.
func (h BCryptHasher) Verify(password, encoded string) bool {
	return h.bcrypt().verify(password, encoded)
}

// MustUpdate reports whether encoded has another work factor.
func (h BCryptHasher) MustUpdate(encoded string) bool { return h.bcrypt().mustUpdate(encoded) }

// HardenRuntime runs bcrypt as many more times as encoded's lower work
// factor falls short of h's.
func (h BCryptHasher) HardenRuntime(password, encoded string) {
	h.bcrypt().hardenRuntime(password, encoded)
}

func (h BCryptHasher) bcrypt() bcryptHasher { return bcryptHasher{h.Algorithm(), false, h.Rounds} }

// errNUL refuses a password bcrypt would cut at its first NUL byte, as
// Python's bcrypt does.
var errNUL = errors.New("auth: a bcrypt password may not contain NUL bytes")

// bcryptHasher is the logic of both bcrypt hashers.
type bcryptHasher struct {
	algorithm string
	sha256    bool
	rounds    int
}

func (h bcryptHasher) cost() int {
	if h.rounds == 0 {
		return defaultRounds
	}
	return h.rounds
}

// secret is what bcrypt hashes: the hex SHA-256 of password, or the
// password cut to bcrypt's 72 bytes, as Python's bcrypt does.
func (h bcryptHasher) secret(password string) []byte {
	if h.sha256 {
		sum := sha256.Sum256([]byte(password))
		return []byte(hex.EncodeToString(sum[:]))
	}
	return []byte(password)[:min(len(password), 72)]
}

func (h bcryptHasher) encode(password string) (string, error) {
	if !h.sha256 && strings.IndexByte(password, 0) >= 0 {
		return "", errNUL
	}
	b, err := bcrypt.GenerateFromPassword(h.secret(password), h.cost())
	if err != nil {
		return "", err
	}
	// Python's bcrypt writes version 2b; Go's writes 2a, the same hash.
	return h.algorithm + "$$2b" + strings.TrimPrefix(string(b), "$2a"), nil
}

// hash returns the bcrypt part of encoded ("$2b$12$...").
func (h bcryptHasher) hash(encoded string) ([]byte, bool) {
	b, ok := strings.CutPrefix(encoded, h.algorithm+"$")
	return []byte(b), ok
}

func (h bcryptHasher) verify(password, encoded string) bool {
	b, ok := h.hash(encoded)
	if !ok || (!h.sha256 && strings.IndexByte(password, 0) >= 0) {
		return false
	}
	return bcrypt.CompareHashAndPassword(b, h.secret(password)) == nil
}

func (h bcryptHasher) mustUpdate(encoded string) bool {
	b, ok := h.hash(encoded)
	if !ok {
		return true
	}
	cost, err := bcrypt.Cost(b)
	return err != nil || cost != h.cost()
}

func (h bcryptHasher) hardenRuntime(password, encoded string) {
	b, ok := h.hash(encoded)
	if !ok {
		return
	}
	cost, err := bcrypt.Cost(b)
	if err != nil || cost >= h.cost() {
		return
	}
	// Each step of the work factor doubles the work.
	for range 1<<(h.cost()-cost) - 1 {
		_ = bcrypt.CompareHashAndPassword(b, h.secret(password))
	}
}
