package serializers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// constrained is testdata/drf_unique_constraint.py's Article: a
// UniqueConstraint of its author and title in Meta.Constraints.
type constrained struct {
	ID       int64  `db:"id" json:"id"`
	AuthorID int64  `db:"author_id" json:"author" model:"foreign_key=auth_user"`
	Title    string `db:"title" json:"title" model:"max_length=100"`
	Body     string `db:"body" json:"body" model:"blank,default="`
}

func (constrained) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Article", Table: "blog_article", Constraints: []models.Constraint{
		{Name: "unique_author_title", Fields: []string{"author", "title"}},
	}}
}

// TestUniqueConstraintAsDRF: a UniqueConstraint of several fields is
// checked as DRF checks it at each level (drf_unique_constraint.py's
// steps), behind generic views on SQLite and PostgreSQL: DRF 3.15 and
// later answer a duplicate, created or patched, 400 {"non_field_errors":
// ["The fields author, title must make a unique set."]}; DRF 3.14 has no
// validator for it, and the database refuses the write, no row written
// (PostgreSQL's serial spends an id on it, which Django's would too: ids
// are matched by the items saved). There DRF answers the 500 of Django's
// IntegrityError; here the refusal is the same 400 as 3.15's, since bad
// input is never a 500 (docs/drf-differences.md).
func TestUniqueConstraintAsDRF(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "auth_user" ("id" integer NOT NULL PRIMARY KEY)`)
		db.MustExec(`INSERT INTO "auth_user" ("id") VALUES (1), (2)`)
		db.MustExec(`CREATE TABLE "blog_article" ("id" ` + key + `, "author_id" integer NOT NULL, "title" varchar(100) NOT NULL, ` +
			`"body" text NOT NULL, CONSTRAINT "unique_author_title" UNIQUE ("author_id", "title"))`)
		g := generics.GenericAPIView[constrained]{
			Source:     queryset.MustSQL[constrained](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[constrained](),
		}
		for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
			t.Run(level, func(t *testing.T) {
				api := framework.NewAPI(nil, framework.Settings{Compatibility: compatibility})
				api.Handle("/articles/", generics.ListCreateAPIView(g))
				api.Handle("/articles/{pk}/", generics.RetrieveUpdateAPIView(g))
				c := apitest.New(t, api)
				db.MustExec(`DELETE FROM "blog_article"`)
				if db.DriverName() == "sqlite3" {
					db.MustExec(`DELETE FROM sqlite_sequence WHERE name = 'blog_article'`)
				} else {
					db.MustExec(`ALTER SEQUENCE "blog_article_id_seq" RESTART`)
				}
				var drf drfUniqueTogether
				drfsuite.RunDRF(t, compatibility, "testdata/drf_unique_constraint.py", nil, &drf)
				if len(drf.Steps) == 0 {
					t.Fatal("no steps")
				}
				authors := map[string]int64{"alice": 1, "bob": 2}
				// ids maps DRF's ids to the Go ones: PostgreSQL's serial
				// spends an id on an insert it refuses.
				ids := map[int64]int64{}
				for _, step := range drf.Steps {
					var method string
					var id *int
					var want struct {
						Saved *struct {
							ID     int64  `json:"id"`
							Author string `json:"author"`
							Title  string `json:"title"`
						} `json:"saved"`
						Errors    json.RawMessage `json:"errors"`
						Integrity bool            `json:"integrity_error"`
					}
					for i, v := range []any{&method, &id, nil, nil, &want} {
						if v != nil {
							if err := json.Unmarshal(step[i], v); err != nil {
								t.Fatal(err)
							}
						}
					}
					path := "/articles/"
					if id != nil {
						path = fmt.Sprintf("/articles/%d/", ids[int64(*id)])
					}
					var rows int
					if err := db.Get(&rows, `SELECT count(*) FROM blog_article`); err != nil {
						t.Fatal(err)
					}
					r := c.Do(method, path, string(step[3]), "Content-Type: application/json")
					name := fmt.Sprintf("%s %s %s (DRF %s)", method, path, step[3], drf.Versions["rest_framework"])
					switch {
					case want.Integrity:
						var after int
						if err := db.Get(&after, `SELECT count(*) FROM blog_article`); err != nil {
							t.Fatal(err)
						}
						refused := `400 {"non_field_errors":["The fields author, title must make a unique set."]}`
						if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != refused || after != rows {
							t.Errorf("%s: %s and %d rows, want the database's refusal as %s, %d rows", name, got, after, refused, rows)
						}
					case want.Saved == nil:
						var body bytes.Buffer
						if err := json.Compact(&body, want.Errors); err != nil {
							t.Fatal(err)
						}
						if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != "400 "+body.String() {
							t.Errorf("%s: %s, want 400 %s", name, got, body.String())
						}
					default:
						if r.Status != 200 && r.Status != 201 {
							t.Errorf("%s: %d %s, want article %d saved", name, r.Status, r.Body, want.Saved.ID)
							continue
						}
						goID := int64(r.JSON()["id"].(float64))
						if prev, ok := ids[want.Saved.ID]; ok && prev != goID {
							t.Errorf("%s: saved article %d, want %d", name, goID, prev)
						}
						ids[want.Saved.ID] = goID
						var got struct {
							Author int64  `db:"author_id"`
							Title  string `db:"title"`
						}
						if err := db.Get(&got, db.Rebind(`SELECT author_id, title FROM blog_article WHERE id = ?`), goID); err != nil {
							t.Fatal(err)
						}
						if got.Author != authors[want.Saved.Author] || got.Title != want.Saved.Title {
							t.Errorf("%s: saved %+v, want %+v", name, got, *want.Saved)
						}
					}
				}
			})
		}
	})
}

// messaged is testdata/drf_violation_message.py's Member: its
// UniqueConstraints carry Django's violation_error_message, one of its
// own, one with the constraint's name and the fields' names, one of
// Django's default, one of a single field.
type messaged struct {
	ID        int64  `db:"id" json:"id"`
	Username  string `db:"username" json:"username" model:"max_length=32"`
	CompanyID int32  `db:"company_id" json:"company_id"`
	Role      string `db:"role" json:"role" model:"max_length=32"`
	Badge     string `db:"badge" json:"badge" model:"max_length=32"`
	Desk      int32  `db:"desk" json:"desk"`
}

func (messaged) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "Member", Table: "tests_member", Constraints: []models.Constraint{
		{Name: "custom", Fields: []string{"username", "company_id"}, ViolationErrorMessage: "Username must be unique within a company."},
		{Name: "named", Fields: []string{"company_id", "role"}, ViolationErrorMessage: "%(name)s: {field_names} are taken."},
		{Name: "default", Fields: []string{"company_id", "desk"}, ViolationErrorMessage: "Constraint “%(name)s” is violated."},
		{Name: "badge", Fields: []string{"badge"}, ViolationErrorMessage: "Not used by DRF."},
	}}
}

// TestUniqueConstraintViolationMessage: a UniqueConstraint's
// violation_error_message is the non-field error DRF 3.18 reports for a
// duplicate set, "%(name)s" the constraint's name and "{field_names}"
// the fields'; Django's default message and a constraint of one field
// keep DRF's own messages (drf_violation_message.py's answers, behind
// generic views on SQLite and PostgreSQL). At the DRF 3.14 level, whose
// Django has no violation_error_message, the database refuses the
// duplicate, answered with the same message; no row is written.
func TestUniqueConstraintViolationMessage(t *testing.T) {
	var drf struct {
		Items map[string]struct {
			Body   json.RawMessage `json:"body"`
			Errors json.RawMessage `json:"errors"`
		} `json:"items"`
	}
	drfsuite.RunDRF(t, framework.DRF318, "testdata/drf_violation_message.py", nil, &drf)
	if len(drf.Items) == 0 {
		t.Fatal("drf_violation_message.py: no items")
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "tests_member" ("id" ` + key + `, "username" varchar(32) NOT NULL, "company_id" integer NOT NULL, ` +
			`"role" varchar(32) NOT NULL, "badge" varchar(32) NOT NULL, "desk" integer NOT NULL, ` +
			`CONSTRAINT "custom" UNIQUE ("username", "company_id"), CONSTRAINT "named" UNIQUE ("company_id", "role"), ` +
			`CONSTRAINT "default" UNIQUE ("company_id", "desk"), CONSTRAINT "badge" UNIQUE ("badge"))`)
		g := generics.GenericAPIView[messaged]{
			Source:     queryset.MustSQL[messaged](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[messaged](),
		}
		for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
			api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
			api.Handle("/members/", generics.ListCreateAPIView(g))
			c := apitest.New(t, api)
			for _, name := range slices.Sorted(maps.Keys(drf.Items)) {
				db.MustExec(`DELETE FROM "tests_member"`)
				db.MustExec(`INSERT INTO "tests_member" ("username", "company_id", "role", "badge", "desk") VALUES ('Alice', 1, 'member', 'a1', 1)`)
				item := drf.Items[name]
				want, rows := "201", 2
				if string(item.Errors) != "null" {
					var errs bytes.Buffer
					if err := json.Compact(&errs, item.Errors); err != nil {
						t.Fatal(err)
					}
					want, rows = "400 "+errs.String(), 1
				}
				r := c.Do("POST", "/members/", string(item.Body), "Content-Type: application/json")
				got := fmt.Sprintf("%d %s", r.Status, r.Body)
				if r.Status == 201 {
					got = "201"
				}
				var n int
				if err := db.Get(&n, `SELECT count(*) FROM tests_member`); err != nil {
					t.Fatal(err)
				}
				if got != want || n != rows {
					t.Errorf("%v: %s: POST %s: %s and %d rows, want %s and %d rows", level, name, item.Body, got, n, want, rows)
				}
			}
		}
	})
}
