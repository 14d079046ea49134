package store

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

// Querier runs statements: a *sqlx.DB, or a *sqlx.Tx of one.
type Querier interface {
	sqlx.ExtContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// On returns what a read of db made with ctx runs on: the transaction of
// db that ctx carries once it has begun (TxOf), so that the read sees
// its writes (and, on SQLite, does not wait for its lock); db itself
// otherwise.
func On(ctx context.Context, db *sqlx.DB) Querier {
	if tx := TxOf(ctx, db); tx != nil {
		return tx
	}
	return db
}

// Write runs fn, writes to db made with ctx: when ctx carries a
// transaction of db (an atomic request, Atomic), in a savepoint of it, as
// InTx runs a function, so that fn's writes commit or roll back with the
// transaction and fn's error undoes them alone; otherwise on db itself,
// each statement committing on its own.
func Write(ctx context.Context, db *sqlx.DB, fn func(q Querier) error) error {
	if current(ctx, db) == nil {
		return fn(db)
	}
	return inSavepoint(ctx, db, func(tx *sqlx.Tx) error { return fn(tx) })
}

// Exec runs the write q (with ? placeholders, rebound for db) as Write
// runs one, and returns how many rows it changed.
func Exec(ctx context.Context, db *sqlx.DB, q string, args ...any) (n int64, err error) {
	err = Write(ctx, db, func(tx Querier) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(q), args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
