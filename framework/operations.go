package framework

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// RequestIDHeader is the header a request ID is read from and echoed in.
const RequestIDHeader = "X-Request-ID"

// requestIDKey is RequestIDHeader as an http.Header keys it, so that
// AccessLog reads and sets it without canonicalising the name (which
// allocates, "ID" not being canonical) on every request.
var requestIDKey = http.CanonicalHeaderKey(RequestIDHeader)

// MaxRequestIDLength bounds the X-Request-ID a client may choose; a
// longer one, an empty one or one with other bytes than visible ASCII is
// replaced by a generated ID.
const MaxRequestIDLength = 128

// RequestInfo is what the access log and telemetry learn of one request:
// AccessLog (or framework/telemetry) puts one in the request's context,
// and the view that answers fills in its route, user and version.
type RequestInfo struct {
	// ID is the request ID: the client's X-Request-ID when it is sane,
	// else 32 generated hexadecimal digits.
	ID string
	// Route is the pattern of the route that answered
	// ("/books/{pk}/"), "" when none matched.
	Route string
	// User is the user authentication found, nil when it did not run.
	User request.User
	// Version is the API version the view determined, "" when none.
	Version string
	// Quiet marks the requests logged at debug level: /livez and /readyz.
	Quiet bool
}

type requestInfoKey struct{}

// WithRequestInfo returns ctx carrying info.
func WithRequestInfo(ctx context.Context, info *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, info)
}

// RequestInfoFrom returns the RequestInfo of a request's context, nil when
// it has none.
func RequestInfoFrom(ctx context.Context) *RequestInfo {
	info, _ := ctx.Value(requestInfoKey{}).(*RequestInfo)
	return info
}

// RequestID returns the request ID of a request's context, "" when it
// has none.
func RequestID(ctx context.Context) string {
	if info := RequestInfoFrom(ctx); info != nil {
		return info.ID
	}
	return ""
}

// Identified is implemented by users that have a primary key (Django's
// user.pk), which the access log writes as user_id; contrib/auth's User is.
type Identified interface {
	PK() int64
}

// NewRequestID returns the ID of a request whose client sent X-Request-ID
// value (possibly ""): value itself when it is sane, at most
// MaxRequestIDLength bytes of visible ASCII, else 32 random hexadecimal
// digits. The random digits come from math/rand/v2's generator, ChaCha8
// per thread seeded by the runtime from the operating system: no system
// call and no lock per ID, and unpredictable in practice; but request IDs
// correlate log lines and traces, they are not secrets (a client may
// choose its own).
func NewRequestID(value string) string {
	if sane(value) {
		return value
	}
	var b [32]byte
	putHex(b[:16], rand.Uint64())
	putHex(b[16:], rand.Uint64())
	return string(b[:])
}

// sane reports whether a client's request ID is one to keep: 1 to
// MaxRequestIDLength bytes of visible ASCII ('!' to '~').
func sane(id string) bool {
	if id == "" || len(id) > MaxRequestIDLength {
		return false
	}
	for i := range len(id) {
		if id[i] < '!' || id[i] > '~' {
			return false
		}
	}
	return true
}

// hexPairs holds the two hexadecimal digits of each byte value.
var hexPairs = func() (t [512]byte) {
	const digits = "0123456789abcdef"
	for i := range 256 {
		t[2*i], t[2*i+1] = digits[i>>4], digits[i&0xf]
	}
	return t
}()

// putHex writes v into b as 16 hexadecimal digits, a byte at a time.
func putHex(b []byte, v uint64) {
	_ = b[15]
	for i := 14; i >= 0; i -= 2 {
		pair := hexPairs[2*(v&0xff):]
		b[i], b[i+1] = pair[0], pair[1]
		v >>= 8
	}
}

// AccessLog gives every request an ID and logs one line for it on logger
// (nil: slog.Default()), "request" with the method, the route pattern
// (never the raw path, which may carry identifiers, nor the query string
// or headers, which may carry credentials), the status, the duration, the
// user's id (user_id, when the user is Identified), the version and the
// request ID. The ID (NewRequestID of the client's X-Request-ID) is echoed
// in the answer's X-Request-ID and added to every line logged with the
// request's context through a LogHandler. Quiet requests (the health
// checks) are logged at debug level, others at info.
func AccessLog(logger *slog.Logger, next http.Handler) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	logger = slog.New(LogHandler(logger.Handler()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		var sent string
		if v := r.Header[requestIDKey]; len(v) > 0 {
			sent = v[0]
		}
		// Three allocations, and a generated ID's string: x, the
		// context carrying its RequestInfo and the request carrying
		// that.
		x := &accessed{sw: StatusWriter{ResponseWriter: w}}
		info, sw := &x.info, &x.sw
		info.ID = NewRequestID(sent)
		x.echo[0] = info.ID
		w.Header()[requestIDKey] = x.echo[:]
		ctx := WithRequestInfo(r.Context(), info)
		next.ServeHTTP(sw, r.WithContext(ctx))
		level := slog.LevelInfo
		if info.Quiet {
			level = slog.LevelDebug
		}
		if !logger.Enabled(ctx, level) {
			return
		}
		attrs := [...]slog.Attr{
			slog.String("method", r.Method),
			slog.String("route", info.Route),
			slog.Int("status", sw.Status()),
			slog.Duration("duration", time.Since(start)),
			slog.String("version", info.Version),
			{},
		}
		n := len(attrs) - 1
		if u, ok := info.User.(Identified); ok && info.User.IsAuthenticated() {
			attrs[n] = slog.Int64("user_id", u.PK())
			n++
		}
		logger.LogAttrs(ctx, level, "request", attrs[:n]...)
	})
}

// accessed is what AccessLog keeps of a request, in one allocation: its
// RequestInfo, the StatusWriter, and the value of the answer's
// X-Request-ID.
type accessed struct {
	info RequestInfo
	sw   StatusWriter
	echo [1]string
}

// StatusWriter is an http.ResponseWriter that remembers the status its
// handler sent, for middleware that logs or measures answers. It hides
// none of the optional interfaces of net/http's writer: it flushes
// (http.Flusher), hijacks (http.Hijacker) and copies from a reader
// (io.ReaderFrom) through the writer it wraps, and http.ResponseController
// reaches that writer through Unwrap.
type StatusWriter struct {
	http.ResponseWriter
	status int
}

// Status is the status sent: the first final one written, 200 when the
// handler wrote a body without one or nothing at all.
func (s *StatusWriter) Status() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}

// WriteHeader records the first final status and passes it on.
func (s *StatusWriter) WriteHeader(code int) {
	if s.status == 0 && code >= 200 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 and passes the bytes on.
func (s *StatusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush lets streaming handlers flush through the writer.
func (s *StatusWriter) Flush() {
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}

// Hijack hands the connection to the handler, as the writer's own Hijack
// does; an error wrapping http.ErrNotSupported when the writer cannot
// (HTTP/2). Status then reports what was sent before it (200 when
// nothing was).
func (s *StatusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(s.ResponseWriter).Hijack()
}

// ReadFrom records an implicit 200, as Write does, and copies src into
// the answer through the writer's own ReadFrom (net/http's sends a file
// with sendfile), or through Write when it has none.
func (s *StatusWriter) ReadFrom(src io.Reader) (int64, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if rf, ok := s.ResponseWriter.(io.ReaderFrom); ok {
		return rf.ReadFrom(src)
	}
	return io.Copy(writerOnly{s.ResponseWriter}, src)
}

// writerOnly hides all but Write, so that io.Copy does not come back to
// ReadFrom.
type writerOnly struct{ io.Writer }

// Unwrap gives http.ResponseController the underlying writer.
func (s *StatusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// LogHandler returns h adding request_id to every record logged with the
// context of a request that has an ID (AccessLog); h itself when it does
// so already.
func LogHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(requestIDHandler); ok {
		return h
	}
	return requestIDHandler{h}
}

type requestIDHandler struct{ slog.Handler }

// Handle adds the request ID of ctx to rec.
func (h requestIDHandler) Handle(ctx context.Context, rec slog.Record) error {
	if id := RequestID(ctx); id != "" {
		rec.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, rec)
}

// WithAttrs keeps adding the request ID.
func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps adding the request ID.
func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

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
	info := RequestInfoFrom(r.Context())
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
		if info := RequestInfoFrom(r.Context()); info != nil {
			info.Route = pattern
		}
		h.ServeHTTP(w, r)
	})
}
