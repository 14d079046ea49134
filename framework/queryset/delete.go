package queryset

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// DeleteAll deletes every row the source holds and returns the number
// of rows deleted, those that the on_delete of foreign keys to them
// cascaded to included: Django's QuerySet.delete() (its total). The
// on_delete of the foreign keys that reference the rows applies first,
// as Delete's, in the same transaction (a ProtectedError deletes
// nothing). As Django's, it runs no BeforeDelete hook. It joins the
// transaction ctx carries (an atomic request's, Atomic's), as
// store.Write does.
func (s *SQLSource[T]) DeleteAll(ctx context.Context) (int64, error) {
	if len(s.t.writes) == 0 {
		return 0, ErrReadOnly
	}
	if s.st.err != nil {
		return 0, s.st.err
	}
	if s.st.none {
		return 0, nil
	}
	table := store.QuoteName(s.t.table)
	if len(s.t.installed.ReferencesTo(s.t.table)) == 0 {
		return store.Exec(ctx, s.t.db, "DELETE FROM "+table+s.rowsWhere(), s.args(nil)...)
	}
	// Other models reference the table: the rows' keys first, then their
	// on_delete, then the rows, in one transaction (Django's Collector).
	model := s.t.table
	if s.t.rules.desc != nil {
		model = s.t.rules.desc.Meta.Name
	}
	var n int64
	err := store.InTx(ctx, s.t.db, func(tx *sqlx.Tx) error {
		keys, err := s.keysOf(ctx, tx)
		if err != nil || len(keys) == 0 {
			return err
		}
		cascaded, err := s.t.collect(ctx, tx, model, s.t.table, s.t.key.Column, keys, 0)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM "+table+" WHERE "+store.QuoteName(s.t.key.Column)+
			" IN ("+marks(len(keys))+")"), keys...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		n += cascaded
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
