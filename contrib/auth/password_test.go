package auth_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
)

// Hashes written by the reference Django 3.2 project (make_password and
// PBKDF2PasswordHasher.encode with 150000 iterations).
var djangoHashes = []struct{ raw, encoded string }{
	{"alice-pass", "pbkdf2_sha256$260000$e4zsPGgaT6NMnrRaMfCInq$+IEn+4dAipBwAePtpIz6XlKz7cIzp3oAMyt99ck/wYE="},
	{"s3cret ünïcode", "pbkdf2_sha256$150000$sFxLPLngYgPJ5Zd53zFjGS$ybpiM+4Yfcji1YVdDJLRbrTjNyuUUX6/XTl6K+eING4="},
	{"", "pbkdf2_sha256$260000$dJooE8voQns5SGvhSA0H7g$IK9ya2ysEsdLVEP9ixrlzl5i/x7O8MCKJeYYV/HJoRg="},
}

func TestCheckPasswordAgainstDjangoHashes(t *testing.T) {
	t.Parallel()
	for _, h := range djangoHashes {
		if !auth.CheckPassword(h.raw, h.encoded) {
			t.Errorf("CheckPassword(%q, Django's hash) = false", h.raw)
		}
		if wrong := h.raw + "x"; auth.CheckPassword(wrong, h.encoded) {
			t.Errorf("CheckPassword(%q, hash of %q) = true", wrong, h.raw)
		}
	}
}

func TestMakePasswordFormat(t *testing.T) {
	t.Parallel()
	format := regexp.MustCompile(`^pbkdf2_sha256\$260000\$[a-zA-Z0-9]{22}\$[A-Za-z0-9+/]{43}=$`)
	a, b := auth.MakePassword("alice-pass"), auth.MakePassword("alice-pass")
	for _, e := range []string{a, b} {
		if !format.MatchString(e) {
			t.Errorf("MakePassword = %q, not Django's format", e)
		}
	}
	if a[:44] == b[:44] {
		t.Error("two hashes of one password share a salt")
	}
	if !auth.CheckPassword("alice-pass", a) || auth.CheckPassword("bob-pass", a) {
		t.Errorf("%q does not verify as alice-pass only", a)
	}
}

func TestCheckPasswordRejects(t *testing.T) {
	t.Parallel()
	good := djangoHashes[1].encoded
	for _, encoded := range []string{
		"",
		"!l890Qk2vE28Ab6mabJtUJoD6IX4jmJVUhvbNUvbQ", // Django's make_password(None)
		"!" + good,
		strings.Replace(good, "pbkdf2_sha256", "pbkdf2_sha1", 1),
		strings.Replace(good, "pbkdf2_sha256", "argon2", 1),
		"md5$salt$0123456789abcdef0123456789abcdef",
		"pbkdf2_sha256$260000$e4zsPGgaT6NMnrRaMfCInq",
		"pbkdf2_sha256$0$e4zsPGgaT6NMnrRaMfCInq$x",
		"pbkdf2_sha256$-5$e4zsPGgaT6NMnrRaMfCInq$x",
		"pbkdf2_sha256$abc$e4zsPGgaT6NMnrRaMfCInq$x",
		strings.TrimSuffix(good, "="),
		"alice-pass",
	} {
		if auth.CheckPassword("alice-pass", encoded) {
			t.Errorf("CheckPassword accepted %q", encoded)
		}
	}
}
