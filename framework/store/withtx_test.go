package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestWithTxJoinsTheCallersTransaction: writes made with WithTx's
// context (Write, InTx, Atomic) run in the caller's transaction, a
// nested Atomic as a savepoint whose error undoes its own writes alone;
// the rows are kept when the caller commits and gone when it rolls back,
// and the OnCommit callbacks run after a commit only, the AfterEnd ones
// either way.
func TestWithTxJoinsTheCallersTransaction(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		insert := atomicTable(t, db)
		for _, commit := range []bool{false, true} {
			tx, err := db.Beginx()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = tx.Rollback() }) // should the test stop before it ends
			ctx, end := store.WithTx(context.Background(), db, tx)
			if store.TxOf(ctx, db) != tx || !store.InAtomicBlock(ctx, db) {
				t.Fatal("the context does not carry the transaction")
			}
			if _, err := store.Exec(ctx, db, `INSERT INTO t (x) VALUES (?)`, 1); err != nil {
				t.Fatal(err)
			}
			failed := errors.New("failed")
			if err := store.Atomic(ctx, db, func(ctx context.Context) error {
				if err := insert(ctx, 2); err != nil {
					return err
				}
				store.OnCommit(ctx, func() { t.Error("the callback of a savepoint rolled back ran") })
				return failed
			}); !errors.Is(err, failed) {
				t.Fatalf("Atomic = %v, want its function's error", err)
			}
			if err := store.Atomic(ctx, db, func(ctx context.Context) error { return insert(ctx, 3) }); err != nil {
				t.Fatal(err)
			}
			var seen []int
			if err := store.On(ctx, db).SelectContext(ctx, &seen, `SELECT x FROM t ORDER BY x`); err != nil || !slices.Equal(seen, []int{1, 3}) {
				t.Errorf("in the transaction: rows %v (%v), want [1 3]", seen, err)
			}
			if rows := rowsOf(t, db); len(rows) != 0 {
				t.Errorf("before the transaction ended, others see rows %v", rows)
			}
			var committed, ended []int
			store.OnCommit(ctx, func() { committed = rowsOf(t, db) })
			store.AfterEnd(ctx, func() { ended = rowsOf(t, db) })
			if committed != nil || ended != nil {
				t.Error("a callback ran before the transaction ended")
			}
			want := []int{}
			if commit {
				want = []int{1, 3}
				err = tx.Commit()
			} else {
				err = tx.Rollback()
			}
			if err != nil {
				t.Fatal(err)
			}
			end(commit)
			if rows := rowsOf(t, db); !slices.Equal(rows, want) {
				t.Errorf("committed %v: rows %v, want %v", commit, rows, want)
			}
			if commit && !slices.Equal(committed, want) || !commit && committed != nil {
				t.Errorf("committed %v: the OnCommit callback saw %v", commit, committed)
			}
			if !slices.Equal(ended, want) {
				t.Errorf("committed %v: the AfterEnd callback saw %v, want %v", commit, ended, want)
			}
			if store.InAtomicBlock(ctx, db) {
				t.Error("the context still carries the transaction once ended")
			}
		}
	})
}
