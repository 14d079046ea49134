package pycompat

import (
	"regexp"
	"testing"
)

// djangoHostPattern is Django's host_validation_re, which ValidHost
// implements without a regular expression; Django matches it on the
// lowercased host (djangoValid).
var djangoHostPattern = regexp.MustCompile(`^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$`)

// djangoValid is Django's split_domain_port's test: host.lower(), matched.
func djangoValid(h string) bool { return djangoHostPattern.MatchString(Lower(h)) }

var hostSeeds = []string{"", "example.com", "example.com:8000", "example.com.", "a-b.c:1", "127.0.0.1:8765",
	"[::1]", "[::1]:80", "[2001:db8::1]:443", "[::]", "[:]", "[]", "[1]", "[1:]", "[g::1]", "[::1", "::1]", "[::1]x",
	"[::1]:", "example.com:", "example.com:80:80", "exa mple.com", "exämple.com", ":80", "a:b", "[::1]:8a", "-", ".",
	"a_b.com", "[a:b]]", "[abc:1.2.3.4]", "Example.COM:80", "[::ABC]", "[G::1]", "K", "\u212a", "ſ", "\u0130", "[::\u212a]"}

// TestValidHostIsDjangos: ValidHost agrees with Django's pattern.
func TestValidHostIsDjangos(t *testing.T) {
	for _, h := range hostSeeds {
		if got, want := ValidHost(h), djangoValid(h); got != want {
			t.Errorf("ValidHost(%q) = %v, Django's pattern says %v", h, got, want)
		}
	}
}

// Lower is Python's str.lower() (pinned against Python 3): the Kelvin sign
// is k, a long s stays, a dotted capital I is i and a combining dot.
func TestLowerIsPythons(t *testing.T) {
	for in, want := range map[string]string{"\u212a": "k", "ſ": "ſ", "\u0130": "i\u0307", "ÄB": "äb", "ΣΑ": "σα"} {
		if got := Lower(in); got != want {
			t.Errorf("Lower(%q) = %q, want Python's %q", in, got, want)
		}
	}
}

func FuzzValidHost(f *testing.F) {
	for _, h := range hostSeeds {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, want := ValidHost(h), djangoValid(h); got != want {
			t.Errorf("ValidHost(%q) = %v, Django's pattern says %v", h, got, want)
		}
	})
}
