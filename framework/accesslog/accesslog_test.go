package accesslog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/versioning"
)

// pkUser is a user with a primary key, which the access log writes.
type pkUser struct{ name string }

func (u pkUser) GetUsername() string   { return u.name }
func (u pkUser) IsAuthenticated() bool { return true }
func (u pkUser) IsActive() bool        { return true }
func (u pkUser) IsStaff() bool         { return false }

func (u pkUser) PK() int64 { return 42 }

type pkScheme struct{}

func (pkScheme) Authenticate(r *request.Request) (request.User, any, error) {
	if r.Header.Get("X-User") == "" {
		return nil, nil, nil
	}
	return pkUser{r.Header.Get("X-User")}, nil, nil
}

// jsonLines decodes the JSON lines logged into buf.
func jsonLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// TestAccessLogAndRequestID: one JSON access line per request with the
// route pattern (not the path), status, user id, version and request ID;
// the client's sane X-Request-ID is echoed and on every line the request
// logs; an insane one is replaced by a generated one.
func TestAccessLogAndRequestID(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	api := framework.NewAPI(nil, framework.Settings{Logger: logger, Authentication: framework.Authenticators(pkScheme{})})
	api.Handle("/{version}/books/{pk}/", framework.View{
		Versioning: versioning.URLPathVersioning{},
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			v.Logger().InfoContext(r.Context(), "looking the book up")
			return framework.OK(map[string]string{"pk": "7"}), nil
		},
	})
	c := apitest.New(t, accesslog.New(logger, api))

	r := c.Get("/v1/books/7/?secret=s3cr3t", "X-Request-ID: trace-abc.123", "X-User: alice", "Authorization: Token s3cr3t")
	if r.Status != 200 || r.Header.Get("X-Request-ID") != "trace-abc.123" {
		t.Fatalf("%d X-Request-ID %q", r.Status, r.Header.Get("X-Request-ID"))
	}
	lines := jsonLines(t, &buf)
	if len(lines) != 2 {
		t.Fatalf("want the handler's line and the access line, got %v", lines)
	}
	for _, l := range lines {
		if l["request_id"] != "trace-abc.123" {
			t.Errorf("line without the request ID: %v", l)
		}
	}
	access := lines[1]
	want := map[string]any{"msg": "request", "level": "INFO", "method": "GET", "route": "/{version}/books/{pk}/",
		"status": 200.0, "user_id": 42.0, "version": "v1"}
	for k, v := range want {
		if access[k] != v {
			t.Errorf("access line %s = %v, want %v (%v)", k, access[k], v, access)
		}
	}
	if d, ok := access["duration"].(float64); !ok || d <= 0 {
		t.Errorf("duration %v", access["duration"])
	}
	if strings.Contains(buf.String(), "s3cr3t") || strings.Contains(buf.String(), "/v1/books/7/") {
		t.Errorf("the log holds the raw path or a credential: %s", buf.String())
	}

	generated := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, sent := range []string{"", "has space", strings.Repeat("x", 128+1), "caf\u00e9"} {
		buf.Reset()
		r := c.Get("/v2/books/7/", "X-Request-ID: "+sent)
		id := r.Header.Get("X-Request-ID")
		if !generated.MatchString(id) {
			t.Errorf("X-Request-ID %q answered %q, want a generated one", sent, id)
		}
		lines := jsonLines(t, &buf)
		if access := lines[len(lines)-1]; access["request_id"] != id || access["user_id"] != nil || access["version"] != "v2" {
			t.Errorf("access line %v for the answer's ID %q", access, id)
		}
	}
	if a, b := c.Get("/v1/books/7/").Header.Get("X-Request-ID"), c.Get("/v1/books/7/").Header.Get("X-Request-ID"); a == b {
		t.Errorf("two requests got the same ID %q", a)
	}

	// A path no route matches: logged, with no route.
	buf.Reset()
	if r := c.Get("/nowhere/"); r.Status != 404 {
		t.Fatalf("%d", r.Status)
	}
	if lines := jsonLines(t, &buf); len(lines) != 1 || lines[0]["route"] != "" || lines[0]["status"] != 404.0 {
		t.Errorf("%v", lines)
	}
}

// lockedBuffer is a log output written by a server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestStatusWriterKeepsTheWritersInterfaces: behind New, a handler
// that net/http serves still flushes, copies from a reader and hijacks
// through the writer it is given, and http.ResponseController reaches
// net/http's writer (a write deadline); the access line has the status
// sent, an implicit 200 for a body copied from a reader. Where the writer
// cannot hijack, Hijack says so with http.ErrNotSupported.
func TestStatusWriterKeepsTheWritersInterfaces(t *testing.T) {
	logs := &lockedBuffer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/flush/", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(http.Flusher); !ok {
			t.Error("the writer is not an http.Flusher")
		}
		if err := http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline: %v", err)
		}
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "first,")
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
		_, _ = io.WriteString(w, "second")
	})
	mux.HandleFunc("/copy/", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(io.ReaderFrom); !ok {
			t.Error("the writer is not an io.ReaderFrom")
		}
		_, _ = io.Copy(w, strings.NewReader(strings.Repeat("x", 5000)))
	})
	mux.HandleFunc("/hijack/", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(http.Hijacker); !ok {
			t.Error("the writer is not an http.Hijacker")
		}
		conn, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		defer conn.Close()
		_, _ = rw.WriteString("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
		_ = rw.Flush()
	})
	srv := httptest.NewServer(accesslog.New(slog.New(slog.NewTextHandler(logs, nil)), mux))
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/flush/", http.StatusAccepted, "first,second"},
		{"/copy/", http.StatusOK, strings.Repeat("x", 5000)},
		{"/hijack/", http.StatusNoContent, ""},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || string(b) != tc.body {
			t.Errorf("%s: %d %.40q, want %d %.40q", tc.path, resp.StatusCode, b, tc.status, tc.body)
		}
	}
	srv.Close()
	for _, line := range []string{"status=202", "status=200"} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("no access line with %s:\n%s", line, logs.String())
		}
	}

	var hijackErr error
	h := accesslog.New(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hj, ok := w.(http.Hijacker); ok {
			_, _, hijackErr = hj.Hijack()
		}
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if !errors.Is(hijackErr, http.ErrNotSupported) {
		t.Errorf("Hijack of a recorder: %v, want http.ErrNotSupported", hijackErr)
	}
}

// TestAccessLogContext: the context New gives a request carries its
// RequestInfo, through the contexts derived from it too, and everything
// its parent carries; it ends when its parent does.
func TestAccessLogContext(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "parent's"))
	var ctx context.Context
	h := accesslog.New(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx = r.Context()
		child, stop := context.WithTimeout(context.WithValue(ctx, struct{}{}, 1), time.Minute)
		defer stop()
		if info := accesslog.RequestInfoFrom(child); info == nil || info != accesslog.RequestInfoFrom(ctx) || info.ID != w.Header().Get("X-Request-ID") {
			t.Errorf("the derived context's RequestInfo %+v", info)
		}
		if accesslog.RequestID(ctx) == "" || ctx.Value(key{}) != "parent's" {
			t.Errorf("request ID %q, the parent's value %v", accesslog.RequestID(ctx), ctx.Value(key{}))
		}
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil).WithContext(parent))
	if ctx == nil || ctx.Err() != nil {
		t.Fatalf("context %v", ctx)
	}
	cancel()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the request's context did not end with its parent")
	}
}

// discard is a ResponseWriter that drops what it is sent.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }

// TestAccessLogAllocations: what New allocates for a request it does
// not log: its RequestInfo with its StatusWriter and the context carrying
// it, in one allocation, the request carrying that, and a generated ID
// when the client sent none.
func TestAccessLogAllocations(t *testing.T) {
	h := accesslog.New(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})),
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	w := &discard{h: http.Header{}}
	for sent, want := range map[string]float64{"": 3, "from-the-balancer": 2} {
		req := httptest.NewRequest(http.MethodGet, "/books/1/", nil)
		if sent != "" {
			req.Header.Set("X-Request-ID", sent)
		}
		if n := testing.AllocsPerRun(100, func() { h.ServeHTTP(w, req) }); n > want {
			t.Errorf("X-Request-ID %q: %v allocations per request, want %v", sent, n, want)
		}
	}
}

// BenchmarkAccessLogNotLogged is what New adds to a request when
// its line is below the logger's level (runserver with LOG_LEVEL=warn):
// the ID, the context, the echoed header and the StatusWriter.
func BenchmarkAccessLogNotLogged(b *testing.B) {
	h := accesslog.New(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})),
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	req := httptest.NewRequest(http.MethodGet, "/books/1/", nil)
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}

// BenchmarkAccessLog is what New adds to a request: its ID, the
// context, and the access line through slog's text handler.
func BenchmarkAccessLog(b *testing.B) {
	h := accesslog.New(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	}))
	req := httptest.NewRequest("GET", "/books/1/", nil)
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}
