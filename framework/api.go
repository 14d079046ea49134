package framework

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
)

// API is one service: the global settings every view registered on it
// inherits (DRF's REST_FRAMEWORK), the chi router it mounts them on, the
// named routes reverse looks up (Django's urls), and the store its views
// read. An API is an http.Handler; register every route before it serves.
//
//	api := framework.NewAPI(db, framework.Settings{PageSize: 10})
//	api.Handle("/hello/", framework.View{Get: hello})
//	api.Handle("/users/{pk}/", userDetail, framework.Named("user-detail"))
//	http.ListenAndServe(addr, api)
type API struct {
	settings *Settings
	db       *sqlx.DB
	mux      *chi.Mux
	router   chi.Router
	routes   *reverse.Routes
	notFound *http.Handler
	hosts    *allowedHosts
	// errorType is the Content-Type of Django's 400 page (errorPageType).
	errorType string
	// endpoints are the views registered, children's included.
	endpoints *endpoints
}

// endpoints are the views registered with Handle on an API and its Route
// children, in order, and the patterns they are mounted at: what the
// schema describes and the browsable page names paths by.
type endpoints struct {
	list []Endpoint
	// at indexes list by the full patterns the views are mounted at,
	// format-suffixed twins included.
	at map[string]int
}

// NewAPI returns an API with the global settings s on a new chi router.
// db is the store its views and viewsets use; it may be nil.
//
// An API is the core alone: the settings left unset are DRF's defaults
// that need no user model (the JSON renderer, no authentication), and it
// adds no middleware. What DRF's startproject gives on top (Session then
// Basic authentication over Django's users, the browsable renderer,
// Django's security headers, sessions with CSRF protection) needs
// contrib's apps, which the core does not import: contrib/project's
// Project is that service, with its manage.py.
func NewAPI(db *sqlx.DB, s Settings) *API {
	s.Logger = slog.New(accesslog.LogHandler(s.logger().Handler()))
	mux := chi.NewRouter()
	routes := reverse.New(reverse.Config{TrustForwardedHeaders: s.TrustForwardedHeaders})
	notFound := http.Handler(pageNotFound(s.Compatibility))
	a := &API{settings: &s, db: db, mux: mux, router: mux, routes: routes, notFound: &notFound,
		hosts: newAllowedHosts(s.AllowedHosts), errorType: errorPageType(s.Compatibility), endpoints: &endpoints{at: map[string]int{}}}
	mux.NotFound(a.miss)
	return a
}

// NotFound sets the page answered to paths no route matches (after
// APPEND_SLASH); the default is Django's.
func (a *API) NotFound(h http.Handler) { *a.notFound = h }

// miss answers a path no route matches, or that fills a route's
// parameter with nothing, which Django's converters never match
// ("/books//" for "/books/{pk}/"; reverse.Handle sends it here). With
// APPEND_SLASH (unless DisableAppendSlash), a path without its final
// slash whose slashed form has a route, as Django matches one
// (reverse.Find), is redirected there (301, query kept), as Django's
// CommonMiddleware does; else the not-found page. The Location is
// Django's get_full_path_with_slash: the decoded path escaped again by
// escape_uri_path ("/books/;x" goes to "/books/%3Bx/"), the query by
// iri_to_uri, a leading "//" escaped so that it cannot name another host.
func (a *API) miss(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; !a.settings.DisableAppendSlash && !strings.HasSuffix(p, "/") &&
		reverse.Find(a.mux, routeMethod(r.Method), p+"/") != "" {
		target := pycompat.EscapeRequestPath(p) + "/"
		if strings.HasPrefix(target, "//") {
			target = "/%2F" + target[2:]
		}
		if r.URL.RawQuery != "" {
			target += "?" + pycompat.IRIToURI(r.URL.RawQuery)
		}
		w.Header().Set("Location", target)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusMovedPermanently)
		return
	}
	(*a.notFound).ServeHTTP(w, r)
}

// pageNotFound is Django's 404 page, as the release c names types it.
func pageNotFound(c Compatibility) http.HandlerFunc {
	ct := errorPageType(c)
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n")
	}
}

// errorPageType is the Content-Type of Django's 400 and 404 pages: with
// a charset from Django 4.0 on, without on Django 3.2.
func errorPageType(c Compatibility) string {
	if c == DRF314 {
		return "text/html"
	}
	return "text/html; charset=utf-8"
}

// Settings returns the global settings; do not modify them.
func (a *API) Settings() *Settings { return a.settings }

// DB returns the API's store.
func (a *API) DB() *sqlx.DB { return a.db }

// Router returns the chi router of the API (of its prefix, for a Route
// child), to add middleware or plain chi routes.
func (a *API) Router() chi.Router { return a.router }

// Routes returns the named routes of the API, for reverse lookups.
func (a *API) Routes() *reverse.Routes { return a.routes }

// ServeHTTP serves the API's routes. With AllowedHosts set, a request for
// another host is answered 400 first, whatever its route. Requests are
// routed as Django routes them: by the decoded path ("/books/%31/" is
// "/books/1/"), whatever the method, upper-cased, and no {param} matches
// an empty segment ("/books//" is the not-found page); a View answers a
// method it does not declare with 405 after its policies, as DRF does.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.hosts != nil && !a.hosts.checkHost(w, r, a.routes.Host(r), a.settings.Logger, a.errorType) {
		return
	}
	if r.URL.RawPath != "" || !chiMethod(r.Method) {
		r = a.routeAsDjango(r)
	}
	a.mux.ServeHTTP(w, r)
}

// routeAsDjango returns r with the chi routing context that makes chi
// route it as Django would, where chi's own differs: chi matches the path
// as escaped (RawPath) when it is not Go's own escaping of the decoded
// one, and answers 405 itself to a method it does not know. The path
// matched is the decoded one; the method is upper-cased, as Django's
// request.method is, and routed by routeMethod.
func (a *API) routeAsDjango(r *http.Request) *http.Request {
	rctx := chi.NewRouteContext()
	rctx.Routes = a.mux
	rctx.RoutePath = r.URL.Path
	if rctx.RoutePath == "" {
		rctx.RoutePath = "/"
	}
	r = r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, rctx))
	r.Method = strings.ToUpper(r.Method)
	rctx.RouteMethod = routeMethod(r.Method)
	return r
}

// routeMethod is the method chi routes a request of method by: the
// method, upper-cased; TRACE for one chi does not know, since every View
// and page of the API is mounted for every method chi knows, so that the
// request reaches its view (plain chi routes that name their methods
// still answer it 405).
func routeMethod(method string) string {
	if method = strings.ToUpper(method); chiMethod(method) {
		return method
	}
	return http.MethodTrace
}

// chiMethod reports whether chi routes method itself: the methods of
// net/http, upper-case.
func chiMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return true
	}
	return false
}

// Handler compiles v against the API's settings, once, into the
// http.Handler that runs DRF's pipeline for it (DRF's as_view()).
func (a *API) Handler(v View) http.Handler { return a.compile(v, fmt.Sprintf("the view %q", v.Name)) }

// compile compiles v against the settings and refuses, with a panic naming
// the view (what), a configuration that could not work.
func (a *API) compile(v View, what string) *handler {
	if v.Name == "" {
		v.Name = derivedName(&v)
	}
	h := compile(v, a.settings)
	h.view.endpoints = a.endpoints
	err := checkPermissions(h.view.Permissions.items)
	if err == nil {
		err = resolveObjectType(&h.view)
	}
	if err == nil {
		err = checkRenderers(h.view.Renderers.items)
	}
	if err == nil {
		err = checkAuthenticators(h.view.Authentication.items)
	}
	if err == nil {
		err = setupPagination(&h.view, a.settings)
	}
	if c, ok := h.view.Describer.(FilterChecker); ok && err == nil {
		err = c.CheckFilters(&h.view)
	}
	if err == nil {
		err = setupThrottles(&h.view, a.settings)
	}
	if err == nil {
		err = setupFormats(h, a.settings)
	}
	if err == nil && a.settings.AtomicRequests && !v.NonAtomicRequests {
		if a.db == nil {
			err = errors.New("Settings.AtomicRequests needs the API's store, which NewAPI was given none of")
		}
		h.atomic = a.db
	}
	if err != nil {
		panic(fmt.Sprintf("framework: %s: %v", what, err))
	}
	return h
}

// RouteOption qualifies a registration: Named, WithMiddleware.
type RouteOption func(*route)

type route struct {
	name       string
	middleware []func(http.Handler) http.Handler
	// suffix mounts the format-suffixed twins (FormatSuffixes), of the
	// formats in suffixes (any when empty).
	suffix   bool
	suffixes []string
	// twins are the patterns of the format-suffixed twins mounted.
	twins []string
}

// Named names a route, so that reverse finds it by name (Django's
// path(..., name=...)); in a Route child the namespace is prefixed.
func Named(name string) RouteOption { return func(r *route) { r.name = name } }

// WithMiddleware wraps a view's compiled handler in middleware, the first
// outermost, as chi's With does; the route is still the view's (its schema
// is the view's).
func WithMiddleware(mw ...func(http.Handler) http.Handler) RouteOption {
	return func(r *route) { r.middleware = append(r.middleware, mw...) }
}

// FormatSuffixes also mounts the route with a format suffix, as DRF's
// format_suffix_patterns does: "/snippets/{pk}/" answers
// "/snippets/1.json" and "/snippets/1.json/" too, the suffix choosing the
// renderer (over the format query parameter; an unknown one is 404).
// The suffixed route shares the name, so reversing it with a "format"
// parameter (reverse.FormatSuffixParam) gives "/snippets/1.json", as
// Django reverses a router's route (a path() route it reverses to
// "/snippets/1.json/", which is served too). allowed restricts the
// formats ("json", "api"); none allows any. The schema lists the route
// once.
func FormatSuffixes(allowed ...string) RouteOption {
	return func(r *route) { r.suffix, r.suffixes = true, allowed }
}

// Handle compiles v (see Handler) and mounts it at pattern, a chi pattern
// relative to the API's prefix. It panics on a setup error: a name taken
// twice or a malformed pattern.
func (a *API) Handle(pattern string, v View, opts ...RouteOption) {
	h := a.compile(v, fmt.Sprintf("the view at %q", pattern))
	h.route = a.routes.Pattern(pattern)
	ro := a.mount(pattern, h, opts)
	e := a.endpoints
	for _, p := range append(ro.twins, pattern) {
		e.at[a.routes.Pattern(p)] = len(e.list)
	}
	e.list = append(e.list, Endpoint{Pattern: h.route, Name: ro.name, Namespace: a.routes.Namespace(), View: &h.view})
}

// HandleHTTP mounts any http.Handler at pattern, like Handle: a page that
// is not a View. Endpoints does not list it.
func (a *API) HandleHTTP(pattern string, h http.Handler, opts ...RouteOption) {
	a.mount(pattern, routed(a.routes.Pattern(pattern), h), opts)
}

func (a *API) mount(pattern string, h http.Handler, opts []RouteOption) route {
	var ro route
	for _, o := range opts {
		o(&ro)
	}
	for i := len(ro.middleware) - 1; i >= 0; i-- {
		h = ro.middleware[i](h)
	}
	if ro.suffix && strings.HasSuffix(pattern, "*") {
		panic(fmt.Sprintf("framework: the route at %q: a wildcard route takes no format suffix", pattern))
	}
	a.routes.Handle(a.router, pattern, h, reverse.Named(ro.name))
	if ro.suffix {
		bare, slashed := reverse.FormatSuffixPatterns(pattern, ro.suffixes...)
		a.routes.Handle(a.router, bare, h, reverse.Named(ro.name))
		a.routes.Handle(a.router, slashed, h)
		ro.twins = []string{bare, slashed}
	}
	return ro
}

// Endpoints lists the views registered with Handle on the API and its
// Route children, in order: what an OpenAPI schema describes.
func (a *API) Endpoints() []Endpoint { return slices.Clone(a.endpoints.list) }

// Route mounts a child API at prefix, like chi's Route: it shares the
// settings, store and route registry, and names its routes under
// namespace ("v1" gives "v1:info"); an empty namespace keeps a's.
func (a *API) Route(prefix, namespace string, fn func(api *API)) {
	a.routes.Route(a.router, prefix, namespace, func(r chi.Router, rt *reverse.Routes) {
		fn(&API{settings: a.settings, db: a.db, mux: a.mux, router: r, routes: rt, notFound: a.notFound, hosts: a.hosts, endpoints: a.endpoints})
	})
}
