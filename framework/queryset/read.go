package queryset

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// rows are the rows of a read query: database/sql's, or those of the
// store's native PostgreSQL reader.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// read runs q, a read query, on db: through the table's store.Reader when
// db is the table's database (not a transaction, nor its *sql.DB, which
// writes pass) and it has one, else through database/sql. A read of the
// table's database runs in the transaction of it that ctx carries, once
// begun (store.TxOf), to see its writes.
func (t *sqlTable) read(ctx context.Context, db queryer, q string, args []any) (rows, error) {
	if db == queryer(t.db) {
		if tx := store.TxOf(ctx, t.db); tx != nil {
			return readOn(ctx, nil, tx, q, args)
		}
		return readOn(ctx, t.reader, db, q, args)
	}
	return readOn(ctx, nil, db, q, args)
}

// readOn runs q on r, the reader of db, or on db when r is nil.
func readOn(ctx context.Context, r *store.Reader, db queryer, q string, args []any) (rows, error) {
	if r != nil {
		rs, err := r.Query(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		return rs, nil
	}
	rs, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return rs, nil
}

// count runs q, a query of one integer, on the table's database, in
// the transaction of it that ctx carries once begun (store.TxOf).
func (t *sqlTable) count(ctx context.Context, q string, args []any) (int, error) {
	if tx := store.TxOf(ctx, t.db); tx != nil {
		var n int
		err := tx.QueryRowContext(ctx, q, args...).Scan(&n)
		return n, err
	}
	return countOn(ctx, t.reader, t.db, q, args)
}

// countOn runs q, a query of one integer, on r, the reader of db, or on
// db when r is nil; no row is sql.ErrNoRows.
func countOn(ctx context.Context, r *store.Reader, db *sqlx.DB, q string, args []any) (int, error) {
	var n int
	if r == nil {
		err := db.QueryRowContext(ctx, q, args...).Scan(&n)
		return n, err
	}
	rs, err := r.Query(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	defer rs.Close()
	if !rs.Next() {
		if err := rs.Err(); err != nil {
			return 0, err
		}
		return 0, sql.ErrNoRows
	}
	if err := rs.Scan(&n); err != nil {
		return 0, err
	}
	return n, rs.Close()
}
