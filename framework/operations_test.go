package framework_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/framework/versioning"
)

// pkUser is a user with a primary key, which the access log writes.
type pkUser struct{ user }

func (u pkUser) PK() int64 { return 42 }

type pkScheme struct{}

func (pkScheme) Authenticate(r *request.Request) (request.User, any, error) {
	if r.Header.Get("X-User") == "" {
		return nil, nil, nil
	}
	return pkUser{user{r.Header.Get("X-User")}}, nil, nil
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
	c := apitest.New(t, framework.AccessLog(logger, api))

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
	for _, sent := range []string{"", "has space", strings.Repeat("x", framework.MaxRequestIDLength+1), "caf\u00e9"} {
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

// recorder is an Observer that keeps the steps it is told of.
type recorder struct{ steps []framework.Step }

func (o *recorder) Observe(_ *request.Request, s framework.Step) { o.steps = append(o.steps, s) }

// TestObserverSteps: the observer is told which scheme decided and how,
// and how the permissions and throttles decided.
func TestObserverSteps(t *testing.T) {
	o := &recorder{}
	api := framework.NewAPI(nil, framework.Settings{Observer: o,
		Authentication: framework.Authenticators(headerScheme{}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{})})
	api.Handle("/x/", framework.View{Get: func(*framework.View, *request.Request) (*framework.Response, error) {
		return framework.OK(nil), nil
	}})
	c := apitest.New(t, api)
	for _, tc := range []struct {
		header             string
		status             int
		policy, auth, perm string
	}{
		{"X-User: alice", 200, "framework_test.headerScheme", framework.OutcomeAuthenticated, framework.OutcomeAllowed},
		{"X-User: bad", 403, "framework_test.headerScheme", framework.OutcomeFailed, ""},
		{"X-Other: 1", 403, "", framework.OutcomeAnonymous, framework.OutcomeDenied},
	} {
		o.steps = nil
		if r := c.Get("/x/", tc.header); r.Status != tc.status {
			t.Fatalf("%q: %d", tc.header, r.Status)
		}
		if len(o.steps) == 0 || o.steps[0].Kind != framework.StepAuthentication || o.steps[0].Policy != tc.policy || o.steps[0].Outcome != tc.auth {
			t.Fatalf("%q: steps %+v", tc.header, o.steps)
		}
		if o.steps[0].End.Before(o.steps[0].Start) || o.steps[0].Start.IsZero() {
			t.Errorf("%q: step times %v %v", tc.header, o.steps[0].Start, o.steps[0].End)
		}
		if tc.perm == "" {
			if len(o.steps) != 1 {
				t.Errorf("%q: steps after a failed authentication: %+v", tc.header, o.steps)
			}
			continue
		}
		if len(o.steps) < 2 || o.steps[1].Kind != framework.StepPermissions || o.steps[1].Outcome != tc.perm || o.steps[1].Policy != "framework.IsAuthenticated" {
			t.Errorf("%q: steps %+v", tc.header, o.steps)
		}
	}
}

// TestHealth: /livez answers while the process serves; /readyz names the
// check that fails (migrations not applied, a check, shutting down), is
// outside authentication and logged at debug level only.
func TestHealth(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	stopping, stop := context.WithCancel(context.Background())
	defer stop()
	mig := store.Migration{App: "notes", Name: "0001_initial", Up: store.SQL(`CREATE TABLE notes (id INTEGER PRIMARY KEY)`)}
	var failing error
	api := framework.NewAPI(db, framework.Settings{Logger: logger,
		Authentication: framework.Authenticators(headerScheme{}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{})})
	api.MountHealth(framework.Health{Stopping: stopping, Timeout: 500 * time.Millisecond,
		Migrations: []store.Migration{mig},
		Checks:     []framework.HealthCheck{{Name: "search", Check: func(context.Context) error { return failing }}}})
	c := apitest.New(t, framework.AccessLog(logger, api))

	if r := c.Get("/livez", "X-User: bad"); r.Status != 200 || r.Body != `{"status":"ok"}` || r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("livez: %d %s %v", r.Status, r.Body, r.Header)
	}
	r := c.Get("/readyz")
	if r.Status != 503 || r.Body != `{"status":"unavailable","failed":["migrations"],"checks":{"database":"ok","migrations":"failed","search":"ok"}}` {
		t.Errorf("readyz before migrate: %d %s", r.Status, r.Body)
	}
	if _, err := store.Migrate(context.Background(), db, mig); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if r := c.Get("/readyz"); r.Status != 200 || r.Body != `{"status":"ok","checks":{"database":"ok","migrations":"ok","search":"ok"}}` {
		t.Errorf("readyz: %d %s", r.Status, r.Body)
	}
	if buf.Len() != 0 {
		t.Errorf("a health check logged at info level: %s", buf.String())
	}
	failing = context.DeadlineExceeded
	if r := c.Get("/readyz"); r.Status != 503 || !strings.Contains(r.Body, `"failed":["search"]`) {
		t.Errorf("readyz with a failing check: %d %s", r.Status, r.Body)
	}
	if !strings.Contains(buf.String(), `"check":"search"`) {
		t.Errorf("the failed check is not logged: %s", buf.String())
	}
	failing = nil
	stop()
	if r := c.Get("/readyz"); r.Status != 503 || r.Body != `{"status":"unavailable","failed":["shutdown"],"checks":{"shutdown":"failed"}}` {
		t.Errorf("readyz shutting down: %d %s", r.Status, r.Body)
	}
	if r := c.Get("/livez"); r.Status != 200 {
		t.Errorf("livez shutting down: %d", r.Status)
	}
}

// BenchmarkAccessLog is what AccessLog adds to a request: its ID, the
// context, and the access line through slog's text handler.
func BenchmarkAccessLog(b *testing.B) {
	h := framework.AccessLog(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	}))
	req := httptest.NewRequest("GET", "/books/1/", nil)
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}
