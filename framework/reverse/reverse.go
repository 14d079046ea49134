// Package reverse names Chi routes and turns names back into URLs, the way
// Django's URL names and DRF's version-aware reverse work: every route can
// be named when it is mounted, namespaces ("v1:") nest with sub-routers,
// and a request's versioning scheme adjusts the lookup.
package reverse

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework/request"
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
	mu       sync.RWMutex
	patterns map[string]string
	// trustForwarded honours X-Forwarded-Proto and X-Forwarded-Host.
	trustForwarded bool
}

// New returns an empty root registry.
func New() *Routes { return &Routes{reg: &registry{patterns: map[string]string{}}} }

// TrustForwardedHeaders makes absolute URLs use X-Forwarded-Proto and
// X-Forwarded-Host; enable it only behind a proxy that sets them.
func (rt *Routes) TrustForwardedHeaders() {
	rt.reg.mu.Lock()
	rt.reg.trustForwarded = true
	rt.reg.mu.Unlock()
}

// Match is what the router knows of the route that matched a request.
type Match struct {
	// Name is the route's own name (Django's url_name), "" if unnamed.
	Name string
	// Namespace is the route's namespace path, "" at the root ("v1", "api:v1").
	Namespace string
	routes    *Routes
}

type matchKey struct{}

// MatchOf returns the matched route of a request served through Handle.
func MatchOf(r *http.Request) (Match, bool) {
	m, ok := r.Context().Value(matchKey{}).(*Match)
	if !ok {
		return Match{}, false
	}
	return *m, true
}

// Handle mounts h on r at pattern (relative to r, as with chi) under name;
// an empty name mounts it unnamed. It panics if the name is taken, as a
// setup error.
func (rt *Routes) Handle(r chi.Router, pattern, name string, h http.Handler) {
	m := &Match{Name: name, Namespace: rt.namespace, routes: rt}
	if name != "" {
		rt.Add(name, pattern)
	}
	r.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), matchKey{}, m)))
	}))
}

// Add names pattern (relative to rt's prefix) without mounting anything.
func (rt *Routes) Add(name, pattern string) {
	full := rt.qualify(name)
	rt.reg.mu.Lock()
	defer rt.reg.mu.Unlock()
	if _, dup := rt.reg.patterns[full]; dup {
		panic(fmt.Sprintf("reverse: route name %q is already taken", full))
	}
	rt.reg.patterns[full] = rt.prefix + pattern
}

func (rt *Routes) qualify(name string) string {
	if rt.namespace == "" {
		return name
	}
	return rt.namespace + ":" + name
}

// Route mounts a sub-router at prefix, like chi's Route, and names its
// routes under namespace (joined to rt's with ":"); an empty namespace
// keeps rt's.
func (rt *Routes) Route(r chi.Router, prefix, namespace string, fn func(r chi.Router, rt *Routes)) {
	child := &Routes{reg: rt.reg, prefix: rt.prefix + prefix, namespace: rt.namespace}
	if namespace != "" {
		child.namespace = strings.TrimPrefix(rt.namespace+":"+namespace, ":")
	}
	r.Route(prefix, func(sub chi.Router) { fn(sub, child) })
}

// Names lists the registered names, sorted.
func (rt *Routes) Names() []string {
	rt.reg.mu.RLock()
	defer rt.reg.mu.RUnlock()
	names := make([]string, 0, len(rt.reg.patterns))
	for n := range rt.reg.patterns {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NoReverseMatch is the error of a lookup that finds no route.
type NoReverseMatch struct {
	Name   string
	Params map[string]string
	Reason string
}

func (e *NoReverseMatch) Error() string {
	return fmt.Sprintf("reverse for %q with params %v not found: %s", e.Name, e.Params, e.Reason)
}

// Path returns the path of the named route with params filled in. The name
// is absolute ("v1:info"); params fill the {name} parts of the pattern.
func (rt *Routes) Path(name string, params map[string]string) (string, error) {
	rt.reg.mu.RLock()
	pattern, ok := rt.reg.patterns[name]
	rt.reg.mu.RUnlock()
	if !ok {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: "no route has that name"}
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(pattern, '{')
		if open < 0 {
			b.WriteString(pattern)
			break
		}
		end := strings.IndexByte(pattern[open:], '}')
		if end < 0 {
			return "", &NoReverseMatch{Name: name, Params: params, Reason: "malformed pattern"}
		}
		b.WriteString(pattern[:open])
		key, _, _ := strings.Cut(pattern[open+1:open+end], ":")
		val, ok := params[key]
		if !ok || val == "" {
			return "", &NoReverseMatch{Name: name, Params: params, Reason: fmt.Sprintf("missing parameter %q", key)}
		}
		b.WriteString(url.PathEscape(val))
		pattern = pattern[open+end+1:]
	}
	return strings.TrimSuffix(b.String(), "*"), nil
}

// Lookup is a reverse lookup that a versioning scheme may adjust.
type Lookup struct {
	Name   string
	Params map[string]string
	Query  url.Values
}

// Hook is implemented by versioning schemes that change reversed URLs
// (URL path, namespace, query parameter).
type Hook interface {
	ReverseLookup(l *Lookup, r *request.Request)
}

// Reverse returns the absolute URL of the named route for the request: on
// the request's scheme and host, adjusted by its versioning scheme. The
// request must have been served through Handle.
func Reverse(name string, params map[string]string, r *request.Request) (string, error) {
	return ReverseQuery(name, params, nil, r)
}

// ReverseQuery is Reverse with query values appended.
func ReverseQuery(name string, params map[string]string, query url.Values, r *request.Request) (string, error) {
	m, ok := MatchOf(r.Request)
	if !ok {
		return "", &NoReverseMatch{Name: name, Params: params, Reason: "the request was not routed through reverse.Routes"}
	}
	l := Lookup{Name: name, Params: params, Query: query}
	if h, ok := r.VersioningScheme().(Hook); ok {
		l.Params, l.Query = cloneMap(l.Params), cloneValues(l.Query)
		h.ReverseLookup(&l, r)
	}
	path, err := m.routes.Path(l.Name, l.Params)
	if err != nil {
		return "", err
	}
	if len(l.Query) > 0 {
		path += "?" + l.Query.Encode()
	}
	return m.routes.BaseURL(r.Request) + path, nil
}

// BaseURL returns scheme://host of the request, honouring forwarded
// headers only when trusted.
func (rt *Routes) BaseURL(r *http.Request) string {
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	rt.reg.mu.RLock()
	trust := rt.reg.trustForwarded
	rt.reg.mu.RUnlock()
	if trust {
		if p := r.Header.Get("X-Forwarded-Proto"); p == "http" || p == "https" {
			scheme = p
		}
		if h := r.Header.Get("X-Forwarded-Host"); h != "" {
			host, _, _ = strings.Cut(h, ",")
			host = strings.TrimSpace(host)
		}
	}
	return scheme + "://" + host
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
