package store_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestInTxDoesNotRepeatACommitOfUnknownOutcome: a COMMIT answered with
// the end of its session (PostgreSQL restarting as it commits) may have
// committed, as here: InTx returns the error instead of running the
// transaction again, so that its row is not stored twice.
func TestInTxDoesNotRepeatACommitOfUnknownOutcome(t *testing.T) {
	fault := testservers.FaultyPostgres(t)
	fault.DB.MustExec(`CREATE TABLE t (x integer)`)
	fault.DuringCommit()
	runs := 0
	err := store.InTx(context.Background(), fault.DB, func(tx *sqlx.Tx) error {
		runs++
		_, err := tx.Exec(`INSERT INTO t VALUES (1)`)
		return err
	})
	if !fault.Tripped(t) {
		t.Fatal("the session was not ended at the COMMIT")
	}
	if err == nil || !store.IsRetryable(err) || runs != 1 {
		t.Errorf("InTx = %v after %d runs, want the session's end after 1", err, runs)
	}
	var n int
	if err := fault.DB.Get(&n, `SELECT count(*) FROM t`); err != nil || n != 1 {
		t.Errorf("%d rows, %v; want the one committed", n, err)
	}
}
