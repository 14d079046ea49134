package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/framing"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// row is one request of the table, sent to both sides in turn.
type row struct {
	name   string   // what the row checks
	method string   // GET unless set
	path   string   // with query; placeholders allowed
	header []string // "Name: value"; {token:USER}, {basic:USER}, {session:USER} and {csrf} are filled in per side
	body   string   // JSON when it starts with "{", a form otherwise, unless a Content-Type is given
	// jar names a cookie jar kept across rows: "admin" and "alice" are
	// logged in through the login form on first use, other names start empty.
	jar string
	// follow requests a link of the side's previous answer instead of
	// path: a JSON key ("next", "links.previous") or "Link next".
	follow string
	route  string // the contract's route, for the summary; derived from path when empty
	// skip names headers (or "body") where the contract settles a
	// difference against the reference; say why next to the row.
	skip []string
}

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// TestConformance sends the table to a DRF reference and to the Go
// sample, row by row, and compares status, the headers that matter and the
// JSON bodies: the sample with its default settings against DRF 3.18 on
// Django 5.2 (reference/start --drf 3.18) with the sample on SQLite; the
// sample at DRF 3.14 level against DRF 3.14 on Django 3.2
// (reference/start --drf 3.14), once with the sample on SQLite, once on
// PostgreSQL, and once on PostgreSQL through PgBouncer in transaction
// pooling mode with the URL docs/scaling.md gives (the references stay on
// SQLite). CONFORMANCE_VERBOSE=1 logs every pair of answers.
func TestConformance(t *testing.T) {
	sqlite := func(t *testing.T) func() string {
		return func() string { return filepath.Join(t.TempDir(), "db.sqlite3") }
	}
	t.Run("drf318", func(t *testing.T) { conform(t, drf318, sqlite(t)) })
	t.Run("sqlite", func(t *testing.T) { conform(t, drf314, sqlite(t)) })
	t.Run("postgresql", func(t *testing.T) { conform(t, drf314, func() string { return testservers.Postgres(t) }) })
	t.Run("pgbouncer", func(t *testing.T) {
		conform(t, drf314, func() string {
			return testservers.PgBouncer(t, testservers.Postgres(t)) + "&default_query_exec_mode=exec"
		})
	})
}

// conform runs the table against a fresh reference o and the sample at
// its level on a fresh database, whose URL database gives once the
// reference runs.
func conform(t *testing.T, o oracle, database func() string) {
	ref := startOracle(t, o)
	sides := [2]*side{newSide("reference", ref.base), newSide("sample", startSampleAt(t, database(), o))}
	verbose := os.Getenv("CONFORMANCE_VERBOSE") == "1"

	type tally struct{ pass, fail int }
	var routes []string
	byRoute := map[string]*tally{}
	byKind := map[string]int{} // rows that differ in status, a header, or the body
	for i, r := range table {
		route := r.contractRoute()
		if byRoute[route] == nil {
			routes = append(routes, route)
			byRoute[route] = &tally{}
		}
		name := fmt.Sprintf("%03d %s %s %s", i+1, r.verb(), route, r.name)
		ok := t.Run(name, func(t *testing.T) {
			var views [2]view
			for j, s := range sides {
				a, err := s.send(r)
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				views[j] = s.view(a)
				if verbose {
					t.Logf("%s: %d %v\n%s", s.name, views[j].status, views[j].headers, views[j].body)
				}
			}
			for _, h := range r.skip {
				for j := range views {
					if h == "body" {
						views[j].body = "(not compared)"
					}
					delete(views[j].headers, h)
				}
			}
			if d := differences(views[0], views[1]); len(d) > 0 {
				for _, line := range d {
					kind, _, _ := strings.Cut(line, ":")
					byKind[kind]++
				}
				t.Errorf("%s %s: the sample differs from the reference:\n  %s", r.verb(), r.target(), strings.Join(d, "\n  "))
			}
		})
		if ok {
			byRoute[route].pass++
		} else {
			byRoute[route].fail++
		}
	}
	var summary strings.Builder
	for _, route := range routes {
		c := byRoute[route]
		fmt.Fprintf(&summary, "\n  %-32s %3d/%-3d %s", route, c.pass, c.pass+c.fail, map[bool]string{true: "ok", false: "DIFFERS"}[c.fail == 0])
	}
	if len(byKind) > 0 {
		summary.WriteString("\nrows differing in:")
		for _, kind := range slices.Sorted(maps.Keys(byKind)) {
			fmt.Fprintf(&summary, " %s %d;", kind, byKind[kind])
		}
	}
	t.Logf("rows passing by route:%s", summary.String())
}

// startSample serves the sample at DRF 3.14 level (startSampleAt).
func startSample(t *testing.T, dsn string) string { return startSampleAt(t, dsn, drf314) }

// startSampleAt serves the sample in process on the fresh database dsn
// with the demo data, answering as the oracle o does. CONFORMANCE_SELF_CHECK=1
// serves a second reference instead, which shows whether the table
// itself is deterministic.
func startSampleAt(t *testing.T, dsn string, o oracle) string {
	if os.Getenv("CONFORMANCE_SELF_CHECK") == "1" {
		return startOracle(t, o).base
	}
	ctx := context.Background()
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := sample.Seed(ctx, db, 100); err != nil {
		t.Fatal(err)
	}
	// The demo hashes cost 260000 PBKDF2 rounds, most of a second each
	// under the race detector; the same passwords hashed with 1000 rounds
	// follow the same rules and keep the test fast.
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	for name, password := range passwords {
		u, err := users.GetByUsername(ctx, name)
		if err == nil {
			err = users.SetPassword(ctx, u, password)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := sample.New(ctx, db, sample.Compatibility(o.level))
	if err != nil {
		t.Fatal(err)
	}
	// Served as runserver serves it: through its listener, which ends a
	// connection with a lingering close (a client still sending a large
	// body gets its answer, not a reset).
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = framing.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

func (r row) verb() string {
	if r.method == "" {
		return http.MethodGet
	}
	return r.method
}

func (r row) target() string {
	if r.follow != "" {
		return "(" + r.follow + " of the previous answer)"
	}
	return r.path
}

var (
	idSegment      = regexp.MustCompile(`/\d+/`)
	versionSegment = regexp.MustCompile(`^/(url|ns)/[^/]+/`)
)

// contractRoute names the route of the contract the row exercises.
func (r row) contractRoute() string {
	if r.route != "" {
		return r.route
	}
	p, _, _ := strings.Cut(r.path, "?")
	p = versionSegment.ReplaceAllString(p, "/$1/{version}/")
	return idSegment.ReplaceAllString(p, "/{id}/")
}

// send fills in the row for this side, sends it, and remembers the answer.
func (s *side) send(r row) (*answer, error) {
	if _, ok := passwords[r.jar]; ok {
		if err := s.login(r.jar, r.jar); err != nil {
			return nil, err
		}
	}
	target, err := s.targetOf(r)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	for _, line := range r.header {
		k, v, _ := strings.Cut(line, ":")
		v, err := s.fill(strings.TrimSpace(v), r.jar)
		if err != nil {
			return nil, err
		}
		h.Add(strings.TrimSpace(k), v)
	}
	body, err := s.fill(r.body, r.jar)
	if err != nil {
		return nil, err
	}
	if body != "" && h.Get("Content-Type") == "" {
		if strings.HasPrefix(body, "{") {
			h.Set("Content-Type", "application/json")
		} else {
			h.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	a, err := s.do(r.verb(), target, h, body, r.jar)
	if err != nil {
		return nil, err
	}
	s.last = a
	return a, nil
}

// targetOf is the row's URL on this side.
func (s *side) targetOf(r row) (string, error) {
	if r.follow == "" {
		return s.base + r.path, nil
	}
	if s.last == nil {
		return "", fmt.Errorf("nothing to follow %q from", r.follow)
	}
	if rel, ok := strings.CutPrefix(r.follow, "Link "); ok {
		for _, part := range strings.Split(s.last.header.Get("Link"), ",") {
			if strings.Contains(part, `rel="`+rel+`"`) {
				u, _, _ := strings.Cut(strings.TrimSpace(part), ">")
				return strings.TrimPrefix(u, "<"), nil
			}
		}
		return "", fmt.Errorf("the previous answer has no Link rel=%q: %q", rel, s.last.header.Get("Link"))
	}
	var v any
	if err := json.Unmarshal(s.last.body, &v); err != nil {
		return "", fmt.Errorf("following %q: %v", r.follow, err)
	}
	for _, key := range strings.Split(r.follow, ".") {
		m, _ := v.(map[string]any)
		v = m[key]
	}
	u, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("the previous answer has no %q link: %s", r.follow, s.last.body)
	}
	return u, nil
}
