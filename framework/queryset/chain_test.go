package queryset_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/querysettest"
)

// An atlas: books by authors, who may live in a city, which is in a
// country; the book reads its author's city and country through the
// chain of foreign keys (Django's author__city__country__name).
type (
	atlasCountry struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	atlasCity struct {
		ID      int64  `db:"id"`
		Name    string `db:"name" model:"max_length=20"`
		Country int64  `db:"country_id" model:"foreign_key=atlas_country"`
	}
	atlasAuthor struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
		City *int64 `db:"city_id" model:"foreign_key=atlas_city"`
	}
	atlasBook struct {
		ID      int64   `db:"id"`
		Title   string  `db:"title" model:"max_length=20"`
		Author  int64   `db:"author_id" model:"foreign_key=atlas_author"`
		Writer  string  `json:"writer" drf:"source=author.name"`
		City    *string `json:"city" drf:"source=author.city.name"`
		Country *string `json:"country" drf:"source=author.city.country.name"`
	}
	// atlasBookStrict reads through the nullable city into a string.
	atlasBookStrict struct {
		ID      int64  `db:"id"`
		Author  int64  `db:"author_id" model:"foreign_key=atlas_author"`
		Country string `json:"country" drf:"source=author.city.country.name"`
	}
	// atlasBookMisnamed names a link the author does not have.
	atlasBookMisnamed struct {
		ID      int64   `db:"id"`
		Author  int64   `db:"author_id" model:"foreign_key=atlas_author"`
		Country *string `json:"country" drf:"source=author.town.name"`
	}
	// atlasBookUnknown follows a foreign key to a table no model
	// describes.
	atlasBookUnknown struct {
		ID     int64   `db:"id"`
		Shelf  int64   `db:"shelf_id" model:"foreign_key=atlas_shelf"`
		Region *string `json:"region" drf:"source=shelf.room.name"`
	}
)

// atlasRack's slugs of many rows name a column across their relations.
type (
	atlasRack struct {
		ID        int64    `db:"id"`
		Countries []string `json:"countries" model:"many_to_many=atlas_country,slug_field=city__name"`
	}
	atlasRegion struct {
		ID     int64    `db:"id"`
		Cities []string `json:"cities" model:"reverse=atlas_city.country_id,slug_field=country__name"`
	}
)

func (atlasRack) Meta() models.Meta   { return models.Meta{App: "atlas", Name: "Rack"} }
func (atlasRegion) Meta() models.Meta { return models.Meta{App: "atlas", Name: "Region"} }

func (atlasCountry) Meta() models.Meta      { return models.Meta{App: "atlas", Name: "Country"} }
func (atlasCity) Meta() models.Meta         { return models.Meta{App: "atlas", Name: "City"} }
func (atlasAuthor) Meta() models.Meta       { return models.Meta{App: "atlas", Name: "Author"} }
func (atlasBook) Meta() models.Meta         { return models.Meta{App: "atlas", Name: "Book"} }
func (atlasBookStrict) Meta() models.Meta   { return atlasBook{}.Meta() }
func (atlasBookMisnamed) Meta() models.Meta { return atlasBook{}.Meta() }
func (atlasBookUnknown) Meta() models.Meta  { return atlasBook{}.Meta() }

// atlasTables creates and fills the atlas: books 1 (ann, in Lyon,
// France), 2 (bob, no city), 3 (cat, in Porto, Portugal).
func atlasTables(t *testing.T, db *sqlx.DB) {
	t.Helper()
	id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if store.DialectOf(db) == store.PostgreSQL {
		id = "bigserial NOT NULL PRIMARY KEY"
	}
	for _, stmt := range []string{
		`CREATE TABLE "atlas_country" ("id" ` + id + `, "name" varchar(20) NOT NULL)`,
		`CREATE TABLE "atlas_city" ("id" ` + id + `, "name" varchar(20) NOT NULL, "country_id" bigint NOT NULL REFERENCES "atlas_country" ("id"))`,
		`CREATE TABLE "atlas_author" ("id" ` + id + `, "name" varchar(20) NOT NULL, "city_id" bigint NULL REFERENCES "atlas_city" ("id"))`,
		`CREATE TABLE "atlas_book" ("id" ` + id + `, "title" varchar(20) NOT NULL, "author_id" bigint NOT NULL REFERENCES "atlas_author" ("id"))`,
		`INSERT INTO "atlas_country" ("name") VALUES ('France'), ('Portugal')`,
		`INSERT INTO "atlas_city" ("name", "country_id") VALUES ('Lyon', 1), ('Porto', 2)`,
		`INSERT INTO "atlas_author" ("name", "city_id") VALUES ('ann', 1), ('bob', NULL), ('cat', 2)`,
		`INSERT INTO "atlas_book" ("title", "author_id") VALUES ('one', 1), ('two', 2), ('three', 3)`,
	} {
		db.MustExec(stmt)
	}
}

// A dotted source through two and three foreign keys is read by the
// page's one query, a join per link (null past a null link, the row
// kept), filtered and ordered by its Django path; FindRelated looks a
// row up across the links (Django's get(city__country__name=...)).
func TestJoinChains(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		atlasTables(t, db)
		for _, d := range []func() (*models.Description, error){models.Of[atlasCountry], models.Of[atlasCity], models.Of[atlasAuthor]} {
			if _, err := d(); err != nil {
				t.Fatal(err)
			}
		}
		books := queryset.MustSQL[atlasBook](db, queryset.SQLConfig{})
		queries()
		items, err := books.OrderBy(query.Order{Field: "id"}).Slice(ctx, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		if n := queries(); n != 1 {
			t.Errorf("a page in %d queries, want 1", n)
		}
		text := func(p *string) string {
			if p == nil {
				return "null"
			}
			return *p
		}
		var got []string
		for _, b := range items {
			got = append(got, b.Title+" "+b.Writer+" "+text(b.City)+" "+text(b.Country))
		}
		if want := []string{"one ann Lyon France", "two bob null null", "three cat Porto Portugal"}; !slices.Equal(got, want) {
			t.Errorf("books %q, want %q", got, want)
		}
		if n, err := books.Count(ctx); err != nil || n != 3 {
			t.Errorf("count %d %v, want 3", n, err)
		}
		ids := func(src queryset.Source[atlasBook]) []int64 {
			t.Helper()
			items, err := src.Slice(ctx, 0, -1)
			if err != nil {
				t.Fatal(err)
			}
			var out []int64
			for _, b := range items {
				out = append(out, b.ID)
			}
			return out
		}
		if got := ids(books.Where("author__city__country__name", query.Exact, "Portugal")); !slices.Equal(got, []int64{3}) {
			t.Errorf("author__city__country__name=Portugal: %v, want [3]", got)
		}
		if got := ids(books.OrderBy(query.Order{Field: "author__city__country__name", Desc: true}).Where("author__city__name", query.IsNull, "false")); !slices.Equal(got, []int64{3, 1}) {
			t.Errorf("ordered by the country, descending: %v, want [3 1]", got)
		}
		for _, c := range []struct {
			value, key string
			found      bool
		}{{"Portugal", "3", true}, {"Spain", "", false}} {
			key, found, err := books.FindRelated(ctx, "atlas_author", "city__country__name", c.value, false, "id")
			if err != nil || found != c.found || key != c.key {
				t.Errorf("author city__country__name=%s: %q %v %v, want %q %v", c.value, key, found, err, c.key, c.found)
			}
		}
		if key, found, err := books.FindRelated(ctx, "atlas_author", "city__country__id", "x", true, "id"); err != nil || found || key != "" {
			t.Errorf("author city__country__id=x: %q %v %v, want none", key, found, err)
		}
	})
}

// A chain that cannot be read fails when the source is made, naming the
// field: a value past a nullable link into a type that cannot hold null,
// a link the related model lacks, and a table no model describes; so do
// the slugs of many rows across relations (slug_field=a__b of a
// many-to-many field or a reverse accessor), which are not built.
func TestJoinChainSetupErrors(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, d := range []func() (*models.Description, error){models.Of[atlasCountry], models.Of[atlasCity], models.Of[atlasAuthor]} {
		if _, err := d(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{err: setupErr[atlasBookStrict](db), want: `atlasBookStrict.Country: source "author.city.country.name" passes the nullable foreign key city: Country must be a pointer`},
		{err: setupErr[atlasBookMisnamed](db), want: `atlasBookMisnamed.Country: source "author.town.name": "town" is no foreign key of the table "atlas_author"`},
		{err: setupErr[atlasBookUnknown](db), want: `atlasBookUnknown.Region: source "shelf.room.name": no model of the table "atlas_shelf" is described`},
		{err: setupErr[atlasRack](db), want: `slug_field=city__name: the slugs of many rows are a column of theirs, not one across their relations`},
		{err: setupErr[atlasRegion](db), want: `slug_field=country__name: the slugs of many rows are a column of theirs`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}

func setupErr[T any](db *sqlx.DB) error {
	_, err := queryset.NewSQL[T](db, queryset.SQLConfig{})
	return err
}
