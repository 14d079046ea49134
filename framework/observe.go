package framework

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// logger is Settings.Logger, slog.Default() when nil.
func (s *Settings) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

// Logger returns the logger of the view's API (Settings.Logger), for
// policies and handlers; log with the request's context
// (InfoContext(r.Context(), ...)) so that the line carries its request ID.
func (v *View) Logger() *slog.Logger { return v.Global().logger() }

// Observer is told of the steps of each request's pipeline, after each
// ran: what framework/telemetry turns into child spans of the request's
// span and into metrics. It is Settings.Observer, resolved once per view;
// nil costs nothing. Observe runs on the request's goroutine and must not
// keep r.
type Observer interface {
	Observe(r *request.Request, s Step)
}

// StepKind names a step of the pipeline.
type StepKind uint8

// The steps an Observer is told of. Authentication is observed when it
// runs before the permissions (not with View.LazyAuthentication);
// pagination when the handler answered a page.
const (
	StepAuthentication StepKind = iota + 1
	StepPermissions
	StepThrottles
	StepPagination
)

// String is the step's name: "authentication", "permissions",
// "throttles", "pagination".
func (k StepKind) String() string {
	switch k {
	case StepAuthentication:
		return "authentication"
	case StepPermissions:
		return "permissions"
	case StepThrottles:
		return "throttles"
	case StepPagination:
		return "pagination"
	}
	return "step"
}

// The outcomes of steps.
const (
	// OutcomeAuthenticated: a scheme authenticated the request.
	OutcomeAuthenticated = "authenticated"
	// OutcomeAnonymous: no scheme applied.
	OutcomeAnonymous = "anonymous"
	// OutcomeFailed: a scheme refused the credentials.
	OutcomeFailed = "failed"
	// OutcomeAllowed: every permission or throttle allowed the request.
	OutcomeAllowed = "allowed"
	// OutcomeDenied: a permission denied it.
	OutcomeDenied = "denied"
	// OutcomeThrottled: a throttle refused it (429).
	OutcomeThrottled = "throttled"
	// OutcomeError: the step failed with an error that is not an API
	// error (a database that is down).
	OutcomeError = "error"
	// OutcomePage: the handler answered a page.
	OutcomePage = "page"
)

// Step is one step of a request's pipeline, as an Observer is told of it.
type Step struct {
	// Kind is the step.
	Kind StepKind
	// Policy names the policies of the step by their Go types: the scheme
	// that decided ("authentication.Token", "" when none applied), the
	// view's permissions or throttles (comma-separated) or its paginator.
	Policy string
	// Outcome is one of the Outcome constants.
	Outcome string
	// PageSize is how many items the page has (StepPagination), when
	// its Page is a PageLen; 0 otherwise.
	PageSize int
	// Start and End bound the step.
	Start, End time.Time
}

// PageLen is implemented by pages that tell how many items they hold:
// the page size an Observer is told of.
type PageLen interface {
	Len() int
}

// observed is what a compiled view tells its Observer: the observer and
// its policies' names, computed once.
type observed struct {
	observer    Observer
	schemes     []string
	permissions string
	throttles   string
	pagination  string
}

// newObserved names v's policies for o; nil when o is nil.
func newObserved(o Observer, v *View) *observed {
	if o == nil {
		return nil
	}
	obs := &observed{observer: o, permissions: typeNames(v.Permissions.items), throttles: typeNames(v.Throttles.items)}
	for _, a := range v.Authentication.items {
		obs.schemes = append(obs.schemes, fmt.Sprintf("%T", a))
	}
	if v.Pagination != nil {
		obs.pagination = fmt.Sprintf("%T", v.Pagination)
	}
	return obs
}

func typeNames[T any](items []T) string {
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = fmt.Sprintf("%T", it)
	}
	return strings.Join(names, ",")
}

// clock is the time a step starts when the view is observed.
func (o *observed) clock() time.Time {
	if o == nil {
		return time.Time{}
	}
	return time.Now()
}

// authentication tells the observer how authentication ended.
func (o *observed) authentication(r *request.Request, start time.Time) {
	if o == nil {
		return
	}
	_, i, user, err := r.AuthenticationResult()
	s := Step{Kind: StepAuthentication, Outcome: OutcomeAnonymous, Start: start, End: time.Now()}
	if i >= 0 && i < len(o.schemes) {
		s.Policy = o.schemes[i]
	}
	var api *exceptions.APIException
	switch {
	case err != nil && errors.As(err, &api):
		s.Outcome = OutcomeFailed
	case err != nil:
		s.Outcome = OutcomeError
	case user != nil && user.IsAuthenticated():
		s.Outcome = OutcomeAuthenticated
	}
	o.observer.Observe(r, s)
}

// decision tells the observer how the permissions or throttles decided.
func (o *observed) decision(r *request.Request, kind StepKind, start time.Time, err error) {
	if o == nil {
		return
	}
	s := Step{Kind: kind, Policy: o.permissions, Outcome: OutcomeAllowed, Start: start, End: time.Now()}
	if kind == StepThrottles {
		s.Policy = o.throttles
	}
	var api *exceptions.APIException
	switch {
	case err == nil:
	case !errors.As(err, &api):
		s.Outcome = OutcomeError
	case api.Code == exceptions.CodeThrottled:
		s.Outcome = OutcomeThrottled
	default:
		s.Outcome = OutcomeDenied
	}
	o.observer.Observe(r, s)
}

// page tells the observer of the page the handler answered, if any.
func (o *observed) page(r *request.Request, start time.Time, resp *Response) {
	if o == nil || resp == nil || resp.Page == nil {
		return
	}
	s := Step{Kind: StepPagination, Policy: o.pagination, Outcome: OutcomePage, Start: start, End: time.Now()}
	if p, ok := resp.Page.(PageLen); ok {
		s.PageSize = p.Len()
	}
	o.observer.Observe(r, s)
}

// record fills in the request's RequestInfo, if it has one, once the view
// answered.
func (h *handler) record(r *request.Request) {
	info := accesslog.RequestInfoFrom(r.Context())
	if info == nil {
		return
	}
	if h.route != "" {
		info.Route = h.route
	}
	_, _, info.User, _ = r.AuthenticationResult()
	info.Version = r.Version()
}

// routed is a page mounted with HandleHTTP: it names its route in the
// request's RequestInfo.
func routed(pattern string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := accesslog.RequestInfoFrom(r.Context()); info != nil {
			info.Route = pattern
		}
		h.ServeHTTP(w, r)
	})
}
