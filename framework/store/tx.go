package store

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
)

// MaxAttempts bounds how often InTx runs a transaction that the database
// aborted with a serialization failure or a deadlock.
const MaxAttempts = 5

// CommitOutcomeWait bounds how long InTx asks PostgreSQL again whether a
// transaction committed, when the answer to its COMMIT was lost: while
// the server restarts, say.
const CommitOutcomeWait = 10 * time.Second

// InTx runs fn in a transaction of db, committing when fn returns nil and
// rolling back otherwise (fn's error is returned as is). When ctx carries
// a transaction of db (an atomic request, Atomic), fn runs in it instead,
// within a savepoint that fn's error rolls back, as Django's nested
// atomic does: its writes join the outer transaction, its rows commit
// with it, and it is never run again by itself (a savepoint does not
// outlive its transaction's abort: the error goes to the outermost block,
// which alone may run again). A transaction
// that PostgreSQL aborted (IsRetryable: a serialization failure, a
// deadlock, the server ending the session) is run again, up to MaxAttempts
// times with a short random pause, so fn must have no effect outside tx.
//
// On PostgreSQL a COMMIT whose answer is lost (the connection lost or the
// session ended as it was answered, or no answer in time) does not leave
// the outcome unknown: InTx asks the server, on another connection,
// whether the transaction committed (pg_xact_status of its transaction
// id, read before the COMMIT), for up to CommitOutcomeWait. Committed is
// success; aborted is the COMMIT's error, and the transaction is run
// again if that is retryable. A COMMIT whose outcome cannot be learnt
// returns its error and is never run again (it may have committed).
func InTx(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	if current(ctx, db) != nil {
		return inSavepoint(ctx, db, fn)
	}
	for attempt := 1; ; attempt++ {
		unknown, err := inTx(ctx, db, fn)
		if err == nil || unknown || attempt == MaxAttempts || !IsRetryable(err) {
			return err
		}
		pause := time.Duration(rand.Int64N(int64(attempt) * int64(10*time.Millisecond)))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// inTx runs fn in one transaction; unknown reports that err is the
// COMMIT's and that the transaction may have committed.
func inTx(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) (unknown bool, err error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return false, err
	}
	return commit(ctx, db, tx)
}

// commit commits tx, a transaction of db; unknown reports that err is
// the COMMIT's and that the transaction may have committed (see InTx).
func commit(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx) (unknown bool, err error) {
	// The transaction id, if it has one (it wrote), and the server's start:
	// what to ask about should the COMMIT's answer be lost.
	var xid sql.NullString
	var started time.Time
	if DialectOf(db) == PostgreSQL {
		if err := tx.QueryRowContext(ctx, `SELECT pg_current_xact_id_if_assigned()::text, pg_postmaster_start_time()`).Scan(&xid, &started); err != nil {
			_ = tx.Rollback()
			return false, err
		}
	}
	err = tx.Commit()
	if err == nil || !xid.Valid || pgCode(err) != "" && !isSessionEnded(err) && !errors.Is(err, ErrUnavailable) {
		// Committed, nothing written, or refused by the server (a
		// deferred constraint, a serialization failure): known.
		return false, err
	}
	committed, known := commitStatus(ctx, db, xid.String, started)
	if committed {
		return false, nil
	}
	return !known, err
}

// commitStatus asks PostgreSQL whether transaction xid, of the server
// started at started, committed, again while the server cannot answer or
// the transaction is still in progress, for up to CommitOutcomeWait;
// known is false when it could not learn.
//
// A server that crashed gives the ids of transactions none of whose
// records reached its disk to new transactions: such an id may read as
// committed, by another. So when the server has started again since, an
// id at or past the next id of its last checkpoint (the one of its
// recovery, or of its shutdown, which counts every id given) is one that
// did not outlive the crash, and so did not commit. (A checkpoint made
// after the restart and after the id was given again would hide that;
// the wait is shorter than checkpoints are apart.)
func commitStatus(ctx context.Context, db *sqlx.DB, xid string, started time.Time) (committed, known bool) {
	ctx, cancel := context.WithTimeout(ctx, CommitOutcomeWait)
	defer cancel()
	for {
		var status sql.NullString
		err := db.QueryRowContext(ctx, `SELECT CASE WHEN pg_postmaster_start_time() <> $2 AND $1::xid8::text::numeric >= `+
			`(SELECT split_part(next_xid, ':', 1)::numeric * 4294967296 + split_part(next_xid, ':', 2)::numeric FROM pg_control_checkpoint()) `+
			`THEN 'aborted' ELSE pg_xact_status($1::xid8) END`, xid, started).Scan(&status)
		if err == nil && status.String != "in progress" {
			// NULL: too old for the server to tell.
			return status.String == "committed", status.Valid
		}
		select {
		case <-ctx.Done():
			return false, false
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// IsBusy reports whether err is SQLite's "database is locked" (SQLITE_BUSY)
// or "table is locked" (SQLITE_LOCKED): the operation may succeed if retried.
func IsBusy(err error) bool {
	code, _, _, ok := sqliteError(err)
	return ok && (code == sqliteBusy || code == sqliteLocked)
}

// SQLite's result codes that this package tells apart
// (https://www.sqlite.org/rescode.html).
const (
	sqliteBusy                = 5
	sqliteLocked              = 6
	sqliteConstraintFK        = 787  // SQLITE_CONSTRAINT_FOREIGNKEY
	sqliteConstraintPK        = 1555 // SQLITE_CONSTRAINT_PRIMARYKEY
	sqliteConstraintUnique    = 2067 // SQLITE_CONSTRAINT_UNIQUE
	sqliteUniqueFailedMessage = "UNIQUE constraint failed: "
)

// PostgreSQL's SQLSTATE codes that this package tells apart.
const (
	pgUniqueViolation      = "23505"
	pgSerializationFailure = "40001"
	pgDeadlockDetected     = "40P01"
)

// pgCode returns err's PostgreSQL SQLSTATE, "" when it has none.
func pgCode(err error) string {
	var e *pgconn.PgError
	if !errors.As(err, &e) {
		return ""
	}
	return e.Code
}

// IsRetryable reports whether err aborted a transaction that may succeed
// when run again from its start: PostgreSQL's serialization failure or
// deadlock, or the end of the session by the server (a restart, a
// fail-over), after which PostgreSQL has rolled the transaction back. (On
// SQLite a writer already waits 5 seconds for the lock: IsBusy.)
func IsRetryable(err error) bool {
	switch pgCode(err) {
	case pgSerializationFailure, pgDeadlockDetected:
		return true
	}
	return isSessionEnded(err)
}

// pgDataException is the class of PostgreSQL's data exceptions.
const pgDataException = "22"

// IsDataError reports whether err is a value PostgreSQL refused for its
// column's type (an SQLSTATE of class 22, data exception: "invalid input
// syntax for type integer", "integer out of range"), Django's
// DataError.
func IsDataError(err error) bool { return strings.HasPrefix(pgCode(err), pgDataException) }

// IsUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY
// constraint failure, as when two requests race to insert the same row.
func IsUniqueViolation(err error) bool {
	if pgCode(err) == pgUniqueViolation {
		return true
	}
	_, ext, _, ok := sqliteError(err)
	return ok && (ext == sqliteConstraintUnique || ext == sqliteConstraintPK)
}

// UniqueViolationColumns returns the columns of the UNIQUE constraint err
// failed (IsUniqueViolation), nil when err is no such failure or does not
// name them: SQLite's "UNIQUE constraint failed: books.title", or
// PostgreSQL's detail "Key (title)=(...) already exists.".
func UniqueViolationColumns(err error) []string {
	var text string
	var pg *pgconn.PgError
	_, ext, msg, lite := sqliteError(err)
	switch {
	case errors.As(err, &pg) && pg.Code == pgUniqueViolation:
		rest, ok := strings.CutPrefix(pg.Detail, "Key (")
		if text, _, ok = strings.Cut(rest, ")="); !ok {
			return nil
		}
	case lite && ext == sqliteConstraintUnique:
		var ok bool
		if _, text, ok = strings.Cut(msg, sqliteUniqueFailedMessage); !ok {
			return nil
		}
	default:
		return nil
	}
	var cols []string
	for _, c := range strings.Split(text, ",") {
		c = strings.TrimSpace(c)
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			c = c[i+1:] // SQLite names them table.column
		}
		cols = append(cols, strings.Trim(c, `"`))
	}
	return cols
}

// StorableText reports whether s can be stored in a text column of every
// dialect: valid UTF-8 without NUL characters, which PostgreSQL refuses
// (an error, where SQLite would find no row). A value that is not
// storable equals no stored text on PostgreSQL.
func StorableText(s string) bool {
	return utf8.ValidString(s) && !strings.Contains(s, "\x00")
}

// pgForeignKeyViolation is PostgreSQL's foreign_key_violation.
const pgForeignKeyViolation = "23503"

// IsForeignKeyViolation reports whether err is a write refused because a
// foreign key names no row of the table it references.
func IsForeignKeyViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == pgForeignKeyViolation
	}
	_, ext, _, ok := sqliteError(err)
	return ok && ext == sqliteConstraintFK
}

// ForeignKeyViolationColumn returns the column of the foreign key err
// failed (IsForeignKeyViolation), from PostgreSQL's detail "Key
// (owner_id)=(99) is not present in table ..."; "" when err does not
// name it, as SQLite's "FOREIGN KEY constraint failed" never does.
func ForeignKeyViolationColumn(err error) string {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Code != pgForeignKeyViolation {
		return ""
	}
	rest, ok := strings.CutPrefix(pg.Detail, "Key (")
	col, _, found := strings.Cut(rest, ")=")
	if !ok || !found || strings.Contains(col, ",") {
		return ""
	}
	return strings.Trim(col, `"`)
}
