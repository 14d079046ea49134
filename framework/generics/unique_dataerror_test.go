package generics_test

import (
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// integerNote is DRF's UniquenessIntegerSerializer of
// tests/test_validators.py: a text field, unique against a column of
// integers.
type integerNote struct {
	ID      int64  `db:"id" json:"-"`
	Integer string `db:"integer" json:"integer" drf:"unique"`
}

// TestUniqueCheckDataError: behind a generic view, a value the column's
// type refuses (PostgreSQL's DataError, "invalid input syntax for type
// integer") is held by no item, as DRF's qs_exists answers it, so the
// item is valid and saved (a 500 before); a value another item holds is
// the field's 400; on SQLite and PostgreSQL.
func TestUniqueCheckDataError(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "integer_note" ("id" ` + key + `, "integer" integer NOT NULL)`)
		db.MustExec(`INSERT INTO "integer_note" ("integer") VALUES (5)`)
		var saved []string
		g := generics.GenericAPIView[integerNote]{
			Source:     queryset.MustSQL[integerNote](db, queryset.SQLConfig{Table: "integer_note"}),
			Serializer: serializers.MustNew[integerNote](),
			// DRF's serializer saves nothing: the item's text is kept
			// apart from the table of integers.
			PerformCreate: func(_ *request.Request, obj *integerNote) error {
				saved = append(saved, obj.Integer)
				return nil
			},
		}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/notes/", generics.ListCreateAPIView(g))
		c := apitest.New(t, api)
		for _, step := range []struct{ body, want string }{
			{`{"integer": "abc"}`, `201 {"integer":"abc"}`},
			{`{"integer": "5"}`, `400 {"integer":["integer note with this integer already exists."]}`},
			{`{"integer": "6"}`, `201 {"integer":"6"}`},
		} {
			r := c.Post("/notes/", step.body, "Content-Type: application/json")
			if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
				t.Errorf("POST %s: %s, want %s", step.body, got, step.want)
			}
		}
		if fmt.Sprint(saved) != "[abc 6]" {
			t.Errorf("saved %q, want [abc 6]", saved)
		}
	})
}

// codedEntry is DRF's UniqueConstraintNullsDistinctModel: code and
// category unique together, nulls_distinct=False.
type codedEntry struct {
	ID       int64   `db:"id" json:"-"`
	Name     string  `db:"name" json:"name" model:"max_length=100"`
	Code     *string `db:"code" json:"code" model:"max_length=100"`
	Category *string `db:"category" json:"category" model:"max_length=100"`
}

func (codedEntry) Meta() models.Meta {
	return models.Meta{App: "tests", Table: "coded_entry", Constraints: []models.Constraint{
		{Name: "coded_entry_nnd", Fields: []string{"code", "category"}, NullsNotDistinct: true},
	}}
}

// TestNullsNotDistinctBehindGenericViews: behind generic views, a
// UniqueConstraint of nulls_distinct=False counts a null equal to a
// null, as DRF 3.18 checks it: a second item of the same nulls is 400
// with the set's message, on SQLite (where Django creates no such
// constraint) and on PostgreSQL (NULLS NOT DISTINCT); at the 3.14 level,
// as DRF 3.14 checks no UniqueConstraint, it is left to the database.
func TestNullsNotDistinctBehindGenericViews(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key, constraint := "integer NOT NULL PRIMARY KEY AUTOINCREMENT", ""
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
			constraint = `, CONSTRAINT "coded_entry_nnd" UNIQUE NULLS NOT DISTINCT ("code", "category")`
		}
		for _, level := range []framework.Compatibility{framework.DRF318, framework.DRF314} {
			db.MustExec(`DROP TABLE IF EXISTS "coded_entry"`)
			db.MustExec(`CREATE TABLE "coded_entry" ("id" ` + key + `, "name" varchar(100) NOT NULL, "code" varchar(100) NULL, "category" varchar(100) NULL` + constraint + `)`)
			g := generics.GenericAPIView[codedEntry]{
				Source:     queryset.MustSQL[codedEntry](db, queryset.SQLConfig{}),
				Serializer: serializers.MustNew[codedEntry](),
			}
			api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
			api.Handle("/entries/", generics.ListCreateAPIView(g))
			c := apitest.New(t, api)
			duplicate := `400 {"non_field_errors":["The fields code, category must make a unique set."]}`
			if level == framework.DRF314 && db.DriverName() == "sqlite3" {
				duplicate = `201 {"name":"second","code":null,"category":null}`
			}
			for _, step := range []struct{ body, want string }{
				{`{"name": "first", "code": null, "category": null}`, `201 {"name":"first","code":null,"category":null}`},
				{`{"name": "second", "code": null, "category": null}`, duplicate},
				{`{"name": "third", "code": "A", "category": null}`, `201 {"name":"third","code":"A","category":null}`},
			} {
				r := c.Post("/entries/", step.body, "Content-Type: application/json")
				if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
					t.Errorf("%v: POST %s: %s, want %s", level, step.body, got, step.want)
				}
			}
		}
	})
}
