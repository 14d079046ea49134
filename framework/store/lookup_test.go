package store_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/store"
)

// TestLookupParam: on SQLite, a join's lookup (NewLookup, LookupParam) finds the
// same rows as a bare "?" through the same index, and its statement is
// planned once: a bare "?" makes SQLite prepare the statement again on
// every run, which shows in the driver's allocations.
func TestLookupParam(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE TABLE "users" ("id" integer NOT NULL PRIMARY KEY, "name" varchar(20) NOT NULL)`,
		`CREATE TABLE "keys" ("key" varchar(40) NOT NULL PRIMARY KEY, "user_id" integer NOT NULL REFERENCES "users" ("id"))`,
		`INSERT INTO "users" VALUES (1, 'ann'), (2, 'bo')`,
		`INSERT INTO "keys" VALUES ('k1', 1), ('7', 2)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	const join = `SELECT u."name" FROM "keys" k JOIN "users" u ON u."id" = k."user_id" WHERE k."key" = `
	lookup := store.NewLookup(join)
	plus, bare := lookup.For(db), join+"?"
	for _, key := range []any{"k1", "7", 7, "K1", "nope"} {
		var a, b []string
		if err := db.Select(&a, plus, key); err != nil {
			t.Fatal(err)
		}
		if err := db.Select(&b, bare, key); err != nil {
			t.Fatal(err)
		}
		if strings.Join(a, ",") != strings.Join(b, ",") {
			t.Errorf("key %#v: LookupParam finds %q, a bare parameter %q", key, a, b)
		}
	}
	var plan []struct {
		ID      int    `db:"id"`
		Parent  int    `db:"parent"`
		NotUsed int    `db:"notused"`
		Detail  string `db:"detail"`
	}
	if err := db.Select(&plan, "EXPLAIN QUERY PLAN "+plus, "k1"); err != nil {
		t.Fatal(err)
	}
	if len(plan) == 0 || !strings.Contains(plan[0].Detail, "USING INDEX sqlite_autoindex_keys_1 (key=?)") {
		t.Errorf("plan %+v, want a search of the key's index", plan)
	}
	allocs := func(q string) float64 {
		return testing.AllocsPerRun(200, func() {
			var name string
			if err := db.Get(&name, q, "k1"); err != nil {
				t.Fatal(err)
			}
		})
	}
	if p, b := allocs(plus), allocs(bare); p >= b {
		t.Errorf("a lookup allocates %v times through LookupParam, %v through a bare parameter: the statement is planned again", p, b)
	}
	if got := lookup[store.PostgreSQL]; got != join+"$1" {
		t.Errorf("PostgreSQL's lookup = %q, want the key bound as $1", got)
	}
}
