package queryset_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

type counted struct {
	ID      int64  `db:"id"`
	Title   string `db:"title"`
	OwnerID int64  `db:"owner_id"`
	Owner   string `db:"owner"`
}

const countedQuery = `SELECT n."id", n."title", n."owner_id", o."name" AS "owner" FROM "notes" n JOIN "owners" o ON o."id" = n."owner_id"`

// countedDB migrates db to two owners and three notes, two of ann's.
func countedDB(t *testing.T, db *sqlx.DB) *sqlx.DB {
	t.Helper()
	key := map[store.Dialect]string{store.SQLite: "integer PRIMARY KEY", store.PostgreSQL: "serial PRIMARY KEY"}[store.DialectOf(db)]
	_, err := migrations.Migrate(context.Background(), db, migrations.Migration{App: "notes", Name: "0001", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{
		`CREATE TABLE "owners" ("id" ` + key + `, "name" text NOT NULL)`,
		`CREATE TABLE "notes" ("id" ` + key + `, "title" text NOT NULL, "owner_id" integer NOT NULL REFERENCES "owners" ("id"))`,
		`INSERT INTO "owners" ("name") VALUES ('ann'), ('bo')`,
		`INSERT INTO "notes" ("title", "owner_id") VALUES ('a', 1), ('b', 2), ('c', 1)`,
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func notes(t *testing.T, db *sqlx.DB, c queryset.Counter) *queryset.SQLSource[counted] {
	t.Helper()
	src, err := queryset.NewSQL[counted](db, queryset.SQLConfig{Table: "notes", Query: countedQuery,
		Columns: []string{"title", "owner_id"}, Counter: c})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func countOf(t *testing.T, src queryset.Source[counted]) int {
	t.Helper()
	n, err := src.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCounterCountsUnfilteredSources: the counter answers for the whole
// source, and a filtered or searched source still counts its own rows.
func TestCounterCountsUnfilteredSources(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		countedDB(t, db)
		ctx := context.Background()
		if _, err := db.Exec(`INSERT INTO "notes" ("title", "owner_id") VALUES ('d', 2)`); err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]queryset.Counter{
			"table":  queryset.CountTable("notes"),
			"cached": queryset.CachedCount(queryset.CountTable("notes"), time.Hour),
		} {
			src := notes(t, db, c)
			if n := countOf(t, src); n != 4 {
				t.Errorf("%s: count %d, want 4", name, n)
			}
			if n := countOf(t, src.Filter("owner", "ann")); n != 2 {
				t.Errorf("%s: ann's count %d, want 2", name, n)
			}
			if n := countOf(t, src.Search([]string{"title"}, []string{"D"})); n != 1 {
				t.Errorf("%s: search count %d, want 1", name, n)
			}
			if n, err := queryset.CountTable("notes").CountRows(ctx, db); err != nil || n != 4 {
				t.Errorf("%s: CountRows %d %v", name, n, err)
			}
		}
	})
}

func TestRowCounterFollowsWrites(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		countedDB(t, db)
		ctx := context.Background()
		rc := queryset.RowCounter{Table: "notes"}
		if _, err := migrations.Migrate(ctx, db, rc.Migration("notes", "0002_rowcount")); err != nil {
			t.Fatal(err)
		}
		src := notes(t, db, rc)
		if n := countOf(t, src); n != 3 {
			t.Fatalf("count %d after the migration, want 3", n)
		}
		note := &counted{Title: "e", OwnerID: 2}
		if err := src.Insert(ctx, note); err != nil {
			t.Fatal(err)
		}
		if n := countOf(t, src); n != 4 {
			t.Fatalf("count %d after an insert, want 4", n)
		}
		if _, err := db.Exec(`DELETE FROM "notes" WHERE "owner_id" = 1`); err != nil {
			t.Fatal(err)
		}
		if n := countOf(t, src); n != 2 {
			t.Fatalf("count %d after deleting ann's two notes, want 2", n)
		}
		tx, err := db.Beginx()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO "notes" ("title", "owner_id") VALUES ('z', 1)`); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if n := countOf(t, src); n != 2 {
			t.Fatalf("count %d after a rolled back insert, want 2", n)
		}
		if n := countOf(t, src.Filter("owner", "bo")); n != 2 {
			t.Fatalf("bo's count %d, want 2", n)
		}
	})
}

func TestCachedCountIsStaleWithinItsAge(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		countedDB(t, db)
		hour := notes(t, db, queryset.CachedCount(queryset.CountTable("notes"), time.Hour))
		fresh := notes(t, db, queryset.CachedCount(queryset.CountTable("notes"), 0))
		if a, b := countOf(t, hour), countOf(t, fresh); a != 3 || b != 3 {
			t.Fatalf("counts %d and %d, want 3", a, b)
		}
		if _, err := db.Exec(`INSERT INTO "notes" ("title", "owner_id") VALUES ('d', 2)`); err != nil {
			t.Fatal(err)
		}
		if n := countOf(t, hour); n != 3 {
			t.Errorf("cached for an hour: %d, want the stale 3", n)
		}
		if n := countOf(t, fresh); n != 4 {
			t.Errorf("cached for no time: %d, want 4", n)
		}
	})
}

// TestTableEstimate: on PostgreSQL the estimate is the planner's
// statistic (exact after ANALYZE, stale until the next), a table never
// analyzed is counted; on SQLite it is a cached count.
func TestTableEstimate(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		countedDB(t, db)
		ctx := context.Background()
		est := queryset.TableEstimate("notes", time.Hour)
		src, err := queryset.NewSQL[counted](db, queryset.SQLConfig{Table: "notes", Query: countedQuery, Estimator: est})
		if err != nil {
			t.Fatal(err)
		}
		estimate := func() int {
			t.Helper()
			n, exact, err := src.EstimateCount(ctx)
			if err != nil || exact {
				t.Fatalf("estimate %d %v %v", n, exact, err)
			}
			return n
		}
		pg := store.DialectOf(db) == store.PostgreSQL
		if n := estimate(); n != 3 {
			t.Fatalf("first estimate %d, want 3", n)
		}
		if pg {
			if _, err := db.Exec(`INSERT INTO "notes" ("title", "owner_id") SELECT 'x', 1 FROM generate_series(1, 997)`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`ANALYZE "notes"`); err != nil {
				t.Fatal(err)
			}
			if n := estimate(); n != 1000 {
				t.Errorf("after ANALYZE: %d, want 1000", n)
			}
		}
		if _, err := db.Exec(`INSERT INTO "notes" ("title", "owner_id") VALUES ('y', 2)`); err != nil {
			t.Fatal(err)
		}
		want := 3
		if pg {
			want = 1000
		}
		if n := estimate(); n != want {
			t.Errorf("after an insert: %d, want the stale %d", n, want)
		}
		if n := countOf(t, src); n != want+1 {
			t.Errorf("exact count %d, want %d", n, want+1)
		}
	})
}
