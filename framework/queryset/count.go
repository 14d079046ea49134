package queryset

import (
	"context"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// Counter counts the rows of an SQLSource that has no filter, search or
// seek, in place of SELECT COUNT(*) over its query (SQLConfig.Counter).
// Page-number and limit/offset pagination count on every request, so this
// is the count strategy of their pages; a filtered source always counts
// exactly through its query.
type Counter interface {
	// CountRows returns the number of rows.
	CountRows(ctx context.Context, db *sqlx.DB) (int, error)
}

// Estimator is implemented by sources that can estimate their number of
// items faster than counting them: the count of EstimatedCount pages
// (package pagination) on very large tables.
type Estimator interface {
	// EstimateCount returns the number of items, or an estimate of it;
	// exact says which.
	EstimateCount(ctx context.Context) (n int, exact bool, err error)
}

// CountTable counts the rows of table alone: exact when every row of the
// table is one row of the source's Query, as with a Query that joins
// tables on NOT NULL foreign keys to add columns; Django counts such a
// queryset (select_related) the same way. It saves the join's lookup per
// row, but still reads the table's smallest index, so it grows with the
// table.
func CountTable(table string) Counter {
	return tableCounter("SELECT COUNT(*) FROM " + store.QuoteName(table))
}

type tableCounter string

func (q tableCounter) CountRows(ctx context.Context, db *sqlx.DB) (int, error) {
	return countOn(ctx, store.ReaderOf(db), db, string(q), nil)
}

// RowCounter is the row count of Table kept by triggers in a one-row
// table (Table + "_rowcount"): exact, since the triggers run in the
// transaction that inserts or deletes, and read in constant time whatever
// the table's size; each inserted or deleted row costs one more write.
// Apply its Migration before counting with it. Like CountTable, it counts
// the source when every row of Table is one row of its Query.
type RowCounter struct {
	// Table is the counted table.
	Table string
}

func (c RowCounter) counter() string { return store.QuoteName(c.Table + "_rowcount") }

// Migration creates the counter table, fills it with the table's current
// count and installs the triggers that keep it, recorded as app.name: on
// SQLite a trigger per inserted or deleted row, on PostgreSQL a trigger per
// statement that adds the number of rows it inserted or deleted.
func (c RowCounter) Migration(app, name string) migrations.Migration {
	table, counter := store.QuoteName(c.Table), c.counter()
	trigger := func(event string) string { return store.QuoteName(c.Table + "_rowcount_" + event) }
	create := []string{
		`CREATE TABLE ` + counter + ` ("rows" bigint NOT NULL)`,
		`INSERT INTO ` + counter + ` ("rows") SELECT COUNT(*) FROM ` + table,
	}
	fn := store.QuoteName(c.Table + "_rowcount")
	return migrations.Migration{App: app, Name: name, Operations: []migrations.Operation{migrations.RunSQL{
		SQL: append(create,
			`CREATE TRIGGER `+trigger("insert")+` AFTER INSERT ON `+table+
				` BEGIN UPDATE `+counter+` SET "rows" = "rows" + 1; END`,
			`CREATE TRIGGER `+trigger("delete")+` AFTER DELETE ON `+table+
				` BEGIN UPDATE `+counter+` SET "rows" = "rows" - 1; END`,
		),
		PostgreSQL: append(create,
			`CREATE FUNCTION `+fn+`() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN `+
				`IF TG_OP = 'INSERT' THEN UPDATE `+counter+` SET "rows" = "rows" + (SELECT COUNT(*) FROM "changed"); `+
				`ELSE UPDATE `+counter+` SET "rows" = "rows" - (SELECT COUNT(*) FROM "changed"); END IF; `+
				`RETURN NULL; END $$`,
			`CREATE TRIGGER `+trigger("insert")+` AFTER INSERT ON `+table+
				` REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION `+fn+`()`,
			`CREATE TRIGGER `+trigger("delete")+` AFTER DELETE ON `+table+
				` REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION `+fn+`()`,
		),
	}}}
}

// CountRows reads the counter.
func (c RowCounter) CountRows(ctx context.Context, db *sqlx.DB) (int, error) {
	return countOn(ctx, store.ReaderOf(db), db, `SELECT "rows" FROM `+c.counter(), nil)
}

// CachedCount returns a Counter that reuses c's count for up to maxAge: a
// count may be up to maxAge older than the latest write, and c runs at
// most once per maxAge (callers meanwhile wait for it). With a stale
// count a page-number page may list fewer items than its count promises,
// or the last pages may answer 404 until the count catches up.
func CachedCount(c Counter, maxAge time.Duration) Counter {
	return &cachedCounter{c: c, maxAge: maxAge}
}

type cachedCounter struct {
	c      Counter
	maxAge time.Duration

	mu sync.Mutex
	n  int
	at time.Time
}

func (c *cachedCounter) CountRows(ctx context.Context, db *sqlx.DB) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < c.maxAge {
		return c.n, nil
	}
	start := time.Now()
	n, err := c.c.CountRows(ctx, db)
	if err != nil {
		return 0, err
	}
	c.n, c.at = n, start
	return n, nil
}

// TableEstimate is an estimate of table's rows for SQLConfig.Estimator,
// read in constant time whatever the table's size. On PostgreSQL it is
// the planner's statistic, pg_class.reltuples, which autovacuum and
// ANALYZE keep (a table never analyzed is counted exactly instead). SQLite
// keeps no such statistic: there it is the table's count, cached for up to
// maxAge (CachedCount of CountTable).
func TableEstimate(table string, maxAge time.Duration) Counter {
	return &tableEstimate{table: table, cached: CachedCount(CountTable(table), maxAge)}
}

type tableEstimate struct {
	table  string
	cached Counter
}

func (e *tableEstimate) CountRows(ctx context.Context, db *sqlx.DB) (int, error) {
	if store.DialectOf(db) != store.PostgreSQL {
		return e.cached.CountRows(ctx, db)
	}
	var n float64
	err := db.QueryRowContext(ctx, `SELECT "reltuples" FROM "pg_class" WHERE "oid" = to_regclass($1)`, store.QuoteName(e.table)).Scan(&n)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		// Never vacuumed or analyzed (PostgreSQL 14 and later say -1).
		return CountTable(e.table).CountRows(ctx, db)
	}
	return int(n), nil
}
