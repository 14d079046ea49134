package serializers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of testdata/drf_unique_for.py.
type (
	ufDate struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_date=published"`
		Published models.Date `db:"published" json:"published"`
	}
	ufMonth struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_month=published"`
		Published models.Date `db:"published" json:"published"`
	}
	ufYear struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_year=published"`
		Published models.Date `db:"published" json:"published"`
	}
	ufHidden struct {
		ID        int64     `db:"id" json:"id"`
		Slug      string    `db:"slug" json:"slug" model:"max_length=100,unique_for_date=published"`
		Published time.Time `db:"published" json:"published" model:"auto_now_add"`
	}
	ufDefault struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_date=published"`
		Published models.Date `db:"published" json:"published" model:"default=2000-01-01"`
	}
	ufNull struct {
		ID        int64        `db:"id" json:"id"`
		Slug      string       `db:"slug" json:"slug" model:"max_length=100,unique_for_year=published"`
		Published *models.Date `db:"published" json:"published"`
	}
)

func (ufDate) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueForDateModel", Table: "uf_date"}
}

func (ufMonth) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueForMonthModel", Table: "uf_month"}
}

func (ufYear) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueForYearModel", Table: "uf_year"}
}

func (ufHidden) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "HiddenFieldUniqueForDateModel", Table: "uf_hidden"}
}

func (ufDefault) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "DefaultDateModel", Table: "uf_default"}
}

func (ufNull) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "NullDateModel", Table: "uf_null"}
}

// ufDay is the date of s, "2000-01-01".
func ufDay(t *testing.T, s string) models.Date {
	t.Helper()
	d, err := models.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ufRunner answers one request of drf_unique_for.py's steps at level:
// POST creates, PUT and PATCH update the first row; the table holds the
// script's ROWS afresh.
type ufRunner func(t *testing.T, level framework.Compatibility, method, body string) (int, string)

// ufView is the runner of generic views of T on table, whose published
// column is column ("date NOT NULL"; datetime is PostgreSQL's timestamp
// with time zone) and whose rows are rows, with the serializer of opts.
func ufView[T any](db *sqlx.DB, table, column string, rows func(t *testing.T) []T, opts ...serializers.Option) ufRunner {
	return func(t *testing.T, level framework.Compatibility, method, body string) (int, string) {
		t.Helper()
		key, published := "integer NOT NULL PRIMARY KEY AUTOINCREMENT", column
		if db.DriverName() != "sqlite3" {
			key, published = "serial NOT NULL PRIMARY KEY", strings.Replace(column, "datetime", "timestamp with time zone", 1)
		}
		db.MustExec(`DROP TABLE IF EXISTS "` + table + `"`)
		db.MustExec(`CREATE TABLE "` + table + `" ("id" ` + key + `, "slug" varchar(100) NOT NULL, "published" ` + published + `)`)
		src := queryset.MustSQL[T](db, queryset.SQLConfig{Ordering: []query.Order{{Field: "id"}}})
		for _, row := range rows(t) {
			if err := src.Insert(context.Background(), &row); err != nil {
				t.Fatal(err)
			}
		}
		g := generics.GenericAPIView[T]{Source: src, Serializer: serializers.MustNew[T](opts...)}
		api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
		api.Handle("/items/", generics.ListCreateAPIView(g))
		api.Handle("/items/{pk}/", generics.RetrieveUpdateAPIView(g))
		path := "/items/"
		if method != "POST" {
			path = "/items/1/"
		}
		r := apitest.New(t, api).Do(method, path, body)
		return r.Status, string(r.Body)
	}
}

// ufDiffer are the steps whose DRF answer is an exception (a 500: a null
// date, whose .day DRF's validator reads), which the framework answers
// as Django's model validation does, not checking the date; a key that
// starts with a level's name differs at that level alone
// (docs/drf-differences.md).
var ufDiffer = map[string]string{
	"null null date":           "DRF reads None.year: AttributeError",
	"drf318 null without date": "DRF 3.18 defaults the date to None, then reads None.year: AttributeError",
}

// TestUniqueForDateAsDRF: a model field's unique_for_date,
// unique_for_month and unique_for_year, behind generic views on SQLite
// and PostgreSQL at both levels, answer as DRF's
// UniqueForDateValidator, UniqueForMonthValidator and
// UniqueForYearValidator (drf_unique_for.py, run at each level): the
// date field is required (but for a default, or at DRF 3.18 a null
// one), a partial update must send both fields, an auto_now_add date
// is today's on a create and missing on an update, a duplicate is the
// field's error naming the date field, and unique_for_month matches the
// month of any year, as DRF's filter does.
func TestUniqueForDateAsDRF(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		runners := map[string]ufRunner{
			"date": ufView(db, "uf_date", "date NOT NULL", func(t *testing.T) []ufDate {
				return []ufDate{{Slug: "existing", Published: ufDay(t, "2000-01-01")}, {Slug: "second", Published: ufDay(t, "2000-01-02")}}
			}),
			"month": ufView(db, "uf_month", "date NOT NULL", func(t *testing.T) []ufMonth {
				return []ufMonth{{Slug: "existing", Published: ufDay(t, "2017-01-01")}, {Slug: "second", Published: ufDay(t, "2017-02-01")}}
			}),
			"year": ufView(db, "uf_year", "date NOT NULL", func(t *testing.T) []ufYear {
				return []ufYear{{Slug: "existing", Published: ufDay(t, "2017-01-01")}, {Slug: "second", Published: ufDay(t, "2018-01-01")}}
			}),
			"hidden": ufView(db, "uf_hidden", "datetime NOT NULL", func(t *testing.T) []ufHidden {
				return []ufHidden{{Slug: "existing"}, {Slug: "second"}}
			}, serializers.Fields("id", "slug")),
			"included": ufView(db, "uf_hidden", "datetime NOT NULL", func(t *testing.T) []ufHidden {
				return []ufHidden{{Slug: "existing"}, {Slug: "second"}}
			}),
			"default": ufView(db, "uf_default", "date NOT NULL", func(t *testing.T) []ufDefault {
				return []ufDefault{{Slug: "existing", Published: ufDay(t, "2000-01-01")}, {Slug: "second", Published: ufDay(t, "2000-01-02")}}
			}),
			"null": ufView(db, "uf_null", "date NULL", func(t *testing.T) []ufNull {
				d := ufDay(t, "2017-01-01")
				return []ufNull{{Slug: "existing", Published: &d}, {Slug: "second"}}
			}),
		}
		for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
			levelName := map[framework.Compatibility]string{framework.DRF314: "drf314", framework.DRF318: "drf318"}[level]
			answers := drfScriptAnswers(t, "drf_unique_for.py", level)
			if len(answers) == 0 {
				t.Fatal("drf_unique_for.py: no items")
			}
			for _, name := range slices.Sorted(maps.Keys(answers)) {
				var want struct {
					Step      [3]json.RawMessage `json:"step"`
					Errors    json.RawMessage    `json:"errors"`
					Exception string             `json:"exception"`
				}
				if err := json.Unmarshal(answers[name], &want); err != nil {
					t.Fatal(err)
				}
				var serializer, method string
				if json.Unmarshal(want.Step[0], &serializer) != nil || json.Unmarshal(want.Step[1], &method) != nil {
					t.Fatalf("%s: step %s", name, answers[name])
				}
				body := string(want.Step[2])
				status, got := runners[serializer](t, level, method, body)
				switch {
				case status == 400:
				case status < 300:
					got = "{}"
				default:
					got = fmt.Sprintf("%d %s", status, got)
				}
				why, differs := ufDiffer[name]
				if w, ok := ufDiffer[levelName+" "+name]; ok {
					why, differs = w, true
				}
				switch {
				case differs && want.Exception == "":
					t.Errorf("%v: %s: listed as a difference (%s), but DRF answers %s", level, name, why, answers[name])
				case differs && got != "{}":
					t.Errorf("%v: %s: %s, want valid (DRF fails: %s)", level, name, got, why)
				case differs:
				case want.Exception != "":
					t.Errorf("%v: %s: DRF raises %s, not listed in ufDiffer", level, name, want.Exception)
				case drfvErrors(name, got, orEmpty(string(want.Errors))) != "":
					t.Errorf("%v: %s %s %s: %s, want %s", level, method, serializer, body, got, orEmpty(string(want.Errors)))
				}
			}
		}
	})
}
