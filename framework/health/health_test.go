package health_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/health"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// refusing is a scheme that refuses X-User: bad.
type refusing struct{}

func (refusing) Authenticate(r *request.Request) (request.User, any, error) {
	if r.Header.Get("X-User") == "bad" {
		return nil, nil, exceptions.AuthenticationFailed("No such user")
	}
	return nil, nil, nil
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
	mig := migrations.Migration{App: "notes", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE notes (id INTEGER PRIMARY KEY)`}}}}
	var failing error
	api := framework.NewAPI(db, framework.Settings{Logger: logger,
		Authentication: framework.Authenticators(refusing{}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{})})
	health.Mount(api, health.Config{Stopping: stopping, Timeout: 500 * time.Millisecond,
		Migrations: []migrations.Migration{mig},
		Checks:     []health.Check{{Name: "search", Check: func(context.Context) error { return failing }}}})
	c := apitest.New(t, accesslog.New(logger, api))

	if r := c.Get("/livez", "X-User: bad"); r.Status != 200 || r.Body != `{"status":"ok"}` || r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("livez: %d %s %v", r.Status, r.Body, r.Header)
	}
	r := c.Get("/readyz")
	if r.Status != 503 || r.Body != `{"status":"unavailable","failed":["migrations"],"checks":{"database":"ok","migrations":"failed","search":"ok"}}` {
		t.Errorf("readyz before migrate: %d %s", r.Status, r.Body)
	}
	if _, err := migrations.Migrate(context.Background(), db, mig); err != nil {
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
