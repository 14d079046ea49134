package generics_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// Contraption has django.contrib.postgres' fields: ArrayField(CharField(
// max_length=40), size=3), ArrayField(BigIntegerField(null=True),
// blank=True) and HStoreField(blank=True).
type Contraption struct {
	ID     int64              `db:"id" json:"id"`
	Tags   []string           `db:"tags" json:"tags" model:"max_length=40,size=3"`
	Scores []*int64           `db:"scores" json:"scores" model:"blank"`
	Attrs  map[string]*string `db:"attrs" json:"attrs" model:"blank"`
}

func (Contraption) Meta() models.Meta { return models.Meta{App: "shop", Ordering: []string{"id"}} }

// contraptionMigration creates the hstore extension and the table, as a
// Django migration of the model with HStoreExtension() first does.
func contraptionMigration(t *testing.T) migrations.Migration {
	d, err := models.Of[Contraption]()
	if err != nil {
		t.Fatal(err)
	}
	m := migrations.FromDescription(d, nil)
	return migrations.Migration{App: "shop", Name: "0001_initial", Operations: []migrations.Operation{
		migrations.HStoreExtension(),
		migrations.CreateModel{Name: m.Name, Table: m.Table, Fields: m.Fields},
	}}
}

// contraptions serves /contraptions/ and /contraptions/{pk}/ over db's table.
func contraptions(t *testing.T, db *sqlx.DB) *apitest.Client {
	t.Helper()
	api := framework.NewAPI(db, framework.Settings{})
	v := generics.GenericAPIView[Contraption]{Source: queryset.MustSQL[Contraption](db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[Contraption]()}
	api.Handle("/contraptions/", generics.ListCreateAPIView(v))
	api.Handle("/contraptions/{pk}/", generics.RetrieveUpdateDestroyAPIView(v))
	return apitest.New(t, api)
}

// TestPostgresArrayAndHStoreFields writes and reads arrays (NULL
// elements, empty arrays, quotes and commas in the text) and
// hstores (NULL values) through both drivers' reads: the store's own
// reader (store.Open) and database/sql's rows (a pool of OpenDB's).
func TestPostgresArrayAndHStoreFields(t *testing.T) {
	for _, open := range []struct {
		name string
		o    store.Options
	}{{"reader", store.Options{}}, {"database/sql", store.Options{OpenDB: sql.OpenDB}}} {
		t.Run(open.name, func(t *testing.T) {
			db, err := store.OpenWith(testservers.Postgres(t), open.o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if (store.ReaderOf(db) != nil) != (open.name == "reader") {
				t.Fatalf("ReaderOf(db) = %v", store.ReaderOf(db))
			}
			if _, err := migrations.Migrate(t.Context(), db, contraptionMigration(t)); err != nil {
				t.Fatal(err)
			}
			c := contraptions(t, db)
			created := c.Post("/contraptions/", `{"tags": ["a,b", "say \"hi\"", "back\\slash"], "scores": [1, null, -3], `+
				`"attrs": {"k": "v", "n": null, "quote\"d": "x=>y"}}`)
			want := `{"id":1,"tags":["a,b","say \"hi\"","back\\slash"],"scores":[1,null,-3],` +
				`"attrs":{"k":"v","n":null,"quote\"d":"x=>y"}}`
			if created.Status != 201 || created.Body != want {
				t.Fatalf("POST = %d %s\nwant 201 %s", created.Status, created.Body, want)
			}
			if r := c.Post("/contraptions/", `{"tags": ["only"], "scores": []}`); r.Status != 201 ||
				r.Body != `{"id":2,"tags":["only"],"scores":[],"attrs":{}}` {
				t.Errorf("POST of an empty array = %d %s", r.Status, r.Body)
			}
			if r := c.Do("PATCH", "/contraptions/2/", `{"scores": [null], "tags": ["NULL", "{x}"]}`); r.Status != 200 ||
				r.Body != `{"id":2,"tags":["NULL","{x}"],"scores":[null],"attrs":{}}` {
				t.Errorf("PATCH = %d %s", r.Status, r.Body)
			}
			list := c.Get("/contraptions/")
			if want := `[` + want + `,{"id":2,"tags":["NULL","{x}"],"scores":[null],"attrs":{}}]`; list.Status != 200 || list.Body != want {
				t.Errorf("GET = %d %s\nwant 200 %s", list.Status, list.Body, want)
			}
			var text, attrs string
			if err := db.QueryRow(`SELECT scores::text, attrs::text FROM shop_contraption WHERE id = 1`).Scan(&text, &attrs); err != nil {
				t.Fatal(err)
			}
			if text != "{1,NULL,-3}" || attrs != `"k"=>"v", "n"=>NULL, "quote\"d"=>"x=>y"` {
				t.Errorf("stored %s and %s", text, attrs)
			}
			if r := c.Post("/contraptions/", `{"tags": "a", "scores": ["x"], "attrs": []}`); r.Status != 400 ||
				r.Body != `{"tags":["Expected a list of items but got type \"str\"."],"scores":{"0":["A valid integer is required."]},`+
					`"attrs":["Expected a dictionary of items but got type \"list\"."]}` {
				t.Errorf("POST of bad values = %d %s", r.Status, r.Body)
			}
			if r := c.Post("/contraptions/", `{"tags": []}`); r.Status != 400 || r.Body != `{"tags":["This list may not be empty."]}` {
				t.Errorf("POST of an empty array that is not blank = %d %s", r.Status, r.Body)
			}
		})
	}
}

// TestPostgresFieldsOnSQLite is the setup error of a source, and of
// migrations, of a model of an ArrayField on SQLite.
func TestPostgresFieldsOnSQLite(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = queryset.NewSQL[Contraption](db, queryset.SQLConfig{})
	if want := "queryset: models: Contraption.tags is an ArrayField, which only PostgreSQL holds (django.contrib.postgres), not SQLite"; err == nil || err.Error() != want {
		t.Errorf("NewSQL on SQLite: %v, want %s", err, want)
	}
	_, err = migrations.Migrate(t.Context(), db, contraptionMigration(t))
	if err == nil || !strings.Contains(err.Error(), "migrations: Contraption.tags is an ArrayField, which only PostgreSQL holds (django.contrib.postgres), not SQLite") {
		t.Errorf("Migrate on SQLite: %v", err)
	}
}

// nullableArray has ArrayField(TextField(), null=True), a NULL array.
type nullableArray struct {
	ID    int64     `db:"id" json:"id"`
	Notes *[]string `db:"notes" json:"notes"`
}

func (nullableArray) Meta() models.Meta { return models.Meta{App: "shop"} }

// TestNullableArrayHasNoSerializerField: a NULL array, which migrations
// and the queryset hold, has no serializer field, refused when the
// serializer is made, naming the field.
func TestNullableArrayHasNoSerializerField(t *testing.T) {
	_, err := serializers.New[nullableArray]()
	if err == nil || !strings.Contains(err.Error(), "Notes") || !strings.Contains(err.Error(), "nullable ArrayField (*[]string)") {
		t.Errorf("New = %v, want the nullable array refused", err)
	}
}
