package auth_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// createModels runs on db the SQL of Django's CreateModel of each
// model, the models of one app.
func createModels(t *testing.T, db *sqlx.DB, app string, ms ...*models.Description) {
	t.Helper()
	var states []*migrations.ModelState
	for _, d := range ms {
		states = append(states, migrations.FromDescription(d, nil))
	}
	empty := &migrations.State{}
	ops, err := migrations.Changes(compat.Current, empty, states)
	if err != nil {
		t.Fatal(err)
	}
	lines, _, err := migrations.Migration{App: app, Name: "0001_initial", Operations: ops}.SQL(compat.Current, store.DialectOf(db), empty)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if l.Comment {
			continue
		}
		for _, stmt := range l.Parts {
			if _, err := db.Exec(stmt); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
	}
}

// describe describes the model T, failing t when it cannot.
func describe[T any](t *testing.T) *models.Description {
	t.Helper()
	d, err := models.Of[T]()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestModelsDescribeTheirTables: the tables Django's CreateModel makes
// of the declared models auth.User, auth.Group, auth.Permission and
// contenttypes.ContentType have the columns of the tables auth.Migrations
// make (name, type, null, length, unique, key, foreign key), on SQLite
// and on PostgreSQL, so the models describe the tables they are read
// from; makemigrations writes nothing for them (no app lists them).
func TestModelsDescribeTheirTables(t *testing.T) {
	ctx := context.Background()
	tables := []string{"auth_user", "auth_group", "auth_permission", "django_content_type"}
	for name, open := range map[string]func(t *testing.T) *sqlx.DB{
		"sqlite": func(t *testing.T) *sqlx.DB {
			return openSQLite(t, filepath.Join(t.TempDir(), strings.ReplaceAll(t.Name(), "/", "_")+".sqlite3"))
		},
		"postgres": func(t *testing.T) *sqlx.DB { return testservers.OpenPostgres(t) },
	} {
		t.Run(name, func(t *testing.T) {
			migrated := open(t)
			if _, err := migrations.Migrate(ctx, migrated, auth.Migrations...); err != nil {
				t.Fatal(err)
			}
			declared := open(t)
			createModels(t, declared, "contenttypes", describe[contenttypes.ContentType](t))
			createModels(t, declared, "auth", describe[auth.User](t), describe[auth.Group](t), describe[auth.Permission](t))
			want, err := store.Inspect(ctx, migrated, tables...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := store.Inspect(ctx, declared, tables...)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tables) || len(want) != len(tables) {
				t.Fatalf("tables: declared %d, migrated %d, want %d", len(got), len(want), len(tables))
			}
			for i := range tables {
				byName := func(a, b store.Column) int { return strings.Compare(a.Name, b.Name) }
				slices.SortFunc(got[i].Columns, byName)
				slices.SortFunc(want[i].Columns, byName)
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%s:\n declared %+v\n migrated %+v", tables[i], got[i], want[i])
				}
			}
		})
	}
}
