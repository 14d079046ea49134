package queryset_test

import (
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/internal/testservers"
)

// limPerson is a related model with a BooleanField, which a
// limit_choices_to names ({"staff": True} in Django).
type limPerson struct {
	ID    int64  `db:"id" json:"id"`
	Name  string `db:"name" json:"name" model:"max_length=20"`
	Staff bool   `db:"staff" json:"staff"`
}

func (limPerson) Meta() models.Meta { return models.Meta{App: "lim", Name: "Person"} }

// A limit_choices_to on a BooleanField holds for the rows whose column
// is true, written true, True, t or 1 as Django's BooleanField reads
// them, on SQLite (which holds the column as 1 or 0) as on PostgreSQL:
// the related key is found and listed only among them.
func TestLimitChoicesToBoolean(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		db.MustExec(`CREATE TABLE "lim_person" ("id" integer NOT NULL PRIMARY KEY, "name" varchar(20) NOT NULL, "staff" bool NOT NULL)`)
		db.MustExec(`INSERT INTO "lim_person" ("id", "name", "staff") VALUES (1, 'ann', true), (2, 'bob', false), (3, 'cid', true)`)
		src := queryset.MustSQL[limPerson](db, queryset.SQLConfig{})
		ctx := t.Context()
		for _, text := range []string{"true", "True", "t", "1"} {
			where := []models.Condition{{Column: "staff", Value: text}}
			if key, found, err := src.FindRelated(ctx, "lim_person", "id", "1", true, "id", where...); err != nil || !found || key != "1" {
				t.Errorf("staff=%s: find 1: %q %v %v, want 1", text, key, found, err)
			}
			if _, found, err := src.FindRelated(ctx, "lim_person", "id", "2", true, "id", where...); err != nil || found {
				t.Errorf("staff=%s: find 2: %v %v, want none", text, found, err)
			}
			rows, err := src.ListRelated(ctx, "lim_person", "id", "name", 0, where...)
			if want := [][2]string{{"1", "ann"}, {"3", "cid"}}; err != nil || !slices.Equal(rows, want) {
				t.Errorf("staff=%s: choices %v %v, want %v", text, rows, err, want)
			}
		}
		rows, err := src.ListRelated(ctx, "lim_person", "id", "name", 0, models.Condition{Column: "staff", Value: "false"})
		if want := [][2]string{{"2", "bob"}}; err != nil || !slices.Equal(rows, want) {
			t.Errorf("staff=false: choices %v %v, want %v", rows, err, want)
		}
	})
}
