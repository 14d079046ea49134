package scaleout_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-drf/drf/internal/testservers"
)

// span is a span as OTEL_TRACES_EXPORTER=console writes it.
type span struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct{ TraceID, SpanID string }
	Attributes  []struct {
		Key   string
		Value struct{ Value any }
	}
	Resource []struct {
		Key   string
		Value struct{ Value any }
	}
}

func (s span) attr(key string) any {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.Value.Value
		}
	}
	return nil
}

// freePort is a TCP port nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// TestTelemetryLogsAndRequestIDs runs the sample on PostgreSQL with the
// console span exporter, the Prometheus metric reader and JSON logs, and
// follows one token-authenticated page-number request: its span is named
// by its route, with child spans for the authentication (the token
// scheme, authenticated) and for its SQL statements; a scrape shows the
// request duration histogram by route and status and the authentication
// outcome; its JSON access line has the route, status, user id and the
// request ID the client sent, which the answer echoes. A request that logs
// more (a CSRF refusal) carries its ID on every line.
func TestTelemetryLogsAndRequestIDs(t *testing.T) {
	metricsPort := freePort(t)
	s := testservers.StartRunserver(t, "DATABASE_URL="+testservers.Postgres(t),
		"OTEL_TRACES_EXPORTER=console", "OTEL_METRICS_EXPORTER=prometheus", "OTEL_SERVICE_NAME=bookshelf-test",
		"OTEL_EXPORTER_PROMETHEUS_HOST=127.0.0.1", "OTEL_EXPORTER_PROMETHEUS_PORT="+metricsPort, "LOG_FORMAT=json")
	in := &instance{s, s.URL}
	token := in.token(t, "alice")
	r := in.send(t, "GET", "/pages/page-number/?page=2", "", "Authorization", "Token "+token, "X-Request-ID", "page-request-1")
	if r.status != 200 || r.header.Get("X-Request-ID") != "page-request-1" || !strings.Contains(r.body, `"count":100`) {
		t.Fatalf("%d X-Request-ID %q %s", r.status, r.header.Get("X-Request-ID"), r.body)
	}
	if r := in.send(t, "POST", "/api-auth/login/", "username=alice&password=alice-pass", "X-Request-ID", "csrf-request-1"); r.status != 403 {
		t.Fatalf("login without a CSRF token: %d", r.status)
	}

	resp, err := http.Get("http://127.0.0.1:" + metricsPort + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	scrape, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, re := range []string{
		`(?m)^http_server_request_duration_seconds_bucket\{[^}]*http_response_status_code="200",http_route="/pages/page-number/"[^}]*\} 1$`,
		`(?m)^http_server_request_duration_seconds_count\{[^}]*http_response_status_code="403",http_route="/api-auth/login/"[^}]*\} 1$`,
		`(?m)^drf_authentication_outcomes_total\{drf_authentication_scheme="authentication.Token",drf_outcome="authenticated"[^}]*\} 1$`,
		`(?m)^db_sql_connection_open\{`,
	} {
		if !regexp.MustCompile(re).Match(scrape) {
			t.Errorf("the scrape lacks %s:\n%s", re, scrape)
		}
	}

	if err := s.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(t); err != nil {
		t.Fatalf("runserver after SIGTERM: %v\n%s", err, s.Output())
	}
	var spans []span
	var logs []map[string]any
	for _, line := range strings.Split(s.Output(), "\n") {
		if sp := (span{}); strings.HasPrefix(line, `{"Name":`) && json.Unmarshal([]byte(line), &sp) == nil {
			spans = append(spans, sp)
		} else if m := map[string]any{}; strings.HasPrefix(line, `{"time":`) && json.Unmarshal([]byte(line), &m) == nil {
			logs = append(logs, m)
		}
	}

	var request *span
	for i, sp := range spans {
		if sp.attr("drf.request_id") == "page-request-1" {
			request = &spans[i]
		}
	}
	if request == nil {
		t.Fatalf("no span of the request among %d:\n%s", len(spans), s.Output())
	}
	if request.Name != "GET /pages/page-number/" || request.attr("http.route") != "/pages/page-number/" ||
		request.attr("http.response.status_code") != 200.0 || request.attr("http.request.method") != "GET" {
		t.Errorf("the request's span: %+v", *request)
	}
	service := false
	for _, a := range request.Resource {
		service = service || a.Key == "service.name" && a.Value.Value == "bookshelf-test"
	}
	if !service {
		t.Errorf("the span's resource has no service.name bookshelf-test: %+v", request.Resource)
	}
	children := map[string][]span{}
	for _, sp := range spans {
		if sp.Parent.SpanID == request.SpanContext.SpanID {
			children[sp.Name] = append(children[sp.Name], sp)
		}
	}
	auth := children["drf.authentication"]
	if len(auth) != 1 || auth[0].attr("drf.authentication.scheme") != "authentication.Token" || auth[0].attr("drf.outcome") != "authenticated" {
		t.Errorf("authentication spans %+v", auth)
	}
	if len(children["drf.permissions"]) != 1 || len(children["drf.pagination"]) != 1 ||
		children["drf.pagination"][0].attr("drf.policy") != "*pagination.PageNumberPagination" {
		t.Errorf("permission and pagination spans: %+v", children)
	}
	var statements []string
	for name, sps := range children {
		for _, sp := range sps {
			if strings.HasPrefix(name, "sql.") {
				q, _ := sp.attr("db.query.text").(string)
				statements = append(statements, q)
				if sp.attr("db.system.name") != "postgresql" {
					t.Errorf("statement span %+v", sp)
				}
			}
		}
	}
	joined := strings.Join(statements, "\n")
	if !strings.Contains(joined, `"authtoken_token"`) || !strings.Contains(joined, `"books"`) {
		t.Errorf("the request's statement spans lack the token lookup or the books' query:\n%s", joined)
	}
	if strings.Contains(s.Output(), token) {
		t.Errorf("the token is in the output")
	}

	var access, csrf []map[string]any
	for _, l := range logs {
		switch l["request_id"] {
		case "page-request-1":
			access = append(access, l)
		case "csrf-request-1":
			csrf = append(csrf, l)
		}
	}
	if len(access) != 1 || access[0]["msg"] != "request" || access[0]["route"] != "/pages/page-number/" || access[0]["status"] != 200.0 ||
		access[0]["method"] != "GET" || access[0]["user_id"] == nil || access[0]["duration"] == nil || access[0]["level"] != "INFO" {
		t.Errorf("access lines of the page request: %v", access)
	}
	if len(csrf) != 2 || csrf[0]["msg"] != "Forbidden (CSRF)" || csrf[1]["msg"] != "request" || csrf[1]["route"] != "/api-auth/login/" {
		t.Errorf("lines of the refused login: %v", csrf)
	}
	requests := 0
	for _, l := range logs {
		if l["msg"] == "request" {
			requests++
		}
	}
	if requests != 3 {
		t.Errorf("%d access lines for 3 requests:\n%s", requests, s.Output())
	}
}

// TestReadyzFollowsPostgreSQL: /readyz answers 503 naming the database
// within 2 s of PostgreSQL stopping, and 200 again once it is back, while
// /livez answers 200 throughout; on SIGTERM /readyz answers 503 naming
// the shutdown while the server keeps serving for SHUTDOWN_DELAY, then the
// process ends cleanly.
func TestReadyzFollowsPostgreSQL(t *testing.T) {
	pg := testservers.StartPostgres(t)
	s := testservers.StartRunserver(t, "DATABASE_URL="+pg.Database(t), "SHUTDOWN_DELAY=3s")
	in := &instance{s, s.URL}
	get := func(path string) reply {
		r, err := in.trySend("GET", path, "")
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		return r
	}
	if r := get("/readyz"); r.status != 200 || r.body != `{"status":"ok","checks":{"database":"ok","migrations":"ok"}}` {
		t.Fatalf("readyz: %d %s", r.status, r.body)
	}

	pg.Stop(t)
	stopped := time.Now()
	for {
		r := get("/readyz")
		if r.status == 503 {
			if r.body != `{"status":"unavailable","failed":["database"],"checks":{"database":"failed","migrations":"ok"}}` {
				t.Errorf("readyz with PostgreSQL stopped: %s", r.body)
			}
			break
		}
		if time.Since(stopped) > 2*time.Second {
			t.Fatalf("readyz still %d %s 2 s after PostgreSQL stopped", r.status, r.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := get("/livez"); r.status != 200 {
		t.Errorf("livez with PostgreSQL stopped: %d %s", r.status, r.body)
	}

	pg.Start(t)
	back := time.Now()
	for get("/readyz").status != 200 {
		if time.Since(back) > 20*time.Second {
			t.Fatalf("readyz not 200 20 s after PostgreSQL started again")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := get("/livez"); r.status != 200 {
		t.Errorf("livez: %d", r.status)
	}

	if err := s.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for {
		r := get("/readyz")
		if r.status == 503 {
			if r.body != `{"status":"unavailable","failed":["shutdown"],"checks":{"shutdown":"failed"}}` {
				t.Errorf("readyz shutting down: %s", r.body)
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := get("/whoami/"); r.status != 200 {
		t.Errorf("a request while shutting down: %d %s", r.status, r.body)
	}
	if err := s.Wait(t); err != nil {
		t.Errorf("runserver after SIGTERM: %v\n%s", err, s.Output())
	}
}
