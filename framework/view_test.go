package framework_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

type user struct{ name string }

func (u user) GetUsername() string   { return u.name }
func (u user) IsAuthenticated() bool { return true }
func (u user) IsActive() bool        { return true }
func (u user) IsStaff() bool         { return u.name == "admin" }

// headerScheme authenticates X-User; "bad" fails; absent is not attempted.
type headerScheme struct {
	challenge string
	calls     *int
	log       *[]string
}

func (s headerScheme) Authenticate(r *request.Request) (request.User, any, error) {
	if s.calls != nil {
		*s.calls++
	}
	if s.log != nil {
		*s.log = append(*s.log, "authenticate")
	}
	switch name := r.Header.Get("X-User"); name {
	case "":
		return nil, nil, nil
	case "bad":
		return nil, nil, exceptions.AuthenticationFailed("No such user")
	default:
		return user{name}, "auth:" + name, nil
	}
}

type challengeScheme struct{ headerScheme }

func (s challengeScheme) AuthenticateHeader(*request.Request) string { return s.challenge }

type recordPermission struct {
	log *[]string
	framework.Permission
}

func (p recordPermission) HasPermission(r *request.Request, v *framework.View) (bool, error) {
	*p.log = append(*p.log, "permission")
	return p.Permission.HasPermission(r, v)
}

type recordThrottle struct{ log *[]string }

func (t recordThrottle) Allow(*request.Request, *framework.View) (bool, time.Duration, error) {
	*t.log = append(*t.log, "throttle")
	return true, 0, nil
}

// do sends one request to h with header's fields and returns the answer
// and, for a JSON object, its fields.
func do(t *testing.T, h http.Handler, method, path string, header map[string]string, body string) (*apitest.Response, map[string]any) {
	t.Helper()
	var fields []string
	for k, v := range header {
		fields = append(fields, k+": "+v)
	}
	r := apitest.New(t, h).Do(method, path, body, fields...)
	var data map[string]any
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") && strings.HasPrefix(r.Body, "{") {
		data = r.JSON()
	}
	return r, data
}

func TestPipelineOrder(t *testing.T) {
	var log []string
	v := framework.View{
		Authentication: framework.Authenticators(headerScheme{log: &log}),
		Permissions:    framework.Permissions(recordPermission{&log, framework.AllowAny{}}),
		Throttles:      framework.Throttles(recordThrottle{&log}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			log = append(log, "handler")
			return framework.OK(map[string]string{"user": r.User().GetUsername()}), nil
		},
	}
	resp, body := do(t, apitest.View(v), "GET", "/", map[string]string{"X-User": "alice"}, "")
	if resp.Status != 200 || body["user"] != "alice" {
		t.Fatalf("got %d %v", resp.Status, body)
	}
	if got := strings.Join(log, ","); got != "authenticate,permission,throttle,handler" {
		t.Fatalf("order %s", got)
	}
}

func TestLazyAuthenticationRunsOnFirstAccessOnce(t *testing.T) {
	calls := 0
	v := framework.View{
		Authentication:     framework.Authenticators(headerScheme{calls: &calls}),
		LazyAuthentication: true,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			before := calls
			_ = r.User()
			_ = r.Auth()
			_ = r.User()
			return framework.OK(map[string]int{"before": before, "after": calls}), nil
		},
	}
	_, body := do(t, apitest.View(v), "GET", "/", map[string]string{"X-User": "alice"}, "")
	if body["before"] != 0.0 || body["after"] != 1.0 {
		t.Fatalf("calls %v", body)
	}
}

func TestSchemeOrder(t *testing.T) {
	second := 0
	v := framework.View{
		Authentication: framework.Authenticators(headerScheme{}, headerScheme{calls: &second}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]any{"user": r.User().GetUsername(), "auth": r.Auth()}), nil
		},
	}
	// First wins: the second scheme is not consulted.
	_, body := do(t, apitest.View(v), "GET", "/", map[string]string{"X-User": "alice"}, "")
	if body["user"] != "alice" || body["auth"] != "auth:alice" || second != 0 {
		t.Fatalf("first wins: %v second=%d", body, second)
	}
	// Not attempted: every scheme is tried, the request is anonymous.
	_, body = do(t, apitest.View(v), "GET", "/", nil, "")
	if body["user"] != "" || body["auth"] != nil || second != 1 {
		t.Fatalf("anonymous: %v second=%d", body, second)
	}
	// Failed: stops at once, whatever the permissions.
	resp, body := do(t, apitest.View(v), "GET", "/", map[string]string{"X-User": "bad"}, "")
	if resp.Status != 403 || body["detail"] != "No such user" || second != 1 {
		t.Fatalf("failed: %d %v second=%d", resp.Status, body, second)
	}
}

func Test401403Matrix(t *testing.T) {
	ok := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]string{"username": r.User().GetUsername()}), nil
	}
	challenged := challengeScheme{headerScheme{challenge: `Basic realm="api"`}}
	cases := []struct {
		name      string
		schemes   framework.List[request.Authenticator]
		perm      framework.Permission
		user      string
		status    int
		challenge string
		detail    string
	}{
		{"challenge first, anonymous", framework.Authenticators(challenged, headerScheme{}), framework.IsAuthenticated{}, "", 401, `Basic realm="api"`, "Authentication credentials were not provided."},
		{"challenge second only", framework.Authenticators(headerScheme{}, challenged), framework.IsAuthenticated{}, "", 403, "", "Authentication credentials were not provided."},
		{"no challenge, anonymous", framework.Authenticators(headerScheme{}), framework.IsAuthenticated{}, "", 403, "", "Authentication credentials were not provided."},
		{"challenge, failed", framework.Authenticators(challenged), framework.AllowAny{}, "bad", 401, `Basic realm="api"`, "No such user"},
		{"no challenge, failed", framework.Authenticators(headerScheme{}), framework.AllowAny{}, "bad", 403, "", "No such user"},
		{"authenticated, denied", framework.Authenticators(challenged), framework.IsAdminUser{}, "alice", 403, "", "You do not have permission to perform this action."},
		{"no schemes, denied", framework.Authenticators(), framework.IsAuthenticated{}, "", 403, "", "You do not have permission to perform this action."},
		{"authenticated, allowed", framework.Authenticators(challenged), framework.IsAdminUser{}, "admin", 200, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := framework.View{Authentication: c.schemes, Permissions: framework.Permissions(c.perm), Get: ok}
			h := map[string]string{}
			if c.user != "" {
				h["X-User"] = c.user
			}
			resp, body := do(t, apitest.View(v), "GET", "/", h, "")
			if resp.Status != c.status {
				t.Fatalf("status %d, want %d (%v)", resp.Status, c.status, body)
			}
			if got := resp.Header.Get("WWW-Authenticate"); got != c.challenge {
				t.Fatalf("WWW-Authenticate %q, want %q", got, c.challenge)
			}
			if c.detail != "" && body["detail"] != c.detail {
				t.Fatalf("detail %v, want %q", body["detail"], c.detail)
			}
		})
	}
}

func TestSettingsInheritanceAndExplicitNone(t *testing.T) {
	s := framework.Settings{
		Authentication: framework.Authenticators(challengeScheme{headerScheme{challenge: "Token"}}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
	}
	ok := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]bool{"ok": true}), nil
	}
	inherit := framework.View{Get: ok}
	resp, _ := do(t, apitest.View(inherit, s), "GET", "/", nil, "")
	if resp.Status != 401 || resp.Header.Get("WWW-Authenticate") != "Token" {
		t.Fatalf("inherit: %d %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}
	none := framework.View{Authentication: framework.Authenticators(), Permissions: framework.Permissions(), Get: ok}
	resp, _ = do(t, apitest.View(none, s), "GET", "/", map[string]string{"X-User": "bad"}, "")
	if resp.Status != 200 {
		t.Fatalf("explicit none: %d", resp.Status)
	}
}

func TestMethodNotAllowedAndOptions(t *testing.T) {
	v := framework.View{Name: "Thing", Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]int{"n": 1}), nil
	}}
	resp, body := do(t, apitest.View(v), "POST", "/", nil, "")
	if resp.Status != 405 || body["detail"] != `Method "POST" not allowed.` || resp.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Fatalf("405: %d %v %q", resp.Status, body, resp.Header.Get("Allow"))
	}
	resp, body = do(t, apitest.View(v), "OPTIONS", "/", nil, "")
	if resp.Status != 200 || body["name"] != "Thing" {
		t.Fatalf("options: %d %v", resp.Status, body)
	}
	resp, _ = do(t, apitest.View(v), "HEAD", "/", nil, "")
	if resp.Status != 200 || resp.Header.Get("Content-Length") != "7" {
		t.Fatalf("head: %d %q", resp.Status, resp.Header.Get("Content-Length"))
	}
}

func TestPanicBecomesLogged500AndServerKeepsServing(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(prev)
	v := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		if r.URL.Query().Get("boom") != "" {
			panic("boom")
		}
		return framework.OK(map[string]bool{"ok": true}), nil
	}}
	srv := httptest.NewServer(apitest.View(v))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/?boom=1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// Django's own 500 page (DEBUG=False), byte for byte, as DRF lets the
	// error through to Django; text/html with a charset from Django 4.0 on.
	const page = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n"
	if resp.StatusCode != 500 || string(b) != page || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
		resp.Header.Get("Allow") != "" || !strings.Contains(logs.String(), "panic: boom") {
		t.Fatalf("panic: %d %v %q log=%q", resp.StatusCode, resp.Header, b, logs.String())
	}
	resp, err = http.Get(srv.URL + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after panic: %v %v", resp, err)
	}
	resp.Body.Close()
}

type brokenScheme struct{}

func (brokenScheme) Authenticate(*request.Request) (request.User, any, error) {
	return nil, nil, errors.New("database is down")
}

func TestAuthenticatorErrorIsSurfacedWrapped(t *testing.T) {
	var seen error
	s := framework.Settings{ExceptionHandler: func(err error, v *framework.View, r *request.Request) *framework.Response {
		seen = err
		return framework.DefaultExceptionHandler(err, v, r)
	}}
	v := framework.View{
		Authentication: framework.Authenticators(brokenScheme{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]bool{"reached": true}), nil
		},
	}
	resp, _ := do(t, apitest.View(v, s), "GET", "/", nil, "")
	var wrapped *request.WrappedError
	if resp.Status != 500 || !errors.As(seen, &wrapped) || wrapped.Err.Error() != "database is down" {
		t.Fatalf("%d %v", resp.Status, seen)
	}
}

func TestCustomExceptionHandler(t *testing.T) {
	s := framework.Settings{ExceptionHandler: func(err error, v *framework.View, r *request.Request) *framework.Response {
		resp := framework.DefaultExceptionHandler(err, v, r)
		if resp != nil {
			resp.Data = map[string]any{"error": resp.Data, "status_code": resp.Status}
		}
		return resp
	}}
	v := framework.View{
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return nil, exceptions.NotFound()
		},
	}
	resp, body := do(t, apitest.View(v, s), "GET", "/", nil, "")
	if resp.Status != 404 || body["status_code"] != 404.0 {
		t.Fatalf("%d %v", resp.Status, body)
	}
}

func TestSecurityHeaders(t *testing.T) {
	ok := apitest.View(framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(nil), nil
	}})
	for _, c := range []struct {
		h    http.Handler
		coop string // Django 4.0's Cross-Origin-Opener-Policy, none on 3.2
	}{{framework.SecurityHeaders(ok), "same-origin"}, {framework.SecurityHeadersAt(framework.DRF314, ok), ""}} {
		resp, _ := do(t, c.h, "GET", "/", nil, "")
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
			"Cross-Origin-Opener-Policy": c.coop} {
			if got := resp.Header.Get(k); got != want {
				t.Errorf("%s: %q, want %q", k, got, want)
			}
		}
	}
}

// A handler that fails because its client went away is not a server error.
func TestAbandonedRequestIsNotLoggedAsError(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(prev)
	v := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return nil, r.Context().Err()
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	apitest.View(v).ServeHTTP(w, httptest.NewRequest("GET", "/", nil).WithContext(ctx))
	if strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "abandoned") {
		t.Fatalf("log %q", logs.String())
	}
}
