// Package accesslog is the access log: every request gets an ID (the
// client's X-Request-ID when it is sane), echoed in the answer and added
// to every line logged with the request's context, and one line once it
// is answered, with its route pattern, status, duration, user and version
// (a RequestInfo the view that answers fills in). runserver puts New
// around the handler it serves.
package accesslog

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/go-drf/drf/framework/request"
)

// requestIDHeader is the header a request ID is read from and echoed in.
const requestIDHeader = "X-Request-ID"

// requestIDKey is requestIDHeader as an http.Header keys it, so that
// New reads and sets it without canonicalising the name (which
// allocates, "ID" not being canonical) on every request.
var requestIDKey = http.CanonicalHeaderKey(requestIDHeader)

// maxRequestIDLength bounds the X-Request-ID a client may choose; a
// longer one, an empty one or one with other bytes than visible ASCII is
// replaced by a generated ID.
const maxRequestIDLength = 128

// RequestInfo is what the access log and telemetry learn of one request:
// New (or framework/telemetry) puts one in the request's context,
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

// newRequestID returns the ID of a request whose client sent X-Request-ID
// value (possibly ""): value itself when it is sane, at most
// 128 bytes of visible ASCII, else 32 random hexadecimal
// digits. The random digits come from math/rand/v2's generator, ChaCha8
// per thread seeded by the runtime from the operating system: no system
// call and no lock per ID, and unpredictable in practice; but request IDs
// correlate log lines and traces, they are not secrets (a client may
// choose its own).
func newRequestID(value string) string {
	if sane(value) {
		return value
	}
	var b [32]byte
	putHex(b[:16], rand.Uint64())
	putHex(b[16:], rand.Uint64())
	return string(b[:])
}

// sane reports whether a client's request ID is one to keep: 1 to
// maxRequestIDLength bytes of visible ASCII ('!' to '~').
func sane(id string) bool {
	if id == "" || len(id) > maxRequestIDLength {
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

// New gives every request an ID and logs one line for it on logger
// (nil: slog.Default()), "request" with the method, the route pattern
// (never the raw path, which may carry identifiers, nor the query string
// or headers, which may carry credentials), the status, the duration, the
// user's id (user_id, when the user is a request.Identified), the
// version and the request ID. The ID (the client's X-Request-ID when it
// is sane, else a generated one) is echoed in the answer's X-Request-ID
// and added to every line logged with the request's context through a
// LogHandler. Quiet requests (the health checks) are logged at debug
// level, others at info.
func New(logger *slog.Logger, next http.Handler) http.Handler {
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
		// Two allocations, and a generated ID's string: x, which is
		// also the context carrying its RequestInfo, and the request
		// carrying that.
		x := &accessed{Context: r.Context(), sw: StatusWriter{ResponseWriter: w}}
		info, sw := &x.info, &x.sw
		info.ID = newRequestID(sent)
		x.echo[0] = info.ID
		w.Header()[requestIDKey] = x.echo[:]
		ctx := context.Context(x)
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
		if u, ok := info.User.(request.Identified); ok && info.User.IsAuthenticated() {
			attrs[n] = slog.Int64("user_id", u.PK())
			n++
		}
		logger.LogAttrs(ctx, level, "request", attrs[:n]...)
	})
}

// accessed is what New keeps of a request, in one allocation: the
// request's context carrying its RequestInfo (as WithRequestInfo's
// would), the StatusWriter, and the value of the answer's X-Request-ID.
type accessed struct {
	context.Context
	info RequestInfo
	sw   StatusWriter
	echo [1]string
}

// Value returns the request's RequestInfo for its key, else the value
// of the context it was made from.
func (x *accessed) Value(key any) any {
	if key == (requestInfoKey{}) {
		return &x.info
	}
	return x.Context.Value(key)
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
// context of a request that has an ID (New); h itself when it does
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
