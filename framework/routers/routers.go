// Package routers mounts viewsets on a framework.API, like DRF's
// SimpleRouter and DefaultRouter: a list route "{prefix}/" and a detail
// route "{prefix}/{pk}/" per viewset, plus its extra actions, named
// "{basename}-list", "{basename}-detail" and "{basename}-{url_name}".
// Standard action methods are found when a viewset is registered; extra
// actions are given as method values (DRF's @action). Requests call both
// directly, with no reflection; each route's View names the action of
// each method (View.Action, DRF's self.action).
package routers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
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
// URL parameter other than "pk" (lookup_url_kwarg, else lookup_field).
type LookupParamer interface {
	LookupParam() string
}

// LookupRegexer is implemented by viewsets that restrict the lookup value
// of their detail routes (lookup_value_regex); "" keeps DRF's "[^/.]+".
type LookupRegexer interface {
	LookupRegex() string
}

// defaultLookupRegex is the lookup value's pattern in detail routes when
// the viewset gives none, DRF's "[^/.]+".
const defaultLookupRegex = "[^/.]+"

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
	// ViewName names the action's view, in the Extra Actions menu and on
	// its page (DRF's @action(name=...)); "" gives Name in words, "Set
	// password".
	ViewName string
	// Suffix names the action's view after the viewset's, "Book" +
	// " " + Suffix (DRF's @action(suffix=...)); ViewName and Suffix
	// exclude each other.
	Suffix string
	// Mapping maps more methods of the action's route to handlers of
	// their own (DRF's @set_password.mapping.delete).
	Mapping []Mapped

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

// Mapped is a method of an extra action's route answered by a handler of
// its own, itself an action for View.Action.
type Mapped struct {
	// Method is the HTTP method ("DELETE").
	Method string
	// Name is the handler's action name, DRF's method name:
	// "UnsetPassword" is the action "unset_password".
	Name string
	// Handler answers the method.
	Handler framework.HandlerFunc
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

// route is one URL of a viewset with its handlers and actions by HTTP
// method.
type route struct {
	// detail puts the route under the lookup; path is an extra action's
	// URL path, "" for a standard route.
	detail   bool
	path     string
	name     string
	viewName string
	handlers map[string]framework.HandlerFunc
	actions  map[string]framework.ViewAction
	// action is the extra action the route serves, nil for a standard one.
	action *Action
}

type registration struct {
	prefix   string
	basename string
	// param and regex are the detail routes' URL parameter and its pattern.
	param, regex string
	template     framework.View
	// options answers OPTIONS when the template has no handler for it:
	// the viewset's Metadata (with the serializer's fields), if any.
	options framework.HandlerFunc
	routes  []route
	hasList bool
}

// pattern is ro's chi pattern, ending in a slash unless noSlash (DRF's
// "^{prefix}/{lookup}/{url_path}{trailing_slash}$").
func (reg *registration) pattern(ro route, noSlash bool) string {
	p := ""
	if reg.prefix != "" {
		p = "/" + reg.prefix
	}
	if ro.detail {
		p += "/{" + reg.param + ":" + reg.regex + "}"
	}
	if ro.path != "" {
		p += "/" + ro.path
	}
	if !noSlash || p == "" {
		p += "/"
	}
	return p
}

// extraActions are the menu entries of the extra actions whose routes
// are detail routes or not, as detail, in the order of their names (DRF's
// get_extra_action_url_map over get_extra_actions, which sorts them).
func (reg *registration) extraActions(detail bool) []framework.ExtraAction {
	var routes []route
	for _, ro := range reg.routes {
		if ro.action != nil && ro.detail == detail {
			routes = append(routes, ro)
		}
	}
	slices.SortStableFunc(routes, func(a, b route) int {
		return strings.Compare(snakeCase(a.action.Name), snakeCase(b.action.Name))
	})
	menu := make([]framework.ExtraAction, len(routes))
	for i, ro := range routes {
		menu[i] = framework.ExtraAction{Name: ro.viewName, Route: ro.name}
	}
	return menu
}

// SimpleRouter mounts registered viewsets.
type SimpleRouter struct {
	// NoTrailingSlash mounts the routes without their trailing slash
	// ("/books", "/books/{pk}"; DRF's trailing_slash=False).
	NoTrailingSlash bool

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
	reg.param, reg.regex = "pk", defaultLookupRegex
	if l, ok := viewset.(LookupParamer); ok {
		reg.param = l.LookupParam()
	}
	if l, ok := viewset.(LookupRegexer); ok && l.LookupRegex() != "" {
		reg.regex = l.LookupRegex()
		if _, err := regexp.Compile(reg.regex); err != nil {
			return fmt.Errorf("routers: register %q: lookup value regex: %w", prefix, err)
		}
	}
	viewName := viewsetName(viewset, reg.template)
	list := route{name: basename + "-list", viewName: viewName + " List", handlers: map[string]framework.HandlerFunc{}, actions: map[string]framework.ViewAction{}}
	detail := route{detail: true, name: basename + "-detail", viewName: viewName + " Instance", handlers: map[string]framework.HandlerFunc{}, actions: map[string]framework.ViewAction{}}
	var actions []framework.ViewAction
	for _, a := range framework.StandardActions {
		h, ok := actionMethod(viewset, a)
		if !ok {
			continue
		}
		actions = append(actions, a)
		r := &list
		if a.Detail() {
			r = &detail
		}
		r.handlers[a.HTTPMethod()] = h
		r.actions[a.HTTPMethod()] = a
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
	var existing []string
	for _, a := range extra {
		if slices.Contains(framework.StandardActions, framework.ViewAction(snakeCase(a.Name))) {
			existing = append(existing, snakeCase(a.Name))
		}
	}
	if len(existing) > 0 {
		// DRF's SimpleRouter.get_routes, word for word, the names in
		// order (its get_extra_actions sorts them).
		return fmt.Errorf("routers: register %q: Cannot use the @action decorator on the following methods, as they are existing routes: %s",
			prefix, strings.Join(slices.Sorted(slices.Values(existing)), ", "))
	}
	for _, a := range extra {
		r, err := extraRoute(a, basename, viewName)
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

// extraRoute is the route of a, an extra action of the viewset named
// viewsetName with basename.
func extraRoute(a Action, basename, viewsetName string) (route, error) {
	h := a.Handler
	if h == nil || a.Name == "" {
		return route{}, fmt.Errorf("extra action %q: Name and Handler are required", a.Name)
	}
	if a.ViewName != "" && a.Suffix != "" {
		// DRF's ViewSetMixin.as_view, in the fields' names.
		return route{}, fmt.Errorf("extra action %s: received both ViewName and Suffix, which are mutually exclusive arguments.", a.Name)
	}
	viewName := cmp.Or(a.ViewName, prettyName(a.Name))
	if a.Suffix != "" {
		viewName = viewsetName + " " + a.Suffix
	}
	path := a.URLPath
	if path == "" {
		path = snakeCase(a.Name)
	}
	name := a.URLName
	if name == "" {
		name = strings.ReplaceAll(path, "_", "-")
	}
	r := route{detail: a.Detail, path: path, name: basename + "-" + name, viewName: viewName,
		handlers: map[string]framework.HandlerFunc{}, actions: map[string]framework.ViewAction{}, action: &a}
	methods := a.HTTPMethods
	if len(methods) == 0 {
		methods = []string{http.MethodGet}
	}
	add := func(m, action string, h framework.HandlerFunc) error {
		m = strings.ToUpper(m)
		switch m {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			return fmt.Errorf("extra action %s: unsupported method %q", a.Name, m)
		}
		if prev, ok := r.actions[m]; ok {
			// DRF's MethodMapper._map.
			return fmt.Errorf("extra action %s: Method '%s' has already been mapped to '.%s'.", a.Name, strings.ToLower(m), prev)
		}
		r.handlers[m], r.actions[m] = h, framework.ViewAction(snakeCase(action))
		return nil
	}
	for _, m := range methods {
		if err := add(m, a.Name, h); err != nil {
			return route{}, err
		}
	}
	for _, m := range a.Mapping {
		if m.Handler == nil || m.Name == "" {
			return route{}, fmt.Errorf("extra action %s: mapping of %q: Name and Handler are required", a.Name, m.Method)
		}
		if snakeCase(m.Name) == snakeCase(a.Name) {
			// DRF's MethodMapper._map.
			return route{}, fmt.Errorf("extra action %s: Method mapping does not behave like the property decorator. You cannot use the same method name for each mapping declaration.", a.Name)
		}
		if err := add(m.Method, m.Name, m.Handler); err != nil {
			return route{}, err
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
			v.Actions = ro.actions
			v.ExtraActions = reg.extraActions(ro.detail)
			v.Get, v.Post, v.Put = ro.handlers[http.MethodGet], ro.handlers[http.MethodPost], ro.handlers[http.MethodPut]
			v.Patch, v.Delete, v.Head = ro.handlers[http.MethodPatch], ro.handlers[http.MethodDelete], nil
			if reg.options != nil {
				v.Options = reg.options
			}
			if ro.action != nil {
				ro.action.apply(&v)
			}
			api.Handle(reg.pattern(ro, rt.NoTrailingSlash), v, append([]framework.RouteOption{framework.Named(ro.name)}, opts...)...)
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
	// RootName names the API root's route (root_view_name); "" gives
	// "api-root".
	RootName string
}

// Mount adds the viewsets' routes and the API root, named RootName.
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
	api.Handle("/", root, append([]framework.RouteOption{framework.Named(cmp.Or(rt.RootName, "api-root"))}, opts...)...)
}

// apiRoot lists prefix → URL in registration order; routes that do not
// reverse (for this request's namespace) are left out, as in DRF. Asked
// with a format suffix ("/.json"), the URLs carry it.
func apiRoot(regs []*registration, r *request.Request) json.RawMessage {
	ns := ""
	if m, ok := reverse.MatchOf(r.Request); ok && m.Namespace != "" {
		ns = m.Namespace + ":"
	}
	b := []byte{'{'}
	for _, reg := range regs {
		if !reg.hasList {
			continue
		}
		u, err := reverse.Link(ns+reg.basename+"-list", nil, r)
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
