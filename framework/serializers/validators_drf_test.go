package serializers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of testdata/drf_validators.py, from DRF's
// tests/test_validators.py.
type (
	uqUser struct {
		ID       int64  `db:"id" json:"id"`
		Username string `db:"username" json:"username" model:"unique,max_length=100"`
	}
	uqRelated struct {
		ID     int64 `db:"id" json:"id"`
		UserID int64 `db:"user_id" json:"user" model:"one_to_one=tests_uniquenessmodel"`
	}
	uqProfile struct {
		UserID int64  `db:"user_id" json:"user" model:"primary_key,one_to_one=tests_uniquenessmodel"`
		Bio    string `db:"bio" json:"bio" model:"blank"`
	}
	uqTogether struct {
		ID       int64  `db:"id" json:"id"`
		RaceName string `db:"race_name" json:"race_name" model:"max_length=100"`
		Position int32  `db:"position" json:"position"`
	}
	uqNullTogether struct {
		ID          int64        `db:"id" json:"id"`
		DateOfBirth *models.Date `db:"date_of_birth" json:"date_of_birth"`
		RaceName    string       `db:"race_name" json:"race_name" model:"max_length=100"`
		Position    *int32       `db:"position" json:"position"`
	}
	// uqConditional has a UniqueConstraint of one field and one of two
	// fields with a condition.
	uqConditional struct {
		ID       int64  `db:"id" json:"id"`
		RaceName string `db:"race_name" json:"race_name" model:"max_length=100"`
		Position int32  `db:"position" json:"position"`
		State    string `db:"state" json:"state" model:"max_length=100,default=new"`
		Code     int32  `db:"code" json:"code"`
	}
	// uqActive is unique by name among the active items.
	uqActive struct {
		ID     int64  `db:"id" json:"id"`
		Name   string `db:"name" json:"name" model:"max_length=100"`
		Active bool   `db:"active" json:"active" model:"default=true"`
	}
	uqBlankTogether struct {
		ID       int64  `db:"id" json:"id"`
		RaceName string `db:"race_name" json:"race_name" model:"max_length=100,blank"`
		Position int32  `db:"position" json:"position"`
	}
)

func (uqUser) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniquenessModel", Table: "tests_uniquenessmodel"}
}

func (uqRelated) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "RelatedModel", Table: "tests_relatedmodel"}
}

func (uqProfile) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "ProfileModel", Table: "tests_profilemodel"}
}

func (uqTogether) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniquenessTogetherModel", Table: "tests_uniquenesstogethermodel",
		UniqueTogether: [][]string{{"race_name", "position"}}}
}

func (uqNullTogether) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "NullUniquenessTogetherModel", Table: "tests_nulluniquenesstogethermodel",
		UniqueTogether: [][]string{{"race_name", "position"}}}
}

func (uqConditional) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "ConditionalModel", Table: "tests_conditionalmodel", Constraints: []models.Constraint{
		{Name: "conditional_unique", Fields: []string{"race_name", "position"}, Condition: models.Q{"state": "new"}},
		{Name: "code_unique", Fields: []string{"code"}},
	}}
}

func (uqActive) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "ActiveModel", Table: "tests_activemodel", Constraints: []models.Constraint{
		{Name: "active_name_unique", Fields: []string{"name"}, Condition: models.Q{"active": "true"}},
	}}
}

func (uqBlankTogether) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "BlankUniquenessTogetherModel", Table: "tests_blankuniquenesstogethermodel",
		UniqueTogether: [][]string{{"race_name", "position"}}}
}

// uqStep validates data as a create (id nil), or as a full or partial
// update of the item of that id, with a Context whose Exists and
// ExistsTogether query the database as generic views do, and saves a
// valid item: its answer as drf_validators.py prints it (a save the
// database refuses is an answer too, which DRF's never is).
type uqStep func(t *testing.T, method string, id *int64, body string, level framework.Compatibility) uqAnswer

// uqAnswer is one step's answer: the item as saved, or the errors, or
// that the database refused to save it as a duplicate (answered 400, as
// the serializer's UniqueViolation, where DRF's IntegrityError is a 500),
// and the uniqueness queries run.
type uqAnswer struct {
	Saved          any  `json:"saved,omitempty"`
	Errors         any  `json:"errors,omitempty"`
	IntegrityError bool `json:"integrity_error,omitempty"`
	Queries        int  `json:"queries"`
}

func uqCase[T any](db *sqlx.DB) uqStep {
	src := queryset.MustSQL[T](db, queryset.SQLConfig{})
	ser := serializers.MustNew[T]()
	return func(t *testing.T, method string, id *int64, body string, level framework.Compatibility) uqAnswer {
		t.Helper()
		ctx := context.Background()
		data, c := edgeInput(t, "json", body, level)
		var stored *T
		if id != nil {
			items, err := src.Filter("id", strconv.FormatInt(*id, 10)).Slice(ctx, 0, 1)
			if err != nil || len(items) != 1 {
				t.Fatalf("item %d: %v", *id, err)
			}
			stored = items[0]
		}
		var a uqAnswer
		c.ExistsTogether = uniqueQuery(src, stored, &a.Queries)
		c.Exists = func(column, value string) (bool, error) {
			return c.ExistsTogether([]string{column}, []string{value})
		}
		obj := new(T)
		var err error
		if stored == nil {
			err = ser.ValidateNew(data, obj, c)
		} else {
			*obj = *stored
			err = ser.Validate(data, obj, method == "PATCH", c)
		}
		if err != nil {
			msg := errorBody(err)
			detail, ok := strings.CutPrefix(msg, "400 ")
			if !ok || json.Unmarshal([]byte(detail), &a.Errors) != nil {
				t.Fatalf("%s %s: %s", method, body, msg)
			}
			return a
		}
		if stored == nil {
			err = src.Insert(ctx, obj)
		} else {
			err = src.Update(ctx, obj)
		}
		if cols := store.UniqueViolationColumns(err); len(cols) > 0 && ser.UniqueViolation(cols...) != nil {
			a.IntegrityError = true
			return a
		}
		if err != nil {
			a.Errors = "saving: " + err.Error()
			return a
		}
		out, err := ser.Data(obj, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &a.Saved); err != nil {
			t.Fatal(err)
		}
		return a
	}
}

// TestValidatorsAsDRF: DRF's UniqueValidator and UniqueTogetherValidator
// on the models of its tests/test_validators.py, on SQLite and
// PostgreSQL, at DRF 3.14 and 3.18 (drf_validators.py's steps): a unique
// message names the field ("related model with this user already
// exists.", not "user id"); a one-to-one field is unique, a primary key
// too (a second item for one user is a 400, where the database's UNIQUE
// refused the insert, a 500 on SQLite for a primary key);
// for DRF 3.18 a nullable field of a unique-together is not required
// (None) and a blank one defaults to ""; no uniqueness query runs for
// an update that leaves a unique-together as it was (DRF 3.18; DRF 3.14
// looks); and for DRF 3.18 a UniqueConstraint of one field is its
// UniqueValidator, one of two fields with a condition is checked when
// the values match the condition, a change of the condition's field
// included, and one whose condition is a boolean's is checked among the
// items it matches (DRF 3.14 leaves them to the database, whose refusal
// is a 400 here).
func TestValidatorsAsDRF(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		tables := []string{
			`"tests_uniquenessmodel" ("id" ` + key + `, "username" varchar(100) NOT NULL UNIQUE)`,
			`"tests_relatedmodel" ("id" ` + key + `, "user_id" integer NOT NULL UNIQUE REFERENCES "tests_uniquenessmodel" ("id"))`,
			`"tests_profilemodel" ("user_id" integer NOT NULL PRIMARY KEY REFERENCES "tests_uniquenessmodel" ("id"), "bio" text NOT NULL)`,
			`"tests_uniquenesstogethermodel" ("id" ` + key + `, "race_name" varchar(100) NOT NULL, "position" integer NOT NULL, UNIQUE ("race_name", "position"))`,
			`"tests_nulluniquenesstogethermodel" ("id" ` + key + `, "date_of_birth" date NULL, "race_name" varchar(100) NOT NULL, "position" integer NULL, UNIQUE ("race_name", "position"))`,
			`"tests_blankuniquenesstogethermodel" ("id" ` + key + `, "race_name" varchar(100) NOT NULL, "position" integer NOT NULL, UNIQUE ("race_name", "position"))`,
			`"tests_conditionalmodel" ("id" ` + key + `, "race_name" varchar(100) NOT NULL, "position" integer NOT NULL, "state" varchar(100) NOT NULL, ` +
				`"code" integer NOT NULL, CONSTRAINT "code_unique" UNIQUE ("code"))`,
			`"tests_activemodel" ("id" ` + key + `, "name" varchar(100) NOT NULL, "active" boolean NOT NULL)`,
		}
		steps := map[string]uqStep{
			"unique":        uqCase[uqUser](db),
			"onetoone":      uqCase[uqRelated](db),
			"profile":       uqCase[uqProfile](db),
			"together":      uqCase[uqTogether](db),
			"nulltogether":  uqCase[uqNullTogether](db),
			"blanktogether": uqCase[uqBlankTogether](db),
			"conditional":   uqCase[uqConditional](db),
			"active":        uqCase[uqActive](db),
		}
		for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
			t.Run(level, func(t *testing.T) {
				for i := len(tables) - 1; i >= 0; i-- {
					name, _, _ := strings.Cut(tables[i], " ")
					db.MustExec(`DROP TABLE IF EXISTS ` + name)
				}
				for _, table := range tables {
					db.MustExec(`CREATE TABLE ` + table)
				}
				db.MustExec(`CREATE UNIQUE INDEX "conditional_unique" ON "tests_conditionalmodel" ("race_name", "position") WHERE "state" = 'new'`)
				db.MustExec(`CREATE UNIQUE INDEX "active_name_unique" ON "tests_activemodel" ("name") WHERE "active"`)
				db.MustExec(`INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing'), ('second')`)
				var drf struct {
					Versions map[string]string   `json:"versions"`
					Steps    [][]json.RawMessage `json:"steps"`
				}
				drfsuite.RunDRF(t, compatibility, "testdata/drf_validators.py", nil, &drf)
				if len(drf.Steps) == 0 {
					t.Fatal("no steps")
				}
				for _, step := range drf.Steps {
					var serializer, method string
					var id *int64
					var want uqAnswer
					for i, v := range []any{&serializer, &method, &id, nil, &want} {
						if v != nil {
							if err := json.Unmarshal(step[i], v); err != nil {
								t.Fatal(err)
							}
						}
					}
					var body bytes.Buffer
					if err := json.Compact(&body, step[3]); err != nil {
						t.Fatal(err)
					}
					got := steps[serializer](t, method, id, body.String(), compatibility)
					g, _ := json.Marshal(got)
					w, _ := json.Marshal(want)
					if string(g) != string(w) {
						where := method
						if id != nil {
							where = fmt.Sprintf("%s %d", method, *id)
						}
						t.Errorf("%s %s %s (DRF %s): %s, want %s", serializer, where, &body, drf.Versions["rest_framework"], g, w)
					}
				}
			})
		}
	})
}

// TestOneToOneUniqueBehindGenericViews: behind generic views, on SQLite
// and PostgreSQL, a second item for the user of a one-to-one field is
// 400 {"user": ["related model with this user already exists."]}, DRF's
// answer (drf_validators.py's), where the database's UNIQUE refused the
// insert.
func TestOneToOneUniqueBehindGenericViews(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "tests_uniquenessmodel" ("id" ` + key + `, "username" varchar(100) NOT NULL UNIQUE)`)
		db.MustExec(`CREATE TABLE "tests_relatedmodel" ("id" ` + key + `, "user_id" integer NOT NULL UNIQUE REFERENCES "tests_uniquenessmodel" ("id"))`)
		db.MustExec(`INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing')`)
		g := generics.GenericAPIView[uqRelated]{
			Source:     queryset.MustSQL[uqRelated](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[uqRelated](),
		}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/related/", generics.ListCreateAPIView(g))
		c := apitest.New(t, api)
		if r := c.Post("/related/", `{"user": 1}`, "Content-Type: application/json"); r.Status != 201 {
			t.Fatalf("first: %d %s", r.Status, r.Body)
		}
		r := c.Post("/related/", `{"user": 1}`, "Content-Type: application/json")
		if got, want := fmt.Sprintf("%d %s", r.Status, r.Body), `400 {"user":["related model with this user already exists."]}`; got != want {
			t.Errorf("second: %s, want %s", got, want)
		}
	})
}

// TestConditionalUniqueBehindGenericViews: behind generic views, on
// SQLite and PostgreSQL, a duplicate of a UniqueConstraint whose
// condition the serializer cannot check (fancy_conditions__gte=10, of
// DRF's UniqueConstraintModel) is refused by the database's partial index
// and answered 400 with the set's message, DRF 3.18's answer, where it
// was a 500; and a duplicate of its UniqueConstraint of global_id alone
// is that field's 400.
func TestConditionalUniqueBehindGenericViews(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		drfvConstraintSetUp(t, db, `INSERT INTO "drfv_uniqueconstraintmodel" ("race_name", "position", "global_id", "fancy_conditions") VALUES ('condition', 1, 10, 10)`)
		g := generics.GenericAPIView[drfvConstraint]{
			Source:     queryset.MustSQL[drfvConstraint](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[drfvConstraint](),
		}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/constrained/", generics.ListCreateAPIView(g))
		c := apitest.New(t, api)
		for _, step := range []struct{ body, want string }{
			{`{"race_name": "condition", "position": 1, "global_id": 11, "fancy_conditions": 11}`,
				`400 {"non_field_errors":["The fields race_name, position must make a unique set."]}`},
			{`{"race_name": "condition", "position": 1, "global_id": 10, "fancy_conditions": 9}`,
				`400 {"global_id":["unique constraint model with this global id already exists."]}`},
			// PostgreSQL's serial spent an id on the refused insert.
			{`{"race_name": "condition", "position": 1, "global_id": 11, "fancy_conditions": 9}`, `201`},
		} {
			r := c.Post("/constrained/", step.body, "Content-Type: application/json")
			got := fmt.Sprintf("%d %s", r.Status, r.Body)
			if !strings.Contains(step.want, " ") {
				got = strconv.Itoa(r.Status)
			}
			if got != step.want {
				t.Errorf("POST %s: %s, want %s", step.body, got, step.want)
			}
		}
	})
}
