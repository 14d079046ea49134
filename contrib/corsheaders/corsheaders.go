// Package corsheaders is django-cors-headers: the CorsMiddleware that
// answers CORS preflight requests and adds the Access-Control-* headers to
// the answers for the origins its settings allow. Its settings take the
// package's names (CORS_ALLOWED_ORIGINS is AllowedOrigins, and so on).
//
//	cors, err := corsheaders.New(corsheaders.Settings{
//		AllowedOrigins: []string{"https://app.example.com"},
//	})
//	http.ListenAndServe(addr, cors.Middleware(api))
//
// Wrapped around the API, as high in MIDDLEWARE as django-cors-headers
// asks, it answers a preflight before any view, so before authentication:
// a preflight never meets a 401.
package corsheaders

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/go-drf/drf/contrib/internal/djangohttp"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/pycompat"
)

// DefaultMethods is CORS_ALLOW_METHODS' default, corsheaders.defaults'
// default_methods.
var DefaultMethods = []string{"DELETE", "GET", "OPTIONS", "PATCH", "POST", "PUT"}

// DefaultHeaders is CORS_ALLOW_HEADERS' default, corsheaders.defaults'
// default_headers, of django-cors-headers 4.
var DefaultHeaders = []string{"accept", "authorization", "content-type", "user-agent", "x-csrftoken", "x-requested-with"}

// defaultHeaders314 is CORS_ALLOW_HEADERS' default in django-cors-headers
// 3.14 (Debian 12's), which also had accept-encoding, dnt and origin.
var defaultHeaders314 = []string{"accept", "accept-encoding", "authorization", "content-type", "dnt", "origin",
	"user-agent", "x-csrftoken", "x-requested-with"}

// Settings are django-cors-headers' settings. The zero value allows no
// origin: requests are answered as without the middleware but for
// Vary: origin.
type Settings struct {
	// AllowedOrigins is CORS_ALLOWED_ORIGINS: the origins allowed, each a
	// scheme and a host ("https://example.com", "http://localhost:8000"),
	// or "null" or "file://". Matched by scheme and host, as written.
	AllowedOrigins []string
	// AllowedOriginRegexes is CORS_ALLOWED_ORIGIN_REGEXES: origins allowed
	// when one of these matches at the origin's start (re.match), in Go's
	// regexp syntax, which Python's simple patterns share.
	AllowedOriginRegexes []string
	// AllowAllOrigins is CORS_ALLOW_ALL_ORIGINS: every origin is allowed.
	AllowAllOrigins bool
	// URLsRegex is CORS_URLS_REGEX: the paths the middleware serves, those
	// it matches at their start; "" is every path (`^.*$`).
	URLsRegex string
	// AllowMethods is CORS_ALLOW_METHODS, sent to preflights; nil is
	// DefaultMethods.
	AllowMethods []string
	// AllowHeaders is CORS_ALLOW_HEADERS, sent to preflights; nil is
	// DefaultHeaders (at compat.DRF314, django-cors-headers 3.14's, with
	// accept-encoding, dnt and origin too).
	AllowHeaders []string
	// ExposeHeaders is CORS_EXPOSE_HEADERS: the answer's headers a
	// browser shows the page.
	ExposeHeaders []string
	// PreflightMaxAge is CORS_PREFLIGHT_MAX_AGE, in seconds, for which a
	// browser may keep a preflight's answer: 0 is the default, 86400; -1
	// sends no Access-Control-Max-Age (CORS_PREFLIGHT_MAX_AGE = 0).
	PreflightMaxAge int
	// AllowCredentials is CORS_ALLOW_CREDENTIALS: cookies and
	// Authorization cross-origin (Access-Control-Allow-Credentials: true).
	AllowCredentials bool
	// AllowPrivateNetwork is CORS_ALLOW_PRIVATE_NETWORK: answer a
	// preflight's Access-Control-Request-Private-Network: true. It came in
	// django-cors-headers 4; compat.DRF314 refuses it.
	AllowPrivateNetwork bool
	// CheckRequestEnabled is the check_request_enabled signal's handlers:
	// when it reports true, the request is served and its origin allowed
	// whatever the settings above say. nil is no handler.
	CheckRequestEnabled func(*http.Request) bool
	// Compatibility is the django-cors-headers the answers match: the zero
	// value is 4.9 (Debian's, beside Django 5.2), compat.DRF314 is 3.14
	// (Debian 12's, beside Django 3.2), which sends
	// Access-Control-Allow-Credentials to any origin, Vary: Origin
	// capitalised, and its longer default AllowHeaders.
	Compatibility compat.Level
}

// origin is an allowed origin's scheme and host, as urlsplit gives them.
type origin struct{ scheme, netloc string }

// CORS is django-cors-headers' CorsMiddleware for one set of settings.
type CORS struct {
	check func(*http.Request) bool
	// urls is nil for every path.
	urls    *regexp.Regexp
	regexes []*regexp.Regexp
	origins []origin
	// allowNull: "null" is among the allowed origins.
	allowNull, allowAll, credentials, privateNetwork, legacy bool
	// The header values, each a one-element slice of one backing array
	// (capped, so that an append copies).
	vary, star, yes, methods, headers     []string
	expose, maxAge, contentType, emptyLen []string
	answers                               sync.Pool
}

// New checks s as django-cors-headers' system checks do, and compiles it.
// An origin without a scheme or a host, or with a path, a query or a
// fragment, a pattern that does not compile, a negative PreflightMaxAge
// other than -1, or AllowPrivateNetwork at compat.DRF314 is an error.
func New(s Settings) (*CORS, error) {
	c := &CORS{check: s.CheckRequestEnabled, allowAll: s.AllowAllOrigins, credentials: s.AllowCredentials,
		privateNetwork: s.AllowPrivateNetwork, legacy: s.Compatibility == compat.DRF314}
	var errs []string
	for _, o := range s.AllowedOrigins {
		u, err := urlsplit(o)
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("Origin %s in CORS_ALLOWED_ORIGINS is not a URL: %v", pycompat.Repr(o), err))
			continue
		case o == "null" || o == "file://":
		case u.scheme == "" || u.netloc == "":
			errs = append(errs, fmt.Sprintf("Origin %s in CORS_ALLOWED_ORIGINS is missing scheme or netloc (corsheaders.E013); "+
				"add a scheme (e.g. https://) or netloc (e.g. example.com)", pycompat.Repr(o)))
			continue
		default:
			for _, part := range [...]struct{ name, value string }{{"path", u.path}, {"query", u.query}, {"fragment", u.fragment}} {
				if part.value != "" {
					errs = append(errs, fmt.Sprintf("Origin %s in CORS_ALLOWED_ORIGINS should not have %s (corsheaders.E014)",
						pycompat.Repr(o), part.name))
				}
			}
		}
		c.allowNull = c.allowNull || o == "null"
		// A request's origin is Latin-1 to Django: a host that is not
		// matches none.
		if netloc, ok := latin1(u.netloc); ok {
			c.origins = append(c.origins, origin{u.scheme, netloc})
		}
	}
	for _, p := range s.AllowedOriginRegexes {
		re, err := regexp.Compile(`^(?:` + p + `)`)
		if err != nil {
			errs = append(errs, fmt.Sprintf("CORS_ALLOWED_ORIGIN_REGEXES: %q does not compile: %v", p, err))
			continue
		}
		c.regexes = append(c.regexes, re)
	}
	if s.URLsRegex != "" {
		re, err := regexp.Compile(`^(?:` + s.URLsRegex + `)`)
		if err != nil {
			errs = append(errs, fmt.Sprintf("CORS_URLS_REGEX: %q does not compile: %v", s.URLsRegex, err))
		}
		c.urls = re
	}
	maxAge := s.PreflightMaxAge
	switch {
	case maxAge == 0:
		maxAge = 86400
	case maxAge < -1:
		errs = append(errs, "CORS_PREFLIGHT_MAX_AGE should be an integer greater than or equal to zero (corsheaders.E004); -1 sends none")
	}
	if s.AllowPrivateNetwork && c.legacy {
		errs = append(errs, "CORS_ALLOW_PRIVATE_NETWORK came in django-cors-headers 4; 3.14 (compat.DRF314) has none")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("corsheaders: %s", strings.Join(errs, "; "))
	}
	methods, headers, vary := s.AllowMethods, s.AllowHeaders, "origin"
	if methods == nil {
		methods = DefaultMethods
	}
	if headers == nil {
		headers = DefaultHeaders
		if c.legacy {
			headers = defaultHeaders314
		}
	}
	if c.legacy {
		vary = "Origin"
	}
	vals := []string{vary, "*", "true", strings.Join(methods, ", "), strings.Join(headers, ", "),
		strings.Join(s.ExposeHeaders, ", "), strconv.Itoa(maxAge), "text/html; charset=utf-8", "0"}
	for i, p := range []*[]string{&c.vary, &c.star, &c.yes, &c.methods, &c.headers, &c.expose, &c.maxAge, &c.contentType, &c.emptyLen} {
		*p = vals[i : i+1 : i+1]
	}
	if len(s.ExposeHeaders) == 0 {
		c.expose = nil
	}
	if maxAge == -1 {
		c.maxAge = nil
	}
	c.answers.New = func() any { return &answer{c: c} }
	return c, nil
}

// latin1 is s encoded as Latin-1, and whether it can be.
func latin1(s string) (string, bool) {
	if pycompat.IsASCII(s) {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return "", false
		}
		b = append(b, byte(r))
	}
	return string(b), true
}

// Middleware returns next behind the CorsMiddleware: a preflight (OPTIONS
// with Access-Control-Request-Method) on a path it serves is answered 200
// with an empty body without reaching next; every other answer on such a
// path gets Vary: origin and, for an allowed Origin, the CORS headers,
// added when next writes its header, after next's own.
func (c *CORS) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !c.enabled(r) {
			next.ServeHTTP(w, r)
			return
		}
		if _, ok := r.Header["Access-Control-Request-Method"]; ok && strings.EqualFold(r.Method, http.MethodOptions) {
			h := w.Header()
			h["Content-Type"] = c.contentType
			h["Content-Length"] = c.emptyLen
			c.addHeaders(h, r)
			w.WriteHeader(http.StatusOK)
			return
		}
		a := c.answers.Get().(*answer)
		a.r = r
		a.Reset(w, a)
		next.ServeHTTP(a, r)
		a.Finish()
		a.Reset(nil, nil)
		a.r = nil
		c.answers.Put(a)
	})
}

// enabled is the middleware's is_enabled: the path matches URLsRegex, or
// CheckRequestEnabled allows the request.
func (c *CORS) enabled(r *http.Request) bool {
	return c.urls == nil || c.urls.MatchString(r.URL.Path) || c.check != nil && c.check(r)
}

// addHeaders adds the CORS headers to an answer to r, as the middleware's
// process_response (add_response_headers) does.
func (c *CORS) addHeaders(h http.Header, r *http.Request) {
	if len(h["Vary"]) == 0 {
		h["Vary"] = c.vary
	} else {
		djangohttp.PatchVary(h, c.vary[0])
	}
	origins := r.Header["Origin"]
	if len(origins) == 0 || origins[0] == "" {
		return
	}
	u, err := urlsplit(origins[0])
	if err != nil {
		return
	}
	if c.legacy && c.credentials {
		h["Access-Control-Allow-Credentials"] = c.yes
	}
	if !c.allowAll && !c.allowed(origins[0], u) && (c.check == nil || !c.check(r)) {
		return
	}
	if c.allowAll && !c.credentials {
		h["Access-Control-Allow-Origin"] = c.star
	} else {
		h["Access-Control-Allow-Origin"] = origins[:1:1]
	}
	if c.credentials {
		h["Access-Control-Allow-Credentials"] = c.yes
	}
	if c.expose != nil {
		h["Access-Control-Expose-Headers"] = c.expose
	}
	if strings.EqualFold(r.Method, http.MethodOptions) {
		h["Access-Control-Allow-Headers"] = c.headers
		h["Access-Control-Allow-Methods"] = c.methods
		if c.maxAge != nil {
			h["Access-Control-Max-Age"] = c.maxAge
		}
	}
	if c.privateNetwork && r.Header.Get("Access-Control-Request-Private-Network") == "true" {
		h["Access-Control-Allow-Private-Network"] = c.yes
	}
}

// allowed is origin_found_in_white_lists: "null" when allowed, an origin
// with an allowed scheme and host, or one a regex matches.
func (c *CORS) allowed(o string, u splitURL) bool {
	if o == "null" && c.allowNull {
		return true
	}
	for _, a := range c.origins {
		if a.scheme == u.scheme && a.netloc == u.netloc {
			return true
		}
	}
	for _, re := range c.regexes {
		if re.MatchString(o) {
			return true
		}
	}
	return false
}

// answer writes an answer through Middleware, adding the CORS headers
// when the header is written.
type answer struct {
	djangohttp.Answer
	c *CORS
	r *http.Request
}

// ProcessResponse adds the CORS headers.
func (a *answer) ProcessResponse(h http.Header) { a.c.addHeaders(h, a.r) }
