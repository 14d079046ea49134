package auth

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/random"
)

// A Hasher is one of Django's password hashers (an entry of its
// PASSWORD_HASHERS setting): it writes and checks hashes of the form
// "algorithm$...", byte for byte as Django's hasher of that name does.
// Plug in your own to read a format of your own.
type Hasher interface {
	// Algorithm is the name before the first "$" of the hashes it reads
	// and writes, e.g. "pbkdf2_sha256".
	Algorithm() string
	// Encode hashes password with a new random salt.
	Encode(password string) (string, error)
	// Verify reports whether password is the one encoded (a hash of this
	// algorithm), in constant time; a malformed hash never verifies.
	Verify(password, encoded string) bool
	// MustUpdate reports whether encoded, a hash of this algorithm, was
	// written with other parameters (work factor, salt size) than this
	// hasher's, so that a successful login should rehash the password.
	MustUpdate(encoded string) bool
	// HardenRuntime spends on password the work that encoded's parameters
	// fall short of this hasher's, so that a wrong password against an old,
	// cheaper hash takes as long as against a current one (it may do
	// nothing when that cannot be estimated).
	HardenRuntime(password, encoded string)
}

// Hashers is Django's PASSWORD_HASHERS: the first hashes new passwords,
// every one verifies the hashes of its algorithm. A nil or empty Hashers is
// DefaultHashers.
type Hashers []Hasher

// DefaultHashers is Django 5.2's PASSWORD_HASHERS, with its parameters:
// PBKDF2-SHA256 (1,000,000 iterations) for new passwords, then
// PBKDF2-SHA1, Argon2id, bcrypt of SHA-256 and scrypt.
var DefaultHashers = Hashers{PBKDF2Hasher{}, PBKDF2SHA1Hasher{}, Argon2Hasher{}, BCryptSHA256Hasher{}, ScryptHasher{}}

// Django32Hashers is Django 3.2's PASSWORD_HASHERS, with its parameters:
// PBKDF2-SHA256 (260000 iterations) for new passwords, then PBKDF2-SHA1,
// Argon2id and bcrypt of SHA-256.
var Django32Hashers = Hashers{PBKDF2Hasher{Iterations: django32Iterations}, PBKDF2SHA1Hasher{Iterations: django32Iterations}, Argon2Hasher{}, BCryptSHA256Hasher{}}

// HashersFor returns the PASSWORD_HASHERS of the Django release level
// names: DefaultHashers, or Django32Hashers at compat.DRF314.
func HashersFor(level compat.Level) Hashers {
	if level == compat.DRF314 {
		return Django32Hashers
	}
	return DefaultHashers
}

// AllHashers lists every hasher Django ships for current use, with Django
// 5.2's parameters: its defaults, then bcrypt (without SHA-256).
var AllHashers = append(DefaultHashers[:len(DefaultHashers):len(DefaultHashers)], BCryptHasher{})

// HashersNamedFor returns the hashers of AllHashers with these algorithm
// names ("argon2", "pbkdf2_sha256", ...), in this order: a Django site's
// PASSWORD_HASHERS in Go, with the parameters of the Django release
// level names (Django 3.2's PBKDF2 iterations at compat.DRF314, else
// Django 5.2's).
func HashersNamedFor(level compat.Level, names ...string) (Hashers, error) {
	var hs Hashers
	for _, name := range names {
		i := slices.IndexFunc(AllHashers, func(h Hasher) bool { return h.Algorithm() == name })
		if i < 0 {
			return nil, fmt.Errorf("auth: unknown password hasher %q", name)
		}
		h := AllHashers[i]
		if j := slices.IndexFunc(HashersFor(level), func(d Hasher) bool { return d.Algorithm() == name }); j >= 0 {
			h = HashersFor(level)[j]
		}
		hs = append(hs, h)
	}
	return hs, nil
}

func (hs Hashers) list() Hashers {
	if len(hs) == 0 {
		return DefaultHashers
	}
	return hs
}

// Make hashes password with the first hasher, as Django's make_password.
func (hs Hashers) Make(password string) (string, error) {
	return hs.list()[0].Encode(password)
}

// Check reports whether password is the one encoded, as Django's
// check_password does, and whether the hash should then be replaced by one
// of Make (it was written by another hasher than the first, or with other
// parameters): update is only ever true when ok is.
//
// Every answer costs about one hash of the first hasher: an unusable
// password ("!" prefix, Django's set_unusable_password), an empty or
// malformed value and an algorithm not in hs hash a random password with
// it (Django's fix of CVE-2024-39329), and a wrong password against a
// cheaper hash of the first hasher's algorithm is hardened to its cost.
func (hs Hashers) Check(password, encoded string) (ok, update bool) {
	hs = hs.list()
	preferred := hs[0]
	h := hs.identify(encoded)
	if h == nil || strings.HasPrefix(encoded, unusablePrefix) {
		_, _ = preferred.Encode(random.String(unusableSuffixLength, saltAlphabet))
		return false, false
	}
	changed := h.Algorithm() != preferred.Algorithm()
	update = changed || preferred.MustUpdate(encoded)
	ok = h.Verify(password, encoded)
	if !ok && !changed && update {
		preferred.HardenRuntime(password, encoded)
	}
	return ok, ok && update
}

// identify returns the hasher of encoded's algorithm, nil when none is in hs.
func (hs Hashers) identify(encoded string) Hasher {
	algorithm, _, ok := strings.Cut(encoded, "$")
	if !ok {
		return nil
	}
	for _, h := range hs {
		if h.Algorithm() == algorithm {
			return h
		}
	}
	return nil
}

// Django's unusable passwords: "!" and 40 random characters, a value that
// never verifies.
const (
	unusablePrefix       = "!"
	unusableSuffixLength = 40
)

// unusablePassword is Django's make_password(None).
func unusablePassword() string {
	return unusablePrefix + random.String(unusableSuffixLength, saltAlphabet)
}

// IsPasswordUsable reports whether encoded may ever verify: false for the
// "!" values of Django's set_unusable_password.
func IsPasswordUsable(encoded string) bool {
	return !strings.HasPrefix(encoded, unusablePrefix)
}

// saltAlphabet is Django's RANDOM_STRING_CHARS.
const saltAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// saltEntropy is the entropy in bits of Django's salts: 22 characters of
// saltAlphabet.
const saltEntropy = 128

// newSalt is Django's BasePasswordHasher.salt().
func newSalt() string {
	return random.String(int(math.Ceil(saltEntropy/math.Log2(float64(len(saltAlphabet))))), saltAlphabet)
}

// shortSalt is Django's must_update_salt: a salt of n characters carries
// less entropy than Django's salts do.
func shortSalt(n int) bool {
	return float64(n)*math.Log2(float64(len(saltAlphabet))) < saltEntropy
}
