package testservers_test

import (
	"context"
	"os"
	"testing"

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
