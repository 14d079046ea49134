package serializers_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// A slug read through a NOT NULL foreign key, into a pointer (as a
// read of a join may want), and the same tagged allow_null.
type (
	nullSlugSource struct {
		ID       int64   `db:"id" json:"id"`
		Name     string  `db:"name" json:"name" model:"max_length=100"`
		TargetID int64   `db:"target_id" json:"-" model:"foreign_key=drfrel_foreignkeytarget,related_name=sources"`
		Target   *string `json:"target" drf:"source=target.name,slug_related"`
	}
	taggedNullSlugSource struct {
		ID       int64   `db:"id" json:"id"`
		Name     string  `db:"name" json:"name" model:"max_length=100"`
		TargetID int64   `db:"target_id" json:"-" model:"foreign_key=drfrel_foreignkeytarget,related_name=sources"`
		Target   *string `json:"target" drf:"source=target.name,slug_related,allow_null"`
	}
)

func (nullSlugSource) Meta() models.Meta       { return relFKSource{}.Meta() }
func (taggedNullSlugSource) Meta() models.Meta { return relFKSource{}.Meta() }

// TestSlugOfANotNullKeyRefusesNull: a slug field through a NOT NULL
// foreign key refuses null, as DRF's ModelSerializer builds its
// SlugRelatedField (allow_null from the model field), whatever the Go
// type: before, a pointer let null through to the NOT NULL column. A
// field tagged allow_null takes it, as DRF's allow_null=True.
func TestSlugOfANotNullKeyRefusesNull(t *testing.T) {
	var got nullSlugSource
	err := serializers.MustNew[nullSlugSource]().ValidateNew(map[string]any{"name": "a", "target": nil}, &got, nil)
	if body := errorBody(err); body != `400 {"target":["This field may not be null."]}` {
		t.Errorf("null: %s", body)
	}
	var tagged taggedNullSlugSource
	if err := serializers.MustNew[taggedNullSlugSource]().ValidateNew(map[string]any{"name": "a", "target": nil}, &tagged, nil); err != nil || tagged.Target != nil {
		t.Errorf("tagged allow_null: %v, %v", tagged.Target, err)
	}
}

// uniqueCode is a row of a table whose code is a uuid column on
// PostgreSQL, read as text; uniqueText an item whose code is a string
// unique among them.
type (
	uniqueCode struct {
		ID   int64  `db:"id" json:"id"`
		Code string `db:"code" json:"code"`
	}
	uniqueText struct {
		Code string `db:"code" json:"code"`
	}
)

func (uniqueCode) Meta() models.Meta { return models.Meta{Table: "uniquecode"} }

// TestUniqueQuerysetRefusedValueIsNotTaken: a UniqueValidator's Queryset
// asked for a value its column's type refuses (text that is no uuid, a
// DataError on PostgreSQL) finds no row, as DRF's qs_exists answers: the
// value is valid, not a 500.
func TestUniqueQuerysetRefusedValueIsNotTaken(t *testing.T) {
	const taken = "9b2f1e4c-0c1e-4a8e-9a53-2a4f1f3b8c11"
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		column := "uuid"
		if db.DriverName() == "sqlite3" {
			column = "char(32)"
		}
		db.MustExec(`CREATE TABLE "uniquecode" ("id" integer PRIMARY KEY, "code" ` + column + ` NOT NULL)`)
		db.MustExec(`INSERT INTO "uniquecode" ("id", "code") VALUES (1, '` + taken + `')`)
		s := serializers.MustNew[uniqueText](serializers.UniqueValidator{Field: "code",
			Queryset: queryset.Into(queryset.MustSQL[uniqueCode](db, queryset.SQLConfig{}), nil)})
		for in, want := range map[string]string{"not a uuid": "", taken: `400 {"code":["This field must be unique."]}`} {
			var got uniqueText
			err := s.ValidateNew(map[string]any{"code": in}, &got, nil)
			if body := errorBody(err); body != want && !(want == "" && err == nil) {
				t.Errorf("%s: %s, want %q", in, body, want)
			}
		}
	})
}
