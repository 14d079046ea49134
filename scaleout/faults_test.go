package scaleout_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// unavailable is DRF's ServiceUnavailable, as the instances answer a
// database that cannot serve a request.
const unavailable = `{"detail":"Service temporarily unavailable, try again later."}`

// isUnavailable reports whether r is the 503 of an unavailable database.
func isUnavailable(r reply) bool {
	return r.status == http.StatusServiceUnavailable && r.body == unavailable && r.header.Get("Retry-After") == "1"
}

// pgBouncerURL is the database of a fresh PostgreSQL database through a
// PgBouncer of its own, in transaction pooling mode, with the URL
// docs/scaling.md gives for it.
func pgBouncerURL(t *testing.T) (direct, through string) {
	direct = testservers.Postgres(t)
	return direct, testservers.PgBouncer(t, direct) + "&default_query_exec_mode=exec"
}

// TestMigrateTogetherThroughPgBouncer: two `manage migrate` run at once
// through PgBouncer in transaction pooling mode both complete, applying
// each migration once, and leave no advisory lock behind, so that a
// third run completes at once and two instances started together
// through PgBouncer migrate and serve as one service.
func TestMigrateTogetherThroughPgBouncer(t *testing.T) {
	direct, through := pgBouncerURL(t)
	env := []string{"DATABASE_URL=" + through}
	outputs := make([]string, 2)
	var wg sync.WaitGroup
	for i := range outputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := testservers.Manage(t, env, "migrate", "--noinput")
			if err != nil {
				t.Errorf("migrate %d: %v\n%s", i+1, err, out)
			}
			outputs[i] = out
		}()
	}
	wg.Wait()
	applied := strings.Count(outputs[0]+outputs[1], "... OK")
	start := time.Now()
	out, err := testservers.Manage(t, env, "migrate", "--noinput")
	if err != nil || !strings.Contains(out, "No migrations to apply.") {
		t.Errorf("a third migrate: %v\n%s", err, out)
	}
	t.Logf("two runs at once applied %d migrations; a third found none to apply in %v", applied, time.Since(start))
	db, err := store.Open(direct)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var recorded, locks int
	if err := db.Get(&recorded, `SELECT count(*) FROM django_migrations`); err != nil || recorded != applied {
		t.Errorf("django_migrations holds %d rows, %v; the runs applied %d", recorded, err, applied)
	}
	if err := db.Get(&locks, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'`); err != nil || locks != 0 {
		t.Errorf("%d advisory locks left, %v", locks, err)
	}

	d := &deployment{database: through, cache: "memory://"}
	a, b := d.startTwo(t)
	key := a.token(t, "alice")
	r := b.send(t, "POST", "/books/", `{"title":"Through PgBouncer","author":"Me","rating":4}`, "Authorization", "Token "+key)
	if r.status != http.StatusCreated {
		t.Errorf("a write on B with A's token: %d %s", r.status, r.body)
	}
}

// TestFrozenDatabaseAnswers503: when PostgreSQL stops answering
// (SIGSTOP), requests, more at once than the pool has connections, are
// answered 503 with Retry-After within the documented bound
// (pool_acquire_timeout for a connection, then statement_timeout plus
// store.CancelGrace for the statement), and the instance serves again
// once the database does, without a restart.
func TestFrozenDatabaseAnswers503(t *testing.T) {
	server := testservers.StartPostgres(t)
	const statement = time.Second
	srv := testservers.StartRunserver(t, "DATABASE_URL="+server.Database(t)+"&statement_timeout=1000", "CACHE_URL=memory://")
	in := &instance{srv, srv.URL}
	auth := "Token " + in.token(t, "alice")
	for range 4 {
		in.send(t, "GET", "/books/", "", "Authorization", auth)
	}
	server.Freeze(t)
	defer server.Thaw(t)
	bound := store.DefaultAcquireTimeout + statement + store.CancelGrace
	const requests = 12
	var wg sync.WaitGroup
	var slowest atomic.Int64
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			r, err := in.trySend("GET", "/books/", "", "Authorization", auth)
			took := time.Since(start)
			if err != nil || !isUnavailable(r) || took > bound+time.Second {
				t.Errorf("a request to the frozen database: %d %s %v after %v, want 503 within %v", r.status, r.body, err, took, bound)
			}
			for old := slowest.Load(); int64(took) > old && !slowest.CompareAndSwap(old, int64(took)); old = slowest.Load() {
			}
		}()
	}
	wg.Wait()
	t.Logf("%d requests to the frozen database answered 503, the slowest in %v (bound %v)", requests, time.Duration(slowest.Load()), bound)
	server.Thaw(t)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := in.trySend("GET", "/books/", "", "Authorization", auth)
		if err == nil && r.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the database went on: %d %s %v", r.status, r.body, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestDatabaseRestartAndKillUnderWrites: 8 writers post books to two
// instances while their PostgreSQL is shut down (pg_ctl's fast mode) and
// started again, then killed (SIGKILL of every process) and started
// again. Every 5xx is a 503 with Retry-After, every book answered 201 is
// stored once, and no book whose client was told anything else is
// stored: no client is told an error for a write that was made.
func TestDatabaseRestartAndKillUnderWrites(t *testing.T) {
	server := testservers.StartPostgres(t)
	d := &deployment{database: server.Database(t), cache: "memory://"}
	a, b := d.startTwo(t)
	auth := "Token " + a.token(t, "alice")

	type outcome struct {
		title string
		r     reply
		err   error
	}
	const writers, perPhase = 8, 60
	var (
		mu       sync.Mutex
		outcomes []outcome
		acked    atomic.Int64
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				in := []*instance{a, b}[(w+i)%2]
				title := fmt.Sprintf("w%d-%d", w, i)
				r, err := in.trySend("POST", "/books/", fmt.Sprintf(`{"title":%q,"author":"load","rating":3}`, title), "Authorization", auth)
				if err == nil && r.status == http.StatusCreated {
					acked.Add(1)
				}
				mu.Lock()
				outcomes = append(outcomes, outcome{title, r, err})
				mu.Unlock()
			}
		}()
	}
	deadline := time.Now().Add(40 * time.Second)
	waitAcked := func(n int64) {
		for acked.Load() < n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitAcked(perPhase)
	server.Stop(t)
	time.Sleep(500 * time.Millisecond)
	server.Start(t)
	waitAcked(2 * perPhase)
	server.Kill(t)
	time.Sleep(200 * time.Millisecond)
	server.Start(t)
	waitAcked(3 * perPhase)
	close(stop)
	wg.Wait()

	db, err := store.Open(d.database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	statuses := map[int]int{}
	failed := 0
	for _, o := range outcomes {
		var n int
		if err := db.Get(&n, `SELECT count(*) FROM "books" WHERE "title" = $1`, o.title); err != nil {
			t.Fatal(err)
		}
		if o.err != nil {
			failed++
		} else {
			statuses[o.r.status]++
		}
		switch {
		case o.err == nil && o.r.status == http.StatusCreated:
			if n != 1 {
				t.Errorf("%q answered 201 is stored %d times", o.title, n)
			}
		case n != 0:
			t.Errorf("%q is stored, but its client was told %d %s %v", o.title, o.r.status, o.r.body, o.err)
		}
		if o.err == nil && o.r.status >= 500 && !isUnavailable(o.r) {
			t.Errorf("%q: %d %s Retry-After %q, want DRF's 503", o.title, o.r.status, o.r.body, o.r.header.Get("Retry-After"))
		}
	}
	t.Logf("%d writes sent: %d acknowledged, answers by status %v, %d without an answer", len(outcomes), acked.Load(), statuses, failed)
	if acked.Load() < 3*perPhase {
		t.Errorf("only %d writes acknowledged: the instances did not recover", acked.Load())
	}
}
