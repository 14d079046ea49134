package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestWriteJoinsTheTransaction: Write runs on the database itself when
// the context carries no transaction, committing at once, and in a
// savepoint of the transaction it carries otherwise: its rows commit or
// roll back with the transaction, its error (a unique violation, which
// aborts a PostgreSQL transaction) undoes its writes alone, and On reads
// the transaction's rows once it has begun.
func TestWriteJoinsTheTransaction(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		ctx := context.Background()
		db.MustExec(`CREATE TABLE t (x integer PRIMARY KEY)`)
		insert := func(ctx context.Context, x int) error {
			return store.Write(ctx, db, func(q store.Querier) error {
				_, err := q.ExecContext(ctx, q.Rebind(`INSERT INTO t (x) VALUES (?)`), x)
				return err
			})
		}
		count := func(ctx context.Context) int {
			var n int
			if err := store.On(ctx, db).GetContext(ctx, &n, `SELECT count(*) FROM t`); err != nil {
				t.Fatal(err)
			}
			return n
		}

		if err := insert(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if got := rowsOf(t, db); !slices.Equal(got, []int{1}) {
			t.Fatalf("outside a transaction: committed %v, want [1]", got)
		}

		err := store.Atomic(ctx, db, func(ctx context.Context) error {
			if err := insert(ctx, 2); err != nil {
				return err
			}
			if err := insert(ctx, 1); !store.IsUniqueViolation(err) {
				t.Errorf("a duplicate in the transaction: %v, want a unique violation", err)
			}
			if n := count(ctx); n != 2 {
				t.Errorf("On in the transaction reads %d rows, want 2 (its own included)", n)
			}
			if got := rowsOf(t, db); !slices.Equal(got, []int{1}) {
				t.Errorf("before the commit, committed %v, want [1]", got)
			}
			return insert(ctx, 3)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := rowsOf(t, db); !slices.Equal(got, []int{1, 2, 3}) {
			t.Fatalf("after the commit: %v, want [1 2 3]", got)
		}

		err = store.Atomic(ctx, db, func(ctx context.Context) error {
			if err := insert(ctx, 4); err != nil {
				return err
			}
			return context.Canceled
		})
		if err != context.Canceled {
			t.Fatalf("a failed transaction: %v, want its function's error", err)
		}
		if got := rowsOf(t, db); !slices.Equal(got, []int{1, 2, 3}) {
			t.Fatalf("after a rolled-back transaction: %v, want [1 2 3]", got)
		}
	})
}
