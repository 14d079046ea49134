// Package csrf is Django's cross-site request forgery protection: a secret
// in the csrftoken cookie, masked tokens that forms and scripts send back in
// the csrfmiddlewaretoken field or the X-CSRFToken header, Referer checks
// over HTTPS, and Go's http.CrossOriginProtection (Sec-Fetch-Site and
// Origin) underneath. Tokens of Django's format are accepted both ways.
package csrf

import (
	"cmp"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-drf/drf/contrib/internal/djangohttp"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/random"
)

// Django's failure reasons. Django 4.1 and later say what is wrong with
// a token: ReasonNoToken, or "CSRF token from POST incorrect.", "CSRF
// token from the 'X-Csrftoken' HTTP header has incorrect length.", "CSRF
// cookie has invalid characters." and the like; Django 3.2 says
// ReasonBadToken of them all.
const (
	ReasonNoReferer        = "Referer checking failed - no Referer."
	ReasonMalformedReferer = "Referer checking failed - Referer is malformed."
	ReasonInsecureReferer  = "Referer checking failed - Referer is insecure while host is secure."
	ReasonNoCookie         = "CSRF cookie not set."
	ReasonNoToken          = "CSRF token missing."
	ReasonBadToken         = "CSRF token missing or incorrect."
)

// Defaults of Protection's fields, Django's settings.
const (
	defaultCookieName = "csrftoken"
	defaultHeaderName = "X-CSRFToken"
	defaultFieldName  = "csrfmiddlewaretoken"
	defaultCookieAge  = 31449600 * time.Second
)

// Lengths of a secret and of a masked token; both are ASCII letters and digits.
const (
	SecretLength = 32
	TokenLength  = 2 * SecretLength
)

const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Protection checks requests and hands out tokens. Its zero value uses
// Django's defaults. Do not change a Protection once it is in use.
type Protection struct {
	// Logger receives the refusals, as warnings; nil gives slog.Default().
	Logger *slog.Logger
	// CookieName is CSRF_COOKIE_NAME; "" gives "csrftoken".
	CookieName string
	// HeaderName is CSRF_HEADER_NAME; "" gives "X-CSRFToken".
	HeaderName string
	// FieldName is the form field of the token; "" gives "csrfmiddlewaretoken".
	FieldName string
	// CookieAge is CSRF_COOKIE_AGE; 0 gives 52 weeks.
	CookieAge time.Duration
	// CookieDomain is CSRF_COOKIE_DOMAIN; "" gives a host-only cookie, and
	// Referer checks then require the request's own host.
	CookieDomain string
	// Secure marks the cookie Secure (CSRF_COOKIE_SECURE).
	Secure bool
	// TrustedOrigins are other origins allowed to send unsafe requests,
	// such as "https://admin.example.com" (CSRF_TRUSTED_ORIGINS).
	TrustedOrigins []string
	// IsSecure reports whether a request came over HTTPS; nil looks at
	// r.TLS. Behind a TLS-terminating proxy, set it to read the proxy's
	// header (Django's SECURE_PROXY_SSL_HEADER).
	IsSecure func(r *http.Request) bool
	// Compatibility is the Django release whose reasons a failure gives:
	// Django 5.2's by default, Django 3.2's at compat.DRF314.
	Compatibility compat.Level

	once   sync.Once
	cop    *http.CrossOriginProtection
	hosts  []string
	cfgErr error
}

// Error is a CSRF failure; its text is Django's reason.
type Error struct {
	// Reason is Django's wording, e.g. "CSRF cookie not set.".
	Reason string
}

// Error returns the reason.
func (e *Error) Error() string { return e.Reason }

func (p *Protection) init() {
	p.once.Do(func() {
		p.cop = http.NewCrossOriginProtection()
		for _, o := range p.TrustedOrigins {
			if err := p.cop.AddTrustedOrigin(o); err != nil {
				p.cfgErr = fmt.Errorf("csrf: trusted origin %q: %w", o, err)
				return
			}
			u, _ := url.Parse(o)
			p.hosts = append(p.hosts, strings.ToLower(u.Host))
		}
	})
}

func (p *Protection) cookieName() string { return cmp.Or(p.CookieName, defaultCookieName) }
func (p *Protection) headerName() string { return cmp.Or(p.HeaderName, defaultHeaderName) }

// Header returns the name of the header that carries the token.
func (p *Protection) Header() string { return p.headerName() }

// Field returns the name of the form field that carries the token.
func (p *Protection) Field() string { return cmp.Or(p.FieldName, defaultFieldName) }

// Check validates r as Django's CsrfViewMiddleware does. Safe methods
// pass. Others must pass Go's cross-origin check, over HTTPS carry a
// Referer of this host or a trusted origin, carry the csrftoken cookie, and
// send its token in the form field (POST only; form is called to read it)
// or the header. A failure is an *Error with Django's reason and is logged
// as a warning without the token or the cookie.
func (p *Protection) Check(r *http.Request, form func() string) error {
	if pycompat.IsCSRFSafeMethod(r.Method) {
		return nil
	}
	p.init()
	if p.cfgErr != nil {
		return p.cfgErr
	}
	if f := p.check(r, form); f != nil {
		logger := p.Logger
		if logger == nil {
			logger = slog.Default()
		}
		logger.WarnContext(r.Context(), "Forbidden (CSRF)", "reason", f.log, "method", r.Method, "path", r.URL.Path)
		return &Error{Reason: f.reason}
	}
	return nil
}

type failure struct{ reason, log string }

func fail(reason string) *failure { return &failure{reason, reason} }

func (p *Protection) check(r *http.Request, form func() string) *failure {
	if err := p.cop.Check(r); err != nil {
		if origin := r.Header.Get("Origin"); origin != "" {
			return &failure{
				reason: fmt.Sprintf("Origin checking failed - %s does not match any trusted origins.", origin),
				log:    "Origin checking failed - the Origin does not match any trusted origins.",
			}
		}
		return fail("Origin checking failed - Sec-Fetch-Site is " + r.Header.Get("Sec-Fetch-Site") + ".")
	}
	if p.RequestIsSecure(r) {
		if f := p.checkReferer(r); f != nil {
			return f
		}
	}
	legacy := p.Compatibility == compat.DRF314
	c, err := r.Cookie(p.cookieName())
	if err != nil {
		return fail(ReasonNoCookie)
	}
	secret, problem := unmask(c.Value)
	if problem != "" {
		if legacy {
			return fail(ReasonBadToken)
		}
		return fail("CSRF cookie " + problem + ".")
	}
	submitted, source := "", "POST"
	if r.Method == http.MethodPost && form != nil {
		submitted = form()
	}
	if submitted == "" {
		values, present := r.Header[http.CanonicalHeaderKey(p.headerName())]
		switch {
		case present:
			submitted = values[0]
		case legacy:
			return fail(ReasonBadToken)
		default:
			return fail(ReasonNoToken)
		}
		source = "the '" + headerTitle(p.headerName()) + "' HTTP header"
	}
	got, problem := unmask(submitted)
	if problem == "" && subtle.ConstantTimeCompare([]byte(got), []byte(secret)) != 1 {
		problem = "incorrect"
	}
	switch {
	case problem == "":
		return nil
	case legacy:
		return fail(ReasonBadToken)
	}
	return fail("CSRF token from " + source + " " + problem + ".")
}

// headerTitle is Django's HttpHeaders.parse_header_name of a header's
// name: "X-CSRFToken" is "X-Csrftoken".
func headerTitle(name string) string {
	out := []byte(strings.ReplaceAll(name, "_", "-"))
	upper := true
	for i, c := range out {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		switch {
		case letter && upper:
			out[i] = c &^ 0x20
		case letter:
			out[i] = c | 0x20
		}
		upper = !letter
	}
	return string(out)
}

// RequestIsSecure reports whether r came over HTTPS, by IsSecure or r.TLS.
func (p *Protection) RequestIsSecure(r *http.Request) bool {
	if p.IsSecure != nil {
		return p.IsSecure(r)
	}
	return r.TLS != nil
}

// checkReferer applies Django's strict Referer rules of HTTPS requests.
func (p *Protection) checkReferer(r *http.Request) *failure {
	referer, present := r.Header["Referer"]
	if !present {
		return fail(ReasonNoReferer)
	}
	u, err := url.Parse(referer[0])
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fail(ReasonMalformedReferer)
	}
	if u.Scheme != "https" {
		return fail(ReasonInsecureReferer)
	}
	good := strings.ToLower(r.Host)
	if p.CookieDomain != "" {
		good = strings.ToLower(p.CookieDomain)
		if _, port, ok := strings.Cut(r.Host, ":"); ok && port != "443" && port != "80" {
			good += ":" + port
		}
	}
	host := strings.ToLower(u.Host)
	if sameDomain(host, good) {
		return nil
	}
	for _, h := range p.hosts {
		if host == h {
			return nil
		}
	}
	return &failure{
		reason: fmt.Sprintf("Referer checking failed - %s does not match any trusted origins.", u.String()),
		log:    "Referer checking failed - the Referer does not match any trusted origins.",
	}
}

// sameDomain is Django's is_same_domain: a pattern starting with "." also
// matches every subdomain.
func sameDomain(host, pattern string) bool {
	if strings.HasPrefix(pattern, ".") {
		return strings.HasSuffix(host, pattern) || host == pattern[1:]
	}
	return host == pattern
}

// cookieSecret returns the secret of the request's csrftoken cookie, ""
// when it has none or a malformed one.
func (p *Protection) cookieSecret(r *http.Request) string {
	c, err := r.Cookie(p.cookieName())
	if err != nil {
		return ""
	}
	secret, _ := unmask(c.Value)
	return secret
}

// unmask returns the secret of a token: a 64-character masked token, or a
// 32-character secret as it is (Django accepts both); else problem says,
// in Django's words, what is wrong with it.
func unmask(token string) (secret, problem string) {
	if len(token) != SecretLength && len(token) != TokenLength {
		return "", "has incorrect length"
	}
	for i := 0; i < len(token); i++ {
		if strings.IndexByte(chars, token[i]) < 0 {
			return "", "has invalid characters"
		}
	}
	if len(token) == SecretLength {
		return token, ""
	}
	mask, cipher := token[:SecretLength], token[SecretLength:]
	out := make([]byte, SecretLength)
	for i := range out {
		j := strings.IndexByte(chars, cipher[i]) - strings.IndexByte(chars, mask[i])
		if j < 0 {
			j += len(chars)
		}
		out[i] = chars[j]
	}
	return string(out), ""
}

// mask hides secret under a fresh random mask, as Django does, so that the
// token changes on every page and does not leak the secret through
// compression (BREACH).
func mask(secret string) string {
	m := random.String(SecretLength, chars)
	out := make([]byte, TokenLength)
	copy(out, m)
	for i := 0; i < SecretLength; i++ {
		out[SecretLength+i] = chars[(strings.IndexByte(chars, secret[i])+strings.IndexByte(chars, m[i]))%len(chars)]
	}
	return string(out)
}

// Token returns a fresh masked token for a form or a script to send back,
// and sets the csrftoken cookie on w (which must not have written its
// header yet), creating the secret when the request has none. Calls for the
// same response reuse the secret already set on w.
func (p *Protection) Token(w http.ResponseWriter, r *http.Request) string {
	secret := p.pendingSecret(w)
	if secret == "" {
		secret = p.cookieSecret(r)
	}
	if secret == "" {
		secret = random.String(SecretLength, chars)
	}
	p.setCookie(w, secret)
	return mask(secret)
}

// Rotate replaces the secret with a new one, as Django does at login.
func (p *Protection) Rotate(w http.ResponseWriter) {
	p.setCookie(w, random.String(SecretLength, chars))
}

// pendingSecret returns the secret of a csrftoken cookie already set on w.
func (p *Protection) pendingSecret(w http.ResponseWriter) string {
	lines := w.Header()["Set-Cookie"]
	i := slices.IndexFunc(lines, p.setsCookie)
	if i < 0 {
		return ""
	}
	secret, _, _ := strings.Cut(lines[i][len(p.cookieName())+1:], ";")
	return secret
}

// setCookie sets the cookie to secret, replacing one set earlier on w.
func (p *Protection) setCookie(w http.ResponseWriter, secret string) {
	h := w.Header()
	h["Set-Cookie"] = slices.DeleteFunc(h["Set-Cookie"], p.setsCookie)
	age := p.CookieAge
	if age == 0 {
		age = defaultCookieAge
	}
	djangohttp.SetCookie(h, &http.Cookie{
		Name:     p.cookieName(),
		Value:    secret,
		Path:     "/",
		Domain:   p.CookieDomain,
		MaxAge:   int(age / time.Second),
		Expires:  time.Now().Add(age),
		Secure:   p.Secure,
		SameSite: http.SameSiteLaxMode,
	})
}

// SetsCookie reports whether the answer's header h sets the CSRF cookie
// (Token or Rotate did), which makes the answer vary on Cookie.
func (p *Protection) SetsCookie(h http.Header) bool {
	return slices.ContainsFunc(h["Set-Cookie"], p.setsCookie)
}

// setsCookie reports whether the Set-Cookie line sets the CSRF cookie.
func (p *Protection) setsCookie(line string) bool {
	name := p.cookieName()
	return len(line) > len(name) && line[len(name)] == '=' && line[:len(name)] == name
}
