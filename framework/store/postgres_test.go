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

// TestOpenPostgresSettings: both schemes open PostgreSQL through pgx, every
// session is in UTC with a statement timeout, and the pool parameters are
// the pool's, not sent to the server.
func TestOpenPostgresSettings(t *testing.T) {
	url := testservers.Postgres(t)
	for _, dsn := range []string{url, "postgresql" + strings.TrimPrefix(url, "postgres")} {
		db, err := store.Open(dsn)
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
		if got := show(t, db, "statement_timeout"); got != "30s" {
			t.Errorf("statement_timeout = %q, want the default 30s", got)
		}
		if got := db.Stats().MaxOpenConnections; got != store.DefaultMaxConns() {
			t.Errorf("pool size %d, want %d", got, store.DefaultMaxConns())
		}
	}
	db := openPostgres(t, "&pool_max_conns=3&pool_max_conn_lifetime=5m&statement_timeout=200&timezone=Europe/Paris")
	if got := db.Stats().MaxOpenConnections; got != 3 {
		t.Errorf("pool_max_conns=3 gave %d", got)
	}
	if got := show(t, db, "TimeZone"); got != "UTC" {
		t.Errorf("TimeZone = %q despite the URL, want UTC", got)
	}
	if _, err := db.Exec("SELECT pg_sleep(2)"); err == nil || !strings.Contains(err.Error(), "statement timeout") {
		t.Errorf("a statement over statement_timeout=200 ended with %v", err)
	}
	var at time.Time
	if err := db.Get(&at, "SELECT $1::timestamptz", store.FormatTime(time.Date(2024, 1, 5, 10, 0, 0, 123456000, time.UTC))); err != nil ||
		!at.Equal(time.Date(2024, 1, 5, 10, 0, 0, 123456000, time.UTC)) {
		t.Errorf("FormatTime read back as %v, %v", at, err)
	}
	for _, bad := range []string{"&pool_max_conns=0", "&pool_max_conns=x", "&pool_max_conn_idle_time=soon"} {
		if db, err := store.Open(testservers.Postgres(t) + bad); err == nil {
			db.Close()
			t.Errorf("%s accepted", bad)
		}
	}
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
	migs := []store.Migration{
		{App: "shop", Name: "0001_initial", Up: store.SQL(`CREATE TABLE "shop_item" ("id" serial NOT NULL PRIMARY KEY)`)},
		{App: "shop", Name: "0002_price", Up: func(ctx context.Context, tx *sqlx.Tx) error {
			time.Sleep(50 * time.Millisecond) // widen the window of a race
			_, err := tx.ExecContext(ctx, `ALTER TABLE "shop_item" ADD COLUMN "price" integer NOT NULL DEFAULT 0`)
			return err
		}},
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
			if results[i], err = store.Migrate(context.Background(), db, migs...); err != nil {
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
	if idle := db.Stats().Idle; idle < 2 {
		t.Fatalf("%d idle connections, want the pool filled", idle)
	}
	admin, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
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
