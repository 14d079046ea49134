package serializers_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// The serializers of testdata/drf_unique_validators.py beyond the
// models of validators_drf_test.go and drftests_validators_test.go.
type (
	// mvReadOnly is name = CharField(source='race_name',
	// default='example', read_only=True).
	mvReadOnly struct {
		ID       int64  `db:"id" json:"-"`
		RaceName string `db:"race_name" json:"name" drf:"read_only,required=false,default=example" model:"max_length=100"`
		Position int32  `db:"position" json:"position"`
	}
	// mvSource is name = CharField(source='race_name').
	mvSource struct {
		ID       int64  `db:"id" json:"-"`
		RaceName string `db:"race_name" json:"name" model:"max_length=100"`
		Position int32  `db:"position" json:"position"`
	}
	// mvNullSource is pos = IntegerField(source='position',
	// allow_null=True, required=False) of NullUniquenessTogetherModel.
	mvNullSource struct {
		ID       int64  `db:"id" json:"-"`
		RaceName string `db:"race_name" json:"race_name" model:"max_length=100"`
		Position *int32 `db:"position" json:"pos"`
	}
)

func (mvReadOnly) Meta() models.Meta { return uqTogether{}.Meta() }

func (mvSource) Meta() models.Meta { return uqTogether{}.Meta() }

func (mvNullSource) Meta() models.Meta { return uqNullTogether{}.Meta() }

// mvRunner validates one step of drf_unique_validators.py at level: a
// create (POST), or a full or partial update of the first row; the
// errors as JSON, "" when valid.
type mvRunner func(t *testing.T, level framework.Compatibility, method, body string) string

// mvRun is the runner of T's serializer of opts, on db.
func mvRun[T any](db *sqlx.DB, opts ...serializers.Option) mvRunner {
	return func(t *testing.T, level framework.Compatibility, method, body string) string {
		t.Helper()
		s := drfvNew[T](t, db, level, opts...)
		var stored *T
		if method != "POST" {
			stored = s.instance(t, 1)
		}
		_, errs := s.isValid(t, stored, method == "PATCH", body)
		return errs
	}
}

// mvRunners are the serializers of drf_unique_validators.py, by name.
func mvRunners(db *sqlx.DB) map[string]mvRunner {
	together := serializers.UniqueTogetherValidator{Fields: []string{"race_name", "position"}}
	named := serializers.UniqueTogetherValidator{Fields: []string{"name", "position"}}
	message := together
	message.Message = "{field_names} taken."
	return map[string]mvRunner{
		"override":   mvRun[uqTogether](db, serializers.Validators()),
		"explicit":   mvRun[uqTogether](db, serializers.Validators(together)),
		"message":    mvRun[uqTogether](db, serializers.Validators(message)),
		"readonly":   mvRun[mvReadOnly](db, serializers.Validators(named)),
		"source":     mvRun[mvSource](db, serializers.Validators(named)),
		"nulls":      mvRun[uqNullTogether](db, serializers.Fields("race_name", "position"), serializers.Validators(together)),
		"nullsource": mvRun[mvNullSource](db, serializers.Validators(serializers.UniqueTogetherValidator{Fields: []string{"race_name", "pos"}})),
		"date":       mvRun[drfvDate](db, serializers.Validators(serializers.UniqueForDateValidator{Field: "slug", DateField: "published"})),
		"datemessage": mvRun[drfvDate](db, serializers.Validators(serializers.UniqueForDateValidator{Field: "slug", DateField: "published",
			Message: "Taken on {date_field}."})),
		"month":           mvRun[drfvDate](db, serializers.Validators(serializers.UniqueForMonthValidator{Field: "slug", DateField: "published"})),
		"year":            mvRun[drfvDate](db, serializers.Validators(serializers.UniqueForYearValidator{Field: "slug", DateField: "published"})),
		"nodate":          mvRun[drfvDate](db, serializers.Validators()),
		"uniqueexact":     mvRun[uqUser](db, serializers.UniqueValidator{Field: "username"}),
		"uniqueiexact":    mvRun[uqUser](db, serializers.UniqueValidator{Field: "username", Lookup: query.IExact}),
		"uniqueicontains": mvRun[uqUser](db, serializers.UniqueValidator{Field: "username", Lookup: query.IContains}),
		"uniquemessage":   mvRun[uqUser](db, serializers.UniqueValidator{Field: "username", Message: "Taken."}),
	}
}

// mvSetUp makes drf_unique_validators.py's tables and ROWS.
func mvSetUp(t *testing.T, db *sqlx.DB) {
	t.Helper()
	drfvSetUp(t, db, []string{"tests_uniquenessmodel", "tests_uniquenesstogethermodel", "tests_nulluniquenesstogethermodel", "drfv_uniquefordatemodel"},
		`INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing'), ('second')`,
		`INSERT INTO "tests_uniquenesstogethermodel" ("race_name", "position") VALUES ('example', 1), ('example', 2), ('other', 1)`,
		`INSERT INTO "tests_nulluniquenesstogethermodel" ("race_name", "position") VALUES ('example', 1), ('example', NULL), ('other', 1)`,
		`INSERT INTO "drfv_uniquefordatemodel" ("slug", "published") VALUES ('existing', '2000-01-01'), ('second', '2000-01-02')`)
}

// TestUniqueValidatorsAsDRF: the validators a serializer declares answer
// as DRF's (drf_unique_validators.py, run at each level), on SQLite and
// PostgreSQL: Validators() turns the model's unique-together and
// unique_for_date off; UniqueTogetherValidator requires its fields on a
// create (a read-only field's default counts, not on a partial update),
// keeps an update's other values, names the fields by their serializer
// names, takes a message, skips a null (DRF 3.14: but of a field named
// otherwise than its source, looked up as null); the UniqueFor
// validators require both fields on every write and take a message; a
// UniqueValidator takes a message and a lookup (iexact, icontains).
func TestUniqueValidatorsAsDRF(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		mvSetUp(t, db)
		runners := mvRunners(db)
		for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
			answers := drfScriptAnswers(t, "drf_unique_validators.py", level)
			if len(answers) == 0 {
				t.Fatal("drf_unique_validators.py: no items")
			}
			for _, name := range slices.Sorted(maps.Keys(answers)) {
				var want struct {
					Step      [3]json.RawMessage `json:"step"`
					Errors    json.RawMessage    `json:"errors"`
					Exception string             `json:"exception"`
				}
				if err := json.Unmarshal(answers[name], &want); err != nil {
					t.Fatal(err)
				}
				var serializer, method string
				if json.Unmarshal(want.Step[0], &serializer) != nil || json.Unmarshal(want.Step[1], &method) != nil {
					t.Fatalf("%s: step %s", name, answers[name])
				}
				if want.Exception != "" {
					t.Errorf("%v: %s: DRF raises %s", level, name, want.Exception)
					continue
				}
				got := runners[serializer](t, level, method, string(want.Step[2]))
				if diff := drfvErrors(name, orEmpty(got), orEmpty(string(want.Errors))); diff != "" {
					t.Errorf("%v: %s %s %s: %s", level, method, serializer, want.Step[2], diff)
				}
			}
		}
	})
}

// TestDeclaredValidatorsBehindGenericViews: behind generic views, on
// SQLite and PostgreSQL, a duplicate that Validators() leaves unchecked
// is refused by the database and answered 400 with the model's set's
// message (DRF: an IntegrityError, a 500); a declared set's message is
// its 400's; and a UniqueValidator's lookup reaches the view's source
// (iexact: "EXISTING" is taken by "existing").
func TestDeclaredValidatorsBehindGenericViews(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		mvSetUp(t, db)
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/none/", generics.ListCreateAPIView(generics.GenericAPIView[uqTogether]{
			Source:     queryset.MustSQL[uqTogether](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[uqTogether](serializers.Validators()),
		}))
		api.Handle("/message/", generics.ListCreateAPIView(generics.GenericAPIView[uqTogether]{
			Source: queryset.MustSQL[uqTogether](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[uqTogether](serializers.Validators(
				serializers.UniqueTogetherValidator{Fields: []string{"position", "race_name"}, Message: "Taken: {field_names}."})),
		}))
		api.Handle("/users/", generics.ListCreateAPIView(generics.GenericAPIView[uqUser]{
			Source:     queryset.MustSQL[uqUser](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[uqUser](serializers.UniqueValidator{Field: "username", Lookup: query.IExact}),
		}))
		c := apitest.New(t, api)
		for _, step := range []struct{ path, body, want string }{
			{"/none/", `{"race_name": "example", "position": 1}`, `400 {"non_field_errors":["The fields race_name, position must make a unique set."]}`},
			{"/message/", `{"race_name": "example", "position": 1}`, `400 {"non_field_errors":["Taken: position, race_name."]}`},
			{"/message/", `{"position": 1}`, `400 {"race_name":["This field is required."]}`},
			{"/users/", `{"username": "EXISTING"}`, `400 {"username":["This field must be unique."]}`},
			{"/users/", `{"username": "third"}`, `201`},
		} {
			r := c.Post(step.path, step.body, "Content-Type: application/json")
			got := fmt.Sprintf("%d %s", r.Status, r.Body)
			if !strings.Contains(step.want, " ") {
				got = fmt.Sprint(r.Status)
			}
			if got != step.want {
				t.Errorf("POST %s %s: %s, want %s", step.path, step.body, got, step.want)
			}
		}
	})
}

// TestDeclaredValidatorsRefused: New refuses a declared validator that
// names no field of a column, a UniqueFor date field holding no date,
// and a UniqueValidator lookup that compares with more than one value,
// naming the serializer and the field.
func TestDeclaredValidatorsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"together", func() error {
			_, err := serializers.New[uqTogether](serializers.Validators(serializers.UniqueTogetherValidator{Fields: []string{"race_name", "place"}}))
			return err
		}, `serializers: serializers_test.uqTogether: Validators: serializers.UniqueTogetherValidator names "place", which is no field of a column`},
		{"empty", func() error {
			_, err := serializers.New[uqTogether](serializers.Validators(serializers.UniqueTogetherValidator{}))
			return err
		}, `serializers: serializers_test.uqTogether: Validators: serializers.UniqueTogetherValidator names no fields`},
		{"date", func() error {
			_, err := serializers.New[uqTogether](serializers.Validators(serializers.UniqueForYearValidator{Field: "race_name", DateField: "position"}))
			return err
		}, `serializers: serializers_test.uqTogether: Validators: serializers.UniqueForYearValidator's DateField "position" holds no date`},
		{"unique field", func() error {
			_, err := serializers.New[uqUser](serializers.UniqueValidator{Field: "name"})
			return err
		}, `serializers: serializers_test.uqUser: UniqueValidator names "name", which is no field of a column`},
		{"unique lookup", func() error {
			_, err := serializers.New[uqUser](serializers.UniqueValidator{Field: "username", Lookup: query.In})
			return err
		}, `serializers: serializers_test.uqUser: UniqueValidator("username"): lookup "in" compares with more than one value, or is none of Django's`},
	} {
		if err := c.err(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}
