package store_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestPoolStatsOf: a PostgreSQL database's pool figures are pgxpool's,
// which keeps its connections idle between operations (database/sql's
// statistics have none idle) and counts those a transaction holds, for
// the *sql.DB OpenWith's Options.OpenDB made too; a closed database, an
// SQLite one or a *sql.DB of no Open have none.
func TestPoolStatsOf(t *testing.T) {
	url := testservers.Postgres(t)
	var wrapped *sql.DB
	db, err := store.OpenWith(url+"&pool_max_conns=3", store.Options{OpenDB: func(c driver.Connector) *sql.DB {
		wrapped = sql.OpenDB(c)
		return wrapped
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.DB != wrapped {
		t.Fatal("OpenWith's database is not Options.OpenDB's")
	}
	ctx := context.Background()
	tx1, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx2, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := store.PoolStatsOf(db.DB)
	if !ok || s.MaxConns != 3 || s.TotalConns != 2 || s.AcquiredConns != 2 || s.IdleConns != 0 || s.NewConnsCount != 2 {
		t.Errorf("two transactions held: %+v %v", s, ok)
	}
	if err := tx1.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := tx2.Rollback(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := db.ExecContext(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
	}
	s, ok = store.PoolStatsOf(db.DB)
	if !ok || s.TotalConns != 2 || s.IdleConns != 2 || s.AcquiredConns != 0 || s.NewConnsCount != 2 || s.AcquireCount < 6 {
		t.Errorf("between operations: %+v %v", s, ok)
	}
	if idle := db.Stats().Idle; idle != 0 {
		t.Errorf("database/sql keeps %d connections idle, want none (the pool keeps them)", idle)
	}
	_ = db.Close()
	if s, ok := store.PoolStatsOf(db.DB); ok {
		t.Errorf("a closed database's pool: %+v", s)
	}

	lite, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	if s, ok := store.PoolStatsOf(lite.DB); ok {
		t.Errorf("SQLite's pool: %+v", s)
	}
	if s, ok := store.PoolStatsOf(&sql.DB{}); ok {
		t.Errorf("a *sql.DB of no Open: %+v", s)
	}
}
