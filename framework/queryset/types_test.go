package queryset_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// part has columns of types that database/sql's contracts bring.
type part struct {
	ID     int64           `db:"id"`
	Code   uuid.UUID       `db:"code"`
	Weight decimal.Decimal `db:"weight"`
	Label  sql.NullString  `db:"label"`
	Tag    *string         `db:"tag"`
	At     sql.NullTime    `db:"at"`
	Meta   json.RawMessage `db:"meta"`
	Alt    *uuid.UUID      `db:"alt"`
}

var partTables = map[store.Dialect]string{
	store.SQLite: `CREATE TABLE "part" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "code" char(32) NOT NULL,
		"weight" decimal NOT NULL, "label" varchar(20) NULL, "tag" varchar(20) NULL, "at" datetime NULL, "meta" text NOT NULL, "alt" char(32) NULL)`,
	store.PostgreSQL: `CREATE TABLE "part" ("id" serial NOT NULL PRIMARY KEY, "code" uuid NOT NULL,
		"weight" numeric(6, 3) NOT NULL, "label" varchar(20) NULL, "tag" varchar(20) NULL,
		"at" timestamp with time zone NULL, "meta" jsonb NOT NULL, "alt" uuid NULL)`,
}

func parts() []part {
	tag, alt := "t", uuid.MustParse("d0000000-0000-0000-0000-000000000004")
	return []part{
		{Code: uuid.MustParse("c0000000-0000-0000-0000-000000000001"), Weight: decimal.RequireFromString("10"),
			Label: sql.NullString{String: "bolt", Valid: true}, At: sql.NullTime{Time: time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC), Valid: true},
			Meta: json.RawMessage(`{"k":1}`), Alt: &alt},
		{Code: uuid.MustParse("a0000000-0000-0000-0000-000000000002"), Weight: decimal.RequireFromString("9.5"), Tag: &tag, Meta: json.RawMessage(`[]`)},
		{Code: uuid.MustParse("b0000000-0000-0000-0000-000000000003"), Weight: decimal.RequireFromString("0.125"),
			Label: sql.NullString{String: "nut", Valid: true}, Meta: json.RawMessage(`null`)},
	}
}

func codes(t *testing.T, src queryset.Source[part]) []string {
	t.Helper()
	items, err := src.Slice(ctx, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, it := range items {
		out = append(out, it.Code.String()[:1])
	}
	return out
}

// checkCustomSource runs the same queries on a source of parts, whose
// codes start with c, a, b and whose weights are 10, 9.5, 0.125.
func checkCustomSource(t *testing.T, src queryset.Source[part]) {
	t.Helper()
	check := func(name string, s queryset.Source[part], want ...string) {
		t.Helper()
		if got := codes(t, s); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("all", src, "c", "a", "b")
	check("filter by uuid in capitals", src.Filter("code", "A0000000-0000-0000-0000-000000000002"), "a")
	check("filter by uuid hex", src.Filter("code", "b0000000000000000000000000000003"), "b")
	check("filter by NullString", src.Filter("label", "nut"), "b")
	check("order by uuid", src.OrderBy(query.Order{Field: "code"}), "a", "b", "c")
	check("order by uuid desc", src.OrderBy(query.Order{Field: "code", Desc: true}), "c", "b", "a")
	check("filter by NullTime", src.Filter("at", "2024-01-05 00:00:00+00:00"), "c")
	check("search NullString", src.Search([]string{"label"}, []string{"OL"}), "c")
	check("search uuid", src.Search([]string{"code"}, []string{"A0000000-0000"}), "a")
	check("icontains uuid", src.Where("code", query.IContains, "B0000000-0000-0000"), "b")
	if _, err := src.Filter("code", "nope").Slice(ctx, 0, -1); !errors.Is(err, query.ErrInvalidValue) {
		t.Errorf("a bad uuid filter: %v", err)
	}

	// A cursor's positions are the Valuer's text, and seek back to the
	// same place.
	ordered := src.OrderBy(query.Order{Field: "code"}, query.Order{Field: "id"})
	items, err := ordered.Slice(ctx, 0, 1)
	if err != nil || len(items) != 1 {
		t.Fatalf("first = %v, %v", items, err)
	}
	pos, err := src.Position(items[0], "code")
	if err != nil || pos != "a0000000-0000-0000-0000-000000000002" {
		t.Errorf("Position(code) = %q, %v", pos, err)
	}
	id, _ := src.Position(items[0], "id")
	check("seek after", ordered.SeekAfter([]query.Order{{Field: "code"}, {Field: "id"}}, []string{pos, id}), "b", "c")
	check("seek", src.Seek("code", query.Greater, pos), "c", "b")
	if p, _ := src.Position(items[0], "label"); p != "None" {
		t.Errorf("Position of a NULL NullString = %q", p)
	}
}

func TestSQLSourceCustomTypes(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		if _, err := db.Exec(partTables[store.DialectOf(db)]); err != nil {
			t.Fatal(err)
		}
		src := queryset.MustSQL[part](db, queryset.SQLConfig{Table: "part", Ordering: []query.Order{{Field: "id"}}})
		for i, p := range parts() {
			if err := src.Insert(ctx, &p); err != nil {
				t.Fatal(err)
			}
			if p.ID != int64(i+1) {
				t.Errorf("insert read back id %d", p.ID)
			}
		}
		checkCustomSource(t, src)
		// The decimal is ordered as a number by the database.
		if got := codes(t, src.OrderBy(query.Order{Field: "weight"})); !slices.Equal(got, []string{"b", "a", "c"}) {
			t.Errorf("order by decimal = %v", got)
		}
		items, err := src.Filter("code", "c0000000-0000-0000-0000-000000000001").Slice(ctx, 0, 1)
		if err != nil || len(items) != 1 {
			t.Fatalf("%v %v", items, err)
		}
		p := items[0]
		if !p.Weight.Equal(decimal.RequireFromString("10")) || p.Label.String != "bolt" || p.Tag != nil || !p.At.Valid ||
			!p.At.Time.Equal(time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)) || strings.ReplaceAll(string(p.Meta), " ", "") != `{"k":1}` ||
			p.Alt == nil || p.Alt.String() != "d0000000-0000-0000-0000-000000000004" {
			t.Errorf("read back %+v", p)
		}
		// Updated to NULLs and back, read back by the update.
		tag := "x"
		p.Label, p.At, p.Tag, p.Weight, p.Alt = sql.NullString{}, sql.NullTime{}, &tag, decimal.RequireFromString("1.5"), nil
		if err := src.Update(ctx, p); err != nil {
			t.Fatal(err)
		}
		if p.Label.Valid || p.At.Valid || p.Tag == nil || *p.Tag != "x" || p.Weight.String() != "1.5" || p.Alt != nil {
			t.Errorf("updated %+v", p)
		}
		var stored struct {
			Label sql.NullString `db:"label"`
			Alt   sql.NullString `db:"alt"`
		}
		if err := db.Get(&stored, `SELECT "label", CAST("alt" AS text) AS "alt" FROM "part" WHERE "id" = 1`); err != nil || stored.Label.Valid || stored.Alt.Valid {
			t.Errorf("stored = %+v, %v", stored, err)
		}
		b, err := src.Filter("code", "a0000000-0000-0000-0000-000000000002").Slice(ctx, 0, 1)
		if err != nil || len(b) != 1 || b[0].Alt != nil || b[0].Tag == nil {
			t.Errorf("a NULL *uuid.UUID = %+v, %v", b, err)
		}
		if err := src.Delete(ctx, p); err != nil {
			t.Fatal(err)
		}
		if got := codes(t, src); !slices.Equal(got, []string{"a", "b"}) {
			t.Errorf("after delete = %v", got)
		}
	})
}

func TestSliceSourceCustomTypes(t *testing.T) {
	items := parts()
	for i := range items {
		items[i].ID = int64(i + 1)
	}
	src := queryset.MustSlice(items)
	checkCustomSource(t, src)
	// In memory the decimal compares as its Valuer's value, its text.
	if got := codes(t, src.Filter("weight", "9.50")); !slices.Equal(got, []string{"a"}) {
		t.Errorf("filter by decimal = %v", got)
	}
}
