package migrations_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// pgGadget is testdata/postgres_fields.py's Gadget: ArrayField(
// CharField(max_length=40), size=3), ArrayField(BigIntegerField(
// null=True), blank=True), ArrayField(TextField(), null=True) and
// HStoreField(blank=True).
type pgGadget struct {
	ID     int64              `db:"id"`
	Tags   []string           `db:"tags" model:"max_length=40,size=3"`
	Scores []*int64           `db:"scores" model:"blank"`
	Notes  *[]string          `db:"notes"`
	Attrs  map[string]*string `db:"attrs" model:"blank"`
}

func (pgGadget) Meta() models.Meta { return models.Meta{App: "shop", Name: "Gadget"} }

// TestPostgresFieldsAsDjango: the migration HStoreExtension() then the
// model's CreateModel is the SQL Django 3.2's and 5.2's schema editors
// write (testdata/postgres_fields.py, on a database without the
// extension): CREATE EXTENSION IF NOT EXISTS "hstore", and the columns
// varchar(40)[3], bigint[], text[] NULL and hstore. On PostgreSQL it
// runs; on SQLite it is refused, naming the model and the field.
func TestPostgresFieldsAsDjango(t *testing.T) {
	d, err := models.Of[pgGadget]()
	if err != nil {
		t.Fatal(err)
	}
	empty := &migrations.State{App: "shop"}
	ops, err := migrations.Changes(compat.Current, empty, []*migrations.ModelState{migrations.FromDescription(d, nil)})
	if err != nil {
		t.Fatal(err)
	}
	m := migrations.Migration{App: "shop", Name: "0001_initial", Operations: append([]migrations.Operation{migrations.HStoreExtension()}, ops...)}
	for _, level := range []compat.Level{compat.DRF314, compat.Current} {
		t.Run(level.String(), func(t *testing.T) {
			dsn := testservers.Postgres(t)
			var want struct {
				Statements []string `json:"statements"`
				Describe   []string `json:"describe"`
			}
			if err := json.Unmarshal(runDjangoAt(t, level, "postgres_fields.py", dsn), &want); err != nil {
				t.Fatal(err)
			}
			lines, _, err := m.SQL(level, store.PostgreSQL, empty)
			if err != nil {
				t.Fatal(err)
			}
			var got, described []string
			for _, l := range lines {
				got = append(got, l.Parts...)
			}
			for _, op := range m.Operations {
				described = append(described, op.Describe())
			}
			sameStatements(t, "create", got, want.Statements)
			all := strings.Join(got, "\n")
			for _, part := range []string{`CREATE EXTENSION IF NOT EXISTS "hstore"`, `"tags" varchar(40)[3] NOT NULL`,
				`"scores" bigint[] NOT NULL`, `"notes" text[] NULL`, `"attrs" hstore NOT NULL`} {
				if !strings.Contains(all, part) {
					t.Errorf("no %s in\n%s", part, all)
				}
			}
			if !slices.Equal(described, want.Describe) {
				t.Errorf("described %q, Django %q", described, want.Describe)
			}
			db, err := store.Open(dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, stmt := range got {
				db.MustExec(stmt)
			}
			_, err = db.Exec(`INSERT INTO "shop_gadget" ("tags", "scores", "attrs") VALUES ('{a}', '{1,NULL}', 'k=>NULL')`)
			if err != nil {
				t.Errorf("a row of arrays and an hstore: %v", err)
			}
		})
	}
	sqlite, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer sqlite.Close()
	_, err = migrations.Migrate(t.Context(), sqlite, m)
	if want := "migrations: Gadget.tags is an ArrayField, which only PostgreSQL holds (django.contrib.postgres), not SQLite"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("on SQLite: %v, want %s", err, want)
	}
}

// runDjangoAt runs testdata/script with args under the Django of level
// (pyrun.At), after checking that it and psycopg2 are there.
func runDjangoAt(t *testing.T, level compat.Level, script string, args ...string) []byte {
	t.Helper()
	pyrun.Need(t, pyrun.At(level), "psycopg2")
	return pyrun.Exec(t, pyrun.At(level), nil, append([]string{filepath.Join("testdata", script)}, args...)...)
}
