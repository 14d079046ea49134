package framework

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// HandlerFunc answers one HTTP method of a view. v is the view itself
// (DRF's self); errors are rendered by the exception handler.
type HandlerFunc func(v *View, r *request.Request) (*Response, error)

// View is DRF's APIView: handlers per method plus the policies that run
// before them. Every policy field left at its zero value inherits the
// global Settings. A View is an http.Handler; do not modify it once it
// serves.
type View struct {
	// Settings are the global defaults; nil gives DRF's defaults.
	Settings *Settings
	// Name and Description label the browsable page.
	Name, Description string

	Authentication List[request.Authenticator]
	Permissions    List[Permission]
	Throttles      List[Throttle]
	// ThrottleScope is the scope of ScopedRateThrottle (throttle_scope).
	ThrottleScope string
	Renderers     List[Renderer]
	Parsers       List[request.Parser]
	// Pagination is the view's pagination_class; NoPagination turns it off.
	Pagination Option[Paginator]
	// Versioning is the view's versioning_class; NoVersioning turns it off.
	Versioning      Option[Versioner]
	DefaultVersion  Option[string]
	AllowedVersions List[string]
	VersionParam    string

	// LazyAuthentication opts out of authenticating before the permission
	// checks: the schemes then run on the first access to User or Auth.
	LazyAuthentication bool

	// Handlers by method. HEAD falls back to GET; OPTIONS has a default.
	Get, Post, Put, Patch, Delete, Head, Options HandlerFunc

	once sync.Once
	rs   resolved
}

type resolved struct {
	settings       *Settings
	authenticators []request.Authenticator
	permissions    []Permission
	throttles      []Throttle
	renderers      []Renderer
	rendererTypes  []MediaType
	parsers        []request.Parser
	pagination     Paginator
	versioning     Versioner
	versionConfig  VersionConfig
	allow          string
	vary           bool
	formatParam    string
	maxBody        int64
	handle         ExceptionHandler
}

// resolve merges the view's fields over the settings, once.
func (v *View) resolve() *resolved {
	v.once.Do(func() {
		s := v.Settings
		if s == nil {
			s = defaultSettings
		}
		rs := &v.rs
		rs.settings = s
		rs.authenticators = v.Authentication.or(s.Authentication).items
		rs.permissions = v.Permissions.or(s.Permissions).or(Permissions(AllowAny{})).items
		rs.throttles = v.Throttles.or(s.Throttles).items
		rs.renderers = v.Renderers.or(s.Renderers).or(Renderers(JSONRenderer{})).items
		rs.rendererTypes = make([]MediaType, len(rs.renderers))
		for i, rd := range rs.renderers {
			rs.rendererTypes[i] = ParseMediaType(rd.MediaType())
		}
		rs.parsers = v.Parsers.or(s.Parsers).or(Parsers(JSONParser{}, FormParser{}, MultiPartParser{})).items
		rs.pagination = v.Pagination.or(s.Pagination).value
		rs.versioning = v.Versioning.or(s.Versioning).value
		rs.versionConfig = VersionConfig{
			Default: v.DefaultVersion.or(Use(s.DefaultVersion)).value,
			Param:   cmp.Or(v.VersionParam, s.VersionParam, "version"),
		}.Restrict(v.AllowedVersions.or(s.AllowedVersions).items...)
		rs.allow = strings.Join(v.AllowedMethods(), ", ")
		rs.vary = len(rs.renderers) > 1
		rs.formatParam = cmp.Or(s.URLFormatOverride, "format")
		rs.maxBody = s.MaxBodyBytes
		if rs.maxBody == 0 {
			rs.maxBody = DefaultMaxBodyBytes
		}
		rs.handle = s.ExceptionHandler
		if rs.handle == nil {
			rs.handle = DefaultExceptionHandler
		}
	})
	return &v.rs
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
		if v.Options != nil {
			return v.Options
		}
		return defaultOptions
	}
	return nil
}

// Global returns the settings the view resolves against.
func (v *View) Global() *Settings { return v.resolve().settings }

// Paginator returns the view's pagination style, nil when off.
func (v *View) Paginator() Paginator { return v.resolve().pagination }

// PageSize returns the global PAGE_SIZE.
func (v *View) PageSize() int { return v.resolve().settings.PageSize }

// ServeHTTP runs DRF's pipeline: build the Request, negotiate the renderer,
// determine the version, authenticate, check permissions and throttles,
// then call the method's handler. Errors and panics become answers.
func (v *View) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	rs := v.resolve()
	if hr.Body != nil && hr.Body != http.NoBody {
		hr.Body = http.MaxBytesReader(w, hr.Body, rs.maxBody)
	}
	r := request.New(hr, request.Config{
		Authenticators:       rs.authenticators,
		Parsers:              rs.parsers,
		UnauthenticatedUser:  rs.settings.UnauthenticatedUser,
		UnauthenticatedToken: rs.settings.UnauthenticatedToken,
		VersionParam:         rs.versionConfig.Param,
		FormatParam:          rs.formatParam,
	})
	resp, err := v.run(rs, r)
	if err != nil {
		resp = v.handleException(rs, r, err)
	}
	v.finalize(rs, w, r, resp)
}

func (v *View) run(rs *resolved, r *request.Request) (resp *Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			resp, err = nil, &panicError{value: p, stack: debug.Stack()}
		}
	}()
	if err := negotiate(r, rs.renderers, rs.rendererTypes, rs.formatParam); err != nil {
		return nil, err
	}
	if rs.versioning != nil {
		version, err := rs.versioning.DetermineVersion(r, rs.versionConfig)
		if err != nil {
			return nil, err
		}
		r.SetVersion(version, rs.versioning)
	}
	if !v.LazyAuthentication {
		if err := r.Authenticate(); err != nil {
			return nil, err
		}
	}
	if err := v.CheckPermissions(r); err != nil {
		return nil, err
	}
	if err := v.checkThrottles(rs, r); err != nil {
		return nil, err
	}
	h := v.handler(r.Method)
	if h == nil {
		return nil, exceptions.MethodNotAllowed(r.Method)
	}
	return h(v, r)
}

// CheckPermissions runs the view's permissions; the first to deny decides
// the error (DRF's check_permissions).
func (v *View) CheckPermissions(r *request.Request) error {
	for _, p := range v.resolve().permissions {
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
	for _, p := range v.resolve().permissions {
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
// the permission's message.
func PermissionDeniedFor(r *request.Request, p Permission) error {
	if err := r.Authenticate(); err != nil {
		return err
	}
	if len(r.Authenticators()) > 0 && r.SuccessfulAuthenticator() == nil {
		return exceptions.NotAuthenticated()
	}
	if m, ok := p.(interface{ Message() string }); ok && m.Message() != "" {
		return exceptions.PermissionDenied(m.Message())
	}
	return exceptions.PermissionDenied()
}

type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// handleException applies the 401/403 rule, then the exception handler;
// what the handler does not answer becomes a logged 500.
func (v *View) handleException(rs *resolved, r *request.Request, err error) *Response {
	var api *exceptions.APIException
	if errors.As(err, &api) && (api.Code == exceptions.CodeNotAuthenticated || api.Code == exceptions.CodeAuthenticationFailed) {
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
	if resp := rs.handle(err, v, r); resp != nil {
		return resp
	}
	attrs := []any{"method", r.Method, "path", r.URL.Path, "error", err.Error()}
	if gone := r.Context().Err(); gone != nil && errors.Is(err, gone) {
		// The client went away mid-request: nothing is wrong with the server.
		slog.Info("request abandoned by the client", attrs...)
		return &Response{Status: http.StatusServiceUnavailable, Data: map[string]string{"detail": "Request abandoned."}}
	}
	var p *panicError
	if errors.As(err, &p) {
		attrs = append(attrs, "stack", string(p.stack))
	}
	slog.Error("internal server error", attrs...)
	return &Response{Status: http.StatusInternalServerError, Data: map[string]string{"detail": "A server error occurred."}}
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
// field map, others as {"detail": ...}, with the error's headers.
func DefaultExceptionHandler(err error, v *View, r *request.Request) *Response {
	var api *exceptions.APIException
	if !errors.As(err, &api) {
		return nil
	}
	var data any = api.Detail
	if s, ok := api.Detail.(string); ok {
		data = detailBody{s}
	}
	return &Response{Status: api.Status, Data: data, Header: api.Header.Clone(), Exception: true}
}

type detailBody struct {
	Detail string `json:"detail"`
}

func defaultOptions(v *View, r *request.Request) (*Response, error) {
	return &Response{Status: http.StatusOK, Data: Metadata(v, r)}, nil
}
