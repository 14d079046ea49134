package serializers_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
)

// The related models of test_model_serializer.py with the reverse side of
// RelationalModel's field to them, as TestRelationalFieldMappings'
// test_pk_reverse_one_to_one, test_pk_reverse_many_to_many and
// test_pk_reverse_through name it in their fields.
type (
	// msReverseO2O is OneToOneTargetModel with reverse_one_to_one.
	msReverseO2O struct {
		ID              int64  `db:"id" json:"id"`
		Name            string `db:"name" json:"name" model:"max_length=100"`
		ReverseOneToOne *int64 `json:"reverse_one_to_one" model:"reverse=tests_relationalmodel.one_to_one_id"`
	}
	// msReverseM2M is ManyToManyTargetModel with reverse_many_to_many,
	// the other side of RelationalModel.many_to_many's automatic
	// through table.
	msReverseM2M struct {
		ID                int64   `db:"id" json:"id"`
		Name              string  `db:"name" json:"name" model:"max_length=100"`
		ReverseManyToMany []int64 `json:"reverse_many_to_many" model:"many_to_many=tests_relationalmodel,through=tests_relationalmodel_many_to_many,auto_created"`
	}
	// msReverseThrough is ThroughTargetModel with reverse_through, the
	// other side of RelationalModel.through, whose through model
	// (Supplementary) is declared: read-only.
	msReverseThrough struct {
		ID             int64   `db:"id" json:"id"`
		Name           string  `db:"name" json:"name" model:"max_length=100"`
		ReverseThrough []int64 `json:"reverse_through" model:"many_to_many=tests_relationalmodel,through=tests_supplementary"`
	}
)

func (msReverseO2O) Meta() models.Meta { return msO2OTarget{}.Meta() }

func (msReverseM2M) Meta() models.Meta { return msM2MTarget{}.Meta() }

func (msReverseThrough) Meta() models.Meta { return msThroughTarget{}.Meta() }

// msReverseSetUp is drf_model_serializer_suite.py's reverse_field rows:
// TestIntegration.setUp's, a through target referenced by a
// Supplementary row of the relational instance, and an unrelated row of
// table.
func msReverseSetUp(table string) []string {
	return append(append([]string(nil), msIntegrationSetUp...),
		`INSERT INTO "tests_throughtargetmodel" ("name") VALUES ('through')`,
		`INSERT INTO "tests_supplementary" ("extra", "forwards_id", "backwards_id") VALUES (1, 1, 1)`,
		`INSERT INTO "`+table+`" ("name") VALUES ('unrelated')`)
}

// msReverseField is an item of the suite's reverse_field: T's FieldInfoAt
// level,
// and the representation of each row of T's table after
// msReverseSetUp.
func msReverseField[T any](t *testing.T, level framework.Compatibility, table string) map[string]any {
	t.Helper()
	db := msDB(t, msReverseSetUp(table)...)
	queryset.MustSQL[msRelational](db, queryset.SQLConfig{})
	src := queryset.MustSQL[T](db, queryset.SQLConfig{})
	s := serializers.MustNew[T]()
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM "`+table+`"`); err != nil {
		t.Fatal(err)
	}
	data := []json.RawMessage{}
	for pk := 1; pk <= n; pk++ {
		data = append(data, renderedWith(t, s, *msStored(t, src, strconv.Itoa(pk))))
	}
	return map[string]any{"info": s.FieldInfoAt(level), "data": data}
}

// msReverseWrite is the suite's reverse_write: a PUT of T's first row
// through a generic view, at level, renaming it and setting field to
// value, on TestIntegration.setUp's rows and a second relational row:
// valid, the errors, the answer's data (when withData) and the relational
// rows' one-to-one key and many-to-many keys after.
func msReverseWrite[T any](t *testing.T, level framework.Compatibility, field string, value any, withData bool) map[string]any {
	t.Helper()
	db := msDB(t, append(append([]string(nil), msIntegrationSetUp...),
		`INSERT INTO "tests_onetoonetargetmodel" ("name") VALUES ('second')`,
		`INSERT INTO "tests_relationalmodel" ("foreign_key_id", "one_to_one_id") VALUES (1, 2)`)...)
	queryset.MustSQL[msRelational](db, queryset.SQLConfig{})
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	g := generics.GenericAPIView[T]{Source: queryset.MustSQL[T](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[T]()}
	api.Handle("/items/{pk}/", generics.RetrieveUpdateAPIView(g))
	r := apitest.New(t, api).Do("PUT", "/items/1/", string(rawJSON(t, map[string]any{"name": "renamed", field: value})),
		"Content-Type: application/json")
	out := map[string]any{"valid": r.Status == 200, "errors": map[string]any{}}
	switch {
	case r.Status == 200 && withData:
		out["data"] = json.RawMessage(r.Body)
	case r.Status != 200:
		out["errors"] = json.RawMessage(r.Body)
	}
	out["rows"] = msRelationalRows(t, db)
	return out
}

// msRelationalRows is each relational row as [id, one_to_one, the sorted
// keys of many_to_many].
func msRelationalRows(t *testing.T, db *sqlx.DB) [][]any {
	t.Helper()
	var rels []struct {
		ID       int64 `db:"id"`
		OneToOne int64 `db:"one_to_one_id"`
	}
	if err := db.Select(&rels, `SELECT "id", "one_to_one_id" FROM "tests_relationalmodel" ORDER BY "id"`); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{}
	for _, rel := range rels {
		keys := []int64{}
		if err := db.Select(&keys, `SELECT "manytomanytargetmodel_id" FROM "tests_relationalmodel_many_to_many" `+
			`WHERE "relationalmodel_id" = ? ORDER BY 1`, rel.ID); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, []any{rel.ID, rel.OneToOne, keys})
	}
	return rows
}

func init() {
	msItems = append(msItems,
		// DRF's save() assigns a reverse one-to-one on the instance
		// only; here the write leaves the rows alone too, the
		// relational row that references the item keeping it (its
		// foreign key cannot be null): the rows are compared, not the
		// answer's data.
		msItem{"TestRelationalFieldMappings.test_pk_reverse_one_to_one", func(t *testing.T, level framework.Compatibility) any {
			out := msReverseField[msReverseO2O](t, level, "tests_onetoonetargetmodel")
			out["valid"] = msReverseWrite[msReverseO2O](t, level, "reverse_one_to_one", 2, false)
			out["invalid"] = msReverseWrite[msReverseO2O](t, level, "reverse_one_to_one", 9, false)
			return out
		}},
		msItem{"TestRelationalFieldMappings.test_pk_reverse_many_to_many", func(t *testing.T, level framework.Compatibility) any {
			out := msReverseField[msReverseM2M](t, level, "tests_manytomanytargetmodel")
			out["write"] = msReverseWrite[msReverseM2M](t, level, "reverse_many_to_many", []int{2}, true)
			out["invalid"] = msReverseWrite[msReverseM2M](t, level, "reverse_many_to_many", []int{9}, false)
			return out
		}},
		msItem{"TestRelationalFieldMappings.test_pk_reverse_through", func(t *testing.T, level framework.Compatibility) any {
			return msReverseField[msReverseThrough](t, level, "tests_throughtargetmodel")
		}},
	)
}
