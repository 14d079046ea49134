package queryset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
)

// ProtectedError is the error of a delete refused because rows of another
// model reference the row through a foreign key whose on_delete is PROTECT
// or RESTRICT (Django's ProtectedError and RestrictedError). Nothing was
// deleted.
type ProtectedError struct {
	// Model is the name of the model whose row was to be deleted.
	Model string
	// Via is the referencing model and field, "Book.author".
	Via string
	// Restricted reports RESTRICT rather than PROTECT.
	Restricted bool
}

// Error is Django's message: "Cannot delete some instances of model
// 'Author' because they are referenced through protected foreign keys:
// 'Book.author'."
func (e *ProtectedError) Error() string {
	kind := "protected"
	if e.Restricted {
		kind = "restricted"
	}
	return fmt.Sprintf("Cannot delete some instances of model '%s' because they are referenced through %s foreign keys: '%s'.", e.Model, kind, e.Via)
}

// maxCascade bounds how deep deletes cascade, against a cycle of foreign
// keys that keeps finding rows.
const maxCascade = 32

// collect applies, before rows of table whose key column holds one of
// keys are deleted, the on_delete of every foreign key of the models
// installed on the database (Installed) that references them, as
// Django's Collector: it refuses for
// PROTECT and RESTRICT, deletes the referencing rows for CASCADE (first
// applying their own references), sets the column to NULL or to its
// default for SET_NULL and SET_DEFAULT, and leaves DO_NOTHING to the
// database. It runs in tx, so a refusal deletes nothing, and returns the
// number of rows it deleted.
func (t *sqlTable) collect(ctx context.Context, tx *sqlx.Tx, model, table, key string, keys []any, depth int) (deleted int64, err error) {
	if len(keys) == 0 {
		return 0, nil
	}
	if depth > maxCascade {
		return 0, fmt.Errorf("queryset: deleting from %s cascades deeper than %d tables", table, maxCascade)
	}
	for _, r := range t.installed.ReferencesTo(table) {
		f := r.Field
		values := keys
		if f.Related.Column != key {
			var err error
			if values, err = t.column(ctx, tx, table, f.Related.Column, key, keys); err != nil {
				return 0, err
			}
		}
		refTable, col := store.QuoteName(r.Model.Meta.Table), store.QuoteName(f.Column)
		where := " WHERE " + col + " IN (" + marks(len(values)) + ")"
		switch f.Related.OnDelete {
		case models.Protect, models.Restrict:
			var one int
			err := tx.QueryRowContext(ctx, tx.Rebind("SELECT 1 FROM "+refTable+where+" LIMIT 1"), values...).Scan(&one)
			if err == nil {
				return 0, &ProtectedError{Model: model, Via: r.Model.Meta.Name + "." + f.Name, Restricted: f.Related.OnDelete == models.Restrict}
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return 0, err
			}
		case models.Cascade:
			pk := r.Model.PrimaryKey.Column
			sub, err := t.column(ctx, tx, r.Model.Meta.Table, pk, f.Column, values)
			if err != nil {
				return 0, err
			}
			n, err := t.collect(ctx, tx, r.Model.Meta.Name, r.Model.Meta.Table, pk, sub, depth+1)
			if err != nil {
				return 0, err
			}
			res, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM "+refTable+where), values...)
			if err != nil {
				return 0, err
			}
			m, err := res.RowsAffected()
			if err != nil {
				return 0, err
			}
			deleted += n + m
		case models.SetNull:
			if _, err := tx.ExecContext(ctx, tx.Rebind("UPDATE "+refTable+" SET "+col+" = NULL"+where), values...); err != nil {
				return 0, err
			}
		case models.SetDefault:
			// A literal default, which describing the model checked.
			args := append([]any{f.Default}, values...)
			if _, err := tx.ExecContext(ctx, tx.Rebind("UPDATE "+refTable+" SET "+col+" = ?"+where), args...); err != nil {
				return 0, err
			}
		}
	}
	return deleted, nil
}

// column reads the values of col of the rows of table whose where column
// holds one of values.
func (t *sqlTable) column(ctx context.Context, tx *sqlx.Tx, table, col, where string, values []any) ([]any, error) {
	rows, err := tx.QueryContext(ctx, tx.Rebind("SELECT "+store.QuoteName(col)+" FROM "+store.QuoteName(table)+
		" WHERE "+store.QuoteName(where)+" IN ("+marks(len(values))+")"), values...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []any
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// marks is n placeholders, comma-separated.
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }
