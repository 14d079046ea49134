package reverse

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/go-chi/chi/v5"
)

// Resolved is the named route a path matches, Django's ResolverMatch.
type Resolved struct {
	// Name is the route's absolute name ("v1:info").
	Name string
	// URLName is its own name ("info").
	URLName string
	// Namespace is its namespace path, "" at the root ("v1", "api:v1").
	Namespace string
	// Params are the values of the pattern's parameters, unescaped; "*"
	// holds a trailing wildcard's.
	Params map[string]string
	// Pattern is the route's full chi pattern ("/v1/info/").
	Pattern string

	routes *Routes
}

// NoResolveMatch is the error of a path that no named route matches
// (Django's Resolver404).
type NoResolveMatch struct {
	Path string
}

// Error names the path.
func (e *NoResolveMatch) Error() string {
	return fmt.Sprintf("resolve: no named route matches %q", e.Path)
}

// Resolve returns the named route that path (escaped, as in a URL) matches,
// as Django's resolve() and the API's routing find it, on the decoded
// path ("/books%2F5/" is "/books/5/"): its literal text must match
// exactly, a {param} takes a non-empty value without "/" up to the byte
// that follows it in the pattern, a {param:regexp} such a value that the
// expression matches, and a trailing "*" the rest. When several routes
// match, the one with the most literal text wins, as chi prefers static
// segments. Only named routes are found.
func (rt *Routes) Resolve(path string) (*Resolved, error) {
	decoded, err := url.PathUnescape(path)
	if err != nil {
		return nil, &NoResolveMatch{Path: path}
	}
	var best *Resolved
	bestScore := -1
	for _, name := range rt.Names() {
		rt.reg.mu.RLock()
		routes := rt.reg.routes[name]
		rt.reg.mu.RUnlock()
		for _, rte := range routes {
			params, score, ok := rte.match(decoded)
			if !ok || score <= bestScore {
				continue
			}
			res := &Resolved{Name: name, URLName: name, Pattern: rte.pattern, Params: params, routes: rt}
			if i := strings.LastIndexByte(name, ':'); i >= 0 {
				res.Namespace, res.URLName = name[:i], name[i+1:]
			}
			best, bestScore = res, score
		}
	}
	if best == nil {
		return nil, &NoResolveMatch{Path: path}
	}
	return best, nil
}

// match matches path against the route's parts; score is the length of
// the literal text matched.
func (rte *route) match(path string) (params map[string]string, score int, ok bool) {
	params = map[string]string{}
	for i, p := range rte.parts {
		switch {
		case p.param == "":
			if !strings.HasPrefix(path, p.literal) {
				return nil, 0, false
			}
			path, score = path[len(p.literal):], score+len(p.literal)
		case p.param == "*":
			params["*"], path = path, ""
		default:
			end := len(path)
			if i+1 < len(rte.parts) {
				if end = strings.IndexByte(path, p.tail); end < 0 {
					return nil, 0, false
				}
			}
			v := path[:end]
			if v == "" || strings.Contains(v, "/") || (p.rex != nil && !p.rex.MatchString(v)) {
				return nil, 0, false
			}
			params[p.param], path = v, path[end:]
		}
	}
	return params, score, path == ""
}

// Request returns a GET request of u as the resolved route's handler
// would see it through the API: its chi URL parameters (decoded, as the
// API routes on the decoded path) and its Match set, so that a versioning
// scheme can read u's version as it reads a request's.
func (m *Resolved) Request(ctx context.Context, u *url.URL) *http.Request {
	rctx := chi.NewRouteContext()
	rctx.RoutePatterns = []string{m.Pattern}
	keys := make([]string, 0, len(m.Params))
	for k := range m.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rctx.URLParams.Add(k, m.Params[k])
	}
	ctx = context.WithValue(ctx, chi.RouteCtxKey, rctx)
	ctx = context.WithValue(ctx, matchKey{}, &Match{Name: m.URLName, Namespace: m.Namespace, routes: m.routes})
	r := (&http.Request{Method: http.MethodGet, URL: u, Host: u.Host, Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}).WithContext(ctx)
	return r
}
