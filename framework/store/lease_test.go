package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// leaseDBs runs fn on a migrated SQLite file and a migrated PostgreSQL
// database.
func leaseDBs(t *testing.T, fn func(t *testing.T, db *sqlx.DB)) {
	t.Run("sqlite", func(t *testing.T) {
		db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		if _, err := migrations.Migrate(context.Background(), db, migrations.Lease); err != nil {
			t.Fatal(err)
		}
		fn(t, db)
	})
	t.Run("postgresql", func(t *testing.T) { fn(t, testservers.OpenPostgres(t, migrations.Lease)) })
}

// TestLeases: a held name makes another caller wait (here until its
// context ends), other names are free, a released name can be taken, and
// a lease never released is taken once its TTL has run out; the late
// release of the old holder does not free its successor's lease.
func TestLeases(t *testing.T) {
	leaseDBs(t, func(t *testing.T, db *sqlx.DB) {
		ctx := context.Background()
		a, b := store.Leases{DB: db}, store.Leases{DB: db} // two instances
		unlock, err := a.Lock(ctx, "item:1")
		if err != nil {
			t.Fatal(err)
		}
		// held fails if name is free: it waits for the name until its
		// context ends.
		held := func(l store.Leases, name string) {
			t.Helper()
			waiting, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
			if unlock, err := l.Lock(waiting, name); err == nil {
				unlock()
				t.Errorf("%s was free", name)
			}
		}
		held(b, "item:1")
		other, err := b.Lock(ctx, "item:2")
		if err != nil {
			t.Fatalf("another name: %v", err)
		}
		other()
		unlock()
		again, err := b.Lock(ctx, "item:1")
		if err != nil {
			t.Fatalf("after release: %v", err)
		}
		again()

		short := store.Leases{DB: db, TTL: time.Nanosecond}
		stale, err := short.Lock(ctx, "item:3") // its holder "dies": never released in time
		if err != nil {
			t.Fatal(err)
		}
		successor, err := b.Lock(ctx, "item:3")
		if err != nil {
			t.Fatalf("expired lease: %v", err)
		}
		stale()
		held(a, "item:3") // the old holder's release did not free it
		successor()
	})
}

// TestLeaseInATransactionIsGivenBackAtItsEnd: a lease unlocked within a
// transaction that its context carries is held until that transaction
// ends, committed or rolled back, so that its next holder reads what was
// written under it; on SQLite, giving it back at once would wait for the
// write lock that transaction holds.
func TestLeaseInATransactionIsGivenBackAtItsEnd(t *testing.T) {
	leaseDBs(t, func(t *testing.T, db *sqlx.DB) {
		db.MustExec(`CREATE TABLE t (x integer)`)
		held := func() int {
			var n int
			if err := db.Get(&n, `SELECT count(*) FROM "drf_lease"`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, failed := range []error{nil, errors.New("failed")} {
			err := store.Atomic(context.Background(), db, func(ctx context.Context) error {
				unlock, err := store.Leases{DB: db}.Lock(ctx, "item:1")
				if err != nil {
					return err
				}
				if err := store.InTx(ctx, db, func(tx *sqlx.Tx) error {
					_, err := tx.Exec(`INSERT INTO t VALUES (1)`)
					return err
				}); err != nil {
					return err
				}
				unlock()
				if n := held(); n != 1 {
					t.Errorf("%d leases held after unlock, within the transaction; want 1", n)
				}
				return failed
			})
			if err != failed || held() != 0 {
				t.Errorf("Atomic = %v, %d leases held after it; want %v, 0", err, held(), failed)
			}
		}
	})
}
