package framework

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/go-drf/drf/internal/pycompat"
)

// allowedHosts is Settings.AllowedHosts lowercased, as Django compares,
// and the host last found allowed: a server's requests nearly all name
// the same host, which is then not parsed again.
type allowedHosts struct {
	patterns []string
	last     atomic.Pointer[string]
}

func newAllowedHosts(patterns []string) *allowedHosts {
	if len(patterns) == 0 {
		return nil
	}
	a := &allowedHosts{patterns: make([]string, len(patterns))}
	for i, p := range patterns {
		a.patterns[i] = strings.ToLower(p)
	}
	return a
}

// allows is Django's validate_host: "*" matches any domain, ".example.com"
// example.com and its subdomains, anything else the domain exactly.
func (a *allowedHosts) allows(domain string) bool {
	for _, p := range a.patterns {
		if p == "*" || p == domain || p != "" && p[0] == '.' && (strings.HasSuffix(domain, p) || domain == p[1:]) {
			return true
		}
	}
	return false
}

// splitDomainPort is Django's split_domain_port: the lowercased domain
// (without a final dot) and port of host, "" for a host that is not valid.
func splitDomainPort(host string) (domain, port string) {
	host = pycompat.Lower(host)
	if !pycompat.ValidHost(host) {
		return "", ""
	}
	if strings.HasSuffix(host, "]") {
		return host, ""
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host, port = host[:i], host[i+1:]
	}
	return strings.TrimSuffix(host, "."), port
}

// checkHost reports whether the host of r (the one its absolute links
// would use) is allowed; when it is not, it has answered Django's 400 page
// and logged Django's DisallowedHost message.
func (a *allowedHosts) checkHost(w http.ResponseWriter, r *http.Request, host string, log *slog.Logger, contentType string) bool {
	if last := a.last.Load(); last != nil && *last == host {
		return true
	}
	domain, _ := splitDomainPort(host)
	if domain != "" && a.allows(domain) {
		allowed := host
		a.last.Store(&allowed)
		return true
	}
	msg := "Invalid HTTP_HOST header: " + pycompat.Repr(host) + "."
	if domain != "" {
		msg += " You may need to add " + pycompat.Repr(domain) + " to ALLOWED_HOSTS."
	} else {
		msg += " The domain name provided is not valid according to RFC 1034/1035."
	}
	log.WarnContext(r.Context(), msg, "method", r.Method, "path", r.URL.Path)
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusBadRequest)
	_, _ = io.WriteString(w, badRequestPage)
	return false
}

// badRequestPage is Django's 400 page.
const badRequestPage = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Bad Request (400)</title>\n</head>\n<body>\n  <h1>Bad Request (400)</h1><p></p>\n</body>\n</html>\n"
