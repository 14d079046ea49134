package management_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/management"
)

// TestRunserverJSONLogsWithRequestIDs: with LOG_FORMAT=json every line is
// a JSON object, one access line per request, and the lines a request
// logs through env.Logger carry its ID, the one echoed in X-Request-ID;
// LOG_LEVEL=warn keeps only warnings and errors.
func TestRunserverJSONLogsWithRequestIDs(t *testing.T) {
	for _, level := range []string{"", "warn"} {
		vars := map[string]string{"LOG_FORMAT": "json", "LOG_LEVEL": level}
		ctx, cancel := context.WithCancel(context.Background())
		out, errOut := &syncBuffer{}, &syncBuffer{}
		started, done := make(chan string, 1), make(chan int, 1)
		cmd := management.Runserver(func(ctx context.Context, env *management.Env) (http.Handler, error) {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				env.Logger.WarnContext(r.Context(), "handling", "path", r.URL.Path)
				w.WriteHeader(http.StatusTeapot)
			}), nil
		}, func(_ *management.Env, addr string) { started <- addr })
		env := &management.Env{Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}
		go func() {
			done <- management.Execute(ctx, env, []string{"--database", ":memory:", "runserver", "127.0.0.1:0"}, cmd)
		}()
		var addr string
		select {
		case addr = <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("runserver did not start")
		}
		ids := map[string]bool{}
		for _, sent := range []string{"from-the-balancer-1", "bad id"} {
			req, _ := http.NewRequest("GET", "http://"+addr+"/x/", nil)
			req.Header.Set("X-Request-ID", sent)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			id := resp.Header.Get("X-Request-ID")
			if (sent == "bad id") == (id == sent) || id == "" {
				t.Errorf("sent %q, answered X-Request-ID %q", sent, id)
			}
			ids[id] = true
		}
		cancel()
		if code := <-done; code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		handling, requests := 0, 0
		for _, l := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not a JSON line: %q", l)
			}
			switch m["msg"] {
			case "handling":
				handling++
				if id, _ := m["request_id"].(string); !ids[id] {
					t.Errorf("line %v without its request's ID (%v)", m, ids)
				}
			case "request":
				requests++
				if id, _ := m["request_id"].(string); !ids[id] || m["status"] != 418.0 || m["method"] != "GET" {
					t.Errorf("access line %v", m)
				}
			}
		}
		wantRequests := 2
		if level == "warn" {
			wantRequests = 0
		}
		if handling != 2 || requests != wantRequests {
			t.Errorf("LOG_LEVEL=%q: %d handler lines, %d access lines, want 2 and %d:\n%s", level, handling, requests, wantRequests, errOut.String())
		}
	}
}

// TestRunserverLogSettingsAreChecked: a LOG_FORMAT, LOG_LEVEL or
// SHUTDOWN_DELAY that cannot be read stops runserver before it serves.
func TestRunserverLogSettingsAreChecked(t *testing.T) {
	for name, want := range map[string]string{
		"LOG_FORMAT":     `CommandError: LOG_FORMAT="xml" is not text or json`,
		"LOG_LEVEL":      `CommandError: LOG_LEVEL="xml" is not debug, info, warn or error`,
		"SHUTDOWN_DELAY": `CommandError: SHUTDOWN_DELAY="xml" is not a duration such as 5s`,
	} {
		errOut := &syncBuffer{}
		cmd := management.Runserver(func(ctx context.Context, env *management.Env) (http.Handler, error) {
			t.Error("the handler was built")
			return http.NotFoundHandler(), nil
		}, nil)
		env := &management.Env{Stdout: &syncBuffer{}, Stderr: errOut, Getenv: func(k string) string {
			if k == name {
				return "xml"
			}
			return ""
		}}
		if code := management.Execute(context.Background(), env, []string{"--database", ":memory:", "runserver", "127.0.0.1:0"}, cmd); code != 1 || strings.TrimSpace(errOut.String()) != want {
			t.Errorf("%s: exit %d, %q", name, code, errOut.String())
		}
	}
}
