package store_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

func openPostgres(t *testing.T, params string) *sqlx.DB {
	t.Helper()
	db, err := store.Open(testservers.Postgres(t) + params)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func show(t *testing.T, db *sqlx.DB, setting string) string {
	t.Helper()
	var v string
	if err := db.Get(&v, "SHOW "+setting); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOpenPostgresSettings: both schemes open PostgreSQL through pgx,
// every session is in UTC, no statement_timeout is sent to the server
// (PgBouncer would refuse it), and the pool parameters are the pool's.
func TestOpenPostgresSettings(t *testing.T) {
	url := testservers.Postgres(t)
	for _, dsn := range []string{url, "postgresql" + strings.TrimPrefix(url, "postgres")} {
		db, err := store.Open(dsn + "&pool_acquire_timeout=1s")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if store.DialectOf(db) != store.PostgreSQL || db.DriverName() != store.PostgresDriverName {
			t.Errorf("%s: dialect %v, driver %q", dsn, store.DialectOf(db), db.DriverName())
		}
		if got := show(t, db, "TimeZone"); got != "UTC" {
			t.Errorf("TimeZone = %q", got)
		}
		if got := show(t, db, "statement_timeout"); got != "0" {
			t.Errorf("statement_timeout = %q on the server, want it kept by the client", got)
		}
		if got := poolSize(t, db); got != store.DefaultMaxConns() {
			t.Errorf("pool size %d, want %d", got, store.DefaultMaxConns())
		}
	}
	db := openPostgres(t, "&pool_max_conns=3&pool_acquire_timeout=1s&pool_max_conn_lifetime=5m&timezone=Europe/Paris")
	if got := poolSize(t, db); got != 3 {
		t.Errorf("pool_max_conns=3 gave %d", got)
	}
	if got := show(t, db, "TimeZone"); got != "UTC" {
		t.Errorf("TimeZone = %q despite the URL, want UTC", got)
	}
	var at time.Time
	if err := db.Get(&at, "SELECT $1::timestamptz", store.FormatTime(time.Date(2024, 1, 5, 10, 0, 0, 123456000, time.UTC))); err != nil ||
		!at.Equal(time.Date(2024, 1, 5, 10, 0, 0, 123456000, time.UTC)) {
		t.Errorf("FormatTime read back as %v, %v", at, err)
	}
	for _, bad := range []string{"&pool_max_conns=0", "&pool_max_conns=x", "&pool_max_conn_idle_time=soon",
		"&pool_acquire_timeout=soon", "&statement_timeout=-1", "&statement_timeout=soon"} {
		if db, err := store.Open(testservers.Postgres(t) + bad); err == nil {
			db.Close()
			t.Errorf("%s accepted", bad)
		}
	}
}

// poolSize counts the transactions db holds open at once: the next one
// fails for want of a connection.
func poolSize(t *testing.T, db *sqlx.DB) int {
	t.Helper()
	var txs []*sqlx.Tx
	defer func() {
		for _, tx := range txs {
			_ = tx.Rollback()
		}
	}()
	for {
		tx, err := db.Beginx()
		if err != nil {
			if !store.IsUnavailable(err) {
				t.Fatalf("transaction %d: %v, want the pool exhausted", len(txs)+1, err)
			}
			return len(txs)
		}
		txs = append(txs, tx)
		if len(txs) > 100 {
			t.Fatal("no end to the pool")
		}
	}
}

// TestStatementTimeout: statement_timeout bounds each statement from the
// client: the statement is canceled on the server, the error is
// ErrUnavailable, and the connection serves the next statement.
func TestStatementTimeout(t *testing.T) {
	for _, param := range []string{"&statement_timeout=300", "&statement_timeout=300ms"} {
		db := openPostgres(t, param+"&pool_max_conns=1")
		start := time.Now()
		_, err := db.Exec("SELECT pg_sleep(5)")
		if took := time.Since(start); !errors.Is(err, store.ErrUnavailable) || !store.IsUnavailable(err) ||
			took > 300*time.Millisecond+store.CancelGrace+500*time.Millisecond {
			t.Errorf("%s: a statement over the timeout ended with %v after %v", param, err, took)
		}
		var running int
		if err := db.Get(&running, `SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'`); err != nil || running != 0 {
			t.Errorf("%s: %d statements still running on the server, %v", param, running, err)
		}
	}
	// A statement's own failure is not the database's.
	db := openPostgres(t, "")
	var n int
	for _, err := range []error{db.Get(&n, "SELECT nope"), db.Get(&n, "SELECT $1::integer", "x")} {
		if err == nil || store.IsUnavailable(err) {
			t.Errorf("a failing statement: %v, want its own error", err)
		}
	}
	db = openPostgres(t, "&statement_timeout=0")
	if _, err := db.Exec("SELECT pg_sleep(0.4)"); err != nil {
		t.Errorf("statement_timeout=0: %v", err)
	}
	// The request's own context bounds its statements too, and its end
	// is the caller's, not the database's.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := db.ExecContext(ctx, "SELECT pg_sleep(5)"); err == nil || store.IsUnavailable(err) {
		t.Errorf("a statement past its context's deadline: %v, want the context's error", err)
	}
}

// TestPoolWaitIsBounded: when every connection of the pool is taken, an
// operation waits pool_acquire_timeout for one, then fails with
// ErrUnavailable; one given back in time is taken.
func TestPoolWaitIsBounded(t *testing.T) {
	db := openPostgres(t, "&pool_max_conns=2&pool_acquire_timeout=300ms")
	held := make([]*sqlx.Tx, 2)
	for i := range held {
		var err error
		if held[i], err = db.Beginx(); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	_, err := db.Exec("SELECT 1")
	if took := time.Since(start); !store.IsUnavailable(err) || took < 300*time.Millisecond || took > time.Second {
		t.Errorf("a statement with the pool taken: %v after %v, want ErrUnavailable after 300ms", err, took)
	}
	time.AfterFunc(100*time.Millisecond, func() { _ = held[0].Rollback() })
	if _, err := db.Exec("SELECT 1"); err != nil {
		t.Errorf("a connection given back within the wait was not taken: %v", err)
	}
	_ = held[1].Rollback()
}

func TestOpenPostgresErrorHidesPassword(t *testing.T) {
	url := testservers.Postgres(t)
	dsn := strings.Replace(url, "postgres@", "postgres:hunter2@", 1)
	dsn = strings.Replace(dsn, "/test_", "/missing_", 1)
	db, err := store.Open(dsn)
	if err == nil {
		db.Close()
		t.Fatal("opened a missing database")
	}
	if strings.Contains(err.Error(), "hunter2") || !strings.HasPrefix(err.Error(), "store: open ") {
		t.Errorf("error %q", err)
	}
}

func TestPostgresUniqueViolationAndRetryable(t *testing.T) {
	db := openPostgres(t, "")
	db.MustExec(`CREATE TABLE u ("id" integer PRIMARY KEY, "name" text UNIQUE)`)
	db.MustExec(`INSERT INTO u VALUES (1, 'a')`)
	_, err := db.Exec(`INSERT INTO u VALUES (2, 'a')`)
	if !store.IsUniqueViolation(err) || store.IsRetryable(err) {
		t.Errorf("unique: IsUniqueViolation(%v) false or retryable", err)
	}
	if _, err := db.Exec(`INSERT INTO nope VALUES (1)`); store.IsUniqueViolation(err) || store.IsRetryable(err) {
		t.Errorf("another error (%v) taken for a unique violation or retryable", err)
	}
}

// TestInTxRetriesSerializationFailures: serializable transactions that
// read then write one counter conflict; InTx runs the losers again, so no
// increment is lost and none fails.
func TestInTxRetriesSerializationFailures(t *testing.T) {
	db := openPostgres(t, "")
	db.MustExec(`CREATE TABLE n (v integer NOT NULL)`)
	db.MustExec(`INSERT INTO n VALUES (0)`)
	// Each failed attempt of a worker is caused by another worker's commit,
	// and each worker commits once, so a worker fails at most workers-1
	// times: with workers = MaxAttempts every one gets through, however the
	// scheduler interleaves them.
	const workers = store.MaxAttempts
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		attempts int
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := store.InTx(context.Background(), db, func(tx *sqlx.Tx) error {
				mu.Lock()
				attempts++
				mu.Unlock()
				if _, err := tx.Exec(`SET TRANSACTION ISOLATION LEVEL SERIALIZABLE`); err != nil {
					return err
				}
				var v int
				if err := tx.Get(&v, `SELECT v FROM n`); err != nil {
					return err
				}
				time.Sleep(5 * time.Millisecond) // let the others read too
				_, err := tx.Exec(`UPDATE n SET v = $1`, v+1)
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var v int
	if err := db.Get(&v, `SELECT v FROM n`); err != nil || v != workers {
		t.Errorf("counter = %d, %v; want %d", v, err, workers)
	}
	if attempts == workers {
		t.Errorf("no transaction was retried (%d attempts): the test did not make them conflict", attempts)
	}
	boom := errors.New("boom")
	calls := 0
	if err := store.InTx(context.Background(), db, func(*sqlx.Tx) error { calls++; return boom }); err != boom || calls != 1 {
		t.Errorf("a plain error: %v after %d calls, want boom after 1", err, calls)
	}
}

// TestMigrateConcurrentlyOnPostgres: instances migrating one database at
// once apply each migration exactly once, under the advisory lock.
func TestMigrateConcurrentlyOnPostgres(t *testing.T) {
	url := testservers.Postgres(t)
	migs := []migrations.Migration{
		{App: "shop", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "shop_item" ("id" serial NOT NULL PRIMARY KEY)`}}}},
		{App: "shop", Name: "0002_price", Operations: []migrations.Operation{migrations.RunGo{Func: func(ctx context.Context, tx *sqlx.Tx) error {
			time.Sleep(50 * time.Millisecond) // widen the window of a race
			_, err := tx.ExecContext(ctx, `ALTER TABLE "shop_item" ADD COLUMN "price" integer NOT NULL DEFAULT 0`)
			return err
		}}}},
	}
	const instances = 4
	results := make([][]string, instances)
	var wg sync.WaitGroup
	for i := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := store.Open(url)
			if err != nil {
				t.Error(err)
				return
			}
			defer db.Close()
			if results[i], err = migrations.Migrate(context.Background(), db, migs...); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, r := range results {
		total += len(r)
	}
	if total != len(migs) {
		t.Errorf("migrations applied %d times in all (%v), want %d", total, results, len(migs))
	}
	db, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM django_migrations`); err != nil || n != len(migs) {
		t.Errorf("django_migrations has %d rows, %v", n, err)
	}
	var locks int
	if err := db.Get(&locks, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'`); err != nil || locks != 0 {
		t.Errorf("%d advisory locks left, %v", locks, err)
	}
}

// TestPostgresPoolSurvivesLostConnections: when the server ends every
// connection of the pool (a restart, a fail-over, an idle-session
// timeout), the next statements open new ones instead of failing.
func TestPostgresPoolSurvivesLostConnections(t *testing.T) {
	url := testservers.Postgres(t)
	db, err := store.Open(url + "&pool_max_conns=4")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec(`CREATE TABLE t (x integer)`)
	// Fill the pool with idle connections.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.Exec(`SELECT pg_sleep(0.05)`); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	admin, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var sessions int
	if err := admin.Get(&sessions, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil || sessions < 2 {
		t.Fatalf("%d sessions of the pool, %v; want it filled", sessions, err)
	}
	var ended int
	if err := admin.Get(&ended, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()) s`); err != nil || ended < 2 {
		t.Fatalf("ended %d connections, %v", ended, err)
	}
	time.Sleep(100 * time.Millisecond)
	for i := range 8 {
		if _, err := db.Exec(`INSERT INTO t VALUES ($1)`, i); err != nil {
			t.Fatalf("statement %d after the connections were lost: %v", i, err)
		}
	}
}

// TestConnectRetriedWhileServerStarts: a statement sent while PostgreSQL
// is down waits, within pool_acquire_timeout, for the server to accept
// connections again, and succeeds once it does; with a shorter wait it
// fails with ErrUnavailable.
func TestConnectRetriedWhileServerStarts(t *testing.T) {
	server := testservers.StartPostgres(t)
	url := server.Database(t)
	patient, err := store.Open(url + "&pool_acquire_timeout=20s")
	if err != nil {
		t.Fatal(err)
	}
	defer patient.Close()
	hasty, err := store.Open(url + "&pool_acquire_timeout=200ms")
	if err != nil {
		t.Fatal(err)
	}
	defer hasty.Close()
	server.Stop(t)
	if _, err := hasty.Exec("SELECT 1"); !store.IsUnavailable(err) {
		t.Errorf("a statement to a stopped server: %v, want it unavailable", err)
	}
	started := make(chan struct{})
	go func() {
		defer close(started)
		time.Sleep(300 * time.Millisecond)
		server.Start(t)
	}()
	start := time.Now()
	if _, err := patient.Exec("SELECT 1"); err != nil {
		t.Errorf("a statement sent while the server started: %v after %v", err, time.Since(start))
	}
	<-started
}

// TestFrozenServerIsUnavailableWithinTheDeadline: a server that stops
// answering (SIGSTOP) fails each statement with ErrUnavailable within
// statement_timeout plus CancelGrace, on a connection of the pool used a
// moment ago or one left idle long enough to be pinged first, and serves
// again once it goes on.
func TestFrozenServerIsUnavailableWithinTheDeadline(t *testing.T) {
	server := testservers.StartPostgres(t)
	const timeout = 500 * time.Millisecond
	db, err := store.Open(server.Database(t) + "&statement_timeout=500&pool_acquire_timeout=500ms")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wg sync.WaitGroup
	for range 4 { // connections in the pool
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.Exec("SELECT pg_sleep(0.05)"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	server.Freeze(t)
	defer server.Thaw(t)
	for _, idle := range []time.Duration{0, 1200 * time.Millisecond} {
		time.Sleep(idle)
		start := time.Now()
		var n int
		err := db.Get(&n, "SELECT 1")
		if took := time.Since(start); !store.IsUnavailable(err) || took > timeout+store.CancelGrace+time.Second {
			t.Errorf("idle %v: a statement to the frozen server: %v after %v, want it unavailable within %v",
				idle, err, took, timeout+store.CancelGrace)
		}
	}
	server.Thaw(t)
	if _, err := db.Exec("SELECT 1"); err != nil {
		t.Errorf("after the server went on: %v", err)
	}
}

// TestMigrateThroughPgBouncer: through PgBouncer in transaction pooling
// mode, with the URL docs/scaling.md gives, concurrent migrations apply
// each migration once and leave no advisory lock behind (a session lock
// would be taken and released on different server sessions), and a
// later run finds everything applied.
func TestMigrateThroughPgBouncer(t *testing.T) {
	direct := testservers.Postgres(t)
	url := testservers.PgBouncer(t, direct) + "&default_query_exec_mode=exec"
	migs := []migrations.Migration{
		{App: "shop", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "shop_item" ("id" serial NOT NULL PRIMARY KEY)`}}}},
		{App: "shop", Name: "0002_price", Operations: []migrations.Operation{migrations.RunGo{Func: func(ctx context.Context, tx *sqlx.Tx) error {
			time.Sleep(50 * time.Millisecond) // widen the window of a race
			_, err := tx.ExecContext(ctx, `ALTER TABLE "shop_item" ADD COLUMN "price" integer NOT NULL DEFAULT 0`)
			return err
		}}}},
	}
	const instances = 4
	results := make([][]string, instances)
	var wg sync.WaitGroup
	for i := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := store.Open(url)
			if err != nil {
				t.Error(err)
				return
			}
			defer db.Close()
			if results[i], err = migrations.Migrate(context.Background(), db, migs...); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, r := range results {
		total += len(r)
	}
	if total != len(migs) {
		t.Errorf("migrations applied %d times in all (%v), want %d", total, results, len(migs))
	}
	db, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if again, err := migrations.Migrate(ctx, db, migs...); err != nil || len(again) != 0 {
		t.Errorf("a later run applied %v, %v", again, err)
	}
	var locks int
	if err := db.Get(&locks, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'`); err != nil || locks != 0 {
		t.Errorf("%d advisory locks left, %v", locks, err)
	}
}

// TestTooManyClientsIsWaitedFor: when the server refuses connections for
// want of a slot ("too many connections", SQLSTATE 53300, here a role's
// connection limit of 2 under a pool of 6), statements wait, within
// pool_acquire_timeout, for a connection that frees, and all succeed;
// with no slot at all, the wait ends with ErrUnavailable.
func TestTooManyClientsIsWaitedFor(t *testing.T) {
	url := testservers.Postgres(t)
	admin := openPostgres(t, "")
	admin.MustExec(`CREATE ROLE app LOGIN CONNECTION LIMIT 2`)
	t.Cleanup(func() { admin.MustExec(`DROP OWNED BY app; DROP ROLE app`) })
	db, err := store.Open(strings.Replace(url, "postgres@", "app@", 1) + "&pool_max_conns=6&pool_acquire_timeout=5s")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.Exec("SELECT pg_sleep(0.1)"); err != nil {
				t.Errorf("a statement beyond the role's connections: %v", err)
			}
		}()
	}
	wg.Wait()
	admin.MustExec(`ALTER ROLE app CONNECTION LIMIT 0`)
	start := time.Now()
	// Long enough for a refusal to come back on a loaded machine, where a
	// connection attempt alone can take longer than 300ms.
	hasty, err := store.Open(strings.Replace(url, "postgres@", "app@", 1) + "&pool_acquire_timeout=2s")
	if err == nil {
		hasty.Close()
	}
	if took := time.Since(start); !store.IsUnavailable(err) || !strings.Contains(err.Error(), "53300") || took < 2*time.Second {
		t.Errorf("with no slot for the role: %v after %v, want ErrUnavailable of 53300 after 2s", err, took)
	}
}
