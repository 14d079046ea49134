package framework_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// TestMain stops the PostgreSQL cluster the tests started.
func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// atomicAnswer is what a request did under ATOMIC_REQUESTS: its status
// and JSON body, the rows of table t after it, and the on_commit
// callbacks that ran (testdata/drf_atomic.py).
type atomicAnswer struct {
	Status   int    `json:"status"`
	Body     string `json:"body"`
	Rows     []int  `json:"rows"`
	OnCommit []int  `json:"on_commit"`
}

// drfAtomic runs testdata/drf_atomic.py on DRF 3.14 (Debian's) and DRF
// 3.18 (conformance/reference/drf318), each in a subtest, and returns
// both levels' answers, which must agree; a DRF that is missing skips its
// subtest, or fails it with CI_REQUIRE_DJANGO.
func drfAtomic(t *testing.T) map[string]atomicAnswer {
	var answers map[string]atomicAnswer
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		t.Run(fmt.Sprint(level), func(t *testing.T) {
			var got map[string]atomicAnswer
			drfsuite.RunDRF(t, level, filepath.Join("testdata", "drf_atomic.py"), nil, &got)
			if answers != nil && !equalAnswers(answers, got) {
				t.Fatalf("DRF 3.14 and 3.18 disagree:\n%v\n%v", answers, got)
			}
			answers = got
		})
	}
	if answers == nil {
		t.Skip("no DRF to compare with")
	}
	return answers
}

func equalAnswers(a, b map[string]atomicAnswer) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x.Status != y.Status || x.Body != y.Body || !slices.Equal(x.Rows, y.Rows) || !slices.Equal(x.OnCommit, y.OnCommit) {
			return false
		}
	}
	return true
}

// atomicRow is a row of table t.
type atomicRow struct {
	X int `db:"x"`
}

// TestAtomicRequestsAsDjango: with Settings.AtomicRequests each view runs
// in one transaction, as under Django's ATOMIC_REQUESTS with DRF, on
// SQLite and PostgreSQL alike: its rows and store.OnCommit callbacks are
// committed when it answers, 400 answers included; an error rolls them
// back, whether answered (a validation error, 404) or a 500; a nested
// block that fails undoes its own writes and callbacks only; reads see
// the request's writes; NonAtomicRequests opts a view out. The writes
// are a queryset's Insert and the read its Count.
func TestAtomicRequestsAsDjango(t *testing.T) {
	want := drfAtomic(t)
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		db.MustExec(`CREATE TABLE t (x integer PRIMARY KEY)`)
		rows := queryset.MustSQL[atomicRow](db, queryset.SQLConfig{Table: "t", Key: "x", Columns: []string{"x"}})
		var ran []int
		insert := func(ctx context.Context, x int) error {
			if err := rows.Insert(ctx, &atomicRow{X: x}); err != nil {
				return err
			}
			store.OnCommit(ctx, func() { ran = append(ran, x) })
			return nil
		}
		writes := func(answer func(r *request.Request) (*framework.Response, error)) framework.HandlerFunc {
			return func(_ *framework.View, r *request.Request) (*framework.Response, error) {
				if err := insert(r.Context(), 1); err != nil {
					return nil, err
				}
				return answer(r)
			}
		}
		invalid := func(*request.Request) (*framework.Response, error) {
			var errs exceptions.ValidationErrors
			errs.Add("x", "This field is required.")
			return nil, exceptions.ValidationError(errs)
		}
		views := map[string]framework.View{
			"created": {Post: writes(func(*request.Request) (*framework.Response, error) {
				return &framework.Response{Status: http.StatusCreated, Data: map[string]any{"x": 1}}, nil
			})},
			"invalid": {Post: writes(invalid)},
			"not_found": {Post: writes(func(*request.Request) (*framework.Response, error) {
				return nil, exceptions.NotFound()
			})},
			"answered_400": {Post: writes(func(*request.Request) (*framework.Response, error) {
				return &framework.Response{Status: http.StatusBadRequest, Data: map[string]any{"x": []string{"bad"}}}, nil
			})},
			"crashed": {Post: writes(func(*request.Request) (*framework.Response, error) {
				return nil, errors.New("boom")
			})},
			"savepoint": {Post: writes(func(r *request.Request) (*framework.Response, error) {
				inner := errors.New("inner")
				err := store.Atomic(r.Context(), db, func(ctx context.Context) error {
					if err := insert(ctx, 2); err != nil {
						return err
					}
					return inner
				})
				if err != inner {
					return nil, err
				}
				if err := store.Atomic(r.Context(), db, func(ctx context.Context) error { return insert(ctx, 3) }); err != nil {
					return nil, err
				}
				return &framework.Response{Status: http.StatusCreated}, nil
			})},
			"non_atomic": {NonAtomicRequests: true, Post: writes(invalid)},
			"reads_its_write": {Post: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
				if err := insert(r.Context(), 7); err != nil {
					return nil, err
				}
				n, err := rows.Count(r.Context())
				if err != nil {
					return nil, err
				}
				return &framework.Response{Status: http.StatusCreated, Data: map[string]any{"count": n}}, nil
			}},
		}
		api := framework.NewAPI(db, framework.Settings{AtomicRequests: true, Authentication: framework.Authenticators(), Logger: slog.New(slog.DiscardHandler)})
		for name, v := range views {
			api.Handle("/"+name+"/", v)
		}
		// A panic is a 500, rolled back, as an error no handler answers.
		api.Handle("/panicked/", framework.View{Post: writes(func(*request.Request) (*framework.Response, error) { panic("boom") })})
		want["panicked"] = want["crashed"]
		for name, w := range want {
			if _, ok := views[name]; !ok && name != "panicked" {
				t.Errorf("DRF's case %q has no view here", name)
				continue
			}
			db.MustExec(`DELETE FROM t`)
			ran = nil
			rec := httptest.NewRecorder()
			api.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/"+name+"/", nil))
			got := atomicAnswer{Status: rec.Code, Rows: []int{}, OnCommit: ran}
			if err := db.Select(&got.Rows, `SELECT x FROM t ORDER BY x`); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				got.Body = rec.Body.String()
			}
			if got.OnCommit == nil {
				got.OnCommit = []int{}
			}
			if !equalAnswers(map[string]atomicAnswer{name: got}, map[string]atomicAnswer{name: w}) {
				t.Errorf("%s: got %+v, DRF %+v", name, got, w)
			}
		}
	})
}

// TestAtomicRequestsNeedAStore: AtomicRequests on an API without a store
// is refused when the view is registered, naming it.
func TestAtomicRequestsNeedAStore(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{AtomicRequests: true})
	defer func() {
		p, _ := recover().(string)
		if !strings.Contains(p, `the view at "/x/"`) || !strings.Contains(p, "AtomicRequests") {
			t.Errorf("panic %q, want one naming the view and AtomicRequests", p)
		}
	}()
	api.Handle("/x/", framework.View{Get: func(*framework.View, *request.Request) (*framework.Response, error) { return nil, nil }})
}

// TestAtomicRequestsBeginAtTheFirstWrite: a request that only reads
// begins no transaction, so on SQLite it holds no write lock: another
// connection writes at once while it runs. Its first write begins one.
func TestAtomicRequestsBeginAtTheFirstWrite(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		db.MustExec(`CREATE TABLE t (x integer PRIMARY KEY)`)
		rows := queryset.MustSQL[atomicRow](db, queryset.SQLConfig{Table: "t", Key: "x", Columns: []string{"x"}})
		api := framework.NewAPI(db, framework.Settings{AtomicRequests: true, Authentication: framework.Authenticators()})
		api.Handle("/", framework.View{Get: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
			ctx := r.Context()
			n, err := rows.Count(ctx)
			if err != nil {
				return nil, err
			}
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO t (x) VALUES (?)`), 1); err != nil {
				return nil, err // SQLite: "database is locked", after BusyTimeout
			}
			began := store.TxOf(ctx, db) != nil
			if err := rows.Insert(ctx, &atomicRow{X: 2}); err != nil {
				return nil, err
			}
			return &framework.Response{Status: http.StatusOK, Data: map[string]any{
				"count": n, "began": began, "in_block": store.InAtomicBlock(ctx, db), "after_write": store.TxOf(ctx, db) != nil}}, nil
		}})
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if want := `{"after_write":true,"began":false,"count":0,"in_block":true}`; rec.Code != http.StatusOK || rec.Body.String() != want {
			t.Errorf("%d %s, want 200 %s", rec.Code, rec.Body, want)
		}
	})
}
