package pycompat

import (
	"regexp"
	"testing"
)

// djangoHostPattern is Django's host_validation_re, which ValidHost
// implements without a regular expression, matched case-insensitively.
var djangoHostPattern = regexp.MustCompile(`^(?i:[a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$`)

var hostSeeds = []string{"", "example.com", "example.com:8000", "example.com.", "a-b.c:1", "127.0.0.1:8765",
	"[::1]", "[::1]:80", "[2001:db8::1]:443", "[::]", "[:]", "[]", "[1]", "[1:]", "[g::1]", "[::1", "::1]", "[::1]x",
	"[::1]:", "example.com:", "example.com:80:80", "exa mple.com", "exämple.com", ":80", "a:b", "[::1]:8a", "-", ".",
	"a_b.com", "[a:b]]", "[abc:1.2.3.4]", "Example.COM:80", "[::ABC]", "[G::1]", "K"}

// TestValidHostIsDjangos: ValidHost agrees with Django's pattern.
func TestValidHostIsDjangos(t *testing.T) {
	for _, h := range hostSeeds {
		if got, want := ValidHost(h), djangoHostPattern.MatchString(h); got != want {
			t.Errorf("ValidHost(%q) = %v, Django's pattern says %v", h, got, want)
		}
	}
}

func FuzzValidHost(f *testing.F) {
	for _, h := range hostSeeds {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, want := ValidHost(h), djangoHostPattern.MatchString(h); got != want {
			t.Errorf("ValidHost(%q) = %v, Django's pattern says %v", h, got, want)
		}
	})
}
