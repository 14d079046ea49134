package framework

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// HandlerFunc answers one HTTP method of a view. v is the view itself
// (DRF's self); errors are rendered by the exception handler.
type HandlerFunc func(v *View, r *request.Request) (*Response, error)

// View is DRF's APIView: handlers per method plus the policies that run
// before them. It is plain configuration: every policy field left at its
// zero value inherits the API's Settings, and API.Handle (or API.Handler)
// compiles it once into an http.Handler. The *View a handler, permission,
// throttle or paginator receives is the compiled one: its policy fields
// hold the effective values (nil Pagination or Versioning means none).
type View struct {
	// Name and Description label the browsable page.
	Name, Description string

	Authentication List[request.Authenticator]
	Permissions    List[Permission]
	Throttles      List[Throttle]
	// ThrottleScope is the scope of ScopedRateThrottle (throttle_scope).
	ThrottleScope string
	Renderers     List[Renderer]
	Parsers       List[request.Parser]
	// Pagination is the view's pagination_class; nil inherits the
	// setting, NoPagination turns it off.
	Pagination Paginator
	// Versioning is the view's versioning_class; nil inherits the
	// setting, NoVersioning turns it off.
	Versioning request.Versioner
	// DefaultVersion, AllowedVersions and VersionParam override the
	// settings of the same names for this view; "" and unset inherit.
	DefaultVersion  string
	AllowedVersions List[string]
	VersionParam    string
	// Formats replace the settings' Formats, as a whole, for this view;
	// nil inherits them.
	Formats *Formats

	// LazyAuthentication opts out of authenticating before the permission
	// checks: the schemes then run on the first access to User or Auth.
	LazyAuthentication bool

	// NonAtomicRequests runs the view outside the transaction of
	// Settings.AtomicRequests (Django's transaction.non_atomic_requests).
	NonAtomicRequests bool

	// Describer tells what the view reads and answers, for the schema and
	// the browsable page's forms; generic views and viewsets set it.
	Describer Describer
	// Actions names the action each HTTP method serves (DRF's action_map:
	// "GET" is "list" on a viewset's list route); routers and generic
	// views set it, Action reads it.
	Actions map[string]ViewAction
	// ExtraActions are the viewset's extra actions of the route's kind
	// (list or detail), for the browsable page's Extra Actions menu
	// (DRF's get_extra_action_url_map); routers set it.
	ExtraActions []ExtraAction
	// Schema overrides or extends the view's operations in OpenAPI
	// documents, by HTTP method ("" for all): drf-spectacular's
	// extend_schema.
	Schema map[string]OperationSchema

	// ObjectType is the type of the objects the view checks object
	// permissions on, *T: generic views and viewsets set it to theirs, a
	// hand-written view that retrieves objects sets it
	// (reflect.TypeFor[*Snippet]()). Registration refuses a typed object
	// permission (ObjectTyped, as ObjectCheck) of another type, whether it
	// is the view's own, an action's or the settings'; a view that leaves
	// it nil takes the one type its typed permissions run on.
	ObjectType reflect.Type

	// Handlers by method. HEAD falls back to GET; OPTIONS has a default.
	Get, Post, Put, Patch, Delete, Head, Options HandlerFunc

	// global is the settings the view was compiled against; nil before.
	global *Settings
	// endpoints are those of the API the view was compiled by.
	endpoints *endpoints
	// ownPagination records that the view set Pagination itself.
	ownPagination bool
	// compat is the settings' Compatibility, resolved at registration.
	compat Compatibility
}

// Compatibility returns the DRF and Django release the compiled view
// answers as (Settings.Compatibility).
func (v *View) Compatibility() Compatibility { return v.compat }

// handler is a View compiled against its settings: the effective view
// plus what every request of it needs, computed once.
type handler struct {
	view          View
	rendererTypes []MediaType
	request       request.Config
	versionConfig request.VersionConfig
	allow         string
	vary          bool
	maxBody       int64
	maxFields     int
	handle        ExceptionHandler
	// route is the pattern the view is mounted at, "" when unknown.
	route    string
	log      *slog.Logger
	observed *observed
	// atomic is the store whose transaction each request runs in
	// (Settings.AtomicRequests), nil for none.
	atomic *sqlx.DB
}

// compile merges v's fields over s into the view its requests run.
func compile(v View, s *Settings) *handler {
	v.global = s
	v.compat = s.Compatibility
	v.Authentication = v.Authentication.or(s.Authentication)
	v.Authentication.items = compat.Apply(v.Authentication.items, s.Compatibility)
	v.Permissions = v.Permissions.or(s.Permissions).or(Permissions(AllowAny{}))
	v.Throttles = v.Throttles.or(s.Throttles)
	v.Renderers = v.Renderers.or(s.Renderers).or(Renderers(JSONRenderer{}))
	v.Parsers = v.Parsers.or(s.Parsers).or(Parsers(JSONParser{}, FormParser{}, MultiPartParser{}))
	v.ownPagination = v.Pagination != nil
	v.Pagination = effective(v.Pagination, s.Pagination, NoPagination)
	v.Versioning = effective(v.Versioning, s.Versioning, NoVersioning)
	if c, ok := v.Versioning.(compat.Setter[request.Versioner]); ok {
		v.Versioning = c.WithCompatibility(s.Compatibility)
	}
	v.DefaultVersion = cmp.Or(v.DefaultVersion, s.DefaultVersion)
	v.AllowedVersions = v.AllowedVersions.or(s.AllowedVersions)
	v.VersionParam = cmp.Or(v.VersionParam, s.VersionParam, "version")
	h := &handler{
		versionConfig: v.VersionConfig(),
		allow:         strings.Join(v.AllowedMethods(), ", "),
		vary:          len(v.Renderers.items) > 1,
		maxBody:       cmp.Or(s.MaxBodyBytes, DefaultMaxBodyBytes),
		maxFields:     cmp.Or(s.MaxNumberFields, defaultMaxNumberFields),
		handle:        s.ExceptionHandler,
		log:           s.logger(),
	}
	if h.handle == nil {
		h.handle = DefaultExceptionHandler
	}
	h.request = request.Config{
		Authenticators:       v.Authentication.items,
		Parsers:              v.Parsers.items,
		MaxNumberFields:      h.maxFields,
		MaxBodyBytes:         h.maxBody,
		UnauthenticatedUser:  s.UnauthenticatedUser,
		UnauthenticatedToken: s.UnauthenticatedToken,
		VersionParam:         v.VersionParam,
		FormatParam:          cmp.Or(s.URLFormatOverride, "format"),
		Logger:               h.log,
		Compatibility:        s.Compatibility,
	}
	for _, rd := range v.Renderers.items {
		h.rendererTypes = append(h.rendererTypes, ParseMediaType(rd.MediaType()))
	}
	if v.Options == nil {
		v.Options = defaultOptions
	}
	h.view = v
	h.observed = newObserved(s.Observer, &h.view)
	return h
}

// setupPagination resolves the view's paginator against s, once
// (PaginatorSetup), and lets the view's Describer check it
// (PaginationChecker).
func setupPagination(v *View, s *Settings) error {
	if ps, ok := v.Pagination.(PaginatorSetup); ok {
		p, err := ps.Setup(s)
		if err != nil {
			return fmt.Errorf("pagination: %w", err)
		}
		if p != nil && reflect.TypeOf(p) != reflect.TypeOf(v.Pagination) {
			return fmt.Errorf("pagination: %T's Setup returned a %T; a style that embeds a built-in one must define its own Setup", v.Pagination, p)
		}
		v.Pagination = p
	}
	if c, ok := v.Describer.(PaginationChecker); ok && v.Pagination != nil {
		return c.CheckPagination(v.Pagination)
	}
	return nil
}

// effective is the view's policy over the setting's, nil when off.
func effective[T comparable](view, setting, off T) T {
	var unset T
	p := cmp.Or(view, setting)
	if p == off || p == unset {
		return unset
	}
	return p
}

// AllowedMethods lists the methods the view answers, in DRF's order.
func (v *View) AllowedMethods() []string {
	var m []string
	for _, h := range []struct {
		name string
		fn   HandlerFunc
	}{{"GET", v.Get}, {"POST", v.Post}, {"PUT", v.Put}, {"PATCH", v.Patch}, {"DELETE", v.Delete}, {"HEAD", v.headHandler()}} {
		if h.fn != nil {
			m = append(m, h.name)
		}
	}
	return append(m, "OPTIONS")
}

func (v *View) headHandler() HandlerFunc {
	if v.Head != nil {
		return v.Head
	}
	return v.Get
}

func (v *View) handler(method string) HandlerFunc {
	switch method {
	case http.MethodGet:
		return v.Get
	case http.MethodPost:
		return v.Post
	case http.MethodPut:
		return v.Put
	case http.MethodPatch:
		return v.Patch
	case http.MethodDelete:
		return v.Delete
	case http.MethodHead:
		return v.headHandler()
	case http.MethodOptions:
		return v.Options
	}
	return nil
}

// Global returns the settings the view was compiled against.
func (v *View) Global() *Settings {
	if v.global == nil {
		return defaultSettings
	}
	return v.global
}

// VersionConfig returns the view's DEFAULT_VERSION, ALLOWED_VERSIONS and
// VERSION_PARAM as its versioning scheme gets them.
func (v *View) VersionConfig() request.VersionConfig {
	return request.VersionConfig{Default: v.DefaultVersion, Param: v.VersionParam}.Restrict(v.AllowedVersions.items...)
}

// OwnPagination reports whether the view sets its own pagination style
// (pagination_class) rather than inheriting the setting: DRF's plain
// views inherit none, only its generic views do.
func (v *View) OwnPagination() bool { return v.ownPagination }

// Paginator returns the view's pagination style, nil when off.
func (v *View) Paginator() Paginator {
	if v.Pagination == NoPagination {
		return nil
	}
	return v.Pagination
}

// ServeHTTP runs DRF's pipeline: build the Request, refuse a query string
// of more than MaxNumberFields fields, negotiate the renderer, determine
// the version, authenticate, check permissions and throttles,
// then call the method's handler. Errors and panics become answers.
func (h *handler) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	if hr.Body != nil && hr.Body != http.NoBody && !request.StreamsUploads(h.request.Parsers, hr.Header.Get("Content-Type")) {
		hr.Body = http.MaxBytesReader(w, hr.Body, h.maxBody)
	}
	x := &exchange{req: *h.request.Wrap(hr)}
	r := &x.req
	defer r.Close()
	var resp *Response
	var err error
	if h.atomic != nil {
		resp, err = h.runAtomic(r)
	} else {
		resp, err = h.run(r)
	}
	if err != nil {
		resp = h.handleException(r, err)
	}
	if resp == nil && err != nil {
		h.serverError(w, r)
	} else {
		h.finalize(w, x, resp)
	}
	h.record(r)
}

// serverErrorPage is Django's 500 page: django.views.defaults.server_error
// without a 500.html template (DEBUG=False), the same text on Django 3.2
// and 5.2.
const serverErrorPage = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n"

// serverError answers an error that no exception handler answered as
// Django does, since DRF re-raises it: 500 with Django's page, typed
// `text/html; charset=utf-8` (Django 4.0 and later) or `text/html` (Django
// 3.2, compat.DRF314), without DRF's Allow or Vary.
func (h *handler) serverError(w http.ResponseWriter, r *request.Request) {
	hdr := w.Header()
	hdr.Del("Allow")
	hdr.Del("Vary")
	hdr.Set("Content-Type", errorPageType(h.view.compat))
	hdr.Set("Content-Length", strconv.Itoa(len(serverErrorPage)))
	w.WriteHeader(http.StatusInternalServerError)
	if r.Method != http.MethodHead {
		_, _ = io.WriteString(w, serverErrorPage)
	}
}

// exchange is what the pipeline builds per request, in one allocation:
// the Request, the render context, and the backing array that the values
// of the headers every answer has share.
type exchange struct {
	req  request.Request
	rc   RenderContext
	vals [6]string
}

// runAtomic is run in an atomic block of the API's store (store.Atomic)
// whose transaction the request's context carries
// (Settings.AtomicRequests), as Django's make_view_atomic wraps the
// view: committed, and its store.OnCommit callbacks run, when the view
// answers; rolled back when it fails, as DRF's exception handler rolls
// back with set_rollback. It is never run again: a failed COMMIT is the
// view's error.
func (h *handler) runAtomic(r *request.Request) (resp *Response, err error) {
	hr := r.Request
	defer func() { r.Request = hr }()
	defer recoverPanic(&resp, &err) // an OnCommit callback's
	err = store.Atomic(hr.Context(), h.atomic, func(ctx context.Context) error {
		r.Request = hr.WithContext(ctx)
		resp, err = h.run(r)
		return err
	})
	return resp, err
}

// recoverPanic, deferred, makes a panic the error of the view's answer.
func recoverPanic(resp **Response, err *error) {
	if p := recover(); p != nil {
		if p == http.ErrAbortHandler {
			panic(p)
		}
		*resp, *err = nil, &panicError{value: p, stack: debug.Stack()}
	}
}

func (h *handler) run(r *request.Request) (resp *Response, err error) {
	defer recoverPanic(&resp, &err)
	v := &h.view
	if tooManyFields(r.URL.RawQuery, h.maxFields) {
		return nil, exceptions.TooManyFields()
	}
	if err := negotiate(r, v.Renderers.items, h.rendererTypes, h.request.FormatParam); err != nil {
		return nil, err
	}
	if v.Versioning != nil {
		version, err := v.Versioning.DetermineVersion(r, h.versionConfig)
		if err != nil {
			return nil, err
		}
		r.SetVersion(version, v.Versioning)
	}
	o := h.observed
	if !v.LazyAuthentication {
		start := o.clock()
		err := r.Authenticate()
		o.authentication(r, start)
		if err != nil {
			return nil, err
		}
	}
	start := o.clock()
	err = v.CheckPermissions(r)
	o.decision(r, StepPermissions, start, err)
	if err != nil {
		return nil, err
	}
	start = o.clock()
	err = v.checkThrottles(r)
	o.decision(r, StepThrottles, start, err)
	if err != nil {
		return nil, err
	}
	fn := v.handler(r.Method)
	if fn == nil {
		return nil, exceptions.MethodNotAllowed(r.Method)
	}
	start = o.clock()
	resp, err = fn(v, r)
	o.page(r, start, resp)
	return resp, err
}

// CheckPermissions runs the view's permissions; the first to deny decides
// the error (DRF's check_permissions).
func (v *View) CheckPermissions(r *request.Request) error {
	for _, p := range v.Permissions.items {
		ok, err := p.HasPermission(r, v)
		if err != nil {
			return err
		}
		if !ok {
			return PermissionDeniedFor(r, p)
		}
	}
	return nil
}

// CheckObjectPermissions runs the view's object permissions on obj
// (DRF's check_object_permissions).
func (v *View) CheckObjectPermissions(r *request.Request, obj any) error {
	if v.ObjectType != nil && reflect.TypeOf(obj) != v.ObjectType {
		return fmt.Errorf("framework: the view %q checks object permissions on a %T, but its ObjectType is %v", v.Name, obj, v.ObjectType)
	}
	for _, p := range v.Permissions.items {
		op, ok := p.(ObjectPermission)
		if !ok {
			continue
		}
		allowed, err := op.HasObjectPermission(r, v, obj)
		if err != nil {
			return err
		}
		if !allowed {
			return PermissionDeniedFor(r, p)
		}
	}
	return nil
}

// PermissionDeniedFor is DRF's permission_denied: NotAuthenticated when
// the view has schemes and none authenticated, else PermissionDenied with
// the permission's message and code.
func PermissionDeniedFor(r *request.Request, p Permission) error {
	if err := r.Authenticate(); err != nil {
		return err
	}
	if len(r.Authenticators()) > 0 && r.SuccessfulAuthenticator() == nil {
		return exceptions.NotAuthenticated()
	}
	return permissionDenied(p)
}

type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// databaseRetryAfter is the Retry-After of a request answered 503
// because the database was unavailable.
const databaseRetryAfter = time.Second

// handleException applies the 401/403 rule, makes a database that could
// not serve the request (store.IsUnavailable: down, restarting, out of
// connections, not answering within the statement timeout) DRF's
// ServiceUnavailable, 503 with Retry-After, then calls the exception
// handler; what the handler does not answer is logged, and nil: the
// caller answers it with Django's 500 page (serverError).
func (h *handler) handleException(r *request.Request, err error) *Response {
	var api *exceptions.APIException
	if !errors.As(err, &api) && r.Context().Err() == nil && store.IsUnavailable(err) {
		h.log.WarnContext(r.Context(), "database unavailable", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		err = exceptions.ServiceUnavailable(databaseRetryAfter)
	} else if api != nil && (api.Code == exceptions.CodeNotAuthenticated || api.Code == exceptions.CodeAuthenticationFailed) {
		e := *api
		e.Header = api.Header.Clone()
		if h := authenticateHeader(r); h != "" {
			if e.Header == nil {
				e.Header = http.Header{}
			}
			e.Header.Set("WWW-Authenticate", h)
		} else {
			e.Status = http.StatusForbidden
		}
		err = &e
	}
	if resp := h.handle(err, &h.view, r); resp != nil {
		return resp
	}
	attrs := []any{"method", r.Method, "path", r.URL.Path, "error", err.Error()}
	if gone := r.Context().Err(); gone != nil && errors.Is(err, gone) {
		// The client went away mid-request: nothing is wrong with the server.
		h.log.InfoContext(r.Context(), "request abandoned by the client", attrs...)
		return &Response{Status: http.StatusServiceUnavailable, Data: ErrorDetail{"Request abandoned."}, Exception: true}
	}
	var p *panicError
	if errors.As(err, &p) {
		attrs = append(attrs, "stack", string(p.stack))
	}
	h.log.ErrorContext(r.Context(), "internal server error", attrs...)
	return nil
}

// authenticateHeader is the WWW-Authenticate value of the view's first scheme.
func authenticateHeader(r *request.Request) string {
	a := r.Authenticators()
	if len(a) == 0 {
		return ""
	}
	if c, ok := a[0].(request.Challenger); ok {
		return c.AuthenticateHeader(r)
	}
	return ""
}

// ExceptionHandler turns an error into an answer; nil means "not an API
// error", which the view logs and answers with 500 (EXCEPTION_HANDLER).
type ExceptionHandler func(err error, v *View, r *request.Request) *Response

// DefaultExceptionHandler renders API errors: validation errors as their
// field map, others as {"detail": ...}, with the error's headers; their
// messages in the request's language when a Translator is installed
// (WithTranslator, framework/translation's LocaleMiddleware).
func DefaultExceptionHandler(err error, v *View, r *request.Request) *Response {
	var api *exceptions.APIException
	if !errors.As(err, &api) {
		return nil
	}
	data := translateDetail(r, api.Detail)
	if s, ok := data.(string); ok {
		data = ErrorDetail{s}
	}
	return &Response{Status: api.Status, Data: data, Header: api.Header.Clone(), Exception: true}
}

func defaultOptions(v *View, r *request.Request) (*Response, error) {
	return &Response{Status: http.StatusOK, Data: Metadata(v, r)}, nil
}
