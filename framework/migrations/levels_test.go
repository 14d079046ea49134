package migrations_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/testservers"
)

// TestMigrateAcrossLevels migrates a database at one level and then at
// the other, both ways: a table made with Django 3.2's serial id and
// one made with Django 5.2's identity id take rows whose ids the
// database gives, a foreign key between them holds, and a column made
// NOT NULL at 5.2 (its UPDATE; SET CONSTRAINTS ALL IMMEDIATE) keeps them.
func TestMigrateAcrossLevels(t *testing.T) {
	id := models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true}
	app := migrations.NewApp("levels")
	app.Add(migrations.Migration{Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Author", Table: "levels_author", Fields: []models.Field{
			id, {Name: "name", Column: "name", Kind: models.CharField, MaxLength: 20},
		}},
	}})
	app.Add(migrations.Migration{Name: "0002_book", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Book", Table: "levels_book", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true},
			{Name: "author", Column: "author_id", Kind: models.ForeignKey,
				Related: &models.Relation{Table: "levels_author", Column: "id", OnDelete: models.Cascade}},
			{Name: "pages", Column: "pages", Kind: models.IntegerField, Null: true},
		}},
	}})
	app.Add(migrations.Migration{Name: "0003_pages", Operations: []migrations.Operation{
		migrations.AlterField{Model: "book", Field: models.Field{Name: "pages", Column: "pages", Kind: models.IntegerField, HasDefault: true, Default: "0"}},
	}})
	migs := app.Migrations()
	for _, levels := range [][2]compat.Level{{compat.DRF314, compat.Current}, {compat.Current, compat.DRF314}} {
		t.Run(levels[0].String(), func(t *testing.T) {
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				ctx := context.Background()
				if _, err := migrations.Migrate(migrations.WithCompatibility(ctx, levels[0]), db, migs[0]); err != nil {
					t.Fatal(err)
				}
				if _, err := migrations.Migrate(migrations.WithCompatibility(ctx, levels[1]), db, migs...); err != nil {
					t.Fatal(err)
				}
				for _, insert := range []string{
					`INSERT INTO "levels_author" ("name") VALUES ('a')`, `INSERT INTO "levels_author" ("name") VALUES ('b')`,
					`INSERT INTO "levels_book" ("author_id", "pages") VALUES (2, 10)`, `INSERT INTO "levels_book" ("author_id", "pages") VALUES (2, 20)`,
				} {
					if _, err := db.Exec(insert); err != nil {
						t.Fatal(err)
					}
				}
				var ids []int64
				if err := db.Select(&ids, `SELECT "id" FROM "levels_author" UNION ALL SELECT "id" FROM "levels_book"`); err != nil {
					t.Fatal(err)
				}
				if len(ids) != 4 || ids[0] != 1 || ids[1] != 2 || ids[2] != 1 || ids[3] != 2 {
					t.Errorf("ids %v, want 1 2 and 1 2", ids)
				}
				if _, err := db.Exec(`INSERT INTO "levels_book" ("author_id", "pages") VALUES (2, NULL)`); err == nil {
					t.Error("a NULL went into the column 0003 made NOT NULL")
				}
			})
		})
	}
}
