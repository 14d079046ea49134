// Package framework is the core of the REST framework: views and their
// request pipeline, settings, responses, content negotiation, renderers,
// parsers, permissions, throttles and the exception handler.
package framework

import (
	"fmt"
	"log/slog"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/formats"
)

// List is a list-valued setting: authentication schemes, permissions,
// throttles, renderers, parsers. Its zero value means "not set": a view
// inherits the global setting, and the global setting takes DRF's default.
// A List built by one of the constructors is set, even when empty, so
// Authenticators() means "no authentication at all".
type List[T any] struct {
	set   bool
	items []T
}

// IsSet reports whether the list was set explicitly.
func (l List[T]) IsSet() bool { return l.set }

// Items returns the list's values.
func (l List[T]) Items() []T { return l.items }

func (l List[T]) or(fallback List[T]) List[T] {
	if l.set {
		return l
	}
	return fallback
}

// checkAuthenticators runs the view's authentication schemes' checks.
func checkAuthenticators(schemes []request.Authenticator) error {
	for _, a := range schemes {
		if c, ok := a.(request.AuthenticatorChecker); ok {
			if err := c.CheckAuthenticator(); err != nil {
				return fmt.Errorf("authentication scheme %T: %w", a, err)
			}
		}
	}
	return nil
}

// Authenticators sets the authentication schemes, tried in order
// (DEFAULT_AUTHENTICATION_CLASSES, authentication_classes).
func Authenticators(a ...request.Authenticator) List[request.Authenticator] {
	return List[request.Authenticator]{true, a}
}

// Permissions sets the permissions, all of which must allow
// (DEFAULT_PERMISSION_CLASSES, permission_classes).
func Permissions(p ...Permission) List[Permission] { return List[Permission]{true, p} }

// Throttles sets the throttles (DEFAULT_THROTTLE_CLASSES, throttle_classes).
func Throttles(t ...Throttle) List[Throttle] { return List[Throttle]{true, t} }

// Renderers sets the renderers, the first being the default
// (DEFAULT_RENDERER_CLASSES, renderer_classes).
func Renderers(r ...Renderer) List[Renderer] { return List[Renderer]{true, r} }

// Parsers sets the body parsers (DEFAULT_PARSER_CLASSES, parser_classes).
func Parsers(p ...request.Parser) List[request.Parser] { return List[request.Parser]{true, p} }

// FilterBackends sets the filter backends, applied in order
// (DEFAULT_FILTER_BACKENDS, filter_backends).
func FilterBackends(b ...FilterBackend) List[FilterBackend] { return List[FilterBackend]{true, b} }

// Versions sets the allowed versions (ALLOWED_VERSIONS, allowed_versions).
func Versions(v ...string) List[string] { return List[string]{true, v} }

// NoPagination turns pagination off where a nil Pagination would inherit
// (pagination_class = None). Its Paginate returns no page.
var NoPagination Paginator = noPagination{}

type noPagination struct{}

func (noPagination) Paginate(*request.Request, query.Query) (Page, error) { return nil, nil }

// NoVersioning turns versioning off where a nil Versioning would inherit
// (versioning_class = None). It determines no version.
var NoVersioning request.Versioner = noVersioning{}

type noVersioning struct{}

func (noVersioning) DetermineVersion(*request.Request, request.VersionConfig) (string, error) {
	return "", nil
}

// Settings are the global defaults of every view, DRF's REST_FRAMEWORK
// setting. The zero value is DRF's defaults, except for two that need
// contrib's apps, which the core does not import: no authentication
// (DRF's Session and Basic need a user store) and the JSON renderer
// alone (the browsable one is framework/browsable's). contrib/project's
// Project sets both as startproject has them.
type Settings struct {
	// Authentication: DEFAULT_AUTHENTICATION_CLASSES.
	Authentication List[request.Authenticator]
	// Permissions: DEFAULT_PERMISSION_CLASSES; unset gives AllowAny.
	Permissions List[Permission]
	// Throttles: DEFAULT_THROTTLE_CLASSES; unset gives none.
	Throttles List[Throttle]
	// ThrottleRates: DEFAULT_THROTTLE_RATES, by scope ("anon": "3/minute").
	ThrottleRates map[string]string
	// ThrottleCache keeps throttle histories (Django's cache as DRF's
	// throttles use it); nil gives a process-wide cache.Memory. Instances
	// that must share their rates use one cache.Redis.
	ThrottleCache ThrottleCache
	// TrustForwardedHeaders makes absolute URLs, and the host seen by
	// host-name versioning, use X-Forwarded-Proto and X-Forwarded-Host
	// (Django's USE_X_FORWARDED_HOST); enable it only behind a proxy that
	// sets them.
	TrustForwardedHeaders bool
	// AllowedHosts: ALLOWED_HOSTS, the host names the API serves, matched
	// in any case without the port and a final dot: "api.example.com"
	// exactly, ".example.com" that domain and its subdomains, "*" any. A
	// request for another host (the Host header, or X-Forwarded-Host when
	// trusted: the host its absolute links would name) is answered with
	// Django's 400 page before any route runs, and logged with Django's
	// "Invalid HTTP_HOST header" message. Empty serves every host (Django
	// refuses every host then, unless DEBUG): set it in production.
	AllowedHosts []string
	// DisableAppendSlash turns off APPEND_SLASH, on by default as in
	// Django: a path without its final slash that matches no route is
	// redirected to the slashed path when that one has a route.
	DisableAppendSlash bool
	// NumProxies: NUM_PROXIES, how many proxies' X-Forwarded-For entries to
	// trust when identifying clients; 0 trusts none.
	NumProxies int

	// FilterBackends: DEFAULT_FILTER_BACKENDS, the generic views' filter
	// backends where a view sets none; unset gives none.
	FilterBackends List[FilterBackend]

	// Pagination: DEFAULT_PAGINATION_CLASS; nil gives none.
	Pagination Paginator
	// PageSize: PAGE_SIZE; 0 is None.
	PageSize int

	// Versioning: DEFAULT_VERSIONING_CLASS; nil gives none.
	Versioning request.Versioner
	// DefaultVersion: DEFAULT_VERSION; "" is None.
	DefaultVersion string
	// AllowedVersions: ALLOWED_VERSIONS; unset or empty allows any.
	AllowedVersions List[string]
	// VersionParam: VERSION_PARAM; "" gives "version".
	VersionParam string

	// Renderers: DEFAULT_RENDERER_CLASSES; unset gives JSON only (add the
	// browsable renderer from framework/browsable).
	Renderers List[Renderer]
	// Parsers: DEFAULT_PARSER_CLASSES; unset gives JSON, form and multipart.
	Parsers List[request.Parser]
	// URLFormatOverride: URL_FORMAT_OVERRIDE; "" gives "format".
	URLFormatOverride string
	// MaxBodyBytes bounds request bodies (413 beyond); 0 gives 2.5 MB,
	// Django's DATA_UPLOAD_MAX_MEMORY_SIZE.
	MaxBodyBytes int64
	// MaxNumberFields bounds the fields of a query string and of a form
	// or multipart body (400 beyond), Django's
	// DATA_UPLOAD_MAX_NUMBER_FIELDS; 0 gives 1000, a negative value no limit.
	MaxNumberFields int

	// HTMLSelectCutoff: HTML_SELECT_CUTOFF, the most options the select
	// of a relational field in a browsable form lists; 0 gives 1000, a
	// negative number is None (no limit). A field's html_cutoff wins.
	HTMLSelectCutoff int
	// HTMLSelectCutoffText: HTML_SELECT_CUTOFF_TEXT, the text of the
	// disabled option that ends a cut select, "{count}" the cutoff; ""
	// gives "More than {count} items...".
	HTMLSelectCutoffText string

	// UnauthenticatedUser: UNAUTHENTICATED_USER; nil gives AnonymousUser.
	UnauthenticatedUser func() request.User
	// UnauthenticatedToken: UNAUTHENTICATED_TOKEN; nil by default.
	UnauthenticatedToken any

	// ExceptionHandler: EXCEPTION_HANDLER; nil gives DefaultExceptionHandler.
	ExceptionHandler ExceptionHandler

	// AtomicRequests: Django's DATABASES[...]["ATOMIC_REQUESTS"] for the
	// API's store (NewAPI's db, which it needs): each view's handling runs
	// in one transaction of it (store.Atomic, begun at the first write),
	// which the framework's writes and reads made with the request's
	// context join (docs/transactions.md). The view's answer commits it,
	// then runs its store.OnCommit callbacks; an error rolls it back,
	// whether the exception handler answers it (DRF's set_rollback) or
	// not. View.NonAtomicRequests opts a view out.
	AtomicRequests bool

	// Logger receives everything the API and its views log; nil gives
	// slog.Default() as it is when the API is created. NewAPI wraps its
	// handler with accesslog.LogHandler, so that each line logged with a
	// request's context carries its request ID (docs/operations.md).
	Logger *slog.Logger
	// Observer is told of each request's authentication, permission,
	// throttle and pagination steps (framework/telemetry turns them into
	// spans and metrics); nil, the default, costs nothing.
	Observer Observer

	// Formats are DRF's settings of the date, time and decimal fields
	// (DATETIME_FORMAT, DATE_INPUT_FORMATS, COERCE_DECIMAL_TO_STRING, ...)
	// and Django's USE_TZ and TIME_ZONE; the zero value is DRF's defaults
	// with USE_TZ on in UTC. A field's own format options win over them.
	// Registration compiles them once, and refuses a pattern it cannot
	// read or an unknown time zone.
	Formats Formats

	// Compatibility is the DRF and Django release whose answers the API
	// matches: the zero value DRF 3.18 on Django 5.2, DRF314 DRF 3.14 on
	// Django 3.2 (docs/django.md lists what differs). Registration hands
	// it to the policies whose answers differ (compat.Setter).
	Compatibility Compatibility
}

// Compatibility is the DRF and Django release whose answers an API
// matches (compat.Level); ParseCompatibility reads it from $DRF_COMPAT.
type Compatibility = compat.Level

// The compatibility levels of Settings.Compatibility.
const (
	// DRF318 is DRF 3.18 on Django 5.2 LTS, the zero value.
	DRF318 = compat.Current
	// DRF314 is DRF 3.14 on Django 3.2.
	DRF314 = compat.DRF314
)

// ParseCompatibility reads a level as $DRF_COMPAT spells it: "" for
// DRF318, "3.14" for DRF314; anything else is an error.
func ParseCompatibility(s string) (Compatibility, error) { return compat.Parse(s) }

// Formats are the settings of the fields' formats and time zone
// (Settings.Formats, View.Formats).
type Formats = formats.Settings

// setupFormats compiles the view's formats, its own or the settings',
// into what its requests carry to the serializers.
func setupFormats(h *handler, s *Settings) error {
	f := s.Formats
	if h.view.Formats != nil {
		f = *h.view.Formats
	}
	c, err := formats.Compile(f)
	h.request.Formats = c
	return err
}

// DefaultMaxBodyBytes is Django's DATA_UPLOAD_MAX_MEMORY_SIZE.
const DefaultMaxBodyBytes = 2621440

// defaultMaxNumberFields is Django's DATA_UPLOAD_MAX_NUMBER_FIELDS.
const defaultMaxNumberFields = 1000

// defaultSettings are used by views with no Settings.
var defaultSettings = &Settings{}
