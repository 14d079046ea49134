package auth

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/go-drf/drf/internal/random"
)

// Algorithm is the name of the only password hasher this package speaks:
// Django's default, PBKDF2 with HMAC-SHA256.
const Algorithm = "pbkdf2_sha256"

// Iterations is the PBKDF2 work factor of new hashes, Django 3.2's default.
const Iterations = 260000

// saltLength is Django 3.2's salt size: 22 characters of a 62-letter
// alphabet carry at least 128 bits.
const saltLength = 22

// alphabet is Django's RANDOM_STRING_CHARS.
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// unusablePrefix marks a password that never verifies, as in Django.
const unusablePrefix = "!"

// MakePassword hashes raw the way Django's make_password does:
// "pbkdf2_sha256$260000$<22-char salt>$<base64 of the 32-byte key>".
func MakePassword(raw string) string {
	return encode(raw, random.String(saltLength, alphabet), Iterations)
}

// CheckPassword reports whether raw is the password encoded, in constant
// time. Any iteration count verifies; another algorithm, a malformed value
// and an unusable password ("!" prefix) never do.
func CheckPassword(raw, encoded string) bool {
	algorithm, rest, ok := strings.Cut(encoded, "$")
	if !ok || algorithm != Algorithm {
		return false
	}
	iterText, rest, ok := strings.Cut(rest, "$")
	if !ok {
		return false
	}
	salt, _, ok := strings.Cut(rest, "$")
	if !ok {
		return false
	}
	iterations, err := strconv.Atoi(iterText)
	if err != nil || iterations < 1 {
		return false
	}
	// As Django does: re-encode and compare the whole strings.
	return subtle.ConstantTimeCompare([]byte(encoded), []byte(encode(raw, salt, iterations))) == 1
}

// encode is Django's PBKDF2PasswordHasher.encode.
func encode(raw, salt string, iterations int) string {
	key, err := pbkdf2.Key(sha256.New, raw, []byte(salt), iterations, sha256.Size)
	if err != nil {
		// Only FIPS 140-only mode refuses these parameters.
		panic("auth: pbkdf2: " + err.Error())
	}
	return Algorithm + "$" + strconv.Itoa(iterations) + "$" + salt + "$" + base64.StdEncoding.EncodeToString(key)
}

// unusablePassword is Django's make_password(None): "!" and 40 random
// characters, a value no password verifies against.
func unusablePassword() string {
	return unusablePrefix + random.String(40, alphabet)
}
