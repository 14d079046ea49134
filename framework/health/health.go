// Package health is a service's health endpoints, for load balancers and
// orchestrators: /livez while the process serves, /readyz while the
// store, the throttle cache, the migrations and the service's own checks
// are ready, and no longer once the service begins to shut down.
package health

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/migrations"
)

// defaultTimeout bounds the checks of one /readyz request.
const defaultTimeout = time.Second

// Check is one check of /readyz: Name names it in the answer, and Check
// returns an error when what it checks cannot serve.
type Check struct {
	Name  string
	Check func(ctx context.Context) error
}

// Config configures the endpoints Mount mounts.
type Config struct {
	// Stopping is done once the service begins to shut down (runserver's
	// context, which SIGTERM ends): from then on /readyz answers 503,
	// naming the check "shutdown", so that load balancers stop sending
	// requests while the in-flight ones finish. nil never ends.
	Stopping context.Context
	// Timeout bounds the checks of one /readyz request, run at the same
	// time; 0 gives one second.
	Timeout time.Duration
	// Migrations must all be recorded as applied in the API's store
	// (check "migrations"); none checks nothing.
	Migrations []migrations.Migration
	// Checks are run beside the built-in ones.
	Checks []Check
}

// Pinger is implemented by throttle caches that can tell whether their
// server answers (cache.Redis): /readyz then checks it as "cache".
type Pinger interface {
	Ping(ctx context.Context) error
}

// Mount mounts the health endpoints on api, plain handlers outside every
// view's authentication, permissions and throttles, logged at debug level
// by the access log (accesslog.New):
//
//   - /livez answers 200 {"status": "ok"} while the process serves;
//   - /readyz answers 200 {"status": "ok", "checks": {...}} when the API's
//     store answers a query ("database"), the throttle cache answers when
//     it is a Pinger ("cache"), c.Migrations are applied ("migrations")
//     and c.Checks pass, all within c.Timeout; else, or once c.Stopping is
//     done, 503 {"status": "unavailable", "failed": [names], "checks":
//     {...}}, the failures logged at warning level.
//
// Both have Cache-Control: no-store. A probe must send a Host the API
// allows (Settings.AllowedHosts).
func Mount(api *framework.API, c Config) {
	s := api.Settings()
	r := &readiness{Config: c, db: api.DB(), log: s.Logger}
	if c.Timeout <= 0 {
		r.Timeout = defaultTimeout
	}
	if p, ok := s.ThrottleCache.(Pinger); ok {
		r.cache = p
	}
	api.HandleHTTP("/livez", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeHealth(w, req, http.StatusOK, healthBody{Status: "ok"})
	}))
	api.HandleHTTP("/readyz", r)
}

// readiness is /readyz.
type readiness struct {
	Config
	db    *sqlx.DB
	cache Pinger
	log   *slog.Logger
	// migrated is set once the migrations were found applied: they are not
	// undone while the service runs.
	migrated atomic.Bool
}

type healthBody struct {
	Status string            `json:"status"`
	Failed []string          `json:"failed,omitempty"`
	Checks map[string]string `json:"checks,omitempty"`
}

// ServeHTTP runs the checks.
func (r *readiness) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body := healthBody{Status: "ok", Checks: map[string]string{}}
	if r.Stopping != nil && r.Stopping.Err() != nil {
		body.Status, body.Failed = "unavailable", []string{"shutdown"}
		body.Checks["shutdown"] = "failed"
		writeHealth(w, req, http.StatusServiceUnavailable, body)
		return
	}
	ctx, cancel := context.WithTimeout(req.Context(), r.Timeout)
	defer cancel()
	checks := r.checks()
	errs := make([]error, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		wg.Go(func() { errs[i] = r.run(ctx, c) })
	}
	wg.Wait()
	for i, c := range checks {
		if errs[i] == nil {
			body.Checks[c.Name] = "ok"
			continue
		}
		body.Checks[c.Name] = "failed"
		body.Failed = append(body.Failed, c.Name)
		r.log.WarnContext(req.Context(), "readiness check failed", "check", c.Name, "error", errs[i].Error())
	}
	status := http.StatusOK
	if body.Failed != nil {
		body.Status, status = "unavailable", http.StatusServiceUnavailable
	}
	writeHealth(w, req, status, body)
}

// run runs c within ctx: a check that does not return by the deadline
// fails with it.
func (r *readiness) run(ctx context.Context, c Check) error {
	done := make(chan error, 1)
	go func() { done <- c.Check(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checks are the built-in checks that apply, then Config.Checks.
func (r *readiness) checks() []Check {
	var cs []Check
	if r.db != nil {
		cs = append(cs, Check{"database", r.database})
	}
	if r.cache != nil {
		cs = append(cs, Check{"cache", r.cache.Ping})
	}
	if len(r.Migrations) > 0 {
		cs = append(cs, Check{"migrations", r.migrations})
	}
	return append(cs, r.Config.Checks...)
}

func (r *readiness) database(ctx context.Context) error {
	var one int
	return r.db.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

func (r *readiness) migrations(ctx context.Context) error {
	if r.migrated.Load() {
		return nil
	}
	missing, err := migrations.Unapplied(ctx, r.db, r.Migrations...)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return errors.New("not applied: " + missing[0])
	}
	r.migrated.Store(true)
	return nil
}

func writeHealth(w http.ResponseWriter, req *http.Request, status int, body healthBody) {
	if info := accesslog.RequestInfoFrom(req.Context()); info != nil {
		info.Quiet = true
	}
	b, _ := json.Marshal(body)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
