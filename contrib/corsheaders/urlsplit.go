package corsheaders

import (
	"errors"
	"net/netip"
	"regexp"
	"strings"

	"github.com/go-drf/drf/internal/pycompat"
)

// splitURL is the result of Python's urllib.parse.urlsplit.
type splitURL struct {
	scheme, netloc, path, query, fragment string
}

// errIPv6 is urlsplit's ValueError for a malformed bracketed host.
var errIPv6 = errors.New("Invalid IPv6 URL")

// ipvFuture is the bracketed host urlsplit takes for an IPvFuture address.
var ipvFuture = regexp.MustCompile(`\Av[a-fA-F0-9]+\..+\z`)

// urlsplit is Python 3.11's urllib.parse.urlsplit(s): leading C0 controls
// and spaces (bytes up to " ") stripped, tabs and newlines removed, the scheme lower-cased;
// a netloc with unbalanced brackets, or whose bracketed host is not an
// IPv6 or IPvFuture address, is its ValueError. netloc's NFKC check never
// fails for header values, which WSGI reads as Latin-1.
func urlsplit(s string) (u splitURL, err error) {
	for len(s) > 0 && s[0] <= ' ' {
		s = s[1:]
	}
	if strings.ContainsAny(s, "\t\r\n") {
		s = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(s)
	}
	if i := strings.IndexByte(s, ':'); i > 0 && isAlpha(s[0]) && isScheme(s[:i]) {
		u.scheme, s = strings.ToLower(s[:i]), s[i+1:]
	}
	if strings.HasPrefix(s, "//") {
		end := 2
		for end < len(s) && s[end] != '/' && s[end] != '?' && s[end] != '#' {
			end++
		}
		u.netloc, s = s[2:end], s[end:]
		open, closed := strings.Contains(u.netloc, "["), strings.Contains(u.netloc, "]")
		if open != closed {
			return u, errIPv6
		}
		if open {
			if err := checkBracketedNetloc(u.netloc); err != nil {
				return u, err
			}
		}
	}
	s, u.fragment, _ = strings.Cut(s, "#")
	u.path, u.query, _ = strings.Cut(s, "?")
	return u, nil
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isScheme reports whether s is made of urllib.parse.scheme_chars: ASCII
// letters, digits, "+", "-" and ".".
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlpha(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// checkBracketedNetloc is urllib.parse's _check_bracketed_netloc: nothing
// before the bracket, nothing but a port after it, and the host in it an
// IPv6 or IPvFuture address.
func checkBracketedNetloc(netloc string) error {
	hostPort := netloc[strings.LastIndexByte(netloc, '@')+1:]
	var host string
	if before, bracketed, ok := strings.Cut(hostPort, "["); ok {
		if before != "" {
			return errIPv6
		}
		var port string
		host, port, _ = strings.Cut(bracketed, "]")
		if port != "" && port[0] != ':' {
			return errIPv6
		}
	} else {
		host, _, _ = strings.Cut(hostPort, ":")
	}
	if strings.HasPrefix(host, "v") {
		if !ipvFuture.MatchString(host) {
			return errors.New("IPvFuture address is invalid")
		}
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return errors.New(pycompat.Repr(host) + " does not appear to be an IPv4 or IPv6 address")
	}
	if ip.Is4() {
		return errors.New("An IPv4 address cannot be in brackets")
	}
	return nil
}
