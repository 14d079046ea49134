// Package routers mounts viewsets on a framework.API, like DRF's
// SimpleRouter and DefaultRouter: a list route "{prefix}/" and a detail
// route "{prefix}/{pk}/" per viewset, plus its extra actions, named
// "{basename}-list", "{basename}-detail" and "{basename}-{url_name}". Standard action methods are found when a viewset is
// registered; extra actions are given as method values (DRF's @action).
// Requests call both directly, with no reflection.
package routers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"unicode"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/rawjson"
)

// ViewSet is what Register accepts: a pointer to a struct embedding
// generics.ViewSet or a generics viewset, whose Policies are the view
// configuration of every route. Its action methods are
// framework.HandlerFunc methods named List, Create, Retrieve, Update,
// PartialUpdate, Destroy.
type ViewSet interface {
	Policies() framework.View
}

// DefaultBasenamer is implemented by viewsets that name their routes when
// Register is given no basename (generic viewsets: the model's name).
type DefaultBasenamer interface {
	DefaultBasename() string
}

// LookupParamer is implemented by viewsets whose detail routes name their
// URL parameter other than "pk" (lookup_url_kwarg).
type LookupParamer interface {
	LookupParam() string
}

// ActionChecker is implemented by viewsets that check, at registration,
// that they can serve the actions the router found (generic viewsets: a
// source, a serializer, a writable source for writes).
type ActionChecker interface {
	CheckActions(actions ...framework.ViewAction) error
}

// Action declares an extra action of a viewset (DRF's @action).
type Action struct {
	// Name is the action's name, DRF's method name: "SetRating" gives the
	// path "set_rating" and the view name "Set Rating".
	Name string
	// Handler answers the action, usually a method value of the viewset
	// (vs.SetRating).
	Handler framework.HandlerFunc
	// Detail puts the action on the detail route ("{prefix}/{pk}/{path}/")
	// rather than the list route ("{prefix}/{path}/").
	Detail bool
	// HTTPMethods are the methods it answers; nil gives GET.
	HTTPMethods []string
	// URLPath is the path segment; "" gives Name in snake_case.
	URLPath string
	// URLName names the route "{basename}-{URLName}"; "" gives URLPath
	// with "-" for "_".
	URLName string

	// The action's own policies, over the viewset's (DRF's @action(
	// authentication_classes=..., permission_classes=...,
	// throttle_classes=..., renderer_classes=..., parser_classes=...));
	// an unset list keeps the viewset's. The tutorial's highlight is
	// Renderers: framework.Renderers(framework.StaticHTMLRenderer{}).
	Authentication framework.List[request.Authenticator]
	Permissions    framework.List[framework.Permission]
	Throttles      framework.List[framework.Throttle]
	Renderers      framework.List[framework.Renderer]
	Parsers        framework.List[request.Parser]
	// Describer describes the action's serializer (DRF's @action(
	// serializer_class=...)) for its OPTIONS, schema and browsable form,
	// e.g. a generics.GenericAPIView with the action's Serializer; nil
	// keeps the viewset's. When it has a Metadata method, it answers the
	// action's OPTIONS.
	Describer framework.Describer
}

// apply puts the action's own policies over v, the viewset's.
func (a *Action) apply(v *framework.View) {
	if a.Authentication.IsSet() {
		v.Authentication = a.Authentication
	}
	if a.Permissions.IsSet() {
		v.Permissions = a.Permissions
	}
	if a.Throttles.IsSet() {
		v.Throttles = a.Throttles
	}
	if a.Renderers.IsSet() {
		v.Renderers = a.Renderers
	}
	if a.Parsers.IsSet() {
		v.Parsers = a.Parsers
	}
	if a.Describer != nil {
		v.Describer = a.Describer
		if m, ok := a.Describer.(metadataer); ok {
			v.Options = m.Metadata
		}
	}
}

var handlerType = reflect.TypeFor[func(*framework.View, *request.Request) (*framework.Response, error)]()

// route is one URL of a viewset with its handlers by HTTP method.
type route struct {
	pattern  string
	name     string
	viewName string
	handlers map[string]framework.HandlerFunc
	// action is the extra action the route serves, nil for a standard one.
	action *Action
}

type registration struct {
	prefix   string
	basename string
	template framework.View
	// options answers OPTIONS when the template has no handler for it:
	// the viewset's Metadata (with the serializer's fields), if any.
	options framework.HandlerFunc
	routes  []route
	hasList bool
}

// SimpleRouter mounts registered viewsets with trailing slashes.
type SimpleRouter struct {
	regs []*registration
}

// Register adds viewset under prefix ("books"); basename "" gives the
// viewset's DefaultBasename (the model's lower-cased name). The action
// methods and extra actions are found now; Register panics on a setup
// error (no actions, a missing method, a duplicate basename), as chi does.
func (rt *SimpleRouter) Register(prefix string, viewset ViewSet, basename string, extra ...Action) {
	if err := rt.register(prefix, viewset, basename, extra); err != nil {
		panic(err)
	}
}

func (rt *SimpleRouter) register(prefix string, viewset ViewSet, basename string, extra []Action) error {
	rv := reflect.ValueOf(viewset)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("routers: register %q: viewset must be a non-nil pointer, got %T", prefix, viewset)
	}
	if basename == "" {
		if b, ok := viewset.(DefaultBasenamer); ok {
			basename = b.DefaultBasename()
		}
	}
	if basename == "" {
		return fmt.Errorf("routers: register %q: a basename is needed", prefix)
	}
	for _, r := range rt.regs {
		if r.basename == basename {
			return fmt.Errorf("routers: basename %q is registered twice; give each registration its own", basename)
		}
	}
	prefix = strings.Trim(prefix, "/")
	reg := &registration{prefix: prefix, basename: basename, template: viewset.Policies()}
	if x, ok := viewset.(metadataer); ok && reg.template.Options == nil {
		reg.options = x.Metadata
	}
	if d, ok := viewset.(framework.Describer); ok && reg.template.Describer == nil {
		reg.template.Describer = d
	}
	param := "pk"
	if l, ok := viewset.(LookupParamer); ok {
		param = l.LookupParam()
	}
	base := "/" + prefix
	if prefix == "" {
		base = ""
	}
	listPattern, detailPattern := base+"/", base+"/{"+param+":[^/.]+}/"
	viewName := viewsetName(viewset, reg.template)
	list := route{pattern: listPattern, name: basename + "-list", viewName: viewName + " List", handlers: map[string]framework.HandlerFunc{}}
	detail := route{pattern: detailPattern, name: basename + "-detail", viewName: viewName + " Instance", handlers: map[string]framework.HandlerFunc{}}
	var actions []framework.ViewAction
	for _, a := range framework.StandardActions {
		h, ok := actionMethod(viewset, a)
		if !ok {
			continue
		}
		actions = append(actions, a)
		if a.Detail() {
			detail.handlers[a.HTTPMethod()] = h
		} else {
			list.handlers[a.HTTPMethod()] = h
		}
	}
	if c, ok := viewset.(ActionChecker); ok && len(actions) > 0 {
		if err := c.CheckActions(actions...); err != nil {
			return err
		}
	}
	if len(list.handlers) > 0 {
		reg.routes = append(reg.routes, list)
		reg.hasList = true
	}
	if len(detail.handlers) > 0 {
		reg.routes = append(reg.routes, detail)
	}
	for _, a := range extra {
		r, err := extraRoute(a, basename, listPattern, detailPattern)
		if err != nil {
			return fmt.Errorf("routers: register %q: %w", prefix, err)
		}
		reg.routes = append(reg.routes, r)
	}
	if len(reg.routes) == 0 {
		return fmt.Errorf("routers: register %q: %T has no action methods", prefix, viewset)
	}
	rt.regs = append(rt.regs, reg)
	return nil
}

// The standard action methods, found through these interfaces rather than
// by reflection, so that requests call them directly.
type (
	lister interface {
		List(*framework.View, *request.Request) (*framework.Response, error)
	}
	creator interface {
		Create(*framework.View, *request.Request) (*framework.Response, error)
	}
	retriever interface {
		Retrieve(*framework.View, *request.Request) (*framework.Response, error)
	}
	updater interface {
		Update(*framework.View, *request.Request) (*framework.Response, error)
	}
	partialUpdater interface {
		PartialUpdate(*framework.View, *request.Request) (*framework.Response, error)
	}
	destroyer interface {
		Destroy(*framework.View, *request.Request) (*framework.Response, error)
	}
	metadataer interface {
		Metadata(*framework.View, *request.Request) (*framework.Response, error)
	}
)

// actionMethod returns the viewset's method of a standard action as a
// plain func value.
func actionMethod(viewset any, a framework.ViewAction) (framework.HandlerFunc, bool) {
	var h framework.HandlerFunc
	switch a {
	case framework.ActionList:
		if x, ok := viewset.(lister); ok {
			h = x.List
		}
	case framework.ActionCreate:
		if x, ok := viewset.(creator); ok {
			h = x.Create
		}
	case framework.ActionRetrieve:
		if x, ok := viewset.(retriever); ok {
			h = x.Retrieve
		}
	case framework.ActionUpdate:
		if x, ok := viewset.(updater); ok {
			h = x.Update
		}
	case framework.ActionPartialUpdate:
		if x, ok := viewset.(partialUpdater); ok {
			h = x.PartialUpdate
		}
	case framework.ActionDestroy:
		if x, ok := viewset.(destroyer); ok {
			h = x.Destroy
		}
	}
	return h, h != nil
}

func extraRoute(a Action, basename, listPattern, detailPattern string) (route, error) {
	h := a.Handler
	if h == nil || a.Name == "" {
		return route{}, fmt.Errorf("extra action %q: Name and Handler are required", a.Name)
	}
	path := a.URLPath
	if path == "" {
		path = snakeCase(a.Name)
	}
	name := a.URLName
	if name == "" {
		name = strings.ReplaceAll(path, "_", "-")
	}
	pattern := listPattern + path + "/"
	if a.Detail {
		pattern = detailPattern + path + "/"
	}
	r := route{pattern: pattern, name: basename + "-" + name, viewName: prettyName(a.Name), handlers: map[string]framework.HandlerFunc{}, action: &a}
	methods := a.HTTPMethods
	if len(methods) == 0 {
		methods = []string{http.MethodGet}
	}
	for _, m := range methods {
		m = strings.ToUpper(m)
		switch m {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			r.handlers[m] = h
		default:
			return route{}, fmt.Errorf("extra action %s: unsupported method %q", a.Name, m)
		}
	}
	return r, nil
}

var upperRun = regexp.MustCompile(`([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])`)

// snakeCase turns "SetPassword" into "set_password".
func snakeCase(s string) string {
	return strings.ToLower(upperRun.ReplaceAllString(s, "${1}${3}_${2}${4}"))
}

// prettyName turns "SetPassword" into "Set password", as DRF names an
// action's view from its function name.
func prettyName(method string) string {
	words := strings.ReplaceAll(snakeCase(method), "_", " ")
	r := []rune(words)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// viewsetName is the view name of a viewset's routes: the template's Name,
// else the type's name as DRF names a view (framework.ViewName:
// "BookViewSet" gives "Book"); a generic viewset gives its model's name.
func viewsetName(viewset any, template framework.View) string {
	if template.Name != "" {
		return template.Name
	}
	name := reflect.TypeOf(viewset).Elem().Name()
	if open := strings.IndexByte(name, '['); open >= 0 {
		arg := strings.TrimSuffix(name[open+1:], "]")
		name = arg[strings.LastIndexByte(arg, '.')+1:]
	}
	return framework.ViewName(name)
}

// Mount adds the routes of every registered viewset to api, named there.
// Each route is its own view with the viewset's policies; a method it
// lacks is 405 with DRF's Allow header.
func (rt *SimpleRouter) Mount(api *framework.API) { rt.mount(api) }

// mount mounts the routes with opts.
func (rt *SimpleRouter) mount(api *framework.API, opts ...framework.RouteOption) {
	for _, reg := range rt.regs {
		for _, ro := range reg.routes {
			v := reg.template
			v.Name = ro.viewName
			v.Get, v.Post, v.Put = ro.handlers[http.MethodGet], ro.handlers[http.MethodPost], ro.handlers[http.MethodPut]
			v.Patch, v.Delete, v.Head = ro.handlers[http.MethodPatch], ro.handlers[http.MethodDelete], nil
			if reg.options != nil {
				v.Options = reg.options
			}
			if ro.action != nil {
				ro.action.apply(&v)
			}
			api.Handle(ro.pattern, v, append([]framework.RouteOption{framework.Named(ro.name)}, opts...)...)
		}
	}
}

// DefaultRouter is a SimpleRouter that also serves the API root at "/":
// a JSON object mapping each prefix with a list route to its absolute URL.
// Its routes, the root's too, also answer with a format suffix
// ("/books/1.json", "/books.api", "/.json"; framework.FormatSuffixes), as
// DRF's DefaultRouter does.
type DefaultRouter struct {
	SimpleRouter
	// Root holds the API root view's policies; its Get is the router's.
	// Its Name defaults to "Api Root" and its Description to DRF's
	// APIRootView docstring, "The default basic root view for
	// DefaultRouter".
	Root framework.View
	// NoFormatSuffixes mounts the routes without their format-suffixed
	// twins (DRF's include_format_suffixes = False).
	NoFormatSuffixes bool
}

// Mount adds the viewsets' routes and the API root, named "api-root".
func (rt *DefaultRouter) Mount(api *framework.API) {
	var opts []framework.RouteOption
	if !rt.NoFormatSuffixes {
		opts = append(opts, framework.FormatSuffixes())
	}
	rt.mount(api, opts...)
	root := rt.Root
	root.Name = cmp.Or(root.Name, "Api Root")
	// The docstring of DRF's APIRootView (3.14 and 3.18 alike), which its
	// OPTIONS and browsable page show.
	root.Description = cmp.Or(root.Description, "The default basic root view for DefaultRouter")
	regs := append([]*registration(nil), rt.regs...)
	root.Get = func(v *framework.View, req *request.Request) (*framework.Response, error) {
		return framework.OK(apiRoot(regs, req)), nil
	}
	api.Handle("/", root, append([]framework.RouteOption{framework.Named("api-root")}, opts...)...)
}

// apiRoot lists prefix → URL in registration order; routes that do not
// reverse (for this request's namespace) are left out, as in DRF. Asked
// with a format suffix ("/.json"), the URLs carry it.
func apiRoot(regs []*registration, r *request.Request) json.RawMessage {
	ns := ""
	if m, ok := reverse.MatchOf(r.Request); ok && m.Namespace != "" {
		ns = m.Namespace + ":"
	}
	var params map[string]string
	if f := r.PathValue(reverse.FormatSuffixParam); f != "" {
		params = map[string]string{reverse.FormatSuffixParam: f}
	}
	b := []byte{'{'}
	for _, reg := range regs {
		if !reg.hasList {
			continue
		}
		u, err := reverse.Reverse(ns+reg.basename+"-list", params, r)
		if err != nil {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(rawjson.AppendString(b, reg.prefix), ':')
		b = rawjson.AppendString(b, u)
	}
	return append(b, '}')
}
