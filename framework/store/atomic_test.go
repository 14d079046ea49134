package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// atomicTable makes table t, one integer key, and returns its insert.
func atomicTable(t *testing.T, db *sqlx.DB) func(ctx context.Context, x int) error {
	t.Helper()
	db.MustExec(`CREATE TABLE t (x integer PRIMARY KEY)`)
	q := db.Rebind(`INSERT INTO t (x) VALUES (?)`)
	return func(ctx context.Context, x int) error {
		return store.InTx(ctx, db, func(tx *sqlx.Tx) error {
			_, err := tx.ExecContext(ctx, q, x)
			return err
		})
	}
}

// rowsOf lists t's rows as another connection sees them: committed.
func rowsOf(t *testing.T, db *sqlx.DB) []int {
	t.Helper()
	xs := []int{}
	if err := db.Select(&xs, `SELECT x FROM t ORDER BY x`); err != nil {
		t.Fatal(err)
	}
	return xs
}

// TestAtomicCommitsThenRunsOnCommit: Atomic's writes commit when its
// function succeeds, and only then do the OnCommit callbacks run, once
// each, in order, seeing the rows committed; outside a transaction a
// callback runs at once (Django's on_commit).
func TestAtomicCommitsThenRunsOnCommit(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		insert := atomicTable(t, db)
		var ran []int
		seen := -1
		err := store.Atomic(context.Background(), db, func(ctx context.Context) error {
			for _, x := range []int{1, 2} {
				if err := insert(ctx, x); err != nil {
					return err
				}
				store.OnCommit(ctx, func() { ran = append(ran, x); seen = len(rowsOf(t, db)) })
			}
			if len(ran) != 0 || len(rowsOf(t, db)) != 0 {
				t.Errorf("before the commit: callbacks %v ran, rows %v seen by others", ran, rowsOf(t, db))
			}
			return nil
		})
		if err != nil || !slices.Equal(ran, []int{1, 2}) || seen != 2 || !slices.Equal(rowsOf(t, db), []int{1, 2}) {
			t.Errorf("Atomic = %v, callbacks %v (the last seeing %d rows), rows %v; want nil, [1 2] after the commit, [1 2]", err, ran, seen, rowsOf(t, db))
		}
		now := false
		store.OnCommit(context.Background(), func() { now = true })
		if !now {
			t.Error("OnCommit outside a transaction did not run at once")
		}
	})
}

// TestAtomicRollsBackWithItsCallbacks: an error of Atomic's function
// rolls its writes back, drops its OnCommit callbacks and is returned as
// is; a panic does the same and goes on.
func TestAtomicRollsBackWithItsCallbacks(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		insert := atomicTable(t, db)
		ran := false
		failed := errors.New("failed")
		err := store.Atomic(context.Background(), db, func(ctx context.Context) error {
			if err := insert(ctx, 1); err != nil {
				return err
			}
			store.OnCommit(ctx, func() { ran = true })
			return failed
		})
		if err != failed || ran || len(rowsOf(t, db)) != 0 {
			t.Errorf("Atomic = %v, callback ran %v, rows %v; want the error as is, no callback, no row", err, ran, rowsOf(t, db))
		}
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("recovered %v, want the panic to go on", p)
				}
			}()
			_ = store.Atomic(context.Background(), db, func(ctx context.Context) error {
				if err := insert(ctx, 2); err != nil {
					return err
				}
				store.OnCommit(ctx, func() { ran = true })
				panic("boom")
			})
		}()
		if ran || len(rowsOf(t, db)) != 0 {
			t.Errorf("after a panic: callback ran %v, rows %v; want neither", ran, rowsOf(t, db))
		}
		// The pool is whole: no transaction was left open.
		if err := insert(context.Background(), 3); err != nil || !slices.Equal(rowsOf(t, db), []int{3}) {
			t.Errorf("insert after = %v, rows %v", err, rowsOf(t, db))
		}
	})
}

// TestNestedInTxIsASavepoint: InTx with a context that carries a
// transaction runs in it (it reads the outer block's uncommitted row,
// which other connections do not see) within a savepoint: its error
// undoes its own writes and callbacks only, even after a statement that
// failed (PostgreSQL would refuse every later statement of the
// transaction otherwise), and the rest commits.
func TestNestedInTxIsASavepoint(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		insert := atomicTable(t, db)
		var ran []int
		add := func(ctx context.Context, x int) error {
			if err := insert(ctx, x); err != nil {
				return err
			}
			store.OnCommit(ctx, func() { ran = append(ran, x) })
			return nil
		}
		failed := errors.New("failed")
		err := store.Atomic(context.Background(), db, func(ctx context.Context) error {
			if err := add(ctx, 1); err != nil {
				return err
			}
			err := store.InTx(ctx, db, func(tx *sqlx.Tx) error {
				var n int
				if err := tx.Get(&n, `SELECT count(*) FROM t`); err != nil || n != 1 {
					t.Errorf("the nested InTx sees %d rows (%v), want the outer block's 1", n, err)
				}
				if err := add(ctx, 2); err != nil {
					return err
				}
				return failed
			})
			if err != failed {
				t.Errorf("nested InTx = %v, want its error as is", err)
			}
			if err := add(ctx, 1); !store.IsUniqueViolation(err) {
				t.Errorf("a duplicate row: %v, want a unique violation", err)
			}
			if n := len(rowsOf(t, db)); n != 0 {
				t.Errorf("other connections see %d rows before the commit", n)
			}
			return add(ctx, 3)
		})
		if err != nil || !slices.Equal(rowsOf(t, db), []int{1, 3}) || !slices.Equal(ran, []int{1, 3}) {
			t.Errorf("Atomic = %v, rows %v, callbacks %v; want nil, [1 3], [1 3]", err, rowsOf(t, db), ran)
		}
	})
}

// TestOnlyTheOutermostInTxRetries: a transaction the database aborted (a
// serialization failure) runs an outermost InTx again; Atomic, as
// Django's, never runs again, and an InTx nested in it is a savepoint that
// does not either: its error goes out, and nothing is written.
func TestOnlyTheOutermostInTxRetries(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		atomicTable(t, db)
		serialization := &pgconn.PgError{Code: "40001", Message: "could not serialize access"}
		q := db.Rebind(`INSERT INTO t (x) VALUES (?)`)
		runs := 0
		flaky := func(tx *sqlx.Tx) error {
			if _, err := tx.Exec(q, 1); err != nil {
				return err
			}
			if runs++; runs == 1 {
				return serialization
			}
			return nil
		}
		if err := store.InTx(context.Background(), db, flaky); err != nil || runs != 2 || !slices.Equal(rowsOf(t, db), []int{1}) {
			t.Errorf("outermost InTx = %v after %d runs, rows %v; want nil after 2, [1]", err, runs, rowsOf(t, db))
		}
		db.MustExec(`DELETE FROM t`)
		runs = 0
		err := store.Atomic(context.Background(), db, func(ctx context.Context) error {
			return store.InTx(ctx, db, flaky)
		})
		if err != serialization || runs != 1 || len(rowsOf(t, db)) != 0 {
			t.Errorf("InTx in Atomic = %v after %d runs, rows %v; want the serialization failure after 1, none", err, runs, rowsOf(t, db))
		}
	})
}

// TestAtomicBeginsAtFirstUse: a block that only reads begins no
// transaction (TxOf is nil until a write joins it), and a context whose
// transaction has ended is joined no more: a callback that writes with it
// writes on its own.
func TestAtomicBeginsAtFirstUse(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		insert := atomicTable(t, db)
		var inner context.Context
		err := store.Atomic(context.Background(), db, func(ctx context.Context) error {
			if !store.InAtomicBlock(ctx, db) || store.TxOf(ctx, db) != nil {
				t.Errorf("before a write: in a block %v, a transaction %v; want a block and no transaction", store.InAtomicBlock(ctx, db), store.TxOf(ctx, db))
			}
			if err := insert(ctx, 1); err != nil {
				return err
			}
			if store.TxOf(ctx, db) == nil {
				t.Error("no transaction after a write")
			}
			inner = ctx
			store.OnCommit(ctx, func() {
				if err := insert(ctx, 2); err != nil {
					t.Errorf("a write of a callback: %v", err)
				}
			})
			return nil
		})
		if err != nil || store.InAtomicBlock(inner, db) || !slices.Equal(rowsOf(t, db), []int{1, 2}) {
			t.Errorf("Atomic = %v, still in a block %v, rows %v; want nil, false, [1 2]", err, store.InAtomicBlock(inner, db), rowsOf(t, db))
		}
	})
}
