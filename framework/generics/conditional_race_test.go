package generics_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// memoAPI serves /memos/{pk}/ over db with cond, as one instance of a
// service; write, when set, is its PerformUpdate, given the source.
func memoAPI(db *sqlx.DB, cond *generics.Conditional, s framework.Settings, write func(*request.Request, *Memo, *queryset.SQLSource[Memo]) error) *framework.API {
	src := queryset.MustSQL[Memo](db, queryset.SQLConfig{Table: "memo", Ordering: []query.Order{{Field: "id"}}})
	g := generics.GenericAPIView[Memo]{Source: src, Serializer: memoSerializer, Conditional: cond}
	if write != nil {
		g.PerformUpdate = func(r *request.Request, m *Memo) error { return write(r, m, src) }
	}
	api := framework.NewAPI(db, s)
	api.Handle("/memos/{pk}/", generics.RetrieveUpdateDestroyAPIView(g))
	return api
}

// instanceLocks runs fn with each kind of Locks that holds across the
// instances of a service, new makes one instance's.
func instanceLocks(t *testing.T, db *sqlx.DB, fn func(t *testing.T, newLocks func() generics.Locker)) {
	t.Run("leases", func(t *testing.T) { fn(t, func() generics.Locker { return store.Leases{DB: db} }) })
	t.Run("database", func(t *testing.T) { fn(t, func() generics.Locker { return &generics.DatabaseLocks{DB: db} }) })
}

// memoTitle is memo 1's stored title.
func memoTitle(t *testing.T, db *sqlx.DB) string {
	t.Helper()
	var title string
	if err := db.Get(&title, `SELECT "title" FROM "memo" WHERE "id" = 1`); err != nil {
		t.Fatal(err)
	}
	return title
}

// TestConditionalKeySpellingsShareTheLock: a write through /memos/1/ is
// held inside its save while another with the same If-Match goes through
// /memos/01/ (+1, 0001) of another instance: the second waits for the
// row's lock and is 412, where a lock named by the URL's spelling let
// both succeed (the lost update). On SQLite and PostgreSQL.
func TestConditionalKeySpellingsShareTheLock(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		instanceLocks(t, db, func(t *testing.T, newLocks func() generics.Locker) {
			for _, spelling := range []string{"01", "+1", "0001"} {
				inSave, otherDone := make(chan struct{}), make(chan struct{})
				var held atomic.Bool
				write := func(r *request.Request, m *Memo, src *queryset.SQLSource[Memo]) error {
					if held.CompareAndSwap(false, true) {
						close(inSave)
						select { // the other write's answer, or its wait for the lock
						case <-otherDone:
						case <-time.After(300 * time.Millisecond):
						}
					}
					return src.Update(r.Context(), m)
				}
				a := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: newLocks()}, framework.Settings{}, write))
				b := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: newLocks()}, framework.Settings{}, write))
				tag := a.Get("/memos/1/").Header.Get("ETag")
				first := make(chan *apitest.Response)
				go func() { first <- a.Do("PUT", "/memos/1/", `{"title":"first `+spelling+`"}`, "If-Match: "+tag) }()
				<-inSave
				second := b.Do("PUT", "/memos/"+spelling+"/", `{"title":"second `+spelling+`"}`, "If-Match: "+tag)
				close(otherDone)
				if r := <-first; r.Status != 200 || second.Status != http.StatusPreconditionFailed {
					t.Errorf("/memos/1/ and /memos/%s/ with one If-Match: %d %s and %d %s", spelling, r.Status, r.Body, second.Status, second.Body)
				}
				if got := memoTitle(t, db); got != "first "+spelling {
					t.Errorf("stored %q, want the first write's", got)
				}
			}
		})
	})
}

// TestConditionalRacingSpellings: twelve PUTs sent at once with one
// If-Match, each through its own spelling of memo 1's key ("1", "01",
// "+1", ...) and one of two instances, in several rounds: exactly one
// succeeds each round, the others are 412, and the item is the winner's.
func TestConditionalRacingSpellings(t *testing.T) {
	spellings := []string{"1", "01", "+1", "001", "+01", "0001", "00001", "+001", "000001", "0000001", "+0001", "00000001"}
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		instanceLocks(t, db, func(t *testing.T, newLocks func() generics.Locker) {
			a := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: newLocks()}, framework.Settings{}, nil))
			b := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: newLocks()}, framework.Settings{}, nil))
			for round := range 5 {
				tag := a.Get("/memos/1/").Header.Get("ETag")
				statuses := make([]int, len(spellings))
				start := make(chan struct{})
				var wg sync.WaitGroup
				for i, spelling := range spellings {
					wg.Add(1)
					go func() {
						defer wg.Done()
						c := a
						if i%2 == 1 {
							c = b
						}
						<-start
						statuses[i] = c.Do("PUT", "/memos/"+spelling+"/", fmt.Sprintf(`{"title":"round %d writer %d"}`, round, i), "If-Match: "+tag).Status
					}()
				}
				close(start)
				wg.Wait()
				winner := -1
				for i, s := range statuses {
					switch {
					case s == 200 && winner == -1:
						winner = i
					case s != http.StatusPreconditionFailed:
						t.Errorf("round %d, writer %d (/memos/%s/): %d", round, i, spellings[i], s)
					}
				}
				if got := memoTitle(t, db); winner < 0 || got != fmt.Sprintf("round %d writer %d", round, winner) {
					t.Fatalf("round %d: stored %q, winner %d; statuses %v", round, got, winner, statuses)
				}
			}
		})
	})
}

// TestConditionalImpossibleKeys: a conditional view answers a lookup
// value that no memo can have before any query (its source's database is
// closed, so a query would be a 500): out of int64's range or longer than
// its longest text (a 300-digit spelling of 1) as no memo, at either
// compatibility level; not an integer as "Not found.". On the open
// database the 300-digit PUT that a lease named by the URL made a 500 on
// PostgreSQL is 404, and the longest spelling is still memo 1.
func TestConditionalImpossibleKeys(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		closed := sqlx.NewDb(sql.OpenDB(noConnections{}), db.DriverName())
		padded := strings.Repeat("0", 299) + "1"
		keys := map[string]string{
			padded:                   "No Memo matches the given query.",
			strings.Repeat("9", 300): "No Memo matches the given query.",
			"9223372036854775808":    "No Memo matches the given query.",
			"000000000000000000001":  "No Memo matches the given query.", // 21 characters
			"abc":                    "Not found.",
			"1.0":                    "Not found.",
		}
		for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
			api := memoAPI(closed, &generics.Conditional{Locks: store.Leases{DB: closed}}, framework.Settings{Compatibility: level}, nil)
			c := apitest.New(t, api)
			for key, detail := range keys {
				if level == framework.DRF314 {
					detail = "Not found."
				}
				for _, m := range []string{"GET", "PUT", "DELETE"} {
					if r := c.Do(m, "/memos/"+key+"/", `{"title":"x"}`, "If-Match: *"); r.Status != 404 || r.JSON()["detail"] != detail {
						t.Errorf("level %v, %s %.30s...: %d %s", level, m, key, r.Status, r.Body)
					}
				}
			}
		}
		c := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: store.Leases{DB: db}}, framework.Settings{}, nil))
		if r := c.Do("PUT", "/memos/"+padded+"/", `{"title":"x"}`, "If-Match: *"); r.Status != 404 {
			t.Errorf("PUT of a 300-digit key: %d %s", r.Status, r.Body)
		}
		if r := c.Do("PUT", "/memos/00000000000000000001/", `{"title":"twenty"}`, "If-Match: *"); r.Status != 200 || r.Body != `{"id":1,"title":"twenty"}` {
			t.Errorf("PUT of a 20-character key: %d %s", r.Status, r.Body)
		}
	})
}

// Label is a declared model that views look up by its slug, a SlugField
// (max_length 50).
type Label struct {
	ID   int64  `db:"id" json:"id" drf:"read_only"`
	Slug string `db:"slug" json:"slug" model:"field=SlugField,unique"`
}

// Meta declares the label table.
func (Label) Meta() models.Meta { return models.Meta{App: "conditional", Table: "label"} }

// TestConditionalLongSlug: a conditional view looked up by a SlugField
// answers a slug longer than its max_length (51 characters) as no label,
// before any query; 50 characters are looked up (and match none here).
func TestConditionalLongSlug(t *testing.T) {
	for _, d := range []string{"sqlite", store.PostgresDriverName} {
		closed := sqlx.NewDb(sql.OpenDB(noConnections{}), d)
		api := framework.NewAPI(closed, framework.Settings{})
		api.Handle("/labels/{slug}/", generics.RetrieveUpdateDestroyAPIView(generics.GenericAPIView[Label]{
			Source: queryset.MustSQL[Label](closed, queryset.SQLConfig{}), Serializer: serializers.MustNew[Label](),
			LookupField: "slug", LookupURLKwarg: "slug", Conditional: &generics.Conditional{}}))
		c := apitest.New(t, api)
		if r := c.Get("/labels/" + strings.Repeat("é", 51) + "/"); r.Status != 404 || r.JSON()["detail"] != "No Label matches the given query." {
			t.Errorf("%s, 51 characters: %d %s", d, r.Status, r.Body)
		}
		if r := c.Get("/labels/" + strings.Repeat("é", 50) + "/"); r.Status != 500 {
			t.Errorf("%s, 50 characters: %d %s, want the closed database's 500", d, r.Status, r.Body)
		}
	}
}

// noConnections is a database that refuses every connection: a view
// over it answers without any query, or fails.
type noConnections struct{}

func (noConnections) Connect(context.Context) (driver.Conn, error) {
	return nil, errors.New("no query may be made")
}

func (noConnections) Driver() driver.Driver { return nil }

// TestConditionalSlowBodyHoldsNoLock: a PUT whose body trickles in for a
// second does not hold the item: another PUT of it with the same If-Match
// is answered at once, 200, and the slow one, once read, is 412.
func TestConditionalSlowBodyHoldsNoLock(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		instanceLocks(t, db, func(t *testing.T, newLocks func() generics.Locker) {
			api := memoAPI(db, &generics.Conditional{Locks: newLocks()}, framework.Settings{}, nil)
			c := apitest.New(t, api)
			tag := c.Get("/memos/1/").Header.Get("ETag")
			body, w := io.Pipe()
			req := httptest.NewRequest("PUT", "/memos/1/", body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("If-Match", tag)
			slow := make(chan *httptest.ResponseRecorder)
			go func() {
				rec := httptest.NewRecorder()
				api.ServeHTTP(rec, req)
				slow <- rec
			}()
			if _, err := io.WriteString(w, `{"title":`); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond) // the slow request is reading its body
			start := time.Now()
			other := make(chan *apitest.Response, 1)
			go func() { other <- c.Do("PUT", "/memos/1/", `{"title":"fast `+t.Name()+`"}`, "If-Match: "+tag) }()
			var fast *apitest.Response
			select {
			case fast = <-other:
			case <-time.After(time.Second):
			}
			took := time.Since(start)
			if _, err := io.WriteString(w, `"slow"}`); err != nil {
				t.Fatal(err)
			}
			_ = w.Close()
			rec := <-slow
			if fast == nil {
				t.Errorf("the other PUT still waited after %v", took)
				fast = <-other
			}
			if fast.Status != 200 || took > 500*time.Millisecond {
				t.Errorf("the other PUT: %d %s after %v", fast.Status, fast.Body, took)
			}
			if rec.Code != http.StatusPreconditionFailed {
				t.Errorf("the slow PUT: %d %s", rec.Code, rec.Body)
			}
			if got := memoTitle(t, db); got != "fast "+t.Name() {
				t.Errorf("stored %q", got)
			}
		})
	})
}

// TestConditionalLockWait: a write that waits for the item's lock longer
// than LockWait, held by a write of another instance, is 503 with
// Retry-After; the holder's write succeeds.
func TestConditionalLockWait(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		instanceLocks(t, db, func(t *testing.T, newLocks func() generics.Locker) {
			inSave, release := make(chan struct{}), make(chan struct{})
			holder := func(r *request.Request, m *Memo, src *queryset.SQLSource[Memo]) error {
				close(inSave)
				<-release
				return src.Update(r.Context(), m)
			}
			a := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: newLocks()}, framework.Settings{}, holder))
			b := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: newLocks(), LockWait: 200 * time.Millisecond}, framework.Settings{}, nil))
			tag := a.Get("/memos/1/").Header.Get("ETag")
			first := make(chan *apitest.Response)
			go func() { first <- a.Do("PUT", "/memos/1/", `{"title":"held `+t.Name()+`"}`, "If-Match: "+tag) }()
			<-inSave
			start := time.Now()
			r := b.Do("PATCH", "/memos/01/", `{"title":"waited"}`, "If-Match: "+tag)
			took := time.Since(start)
			close(release)
			if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") != "1" ||
				r.JSON()["detail"] != "Service temporarily unavailable, try again later." || took < 200*time.Millisecond || took > 2*time.Second {
				t.Errorf("the waiting write: %d %s %v after %v", r.Status, r.Body, r.Header, took)
			}
			if r := <-first; r.Status != 200 || memoTitle(t, db) != "held "+t.Name() {
				t.Errorf("the holder: %d %s", r.Status, r.Body)
			}
		})
	})
}

// TestDatabaseLocksWaitInPostgres: while an instance holds an item's lock,
// a write of another instance waits in PostgreSQL for its advisory lock,
// one statement in the server rather than polls (no lease is written),
// and is answered once the holder is done: 412, the item having changed.
func TestDatabaseLocksWaitInPostgres(t *testing.T) {
	db := testservers.OpenPostgres(t)
	if _, err := db.Exec(`CREATE TABLE "memo" ("id" integer NOT NULL PRIMARY KEY, "title" varchar(100) NOT NULL); INSERT INTO "memo" VALUES (1, 'first')`); err != nil {
		t.Fatal(err)
	}
	inSave, release := make(chan struct{}), make(chan struct{})
	holder := func(r *request.Request, m *Memo, src *queryset.SQLSource[Memo]) error {
		close(inSave)
		<-release
		return src.Update(r.Context(), m)
	}
	a := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: &generics.DatabaseLocks{DB: db}}, framework.Settings{}, holder))
	b := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: &generics.DatabaseLocks{DB: db}}, framework.Settings{}, nil))
	tag := a.Get("/memos/1/").Header.Get("ETag")
	first := make(chan *apitest.Response)
	go func() { first <- a.Do("PUT", "/memos/1/", `{"title":"held"}`, "If-Match: "+tag) }()
	<-inSave
	second := make(chan *apitest.Response)
	go func() { second <- b.Do("PUT", "/memos/1/", `{"title":"waited"}`, "If-Match: "+tag) }()
	var waiting int
	for deadline := time.Now().Add(5 * time.Second); waiting == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if err := db.Get(&waiting, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`); err != nil {
			t.Fatal(err)
		}
	}
	if waiting != 1 {
		t.Errorf("%d sessions wait for an advisory lock, want 1", waiting)
	}
	close(release)
	if r, s := <-first, <-second; r.Status != 200 || s.Status != http.StatusPreconditionFailed || memoTitle(t, db) != "held" {
		t.Errorf("holder %d %s, waiter %d %s", r.Status, r.Body, s.Status, s.Body)
	}
}

// TestDatabaseLocksLeaveConnections: with a pool of three connections,
// eight writes of eight memos sent at once to one instance all succeed:
// MaxHeld keeps the locks' transactions from taking every connection,
// which would leave their holders none for their own statements until
// the pool's acquire timeout (503).
func TestDatabaseLocksLeaveConnections(t *testing.T) {
	db, err := store.Open(testservers.Postgres(t) + "&pool_max_conns=3")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec(`CREATE TABLE "memo" ("id" integer NOT NULL PRIMARY KEY, "title" varchar(100) NOT NULL); ` +
		`INSERT INTO "memo" SELECT i, 'memo ' || i FROM generate_series(1, 8) i`); err != nil {
		t.Fatal(err)
	}
	c := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: &generics.DatabaseLocks{DB: db, MaxHeld: 1}}, framework.Settings{}, nil))
	for round := range 3 {
		tags := map[string]string{}
		for id := 1; id <= 8; id++ {
			path := fmt.Sprintf("/memos/%d/", id)
			tags[path] = c.Get(path).Header.Get("ETag")
		}
		var wg sync.WaitGroup
		for path, tag := range tags {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if r := c.Do("PUT", path, fmt.Sprintf(`{"title":"round %d"}`, round), "If-Match: "+tag); r.Status != 200 {
					t.Errorf("round %d, PUT %s: %d %s", round, path, r.Status, r.Body)
				}
			}()
		}
		wg.Wait()
	}
}

// Counter is an item with a field its clients read but never write.
type Counter struct {
	ID    int64  `db:"id" json:"id" drf:"read_only"`
	Title string `db:"title" json:"title" drf:"max_length=100"`
	Hits  int64  `db:"hits" json:"hits" drf:"read_only"`
}

// TestConditionalRevalidatesUnderTheLock: a PUT with If-Match: * whose
// body was validated against the item before another write of it (which
// counts a hit, a read-only field) is validated again against the item
// read under the lock, so that its save keeps the hit.
func TestConditionalRevalidatesUnderTheLock(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		if _, err := db.Exec(`CREATE TABLE "counter" ("id" integer NOT NULL PRIMARY KEY, "title" varchar(100) NOT NULL, "hits" bigint NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO "counter" VALUES (1, 'first', 0)`); err != nil {
			t.Fatal(err)
		}
		src := queryset.MustSQL[Counter](db, queryset.SQLConfig{Table: "counter"})
		cond := &generics.Conditional{Locks: &generics.DatabaseLocks{DB: db}}
		inSave, release := make(chan struct{}), make(chan struct{})
		var held atomic.Bool
		g := generics.GenericAPIView[Counter]{Source: src, Serializer: serializers.MustNew[Counter](), Conditional: cond,
			PerformUpdate: func(r *request.Request, c *Counter) error {
				if held.CompareAndSwap(false, true) {
					close(inSave)
					<-release
					c.Hits++
				}
				return src.Update(r.Context(), c)
			}}
		api := framework.NewAPI(db, framework.Settings{})
		api.Handle("/counters/{pk}/", generics.RetrieveUpdateDestroyAPIView(g))
		c := apitest.New(t, api)
		first := make(chan *apitest.Response)
		go func() { first <- c.Do("PUT", "/counters/1/", `{"title":"held"}`, "If-Match: *") }()
		<-inSave
		second := make(chan *apitest.Response)
		go func() { second <- c.Do("PUT", "/counters/1/", `{"title":"second"}`, "If-Match: *") }()
		time.Sleep(200 * time.Millisecond) // the second PUT is validated and waits for the lock
		close(release)
		if r := <-first; r.Status != 200 || r.Body != `{"id":1,"title":"held","hits":1}` {
			t.Errorf("first: %d %s", r.Status, r.Body)
		}
		if r := <-second; r.Status != 200 || r.Body != `{"id":1,"title":"second","hits":1}` {
			t.Errorf("second: %d %s", r.Status, r.Body)
		}
	})
}

// seenAtUnlock is a Locker that records memo 1's title as the database
// shows it to another connection when a lock is freed.
type seenAtUnlock struct {
	generics.Locker
	db   *sqlx.DB
	mu   sync.Mutex
	seen []string
}

func (l *seenAtUnlock) Lock(ctx context.Context, name string) (func(), error) {
	unlock, err := l.Locker.Lock(ctx, name)
	if err != nil {
		return nil, err
	}
	return func() {
		var title string
		err := l.db.Get(&title, `SELECT "title" FROM "memo" WHERE "id" = 1`)
		l.mu.Lock()
		l.seen = append(l.seen, fmt.Sprint(title, err))
		l.mu.Unlock()
		unlock()
	}, nil
}

// TestConditionalLockHeldUntilCommit: under Settings.AtomicRequests the
// request's transaction commits after the view answers; the item's lock
// is freed only then, so the next writer waiting for it reads the
// committed item (a lock freed before the commit let it pass a stale
// If-Match: the lost update). On SQLite and PostgreSQL, with each kind
// of instance-wide Locks.
func TestConditionalLockHeldUntilCommit(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		instanceLocks(t, db, func(t *testing.T, newLocks func() generics.Locker) {
			db.MustExec(`DELETE FROM "memo"`)
			db.MustExec(`INSERT INTO "memo" ("id", "title") VALUES (1, 'first')`)
			locks := &seenAtUnlock{Locker: newLocks(), db: db}
			c := apitest.New(t, memoAPI(db, &generics.Conditional{Locks: locks}, framework.Settings{AtomicRequests: true}, nil))
			tag := c.Get("/memos/1/").Header.Get("ETag")
			if r := c.Do("PUT", "/memos/1/", `{"title":"committed"}`, "If-Match: "+tag); r.Status != 200 {
				t.Fatalf("PUT: %d %s", r.Status, r.Body)
			}
			if r := c.Do("PATCH", "/memos/1/", `{"title":"stale"}`, "If-Match: "+tag); r.Status != http.StatusPreconditionFailed {
				t.Fatalf("PATCH with the old tag: %d %s", r.Status, r.Body)
			}
			tag = c.Get("/memos/1/").Header.Get("ETag")
			if r := c.Do("DELETE", "/memos/1/", "", "If-Match: "+tag); r.Status != http.StatusNoContent {
				t.Fatalf("DELETE: %d %s", r.Status, r.Body)
			}
			// The 412 took no lock: the tag was stale before the body was read.
			want := []string{"committed<nil>", "sql: no rows in result set"}
			if fmt.Sprint(locks.seen) != fmt.Sprint(want) {
				t.Errorf("memo 1 as other connections saw it when each lock was freed: %q, want %q", locks.seen, want)
			}
		})
	})
}
