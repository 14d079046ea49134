package testservers_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

func TestPostgresDatabasesAreFreshAndSeparate(t *testing.T) {
	ctx := context.Background()
	a, b := testservers.Postgres(t), testservers.Postgres(t)
	if a == b {
		t.Fatalf("two calls gave one database %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, `CREATE TABLE t (x integer)`); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	if _, err := cb.Exec(ctx, `SELECT * FROM t`); err == nil {
		t.Error("the second database sees the first one's table")
	}
	var collation string
	if err := cb.QueryRow(ctx, `SELECT datcollate FROM pg_database WHERE datname = current_database()`).Scan(&collation); err != nil || collation != "C" {
		t.Errorf("collation %q, %v; want C", collation, err)
	}
}

func TestRedisStartsStopsAndRestarts(t *testing.T) {
	r := testservers.StartRedis(t)
	if err := testservers.Ping(r.Addr); err != nil {
		t.Fatal(err)
	}
	r.Stop()
	if err := testservers.Ping(r.Addr); err == nil {
		t.Error("redis answers after Stop")
	}
	r.Stop()
	r.Restart(t)
	if err := testservers.Ping(r.Addr); err != nil {
		t.Errorf("redis does not answer after Restart: %v", err)
	}
}

// TestPostgresServerFreezesStopsAndStartsAgain: a cluster of the test's
// own keeps its data across a stop and a kill, and a frozen one answers
// nothing until it is thawed.
func TestPostgresServerFreezesStopsAndStartsAgain(t *testing.T) {
	s := testservers.StartPostgres(t)
	url := s.Database(t)
	exec := func(statement string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, statement)
		return err
	}
	if err := exec(`CREATE TABLE t (x integer); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	s.Freeze(t)
	if err := exec(`SELECT 1`); err == nil {
		t.Error("a frozen server answered")
	}
	s.Thaw(t)
	if err := exec(`SELECT 1`); err != nil {
		t.Errorf("after Thaw: %v", err)
	}
	s.Stop(t)
	if err := exec(`SELECT 1`); err == nil {
		t.Error("a stopped server answered")
	}
	s.Start(t)
	if err := exec(`INSERT INTO t VALUES (2)`); err != nil {
		t.Errorf("after Stop and Start: %v", err)
	}
	s.Kill(t)
	s.Start(t)
	if err := exec(`DO $$ BEGIN IF (SELECT count(*) FROM t) <> 2 THEN RAISE 'rows lost'; END IF; END $$`); err != nil {
		t.Errorf("after Kill and Start: %v", err)
	}
}

// TestPgBouncerPoolsTransactions: PgBouncer reaches the database behind
// it, refuses a startup parameter it does not know, and pools by
// transaction: a session's SET may be seen by another client.
func TestPgBouncerPoolsTransactions(t *testing.T) {
	ctx := context.Background()
	direct := testservers.Postgres(t)
	url := testservers.PgBouncer(t, direct)
	if url == direct {
		t.Fatalf("PgBouncer's URL is PostgreSQL's: %s", url)
	}
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var db string
	if err := c.QueryRow(ctx, `SELECT current_database()`, pgx.QueryExecModeSimpleProtocol).Scan(&db); err != nil || !strings.HasSuffix(direct, "/"+db+"?sslmode=disable") {
		t.Errorf("database %q, %v; want the one of %s", db, err, direct)
	}
	config, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	config.RuntimeParams["statement_timeout"] = "1000"
	if c, err := pgx.ConnectConfig(ctx, config); err == nil {
		c.Close(ctx)
		t.Error("PgBouncer took statement_timeout as a startup parameter")
	} else if !strings.Contains(err.Error(), "unsupported startup parameter") {
		t.Errorf("statement_timeout refused with %v", err)
	}
}
