package store

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"
)

// ResetSequence sets the sequence of table's serial column past the
// largest value in the column, as Django's sqlsequencereset does, after
// rows were inserted with explicit keys; PostgreSQL would otherwise hand
// out keys that exist. On SQLite, whose AUTOINCREMENT follows explicit
// keys by itself, it does nothing.
func ResetSequence(ctx context.Context, tx *sqlx.Tx, table, column string) error {
	if DialectOf(tx) != PostgreSQL {
		return nil
	}
	t, c := QuoteName(table), QuoteName(column)
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(`+c+`), 1), MAX(`+c+`) IS NOT NULL) FROM `+t,
		t, column)
	return err
}

// QuoteName quotes an SQL identifier (a table or column name) as Django's
// quote_name does on SQLite and PostgreSQL: in double quotes, a double
// quote doubled.
func QuoteName(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
