package queryset

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/store"
)

// RelatedFinder is a source that looks rows of other tables up in its
// database, for the relational fields of a serializer (the queryset of
// DRF's PrimaryKeyRelatedField, SlugRelatedField and
// HyperlinkedRelatedField); generic views use it when their source is one.
type RelatedFinder interface {
	// FindRelated returns the key column's value, as text, of the row of
	// table whose column holds value (compared as an integer when integer
	// is true); found is false when no row does.
	FindRelated(ctx context.Context, table, column, value string, integer bool, key string) (string, bool, error)
}

// FindRelated runs SELECT key FROM table WHERE column = value, one row.
// A value its column cannot hold (not an integer, a NUL character) is in
// no row.
func (s *SQLSource[T]) FindRelated(ctx context.Context, table, column, value string, integer bool, key string) (string, bool, error) {
	var arg any = value
	if integer {
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return "", false, nil
		}
		arg = n
	} else if strings.ContainsRune(value, 0) {
		return "", false, nil
	}
	q := s.t.db.Rebind("SELECT " + store.QuoteName(key) + " FROM " + store.QuoteName(table) +
		" WHERE " + store.QuoteName(column) + " = ? LIMIT 1")
	var got any
	err := s.t.db.QueryRowContext(ctx, q, arg).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	switch k := got.(type) {
	case int64:
		return strconv.FormatInt(k, 10), true, nil
	case []byte:
		return string(k), true, nil
	case string:
		return k, true, nil
	}
	return "", false, errors.New("queryset: a related key is neither an integer nor text")
}
