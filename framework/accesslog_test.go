package framework_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
)

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

// TestStatusWriterKeepsTheWritersInterfaces: behind AccessLog, a handler
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
	srv := httptest.NewServer(framework.AccessLog(slog.New(slog.NewTextHandler(logs, nil)), mux))
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
	h := framework.AccessLog(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hj, ok := w.(http.Hijacker); ok {
			_, _, hijackErr = hj.Hijack()
		}
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if !errors.Is(hijackErr, http.ErrNotSupported) {
		t.Errorf("Hijack of a recorder: %v, want http.ErrNotSupported", hijackErr)
	}
}

// TestAccessLogContext: the context AccessLog gives a request carries its
// RequestInfo, through the contexts derived from it too, and everything
// its parent carries; it ends when its parent does.
func TestAccessLogContext(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "parent's"))
	var ctx context.Context
	h := framework.AccessLog(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx = r.Context()
		child, stop := context.WithTimeout(context.WithValue(ctx, struct{}{}, 1), time.Minute)
		defer stop()
		if info := framework.RequestInfoFrom(child); info == nil || info != framework.RequestInfoFrom(ctx) || info.ID != w.Header().Get("X-Request-ID") {
			t.Errorf("the derived context's RequestInfo %+v", info)
		}
		if framework.RequestID(ctx) == "" || ctx.Value(key{}) != "parent's" {
			t.Errorf("request ID %q, the parent's value %v", framework.RequestID(ctx), ctx.Value(key{}))
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

// TestAccessLogAllocations: what AccessLog allocates for a request it does
// not log: its RequestInfo with its StatusWriter, the context carrying it
// and the request carrying that, and a generated ID when the client sent
// none.
func TestAccessLogAllocations(t *testing.T) {
	h := framework.AccessLog(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})),
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	w := &discard{h: http.Header{}}
	for sent, want := range map[string]float64{"": 4, "from-the-balancer": 3} {
		req := httptest.NewRequest(http.MethodGet, "/books/1/", nil)
		if sent != "" {
			req.Header.Set("X-Request-ID", sent)
		}
		if n := testing.AllocsPerRun(100, func() { h.ServeHTTP(w, req) }); n > want {
			t.Errorf("X-Request-ID %q: %v allocations per request, want %v", sent, n, want)
		}
	}
}

// BenchmarkAccessLogNotLogged is what AccessLog adds to a request when
// its line is below the logger's level (runserver with LOG_LEVEL=warn):
// the ID, the context, the echoed header and the StatusWriter.
func BenchmarkAccessLogNotLogged(b *testing.B) {
	h := framework.AccessLog(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})),
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	req := httptest.NewRequest(http.MethodGet, "/books/1/", nil)
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}
