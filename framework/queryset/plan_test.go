package queryset

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
)

type item struct {
	ID      int64    `db:"id"`
	Created string   `db:"created"`
	Score   *int     `db:"score"`
	Label   *string  `db:"label"`
	Weight  *float64 `db:"weight"`
	Owner   string   `db:"owner"`
}

func openItems(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	for _, q := range []string{
		`CREATE TABLE "items" ("id" integer PRIMARY KEY, "created" text NOT NULL, "score" integer NULL, "label" text NULL, "weight" real NULL, "owner_id" integer NOT NULL)`,
		`CREATE INDEX "items_created" ON "items" ("created")`,
		`CREATE TABLE "owners" ("id" integer PRIMARY KEY, "name" text NOT NULL)`,
		`INSERT INTO "owners" VALUES (1, 'ann'), (2, 'bo')`,
		`INSERT INTO "items" VALUES (1, 'b', 3, 'x', 1.5, 1), (2, 'a', NULL, 'y', NULL, 2), (3, 'c', 1, NULL, 0.25, 1), (4, 'd', NULL, NULL, 2, 2), (5, 'e', 3, 'X', 1e20, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

const itemsQuery = `SELECT i."id" AS "id", i."created" AS "created", i."score" AS "score", i."label" AS "label", ` +
	`i."weight" AS "weight", o."name" AS "owner" FROM "items" i JOIN "owners" o ON o."id" = i."owner_id"`

// TestSeekUsesTheIndex: a cursor page (Seek, OrderBy, LIMIT) is one query
// that walks the ordering column's index, also through a join.
func TestSeekUsesTheIndex(t *testing.T) {
	db := openItems(t)
	src := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	for _, desc := range []bool{false, true} {
		op := query.Greater
		if desc {
			op = query.Less
		}
		page := src.OrderBy(query.Order{Field: "created", Desc: desc}).Seek("created", op, "b").(*SQLSource[item])
		q := page.sql('s')
		text := queryPlan(t, db, q, page.args([]any{5, 0})...)
		if !strings.Contains(text, "INDEX items_created") || strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("plan of %s\n= %s", q, text)
		}
	}
}

// TestNullsAndFloatsAgree compares NULL ordering, float positions and case
// folding of the two sources on nullable columns.
func TestNullsAndFloatsAgree(t *testing.T) {
	db := openItems(t)
	sqlSrc := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	all, err := sqlSrc.Slice(context.Background(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var rows []item
	for _, it := range all {
		rows = append(rows, *it)
	}
	mem := MustSlice(rows)
	for _, q := range []func(Source[item]) Source[item]{
		func(s Source[item]) Source[item] {
			return s.OrderBy(query.Order{Field: "score"}, query.Order{Field: "id"})
		},
		func(s Source[item]) Source[item] {
			return s.OrderBy(query.Order{Field: "score", Desc: true}, query.Order{Field: "id"})
		},
		func(s Source[item]) Source[item] {
			return s.OrderBy(query.Order{Field: "label"}, query.Order{Field: "id", Desc: true})
		},
		func(s Source[item]) Source[item] { return s.OrderBy(query.Order{Field: "weight", Desc: true}) },
		func(s Source[item]) Source[item] { return s.Seek("score", query.Greater, "1") },
		func(s Source[item]) Source[item] { return s.Seek("weight", query.Less, "1.5") },
		func(s Source[item]) Source[item] { return s.Filter("score", "3").Filter("owner", "ann") },
		func(s Source[item]) Source[item] { return s.Search([]string{"label"}, []string{"x"}) },
	} {
		a, b := itemIDs(t, q(sqlSrc)), itemIDs(t, q(mem))
		if !slices.Equal(a, b) {
			t.Errorf("sql %v, slice %v", a, b)
		}
	}
	want := map[int64][2]string{1: {"3", "1.5"}, 2: {"None", "None"}, 3: {"1", "0.25"}, 5: {"3", "1e+20"}}
	for _, it := range all {
		w, ok := want[it.ID]
		if !ok {
			continue
		}
		score, _ := sqlSrc.Position(it, "score")
		weight, _ := mem.Position(it, "weight")
		if score != w[0] || weight != w[1] {
			t.Errorf("item %d positions %q %q, want %v", it.ID, score, weight, w)
		}
	}
}

// queryPlan is SQLite's plan of q, its steps joined by "; ".
func queryPlan(t *testing.T, db *sqlx.DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.Queryx("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		cols, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		plan = append(plan, cols[len(cols)-1].(string))
	}
	return strings.Join(plan, "; ")
}

func itemIDs(t *testing.T, s Source[item]) []int64 {
	t.Helper()
	items, err := s.Slice(context.Background(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func TestSetupErrors(t *testing.T) {
	db := openItems(t)
	for name, c := range map[string]SQLConfig{
		"nothing to read":      {},
		"unknown key":          {Table: "items", Key: "nope"},
		"unknown column":       {Table: "items", Columns: []string{"nope"}},
		"columns and no table": {Query: itemsQuery, Columns: []string{"score"}},
		"unknown ordering":     {Table: "items", Ordering: []query.Order{{Field: "nope"}}},
	} {
		if _, err := NewSQL[item](db, c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	type untagged struct{ ID int }
	if _, err := NewSlice([]untagged{}); err == nil {
		t.Error("a struct without db tags should be refused")
	}
	type unsupported struct {
		Parts []struct{ N int } `db:"parts"`
	}
	if _, err := NewSlice([]unsupported{}); err == nil {
		t.Error("a column of a slice of structs should be refused")
	}
}

// TestCacheIsBounded: client-chosen shapes (orderings, many search terms)
// do not grow the SQL cache past its bound, and still answer once it is full.
func TestCacheIsBounded(t *testing.T) {
	db := openItems(t)
	src := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	fields := []string{"id", "created", "score", "label", "weight", "owner"}
	shapes := 0
	for _, a := range fields {
		for _, b := range fields {
			for _, c := range fields {
				for dirs := range 8 {
					o := []query.Order{{Field: a, Desc: dirs&1 != 0}, {Field: b, Desc: dirs&2 != 0}, {Field: c, Desc: dirs&4 != 0}}
					src.OrderBy(o...).(*SQLSource[item]).sql('s')
					shapes++
				}
			}
		}
	}
	if shapes <= maxCachedShapes {
		t.Fatalf("only %d shapes tried", shapes)
	}
	entries := 0
	src.t.cache.Range(func(_, _ any) bool { entries++; return true })
	if entries > maxCachedShapes || entries < maxCachedShapes/2 {
		t.Errorf("cache holds %d shapes", entries)
	}
	terms := make([]string, 40)
	got := itemIDs(t, src.OrderBy(query.Order{Field: "owner"}, query.Order{Field: "weight", Desc: true}, query.Order{Field: "id"}).
		Search([]string{"created", "owner"}, terms).Seek("id", query.Greater, "1"))
	if !slices.Equal(got, []int64{5, 3, 4, 2}) {
		t.Errorf("a query once the cache is full = %v", got)
	}
	if got := src.OrderBy(query.Order{Field: "score"}, query.Order{Field: "score", Desc: true}, query.Order{Field: "id", Desc: true}).Ordering(); len(got) != 2 || got[1].Field != "id" {
		t.Errorf("repeated ordering fields = %v", got)
	}
}

// TestMissingColumnIsAnError: a column of T that the table lacks fails
// loudly rather than reading as a string.
func TestMissingColumnIsAnError(t *testing.T) {
	db := openItems(t)
	src := MustSQL[item](db, SQLConfig{Table: "items"})
	if _, err := src.Filter("id", "1").Slice(context.Background(), 0, 1); err == nil || !strings.Contains(err.Error(), "owner") {
		t.Errorf("count over a table without the owner column: %v", err)
	}
}

// TestLookupUsesTheKey: a lookup by key through a join (a detail view's
// query) searches both tables by their primary keys, and finds the item
// whether the value came as text or not.
func TestLookupUsesTheKey(t *testing.T) {
	db := openItems(t)
	src := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	one := src.Filter("id", "3").(*SQLSource[item])
	q := one.sql('r')
	text := queryPlan(t, db, q, one.args(nil)...)
	if strings.Count(text, "USING INTEGER PRIMARY KEY") != 2 {
		t.Errorf("plan of %s\n= %s", q, text)
	}
	for _, value := range []string{"3", "03", " 3"} {
		items, err := src.Filter("id", value).Slice(context.Background(), 0, 1)
		if err != nil || len(items) != 1 || items[0].ID != 3 || items[0].Owner != "ann" {
			t.Errorf("id %q: %v %v", value, items, err)
		}
	}
}

// TestLateRowLookupSkipsOverTheTable: a deep page of a source with
// TableRows walks the table alone for its OFFSET, where the plain query
// joins every row it skips; it is taken only while the source is
// unfiltered and ordered by the table's columns.
func TestLateRowLookupSkipsOverTheTable(t *testing.T) {
	db := openItems(t)
	src := MustSQL[item](db, SQLConfig{Table: "items", Query: itemsQuery, Columns: []string{"created", "score"},
		Ordering: []query.Order{{Field: "created", Desc: true}}, TableRows: true})
	plan := queryPlan(t, db, src.lateSQL(LateRowLookup, 10))
	if !strings.Contains(plan, "SCAN items") || strings.Count(plan, "SEARCH o") != 1 {
		t.Errorf("plan of %s\n= %s", src.lateSQL(LateRowLookup, 10), plan)
	}
	if plain := queryPlan(t, db, src.sql('r')+" LIMIT 10 OFFSET 100"); strings.Contains(plain, "SCAN items") {
		t.Errorf("the plain query's plan = %s", plain)
	}
	for name, c := range map[string]struct {
		s    *SQLSource[item]
		want bool
	}{
		"default":         {src, true},
		"by the key":      {src.OrderBy(query.Order{Field: "id"}).(*SQLSource[item]), true},
		"by a join":       {src.OrderBy(query.Order{Field: "owner"}).(*SQLSource[item]), false},
		"by a read-only":  {src.OrderBy(query.Order{Field: "label"}).(*SQLSource[item]), false},
		"filtered":        {src.Filter("score", "3").(*SQLSource[item]), false},
		"seeking":         {src.Seek("created", query.Less, "c").(*SQLSource[item]), false},
		"without the tag": {MustSQL[item](db, SQLConfig{Table: "items", Query: itemsQuery, Columns: []string{"created"}}), false},
	} {
		if got := c.s.lateLookup(); got != c.want {
			t.Errorf("%s: lateLookup = %v, want %v", name, got, c.want)
		}
	}
}
