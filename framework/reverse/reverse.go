// Package reverse names Chi routes and turns names back into URLs, the way
// Django's URL names and DRF's version-aware reverse work: every route can
// be named when it is mounted, namespaces ("v1:") nest with sub-routers,
// and a request's versioning scheme adjusts the lookup. Beyond DRF,
// ReverseVersion builds the URL of another version than the request's,
// and Resolve turns a path back into its route and parameters (Django's
// resolve; versioning.Resolve adds the version).
package reverse

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// Routes names the routes mounted through it. New gives the root; Route
// gives a child for a sub-router with a path prefix and an optional
// namespace. All children share one registry.
type Routes struct {
	reg       *registry
	prefix    string
	namespace string
}

type registry struct {
	mu sync.RWMutex
	// routes are the named routes by absolute name, in registration
	// order: Django lets patterns share a name (reversed by arguments).
	routes map[string][]*route
	config Config
}

// Config configures a registry of routes.
type Config struct {
	// TrustForwardedHeaders makes absolute URLs, and the host seen by
	// host-name versioning, use X-Forwarded-Proto and X-Forwarded-Host;
	// enable it only behind a proxy that sets them.
	TrustForwardedHeaders bool
}

// route is a named pattern, parsed when it is added.
type route struct {
	pattern string
	parts   []part
}

// part is literal text or one {param} of a pattern.
type part struct {
	literal string
	// param is the parameter's key, "*" for chi's trailing wildcard, "" for literal text.
	param string
	// rex is the parameter's regular expression, nil for a plain {param}.
	rex *regexp.Regexp
	// tail is the byte that ends a plain parameter's value in chi's matching.
	tail byte
}

// New returns an empty root registry configured by c.
func New(c Config) *Routes {
	return &Routes{reg: &registry{routes: map[string][]*route{}, config: c}}
}

func (rt *Routes) trusted() bool { return rt.reg.config.TrustForwardedHeaders }

// Match is what the router knows of the route that matched a request.
type Match struct {
	// Name is the route's own name (Django's url_name), "" if unnamed.
	Name string
	// Namespace is the route's namespace path, "" at the root ("v1", "api:v1").
	Namespace string
	routes    *Routes
}

// Routes returns the routes the matched route belongs to, to resolve or
// reverse other routes by.
func (m Match) Routes() *Routes { return m.routes }

type matchKey struct{}

// MatchOf returns the matched route of a request served through Handle.
func MatchOf(r *http.Request) (Match, bool) {
	if m, ok := r.Context().Value(matchKey{}).(*Match); ok {
		return *m, true
	}
	if rctx := chi.RouteContext(r.Context()); rctx != nil {
		if k, ok := routedKeyOf(rctx, r); ok {
			routed.mu.RLock()
			m := routed.matches[k]
			routed.mu.RUnlock()
			if m != nil {
				return *m, true
			}
		}
	}
	return Match{}, false
}

// routedKey is a route as chi leaves it on a request it routed: the
// router that routed the request and the route's full pattern
// (http.Request.Pattern).
type routedKey struct {
	router  weak.Pointer[chi.Mux]
	pattern string
}

// routed holds the Match of each route that Handle served, so that
// MatchOf finds it by the request's routedKey and Handle need not copy
// the request and its context to carry it. An entry goes with its router.
var routed struct {
	mu      sync.RWMutex
	matches map[routedKey]*Match
}

// routedKeyOf returns the routedKey of r, routed as rctx says; ok is
// false for a request that a chi.Mux did not route.
func routedKeyOf(rctx *chi.Context, r *http.Request) (routedKey, bool) {
	mux, ok := rctx.Routes.(*chi.Mux)
	if !ok || mux == nil || r.Pattern == "" {
		return routedKey{}, false
	}
	return routedKey{router: weak.Make(mux), pattern: r.Pattern}, true
}

// noteRouted records m as the Match of r's route, and reports whether
// MatchOf finds it so: not when a chi.Mux did not route r, nor when
// another Match has the route (the pattern mounted again), whose
// requests then carry their Match in their context. last is the route
// noted for m before: a request of the same route is answered from it,
// without making a weak pointer or taking the lock (an entry stays as
// long as its router).
func noteRouted(rctx *chi.Context, r *http.Request, m *Match, last *atomic.Pointer[routedKey]) bool {
	if k := last.Load(); k != nil && k.pattern == r.Pattern && rctx.Routes != nil && k.router.Value() == rctx.Routes {
		return true
	}
	k, ok := routedKeyOf(rctx, r)
	if !ok {
		return false
	}
	routed.mu.RLock()
	got := routed.matches[k]
	routed.mu.RUnlock()
	if got != nil {
		if got == m {
			last.Store(&k)
		}
		return got == m
	}
	routed.mu.Lock()
	defer routed.mu.Unlock()
	if got = routed.matches[k]; got != nil {
		return got == m
	}
	last.Store(&k)
	if routed.matches == nil {
		routed.matches = map[routedKey]*Match{}
	}
	routed.matches[k] = m
	runtime.AddCleanup(k.router.Value(), func(k routedKey) {
		routed.mu.Lock()
		delete(routed.matches, k)
		routed.mu.Unlock()
	}, k)
	return true
}

// Option configures a route mounted by Handle.
type Option func(*handleConfig)

type handleConfig struct{ name string }

// Named names a route, so that Reverse finds it by name (Django's
// path(..., name=...)); inside Route the namespace is prefixed.
func Named(name string) Option { return func(c *handleConfig) { c.name = name } }

// Handle mounts h on r at pattern (relative to r, as with chi), unnamed
// unless an option names it. It panics if the name is taken or the
// pattern is malformed, as a setup error.
//
// A {param} of the route takes a value of one character or more, as
// Django's converters do (<str:x>, <int:x>, <slug:x>, a re_path's
// [^/]+), where chi's own matching lets it take none: a request whose
// path fills one with nothing ("/books//" for "/books/{pk}/") is not the
// route's, and the router's not-found handler answers it, as it answers
// a path no route matches. chi's trailing "*" may still be empty.
func (rt *Routes) Handle(r chi.Router, pattern string, h http.Handler, opts ...Option) {
	var o handleConfig
	for _, opt := range opts {
		opt(&o)
	}
	name := o.name
	m := &Match{Name: name, Namespace: rt.namespace, routes: rt}
	if name != "" {
		rt.Add(name, pattern)
	}
	var last atomic.Pointer[routedKey]
	r.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rctx := chi.RouteContext(req.Context())
		if rctx != nil && emptyParam(rctx) {
			notFound(rctx).ServeHTTP(w, req)
			return
		}
		if rctx != nil && noteRouted(rctx, req, m, &last) {
			h.ServeHTTP(w, req)
			return
		}
		h.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), matchKey{}, m)))
	}))
}

// emptyParam reports whether chi has filled a parameter of the route with
// nothing, which no Django converter matches. The wildcard "*", a trailing
// one or the rest of the path below a sub-router, may be empty.
func emptyParam(rctx *chi.Context) bool {
	for i, v := range rctx.URLParams.Values {
		if v == "" && i < len(rctx.URLParams.Keys) && rctx.URLParams.Keys[i] != "*" {
			return true
		}
	}
	return false
}

// notFound is the not-found handler of the router that routed a request:
// what it answers a path none of its routes matches.
func notFound(rctx *chi.Context) http.Handler {
	if mux, ok := rctx.Routes.(interface{ NotFoundHandler() http.HandlerFunc }); ok {
		return mux.NotFoundHandler()
	}
	return http.NotFoundHandler()
}

// Find returns the pattern of the route of router that a request of
// method for path (decoded) reaches as Handle routes it, "" if none:
// chi's match, unless it fills a parameter with nothing, which Django's
// converters never match. The API's APPEND_SLASH asks it whether the
// slashed path has a route, and the browsable page which view a prefix
// of its path reaches (framework.View.EndpointAt).
func Find(router chi.Routes, method, path string) string {
	rctx := chi.NewRouteContext()
	if pattern := router.Find(rctx, method, path); pattern != "" && !emptyParam(rctx) {
		return pattern
	}
	return ""
}

// Add names pattern (relative to rt's prefix) without mounting anything.
// Several patterns may share a name, as in Django; Path picks the one
// its parameters fit. It panics if the name is already given to the same
// pattern or the pattern is malformed.
func (rt *Routes) Add(name, pattern string) {
	full := rt.qualify(name)
	p := joinPath(rt.prefix, pattern)
	parts, err := parsePattern(p)
	if err != nil {
		panic(fmt.Sprintf("reverse: route %q: %v", full, err))
	}
	rt.reg.mu.Lock()
	defer rt.reg.mu.Unlock()
	for _, r := range rt.reg.routes[full] {
		if r.pattern == p {
			panic(fmt.Sprintf("reverse: route name %q is already given to %s", full, p))
		}
	}
	rt.reg.routes[full] = append(rt.reg.routes[full], &route{pattern: p, parts: parts})
}

// Pattern returns pattern, relative to rt, from the root: with the
// prefixes of the sub-routers rt is mounted under.
func (rt *Routes) Pattern(pattern string) string { return joinPath(rt.prefix, pattern) }

// Namespace returns the namespace of rt's routes ("v1", "api:v1"), "" at the root.
func (rt *Routes) Namespace() string { return rt.namespace }

func (rt *Routes) qualify(name string) string {
	if rt.namespace == "" {
		return name
	}
	return rt.namespace + ":" + name
}

// joinPath appends a chi pattern to a mount prefix as chi does: a prefix
// ending in "/" shares that slash with the pattern.
func joinPath(prefix, pattern string) string {
	if strings.HasPrefix(pattern, "/") {
		prefix = strings.TrimSuffix(prefix, "/")
	}
	return prefix + pattern
}

// Route mounts a sub-router at prefix, like chi's Route, and names its
// routes under namespace (joined to rt's with ":"); an empty namespace
// keeps rt's.
func (rt *Routes) Route(r chi.Router, prefix, namespace string, fn func(r chi.Router, rt *Routes)) {
	child := &Routes{reg: rt.reg, prefix: joinPath(rt.prefix, prefix), namespace: rt.namespace}
	if namespace != "" {
		child.namespace = strings.TrimPrefix(rt.namespace+":"+namespace, ":")
	}
	r.Route(prefix, func(sub chi.Router) { fn(sub, child) })
}

// Names lists the registered names, sorted.
func (rt *Routes) Names() []string {
	rt.reg.mu.RLock()
	defer rt.reg.mu.RUnlock()
	names := make([]string, 0, len(rt.reg.routes))
	for n := range rt.reg.routes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// parsePattern splits a chi pattern into literal text and parameters,
// reading {key} and {key:regexp} (braces may nest in the regexp) and a
// trailing * as chi does.
func parsePattern(p string) ([]part, error) {
	var parts []part
	for p != "" {
		open := strings.IndexByte(p, '{')
		star := strings.IndexByte(p, '*')
		if star >= 0 && (open < 0 || star < open) {
			if star != len(p)-1 {
				return nil, fmt.Errorf("wildcard '*' must end the pattern")
			}
			if star > 0 {
				parts = append(parts, part{literal: p[:star]})
			}
			return append(parts, part{param: "*"}), nil
		}
		if open < 0 {
			return append(parts, part{literal: p}), nil
		}
		if open > 0 {
			parts = append(parts, part{literal: p[:open]})
		}
		depth, end := 0, -1
		for i := open; i < len(p) && end < 0; i++ {
			switch p[i] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = i
				}
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("parameter closing '}' is missing")
		}
		key, expr, isRegexp := strings.Cut(p[open+1:end], ":")
		pt := part{param: key, tail: '/'}
		if key == "" {
			return nil, fmt.Errorf("parameter with no name")
		}
		if end+1 < len(p) {
			pt.tail = p[end+1]
		}
		if isRegexp && expr != "" {
			if !strings.HasPrefix(expr, "^") {
				expr = "^" + expr
			}
			if !strings.HasSuffix(expr, "$") {
				expr += "$"
			}
			rex, err := regexp.Compile(expr)
			if err != nil {
				return nil, fmt.Errorf("parameter %q: %v", key, err)
			}
			pt.rex = rex
		}
		parts = append(parts, pt)
		p = p[end+1:]
	}
	return parts, nil
}

// NoReverseMatch is the error of a lookup that finds no route, or whose
// parameters do not fit the route's pattern.
type NoReverseMatch struct {
	Name   string
	Params map[string]string
	Reason string
}

// Error names the route, its params and why no URL could be built.
func (e *NoReverseMatch) Error() string {
	if len(e.Params) == 0 {
		return fmt.Sprintf("reverse for %q not found: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("reverse for %q with params %v not found: %s", e.Name, e.Params, e.Reason)
}

// Path returns the path of the named route with params filled in. The name
// is absolute ("v1:info"); params fill the {key} parts of the pattern and
// must match their regular expressions; params the pattern does not name
// are ignored; "*" fills a trailing wildcard. When several patterns share
// the name, the last registered that params fit is taken, as Django's
// reverse does, and one whose parameters are exactly params' keys before
// one that ignores some ("another" at "/another/" and at
// "/{version}/another/": with a version, the second; without, the first).
func (rt *Routes) Path(name string, params map[string]string) (string, error) {
	rt.reg.mu.RLock()
	routes := rt.reg.routes[name]
	rt.reg.mu.RUnlock()
	if len(routes) == 0 {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: "no route has that name"}
	}
	if len(routes) > 1 {
		for i := len(routes) - 1; i >= 0; i-- {
			if routes[i].takesExactly(params) {
				if p, err := routes[i].path(name, params); err == nil {
					return p, nil
				}
			}
		}
	}
	var first error
	for i := len(routes) - 1; i >= 0; i-- {
		p, err := routes[i].path(name, params)
		if err == nil {
			return p, nil
		}
		first = cmp.Or(first, err)
	}
	return "", first
}

// takesExactly reports whether the route's parameters are params' keys.
func (rte *route) takesExactly(params map[string]string) bool {
	n := 0
	for _, p := range rte.parts {
		if p.param != "" {
			if _, ok := params[p.param]; !ok {
				return false
			}
			n++
		}
	}
	return n == len(params)
}

// path fills the route's pattern with params, as Path describes.
func (rte *route) path(name string, params map[string]string) (string, error) {
	fail := func(format string, a ...any) (string, error) {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: fmt.Sprintf(format, a...)}
	}
	var b strings.Builder
	for _, p := range rte.parts {
		val, given := params[p.param]
		switch {
		case p.param == "":
			b.WriteString(p.literal)
		case p.param == "*":
			segs := strings.Split(val, "/")
			for i, s := range segs {
				segs[i] = url.PathEscape(s)
			}
			b.WriteString(strings.Join(segs, "/"))
		case !given || val == "":
			return fail("%s needs parameter %q", rte.pattern, p.param)
		case p.rex != nil && !p.rex.MatchString(val):
			return fail("parameter %q value %q does not match %s in %s", p.param, val, p.rex, rte.pattern)
		case p.rex == nil && strings.ContainsAny(val, "/"+string(p.tail)):
			bad := val[strings.IndexAny(val, "/"+string(p.tail))]
			return fail("parameter %q value %q may not contain %q in %s", p.param, val, string(bad), rte.pattern)
		default:
			b.WriteString(url.PathEscape(val))
		}
	}
	return b.String(), nil
}

// Lookup is a reverse lookup that a versioning scheme may adjust. A hook
// gets its own copies of Params and Query, never nil, to change at will.
type Lookup struct {
	// Name is the route's absolute name ("info", "v1:info").
	Name string
	// Params fill the pattern's {key} parts.
	Params map[string]string
	// Query is appended to the URL.
	Query url.Values
	// Version is the version the URL is for: the request's, or the one
	// given to ReverseVersion. Hooks put this one in the URL.
	Version string
	// Host replaces the request's host (with its port) when set.
	Host string
}

// Hook is implemented by versioning schemes that change reversed URLs
// (URL path, namespace, query parameter).
type Hook interface {
	ReverseLookup(l *Lookup, r *request.Request)
}

// Reverse returns the absolute URL of the named route for the request: on
// the request's scheme and host, adjusted by its versioning scheme, and
// keeping the request's format query parameter. The request must have been
// served through Handle.
func Reverse(name string, params map[string]string, r *request.Request) (string, error) {
	return ReverseQuery(name, params, nil, r)
}

// ReverseQuery is Reverse with query values appended. When the lookup as
// the versioning scheme adjusts it finds no route, the lookup as given is
// used, as DRF falls back.
func ReverseQuery(name string, params map[string]string, query url.Values, r *request.Request) (string, error) {
	if r == nil {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: "no request to build an absolute URL from"}
	}
	return ReverseVersion(r.Version(), name, params, query, r)
}

// ReverseVersion is ReverseQuery for a URL of another version than the
// request's (not in DRF): the request's versioning scheme puts version
// where it reads versions from, the URL path parameter, the namespace, the
// query parameter or the host name. With AcceptHeaderVersioning, whose
// version is not in the URL, it is ReverseQuery.
func ReverseVersion(version, name string, params map[string]string, query url.Values, r *request.Request) (string, error) {
	if r == nil || r.Request == nil {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: "no request to build an absolute URL from"}
	}
	m, ok := MatchOf(r.Request)
	if !ok {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: "the request was not routed through reverse.Routes"}
	}
	l := Lookup{Name: name, Params: params, Query: cloneValues(query), Version: version}
	var path string
	found := false
	if h, ok := r.VersioningScheme().(Hook); ok {
		v := Lookup{Name: name, Params: cloneMap(params), Query: cloneValues(query), Version: version}
		h.ReverseLookup(&v, r)
		if p, err := m.routes.Path(v.Name, v.Params); err == nil {
			path, l, found = p, v, true
		}
	}
	if !found {
		p, err := m.routes.Path(l.Name, l.Params)
		if err != nil {
			return "", err
		}
		path = p
	}
	// The format parameter is kept as DRF keeps it (the last value); the
	// query is read afresh so that reversing stays safe from any goroutine.
	if fp := r.FormatParam(); fp != "" && strings.Contains(r.URL.RawQuery, fp) {
		if q := pycompat.RequestGET(r.Request); q.Has(fp) {
			l.Query.Set(fp, pycompat.QueryGet(q, fp))
		}
	}
	if len(l.Query) > 0 {
		path += "?" + l.Query.Encode()
	}
	base := m.routes.BaseURL(r.Request)
	if l.Host != "" {
		scheme, _, _ := strings.Cut(base, "://")
		base = scheme + "://" + l.Host
	}
	return base + path, nil
}

// BaseURL returns scheme://host of the request, honouring forwarded
// headers only when trusted.
func (rt *Routes) BaseURL(r *http.Request) string { return baseURL(r, rt.trusted()) }

// Host returns the host of the request as the routes' absolute URLs use
// it: X-Forwarded-Host only when trusted.
func (rt *Routes) Host(r *http.Request) string { return host(r, rt.trusted()) }

func baseURL(r *http.Request, trust bool) string {
	return scheme(r, trust) + "://" + host(r, trust)
}

// scheme is the request's scheme: https under TLS, else http, unless a
// trusted X-Forwarded-Proto says which.
func scheme(r *http.Request, trust bool) string {
	s := "http"
	if r.TLS != nil {
		s = "https"
	}
	if trust {
		p, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
		if p = strings.ToLower(strings.TrimSpace(p)); p == "http" || p == "https" {
			s = p
		}
	}
	return s
}

// Host returns the request's host (with its port, if any) as reversed URLs
// use it: the first X-Forwarded-Host when the routes that served the
// request trust forwarded headers and the value is a valid host, else the
// Host header.
func Host(r *http.Request) string {
	m, ok := MatchOf(r)
	return host(r, ok && m.routes.trusted())
}

// BaseURL returns scheme://host of a request for absolute links built from
// it (Django's build_absolute_uri, as pagination links use it): forwarded
// headers count only when the routes that served the request trust them.
func BaseURL(r *http.Request) string {
	if m, ok := MatchOf(r); ok {
		return m.routes.BaseURL(r)
	}
	return baseURL(r, false)
}

// AppendBaseURL appends BaseURL(r) to b.
func AppendBaseURL(b []byte, r *http.Request) []byte {
	m, ok := MatchOf(r)
	trust := ok && m.routes.trusted()
	return append(append(append(b, scheme(r, trust)...), "://"...), host(r, trust)...)
}

func host(r *http.Request, trust bool) string {
	if trust {
		h, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Host"), ",")
		if h = strings.TrimSpace(h); pycompat.ValidHost(h) {
			return h
		}
	}
	if r.Host == "" {
		return r.URL.Host
	}
	return r.Host
}

func cloneMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

func cloneValues(v url.Values) url.Values {
	c := make(url.Values, len(v)+1)
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	return c
}
