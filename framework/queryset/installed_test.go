package queryset_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
)

// rack is a model of both databases.
type rack struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name" model:"max_length=50"`
}

func (rack) Meta() models.Meta { return models.Meta{App: "installed", Table: "shelf"} }

// rackLabel is a row of a rack, deleted with it; its table is in the
// first database only.
type rackLabel struct {
	ID     int64  `db:"id" json:"id"`
	Name   string `db:"name" json:"name" model:"max_length=50"`
	RackID int64  `db:"rack_id" json:"rack" model:"foreign_key=shelf,on_delete=cascade,related_name=labels"`
}

func (rackLabel) Meta() models.Meta { return models.Meta{App: "installed", Table: "label"} }

// installedDB opens a database of its own and runs stmts in it.
func installedDB(t *testing.T, stmts ...string) *sqlx.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// A delete applies the on_delete of the models installed on its own
// database, as Django's Collector follows those of INSTALLED_APPS: a
// model whose source was made over another database only is not
// followed (its table is not there), and neither is a reverse lookup
// through it.
func TestOnDeleteFollowsTheModelsOfTheDatabase(t *testing.T) {
	const shelfTable = `CREATE TABLE "shelf" ("id" integer PRIMARY KEY AUTOINCREMENT, "name" varchar(50) NOT NULL)`
	const top = `INSERT INTO "shelf" ("name") VALUES ('top')`
	withLabels := installedDB(t, shelfTable, top,
		`CREATE TABLE "label" ("id" integer PRIMARY KEY AUTOINCREMENT, "name" varchar(50) NOT NULL, "rack_id" integer NOT NULL REFERENCES "shelf" ("id"))`,
		`INSERT INTO "label" ("name", "rack_id") VALUES ('a', 1), ('b', 1)`)
	plain := installedDB(t, shelfTable, top)
	labels := queryset.MustSQL[rackLabel](withLabels, queryset.SQLConfig{})
	racks := queryset.MustSQL[rack](withLabels, queryset.SQLConfig{})
	otherRacks := queryset.MustSQL[rack](plain, queryset.SQLConfig{})
	if got := queryset.Installed(plain).ReferencesTo("shelf"); len(got) != 0 {
		t.Errorf("the foreign keys to shelf installed on the second database: %v", got)
	}

	if items, err := racks.Where("labels__name", query.Exact, "a").Slice(ctx, 0, 10); err != nil || len(items) != 1 {
		t.Errorf("racks with a label a: %v %v", items, err)
	}
	var unknown *queryset.UnknownFieldError
	if _, err := otherRacks.Where("labels__name", query.Exact, "a").Slice(ctx, 0, 10); !errors.As(err, &unknown) {
		t.Errorf("a lookup through a model of the other database: %v, want an unknown field", err)
	}

	if err := otherRacks.Delete(ctx, &rack{ID: 1}); err != nil {
		t.Errorf("deleting a rack of the second database: %v", err)
	}
	if n, err := otherRacks.Count(ctx); err != nil || n != 0 {
		t.Errorf("racks left in the second database: %d %v", n, err)
	}
	if _, err := plain.Exec(`INSERT INTO "shelf" ("name") VALUES ('again')`); err != nil {
		t.Fatal(err)
	}
	if n, err := otherRacks.DeleteAll(ctx); err != nil || n != 1 {
		t.Errorf("deleting every rack of the second database: %d %v, want 1", n, err)
	}

	if err := racks.Delete(ctx, &rack{ID: 1}); err != nil {
		t.Fatal(err)
	}
	if n, err := labels.Count(ctx); err != nil || n != 0 {
		t.Errorf("labels left after their rack: %d %v", n, err)
	}
}
