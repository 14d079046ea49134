package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
	"github.com/mattn/go-sqlite3"
)

// MaxAttempts bounds how often InTx runs a transaction that the database
// aborted with a serialization failure or a deadlock.
const MaxAttempts = 5

// InTx runs fn in a transaction of db, committing when fn returns nil and
// rolling back otherwise (fn's error is returned as is). A transaction
// that PostgreSQL aborted (IsRetryable: a serialization failure, a
// deadlock, the server ending the session) is run again, up to MaxAttempts
// times with a short random pause, so fn must have no effect outside tx.
// A failure whose outcome is unknown is never retried: a connection lost
// during COMMIT, or the session ended while the COMMIT was answered (it
// may have committed).
func InTx(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		committing, err := inTx(ctx, db, fn)
		if err == nil || attempt == MaxAttempts || !IsRetryable(err) || committing && isSessionEnded(err) {
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

// inTx runs fn in one transaction; committing reports whether err is the
// COMMIT's.
func inTx(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) (committing bool, err error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return false, err
	}
	return true, tx.Commit()
}

// IsBusy reports whether err is SQLite's "database is locked" (SQLITE_BUSY)
// or "table is locked" (SQLITE_LOCKED): the operation may succeed if retried.
func IsBusy(err error) bool {
	var e sqlite3.Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Code == sqlite3.ErrBusy || e.Code == sqlite3.ErrLocked
}

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
// SQLite a writer already waits BusyTimeout for the lock: IsBusy.)
func IsRetryable(err error) bool {
	switch pgCode(err) {
	case pgSerializationFailure, pgDeadlockDetected:
		return true
	}
	return isSessionEnded(err)
}

// IsUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY
// constraint failure, as when two requests race to insert the same row.
func IsUniqueViolation(err error) bool {
	if pgCode(err) == pgUniqueViolation {
		return true
	}
	var e sqlite3.Error
	if !errors.As(err, &e) {
		return false
	}
	return e.ExtendedCode == sqlite3.ErrConstraintUnique ||
		e.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
}

// StorableText reports whether s can be stored in a text column of every
// dialect: valid UTF-8 without NUL characters, which PostgreSQL refuses
// (an error, where SQLite would find no row). A value that is not
// storable equals no stored text on PostgreSQL.
func StorableText(s string) bool {
	return utf8.ValidString(s) && !strings.Contains(s, "\x00")
}
