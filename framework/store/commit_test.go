package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestInTxLearnsTheOutcomeOfALostCommit: a COMMIT answered with the end
// of its session (PostgreSQL restarting as it commits) may have
// committed, as here: InTx asks the server and, told that it did,
// succeeds without running the transaction again, so that its row is
// stored once and its client told so.
func TestInTxLearnsTheOutcomeOfALostCommit(t *testing.T) {
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
	if err != nil || runs != 1 {
		t.Errorf("InTx = %v after %d runs, want success after 1", err, runs)
	}
	var n int
	if err := fault.DB.Get(&n, `SELECT count(*) FROM t`); err != nil || n != 1 {
		t.Errorf("%d rows, %v; want the one committed", n, err)
	}
}

// TestInTxAsksTheOutcomeOfACommitPastItsDeadline: a COMMIT that has not
// answered within statement_timeout (a deferred trigger that takes its
// time) is canceled; InTx asks the server whether the transaction
// committed, learns that it did not, and returns the error without
// running it again: nothing is stored, and the client is told so.
func TestInTxAsksTheOutcomeOfACommitPastItsDeadline(t *testing.T) {
	db, err := store.Open(testservers.Postgres(t) + "&statement_timeout=500")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec(`CREATE TABLE t (x integer);
		CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$;
		CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow()`)
	runs := 0
	start := time.Now()
	err = store.InTx(context.Background(), db, func(tx *sqlx.Tx) error {
		runs++
		_, err := tx.Exec(`INSERT INTO t VALUES (1)`)
		return err
	})
	took := time.Since(start)
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM t`); err != nil {
		t.Fatal(err)
	}
	if !store.IsUnavailable(err) || n != 0 || runs != 1 {
		t.Errorf("InTx = %v after %d runs with %d rows stored, want the deadline's error, once, and nothing stored", err, runs, n)
	}
	if took > 500*time.Millisecond+store.CancelGrace+time.Second {
		t.Errorf("InTx took %v", took)
	}
}
