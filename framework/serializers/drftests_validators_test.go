package serializers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// DRF 3.18's tests/test_validators.py, ported onto the serializers: each
// test method is one item, named by DRF's class and method, run on SQLite
// and PostgreSQL at both levels (DRF 3.14's answers where they differ
// are drfValidators314), with DRF's models as tables and DRF's setUp
// rows. A serializer validates as a generic view has it validate
// (Context.Exists and Context.ExistsTogether ask the model's table, told
// apart from the item an update changes by its key), and each assertion
// is DRF's. Every item either passes, or is one of
// drfValidatorsDiffer (a difference docs/drf-differences.md gives the
// reason for) or of drfValidatorsNotPortable (with the reason); a listed
// item that passes fails the test, so the lists stay true.

// The models of test_validators.py beyond validators_drf_test.go's.
type (
	drfvRelated struct {
		ID     int64  `db:"id" json:"id"`
		UserID int64  `db:"user_id" json:"user" model:"one_to_one=tests_uniquenessmodel"`
		Email  string `db:"email" json:"email" model:"unique,max_length=80"`
	}
	// drfvRelatedUsername is RelatedModelSerializer: username =
	// CharField(source='user.username'), a dotted source declared
	// writable, with fields ('username', 'email').
	drfvRelatedUsername struct {
		ID       int64  `db:"id" json:"-"`
		UserID   int64  `db:"user_id" json:"-" model:"one_to_one=tests_uniquenessmodel"`
		Username string `json:"username" drf:"source=user.username,read_only=false"`
		Email    string `db:"email" json:"email" model:"unique,max_length=80"`
	}
	// drfvInteger is UniquenessIntegerSerializer: a CharField, unique
	// against IntegerFieldModel's integer column.
	drfvInteger struct {
		ID      int64  `db:"id" json:"-"`
		Integer string `db:"integer" json:"integer" drf:"unique"`
	}
	// drfvTogetherSource is the serializers of UniquenessTogetherModel
	// whose fields are named otherwise (source='race_name').
	drfvTogetherSource struct {
		ID       int64  `db:"id" json:"-"`
		RaceName string `db:"race_name" json:"name" model:"max_length=100"`
		Position int32  `db:"position" json:"pos"`
	}
	// drfvReadOnlySource is ReadOnlySerializer's name =
	// CharField(source='race_name', default='test', read_only=True).
	drfvReadOnlySource struct {
		ID       int64  `db:"id" json:"-"`
		RaceName string `db:"race_name" json:"name" drf:"read_only,required=false,default=test" model:"max_length=100"`
		Position int32  `db:"position" json:"position"`
	}
	drfvConstraint struct {
		ID              int64  `db:"id" json:"id"`
		RaceName        string `db:"race_name" json:"race_name" model:"max_length=100"`
		Position        int32  `db:"position" json:"position"`
		GlobalID        int32  `db:"global_id" json:"global_id"`
		FancyConditions int32  `db:"fancy_conditions" json:"fancy_conditions"`
	}
	// drfvConstraintSource is SourceUniqueConstraintSerializer's:
	// raceName = CharField(source="race_name").
	drfvConstraintSource struct {
		ID              int64  `db:"id" json:"-"`
		RaceName        string `db:"race_name" json:"raceName" model:"max_length=100"`
		Position        int32  `db:"position" json:"position"`
		GlobalID        int32  `db:"global_id" json:"global_id"`
		FancyConditions int32  `db:"fancy_conditions" json:"fancy_conditions"`
	}
	drfvConstraintReadOnly struct {
		ID        int64  `db:"id" json:"-"`
		State     string `db:"state" json:"state" drf:"read_only" model:"max_length=100,default=new"`
		Position  int32  `db:"position" json:"position"`
		Something int32  `db:"something" json:"something"`
	}
	drfvConstraintNullable struct {
		ID    int64   `db:"id" json:"-"`
		Title string  `db:"title" json:"title" model:"max_length=100"`
		Age   *int32  `db:"age" json:"age"`
		Tag   *string `db:"tag" json:"tag" model:"max_length=100"`
	}
	// drfvDate, drfvMonth and drfvYear are UniqueForDateModel,
	// UniqueForMonthModel and UniqueForYearModel.
	drfvDate struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_date=published"`
		Published models.Date `db:"published" json:"published"`
	}
	drfvMonth struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_month=published"`
		Published models.Date `db:"published" json:"published"`
	}
	drfvYear struct {
		ID        int64       `db:"id" json:"id"`
		Slug      string      `db:"slug" json:"slug" model:"max_length=100,unique_for_year=published"`
		Published models.Date `db:"published" json:"published"`
	}
	drfvNullsDistinct struct {
		ID       int64   `db:"id" json:"-"`
		Name     string  `db:"name" json:"name" model:"max_length=100"`
		Code     *string `db:"code" json:"code" model:"max_length=100"`
		Category *string `db:"category" json:"category" model:"max_length=100"`
	}
	drfvConstraintMessage struct {
		ID        int64  `db:"id" json:"-"`
		Username  string `db:"username" json:"username" model:"max_length=32"`
		CompanyID int32  `db:"company_id" json:"company_id"`
		Role      string `db:"role" json:"role" model:"max_length=32"`
	}
)

func (drfvRelated) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "RelatedModel", Table: "drfv_relatedmodel"}
}

func (drfvRelatedUsername) Meta() models.Meta { return drfvRelated{}.Meta() }

func (drfvTogetherSource) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniquenessTogetherModel", Table: "tests_uniquenesstogethermodel",
		UniqueTogether: [][]string{{"race_name", "position"}}}
}

func (drfvReadOnlySource) Meta() models.Meta { return drfvTogetherSource{}.Meta() }

func (drfvConstraint) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueConstraintModel", Table: "drfv_uniqueconstraintmodel", Constraints: []models.Constraint{
		{Name: "unique_constraint_model_global_id_uniq", Fields: []string{"global_id"}},
		{Name: "unique_constraint_model_fancy_1_uniq", Fields: []string{"fancy_conditions"}, Condition: models.Q{"global_id__lte": "1"}},
		{Name: "unique_constraint_model_fancy_3_uniq", Fields: []string{"fancy_conditions"}, Condition: models.Q{"global_id__gte": "3"}},
		{Name: "unique_constraint_model_together_uniq", Fields: []string{"race_name", "position"}, Condition: models.Q{"race_name": "example"}},
		{Name: "unique_constraint_model_together_uniq2", Fields: []string{"race_name", "position"}, Condition: models.Q{"fancy_conditions__gte": "10"}},
	}}
}

func (drfvConstraintSource) Meta() models.Meta { return drfvConstraint{}.Meta() }

func (drfvConstraintReadOnly) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueConstraintReadOnlyFieldModel", Table: "drfv_uniqueconstraintreadonlyfieldmodel", Constraints: []models.Constraint{
		{Name: "unique_constraint_uniqueconstraintreadonlyfieldmodel", Fields: []string{"position", "something"}, Condition: models.Q{"state": "new"}},
	}}
}

func (drfvConstraintNullable) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueConstraintNullableModel", Table: "drfv_uniqueconstraintnullablemodel", Constraints: []models.Constraint{
		{Name: "unique_constraint", Fields: []string{"age", "tag"}},
	}}
}

func (drfvDate) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueForDateModel", Table: "drfv_uniquefordatemodel"}
}

func (drfvMonth) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueForMonthModel", Table: "drfv_uniqueformonthmodel"}
}

func (drfvYear) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueForYearModel", Table: "drfv_uniqueforyearmodel"}
}

func (drfvNullsDistinct) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueConstraintNullsDistinctModel", Table: "drfv_uniqueconstraintnullsdistinctmodel",
		Constraints: []models.Constraint{{Name: "unique_code_category_nulls_not_distinct", Fields: []string{"code", "category"}, NullsNotDistinct: true}}}
}

func (drfvConstraintMessage) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UniqueConstraintCustomMessageCodeModel", Table: "drfv_uniqueconstraintcustommessagecodemodel", Constraints: []models.Constraint{
		{Name: "unique_username_company_custom_msg", Fields: []string{"username", "company_id"}, ViolationErrorMessage: "Username must be unique within a company."},
		{Name: "unique_company_role_default_msg", Fields: []string{"company_id", "role"}},
	}}
}

// drfvTables are the tables of the models, as Django's migrations make
// them (KEY is the dialect's auto primary key).
var drfvTables = map[string][]string{
	"tests_uniquenessmodel": {`CREATE TABLE "tests_uniquenessmodel" ("id" KEY, "username" varchar(100) NOT NULL UNIQUE)`},
	"drfv_relatedmodel": {`CREATE TABLE "drfv_relatedmodel" ("id" KEY, "user_id" integer NOT NULL UNIQUE REFERENCES "tests_uniquenessmodel" ("id"), ` +
		`"email" varchar(80) NOT NULL UNIQUE)`},
	"drfv_integerfieldmodel": {`CREATE TABLE "drfv_integerfieldmodel" ("id" KEY, "integer" integer NOT NULL)`},
	"tests_uniquenesstogethermodel": {`CREATE TABLE "tests_uniquenesstogethermodel" ("id" KEY, "race_name" varchar(100) NOT NULL, ` +
		`"position" integer NOT NULL, UNIQUE ("race_name", "position"))`},
	"tests_nulluniquenesstogethermodel": {`CREATE TABLE "tests_nulluniquenesstogethermodel" ("id" KEY, "date_of_birth" date NULL, ` +
		`"race_name" varchar(100) NOT NULL, "position" integer NULL, UNIQUE ("race_name", "position"))`},
	"drfv_uniqueconstraintmodel": {
		`CREATE TABLE "drfv_uniqueconstraintmodel" ("id" KEY, "race_name" varchar(100) NOT NULL, "position" integer NOT NULL, ` +
			`"global_id" integer NOT NULL, "fancy_conditions" integer NOT NULL, CONSTRAINT "unique_constraint_model_global_id_uniq" UNIQUE ("global_id"))`,
		`CREATE UNIQUE INDEX "unique_constraint_model_fancy_1_uniq" ON "drfv_uniqueconstraintmodel" ("fancy_conditions") WHERE "global_id" <= 1`,
		`CREATE UNIQUE INDEX "unique_constraint_model_fancy_3_uniq" ON "drfv_uniqueconstraintmodel" ("fancy_conditions") WHERE "global_id" >= 3`,
		`CREATE UNIQUE INDEX "unique_constraint_model_together_uniq" ON "drfv_uniqueconstraintmodel" ("race_name", "position") WHERE "race_name" = 'example'`,
		`CREATE UNIQUE INDEX "unique_constraint_model_together_uniq2" ON "drfv_uniqueconstraintmodel" ("race_name", "position") WHERE "fancy_conditions" >= 10`,
	},
	"drfv_uniqueconstraintreadonlyfieldmodel": {
		`CREATE TABLE "drfv_uniqueconstraintreadonlyfieldmodel" ("id" KEY, "state" varchar(100) NOT NULL, "position" integer NOT NULL, "something" integer NOT NULL)`,
		`CREATE UNIQUE INDEX "unique_constraint_uniqueconstraintreadonlyfieldmodel" ON "drfv_uniqueconstraintreadonlyfieldmodel" ("position", "something") WHERE "state" = 'new'`,
	},
	"drfv_uniqueconstraintnullablemodel": {`CREATE TABLE "drfv_uniqueconstraintnullablemodel" ("id" KEY, "title" varchar(100) NOT NULL, ` +
		`"age" integer NULL, "tag" varchar(100) NULL, CONSTRAINT "unique_constraint" UNIQUE ("age", "tag"))`},
	"drfv_uniquefordatemodel":  {`CREATE TABLE "drfv_uniquefordatemodel" ("id" KEY, "slug" varchar(100) NOT NULL, "published" date NOT NULL)`},
	"drfv_uniqueformonthmodel": {`CREATE TABLE "drfv_uniqueformonthmodel" ("id" KEY, "slug" varchar(100) NOT NULL, "published" date NOT NULL)`},
	"drfv_uniqueforyearmodel":  {`CREATE TABLE "drfv_uniqueforyearmodel" ("id" KEY, "slug" varchar(100) NOT NULL, "published" date NOT NULL)`},
	// Django 5.2 creates the constraint on PostgreSQL 15 and later
	// alone (NULLS NOT DISTINCT), none on SQLite.
	"drfv_uniqueconstraintnullsdistinctmodel": {`CREATE TABLE "drfv_uniqueconstraintnullsdistinctmodel" ("id" KEY, "name" varchar(100) NOT NULL, ` +
		`"code" varchar(100) NULL, "category" varchar(100) NULL)`},
	"drfv_uniqueconstraintcustommessagecodemodel": {`CREATE TABLE "drfv_uniqueconstraintcustommessagecodemodel" ("id" KEY, ` +
		`"username" varchar(32) NOT NULL, "company_id" integer NOT NULL, "role" varchar(32) NOT NULL, ` +
		`CONSTRAINT "unique_username_company_custom_msg" UNIQUE ("username", "company_id"), ` +
		`CONSTRAINT "unique_company_role_default_msg" UNIQUE ("company_id", "role"))`},
}

// drfvSetUp makes the tables afresh, then runs rows (DRF's setUp and the
// rows a test creates first).
func drfvSetUp(t *testing.T, db *sqlx.DB, tables []string, rows ...string) {
	t.Helper()
	key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if db.DriverName() != "sqlite3" {
		key = "serial NOT NULL PRIMARY KEY"
	}
	// Every table goes, the referencing one first.
	db.MustExec(`DROP TABLE IF EXISTS "drfv_relatedmodel"`)
	for name := range drfvTables {
		db.MustExec(`DROP TABLE IF EXISTS "` + name + `"`)
	}
	for _, name := range tables {
		for _, stmt := range drfvTables[name] {
			db.MustExec(strings.Replace(stmt, "KEY", key, 1))
		}
	}
	for _, row := range rows {
		db.MustExec(row)
	}
}

// drfvSerializer validates as DRF's tests do: serializer(data=...) or
// serializer(instance, data=..., partial=...), is_valid(), errors.
type drfvSerializer[T any] struct {
	src *queryset.SQLSource[T]
	ser *serializers.Serializer[T]
	// queries counts the uniqueness queries (DRF's qs_exists calls).
	queries int
	level   framework.Compatibility
}

func drfvNew[T any](t *testing.T, db *sqlx.DB, level framework.Compatibility, opts ...serializers.Option) *drfvSerializer[T] {
	t.Helper()
	ser, err := serializers.New[T](opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &drfvSerializer[T]{src: queryset.MustSQL[T](db, queryset.SQLConfig{}), ser: ser, level: level}
}

// instance is the stored item whose id is id.
func (s *drfvSerializer[T]) instance(t *testing.T, id int64) *T {
	t.Helper()
	items, err := s.src.Filter("id", strconv.FormatInt(id, 10)).Slice(context.Background(), 0, 1)
	if err != nil || len(items) != 1 {
		t.Fatalf("item %d: %v", id, err)
	}
	return items[0]
}

// isValid validates body, a create when stored is nil and else an update
// of stored: the validated item, or nil and the errors (DRF's
// serializer.errors, as JSON; any other error's answer, which no DRF
// assertion expects).
func (s *drfvSerializer[T]) isValid(t *testing.T, stored *T, partial bool, body string) (*T, string) {
	t.Helper()
	data, c := edgeInput(t, "json", body, s.level)
	c.ExistsTogether = uniqueQuery(s.src, stored, &s.queries)
	c.DatesOf = datesQuery(s.src, stored)
	c.Exists = func(column, value string) (bool, error) {
		return c.ExistsTogether([]string{column}, []string{value})
	}
	obj := new(T)
	var err error
	if stored == nil {
		err = s.ser.ValidateNew(data, obj, c)
	} else {
		*obj = *stored
		err = s.ser.Validate(data, obj, partial, c)
	}
	if err != nil {
		detail, ok := strings.CutPrefix(errorBody(err), "400 ")
		if !ok {
			// Not a 400: an answer no DRF assertion expects.
			return nil, errorBody(err)
		}
		return nil, detail
	}
	return obj, ""
}

// uniqueQuery is the ExistsTogether a generic view gives a serializer
// (DRF's queryset.filter(...).exclude(pk=instance.pk).exists(), a
// "COLUMN__LOOKUP" compared by the lookup), on src,
// counting its queries: whether an item other than stored (nil on a
// create) holds values in columns.
func uniqueQuery[T any](src queryset.Source[T], stored *T, queries *int) func(columns, values []string) (bool, error) {
	return func(columns, values []string) (bool, error) {
		*queries++
		q := src
		for i, column := range columns {
			if cut := strings.LastIndex(column, "__"); cut >= 0 {
				// "COLUMN__LOOKUP": isnull, or a UniqueValidator's lookup.
				q = q.Where(column[:cut], query.Lookup(column[cut+2:]), values[i])
			} else {
				q = q.Filter(column, values[i])
			}
		}
		items, err := q.Slice(context.Background(), 0, 2)
		if errors.Is(err, query.ErrInvalidValue) || store.IsDataError(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		for _, it := range items {
			if stored == nil {
				return true, nil
			}
			a, _ := src.Position(it, "id")
			b, _ := src.Position(stored, "id")
			if a != b {
				return true, nil
			}
		}
		return false, nil
	}
}

// datesQuery is the DatesOf a generic view gives a serializer, on src:
// the dates in dateColumn of the items other than stored (nil on a
// create) that hold value in column.
func datesQuery[T any](src queryset.Source[T], stored *T) func(column, value, dateColumn string) ([]string, error) {
	return func(column, value, dateColumn string) ([]string, error) {
		items, err := src.Filter(column, value).Slice(context.Background(), 0, -1)
		if err != nil {
			return nil, err
		}
		var dates []string
		for _, it := range items {
			if stored != nil {
				a, _ := src.Position(it, "id")
				if b, _ := src.Position(stored, "id"); a == b {
					continue
				}
			}
			date, err := src.Position(it, dateColumn)
			if err != nil {
				return nil, err
			}
			dates = append(dates, date)
		}
		return dates, nil
	}
}

// drfvExpect is "" when got is want, else what differs.
func drfvExpect(what string, got, want any) string {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) == string(w) {
		return ""
	}
	return fmt.Sprintf("%s: %s, want %s", what, g, w)
}

// drfvErrors is "" when errs, a JSON object, is want's.
func drfvErrors(what, errs, want string) string {
	var g, w any
	if json.Unmarshal([]byte(errs), &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return fmt.Sprintf("%s: errors %q, want %s", what, errs, want)
	}
	return drfvExpect(what+": errors", g, w)
}

// drfValidatorsItems are the ported items: each sets its tables up and
// answers "" when it passes, else what DRF asserts that it does not do.
var drfValidatorsItems = map[string]func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string{
	"TestUniquenessValidation.test_is_not_unique": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_uniquenessmodel"}, `INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing')`)
		_, errs := drfvNew[uqUser](t, db, level).isValid(t, nil, false, `{"username": "existing"}`)
		return drfvErrors("is_valid", errs, `{"username": ["uniqueness model with this username already exists."]}`)
	},
	"TestUniquenessValidation.test_relation_is_not_unique": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_uniquenessmodel", "drfv_relatedmodel"},
			`INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing')`,
			`INSERT INTO "drfv_relatedmodel" ("user_id", "email") VALUES (1, '')`)
		_, errs := drfvNew[drfvRelated](t, db, level, serializers.Fields("user")).isValid(t, nil, false, `{"user": 1}`)
		return drfvErrors("is_valid", errs, `{"user": ["related model with this user already exists."]}`)
	},
	"TestUniquenessValidation.test_is_unique": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_uniquenessmodel"}, `INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing')`)
		got, errs := drfvNew[uqUser](t, db, level).isValid(t, nil, false, `{"username": "other"}`)
		if errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("validated_data", got.Username, "other")
	},
	"TestUniquenessValidation.test_updated_instance_excluded": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_uniquenessmodel"}, `INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing')`)
		s := drfvNew[uqUser](t, db, level)
		got, errs := s.isValid(t, s.instance(t, 1), false, `{"username": "existing"}`)
		if errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("validated_data", got.Username, "existing")
	},
	// The username's UniqueValidator(queryset=UniquenessModel.objects.all(),
	// lookup='iexact') is UniqueValidator{Queryset, Lookup}.
	"TestUniquenessValidation.test_related_model_is_unique": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_uniquenessmodel", "drfv_relatedmodel"}, `INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing')`)
		s := drfvNew[drfvRelatedUsername](t, db, level, drfvUsernameUnique(db))
		_, errs := s.isValid(t, nil, false, `{"username": "Existing", "email": "new-email@example.com"}`)
		if diff := drfvErrors("is_valid", errs, `{"username": ["This field must be unique."]}`); diff != "" {
			return diff
		}
		if _, errs := s.isValid(t, nil, false, `{"username": "new-username", "email": "new-email@example.com"}`); errs != "" {
			return "is_valid: " + errs
		}
		return ""
	},
	"TestUniquenessValidation.test_value_error_treated_as_not_unique": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_integerfieldmodel"})
		// The queryset is IntegerFieldModel's: the column the CharField
		// is unique in holds integers.
		s := &drfvSerializer[drfvInteger]{src: queryset.MustSQL[drfvInteger](db, queryset.SQLConfig{Table: "drfv_integerfieldmodel"}),
			ser: serializers.MustNew[drfvInteger](), level: level}
		_, errs := s.isValid(t, nil, false, `{"integer": "abc"}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	"TestUniquenessTogetherValidation.test_is_not_unique_together": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		_, errs := drfvNew[uqTogether](t, db, level).isValid(t, nil, false, `{"race_name": "example", "position": 2}`)
		return drfvErrors("is_valid", errs, `{"non_field_errors": ["The fields race_name, position must make a unique set."]}`)
	},
	"TestUniquenessTogetherValidation.test_is_unique_together": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		got, errs := drfvNew[uqTogether](t, db, level).isValid(t, nil, false, `{"race_name": "other", "position": 2}`)
		if errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("validated_data", []any{got.RaceName, got.Position}, []any{"other", 2})
	},
	"TestUniquenessTogetherValidation.test_updated_instance_excluded_from_unique_together": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		s := drfvNew[uqTogether](t, db, level)
		got, errs := s.isValid(t, s.instance(t, 1), false, `{"race_name": "example", "position": 1}`)
		if errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("validated_data", []any{got.RaceName, got.Position}, []any{"example", 1})
	},
	// DRF's create with partial=True: a create is never partial here
	// (docs/drf-differences.md, "No partial create"), and ValidateNew
	// requires the set's fields as DRF does.
	"TestUniquenessTogetherValidation.test_unique_together_is_required": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		_, errs := drfvNew[uqTogether](t, db, level).isValid(t, nil, false, `{"position": 2}`)
		return drfvErrors("is_valid", errs, `{"race_name": ["This field is required."]}`)
	},
	// A read-only field with a default is DRF's HiddenField for writes:
	// the set is checked with the value it sets.
	"TestUniquenessTogetherValidation.test_read_only_fields_with_default": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		s := drfvNew[uqTogether](t, db, level, serializers.Fields("id", "position"),
			serializers.HiddenField("race_name", func(*serializers.Context) (string, error) { return "example", nil }))
		_, errs := s.isValid(t, nil, false, `{"position": 2}`)
		return drfvErrors("is_valid", errs, `{"non_field_errors": ["The fields race_name, position must make a unique set."]}`)
	},
	// Meta.validators is Validators, a read-only field's default in
	// the set's values.
	"TestUniquenessTogetherValidation.test_read_only_fields_with_default_and_source": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		s := drfvNew[drfvReadOnlySource](t, db, level, serializers.Validators(serializers.UniqueTogetherValidator{Fields: []string{"name", "position"}}))
		_, errs := s.isValid(t, nil, false, `{"position": 1}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	// The repr's assertion, that Meta.validators = [] leaves the
	// serializer no validator, is what a client sees of it: the fields
	// as they were, and a duplicate set valid, without a query.
	"TestUniquenessTogetherValidation.test_allow_explicit_override": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		s := drfvNew[uqTogether](t, db, level, serializers.Validators())
		if got := drfvExpect("fields", s.ser.FieldNames(), []string{"id", "race_name", "position"}); got != "" {
			return got
		}
		if _, errs := s.isValid(t, nil, false, `{"race_name": "example", "position": 1}`); errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("qs_exists calls", s.queries, 0)
	},
	// The model's unique-together names the serializer's field, as
	// DRF's explicit UniqueTogetherValidator(fields=['name', 'position']).
	"TestUniquenessTogetherValidation.test_writeable_fields_with_source": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db)
		s := drfvNew[drfvTogetherSource](t, db, level)
		if _, errs := s.isValid(t, nil, false, `{"name": "test", "pos": 1}`); errs != "" {
			return "is_valid: " + errs
		}
		_, errs := s.isValid(t, nil, false, `{"pos": 1}`)
		return drfvErrors("is_valid", errs, `{"name": ["This field is required."]}`)
	},
	"TestUniquenessTogetherValidation.test_ignore_validation_for_null_fields": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_nulluniquenesstogethermodel"},
			`INSERT INTO "tests_nulluniquenesstogethermodel" ("date_of_birth", "race_name", "position") VALUES ('2000-01-01', 'Paris Marathon', NULL)`)
		_, errs := drfvNew[uqNullTogether](t, db, level).isValid(t, nil, false, `{"date": "2000-01-01", "race_name": "Paris Marathon", "position": null}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	"TestUniquenessTogetherValidation.test_ignore_validation_for_missing_nullable_fields": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_nulluniquenesstogethermodel"})
		_, errs := drfvNew[uqNullTogether](t, db, level).isValid(t, nil, false, `{"date": "2000-01-01", "race_name": "Paris Marathon"}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	"TestUniquenessTogetherValidation.test_do_not_ignore_validation_for_null_fields": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"tests_nulluniquenesstogethermodel"},
			`INSERT INTO "tests_nulluniquenesstogethermodel" ("date_of_birth", "race_name", "position") VALUES ('2000-01-01', 'Paris Marathon', 1)`)
		if _, errs := drfvNew[uqNullTogether](t, db, level).isValid(t, nil, false, `{"date": null, "race_name": "Paris Marathon", "position": 1}`); errs == "" {
			return "is_valid: valid"
		}
		return ""
	},
	"TestUniquenessTogetherValidation.test_ignore_validation_for_unchanged_fields": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db, `INSERT INTO "tests_uniquenesstogethermodel" ("race_name", "position") VALUES ('Paris Marathon', 1)`)
		s := drfvNew[uqTogether](t, db, level)
		if _, errs := s.isValid(t, s.instance(t, 4), false, `{"race_name": "Paris Marathon", "position": 1}`); errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("qs_exists calls", s.queries, 0)
	},
	"TestUniquenessTogetherValidation.test_unique_together_with_source": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvTogetherSetUp(t, db, `INSERT INTO "tests_uniquenesstogethermodel" ("race_name", "position") VALUES ('Paris Marathon', 1)`)
		s := drfvNew[drfvTogetherSource](t, db, level)
		data := `{"name": "Paris Marathon", "pos": 1}`
		if _, errs := s.isValid(t, nil, false, data); errs == "" || s.queries == 0 {
			return fmt.Sprintf("create: errors %q after %d queries", errs, s.queries)
		}
		s.queries = 0
		if _, errs := s.isValid(t, s.instance(t, 4), false, data); errs != "" {
			return "update: " + errs
		}
		return drfvExpect("qs_exists calls", s.queries, 0)
	},
	"TestUniqueConstraintValidation.test_unique_together_condition": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvConstraintSetUp(t, db, `INSERT INTO "drfv_uniqueconstraintmodel" ("race_name", "position", "global_id", "fancy_conditions") VALUES ('condition', 1, 10, 10)`)
		s := drfvNew[drfvConstraint](t, db, level)
		if _, errs := s.isValid(t, nil, false, `{"race_name": "condition", "position": 1, "global_id": 11, "fancy_conditions": 9}`); errs != "" {
			return "fancy_conditions 9: " + errs
		}
		if _, errs := s.isValid(t, nil, false, `{"race_name": "condition", "position": 1, "global_id": 11, "fancy_conditions": 11}`); errs == "" {
			return "fancy_conditions 11: valid"
		}
		return ""
	},
	// The second half, len(serializer.validators), is Python's API.
	"TestUniqueConstraintValidation.test_unique_together_condition_fields_required": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvConstraintSetUp(t, db)
		_, errs := drfvNew[drfvConstraint](t, db, level).isValid(t, nil, false, `{"race_name": "condition", "position": 1, "global_id": 11}`)
		return drfvErrors("is_valid", errs, `{"fancy_conditions": ["This field is required."]}`)
	},
	"TestUniqueConstraintValidation.test_nullable_unique_constraint_fields_are_not_required": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_uniqueconstraintnullablemodel"})
		s := drfvNew[drfvConstraintNullable](t, db, level, serializers.Fields("title", "age", "tag"))
		got, errs := s.isValid(t, nil, false, `{"title": "Bob"}`)
		if errs != "" {
			return "is_valid: " + errs
		}
		if err := s.src.Insert(context.Background(), got); err != nil {
			return "save: " + err.Error()
		}
		return ""
	},
	"TestUniqueConstraintValidation.test_unique_constraint_source": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvConstraintSetUp(t, db)
		_, errs := drfvNew[drfvConstraintSource](t, db, level).isValid(t, nil, false, `{"raceName": "example", "position": 5, "global_id": 11, "fancy_conditions": 11}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	"TestUniqueConstraintValidation.test_uniq_constraint_condition_read_only_create": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_uniqueconstraintreadonlyfieldmodel"})
		_, errs := drfvNew[drfvConstraintReadOnly](t, db, level).isValid(t, nil, false, `{"position": 1, "something": 1}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	"TestUniqueConstraintValidation.test_uniq_constraint_condition_read_only_partial": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_uniqueconstraintreadonlyfieldmodel"},
			`INSERT INTO "drfv_uniqueconstraintreadonlyfieldmodel" ("state", "position", "something") VALUES ('new', 1, 1)`)
		s := drfvNew[drfvConstraintReadOnly](t, db, level)
		_, errs := s.isValid(t, s.instance(t, 1), true, `{"position": 1, "something": 1}`)
		return drfvErrors("is_valid", orEmpty(errs), `{}`)
	},
	// The errors' .code is Python's API (error codes on messages have no
	// counterpart).
	"TestUniqueConstraintValidation.test_unique_constraint_custom_message_code": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_uniqueconstraintcustommessagecodemodel"},
			`INSERT INTO "drfv_uniqueconstraintcustommessagecodemodel" ("username", "company_id", "role") VALUES ('Alice', 1, 'member')`)
		_, errs := drfvNew[drfvConstraintMessage](t, db, level).isValid(t, nil, false, `{"username": "Alice", "company_id": 1, "role": "admin"}`)
		return drfvErrors("is_valid", errs, `{"non_field_errors": ["Username must be unique within a company."]}`)
	},
	"TestUniqueConstraintValidation.test_unique_constraint_default_message_code": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_uniqueconstraintcustommessagecodemodel"},
			`INSERT INTO "drfv_uniqueconstraintcustommessagecodemodel" ("username", "company_id", "role") VALUES ('Alice', 1, 'member')`)
		_, errs := drfvNew[drfvConstraintMessage](t, db, level).isValid(t, nil, false, `{"username": "John", "company_id": 1, "role": "member"}`)
		return drfvErrors("is_valid", errs, `{"non_field_errors": ["The fields company_id, role must make a unique set."]}`)
	},
	"TestUniquenessForDateValidation.test_is_not_unique_for_date": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvUniqueFor[drfvDate](t, db, level, "drfv_uniquefordatemodel", "2000-01-01", "2000-01-01", `{"slug": ["This field must be unique for the \"published\" date."]}`)
	},
	"TestUniquenessForDateValidation.test_is_unique_for_date": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvUniqueFor[drfvDate](t, db, level, "drfv_uniquefordatemodel", "2000-01-01", "2000-01-02", "")
	},
	"TestUniquenessForDateValidation.test_updated_instance_excluded_from_unique_for_date": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		drfvSetUp(t, db, []string{"drfv_uniquefordatemodel"}, `INSERT INTO "drfv_uniquefordatemodel" ("slug", "published") VALUES ('existing', '2000-01-01')`)
		s := drfvNew[drfvDate](t, db, level)
		got, errs := s.isValid(t, s.instance(t, 1), false, `{"slug": "existing", "published": "2000-01-01"}`)
		if errs != "" {
			return "is_valid: " + errs
		}
		return drfvExpect("validated_data", []string{got.Slug, got.Published.String()}, []string{"existing", "2000-01-01"})
	},
	"UniqueForMonthTests.test_not_unique_for_month": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvUniqueFor[drfvMonth](t, db, level, "drfv_uniqueformonthmodel", "2017-01-01", "2017-01-01", `{"slug": ["This field must be unique for the \"published\" month."]}`)
	},
	"UniqueForMonthTests.test_unique_for_month": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvUniqueFor[drfvMonth](t, db, level, "drfv_uniqueformonthmodel", "2017-01-01", "2017-02-01", "")
	},
	"UniqueForYearTests.test_not_unique_for_year": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvUniqueFor[drfvYear](t, db, level, "drfv_uniqueforyearmodel", "2017-01-01", "2017-01-01", `{"slug": ["This field must be unique for the \"published\" year."]}`)
	},
	"UniqueForYearTests.test_unique_for_year": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvUniqueFor[drfvYear](t, db, level, "drfv_uniqueforyearmodel", "2017-01-01", "2018-01-01", "")
	},
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_validates_null_as_duplicate": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvNulls(t, db, level, nil, `('First', NULL, NULL)`, `{"name": "Second", "code": null, "category": null}`, false)
	},
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_allows_different_non_null_values": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvNulls(t, db, level, nil, `('First', 'A', 'X')`, `{"name": "Second", "code": "B", "category": "Y"}`, true)
	},
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_rejects_duplicate_non_null_values": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvNulls(t, db, level, nil, `('First', 'A', 'X')`, `{"name": "Second", "code": "A", "category": "X"}`, false)
	},
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_update_with_null_values": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		one := int64(1)
		return drfvNulls(t, db, level, &one, `('First', NULL, NULL)`, `{"name": "Updated", "code": null, "category": null}`, true)
	},
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_update_to_existing_null": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		two := int64(2)
		return drfvNulls(t, db, level, &two, `('First', NULL, NULL), ('Second', 'A', 'X')`, `{"name": "Second", "code": null, "category": null}`, false)
	},
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_partial_null": func(t *testing.T, db *sqlx.DB, level framework.Compatibility) string {
		return drfvNulls(t, db, level, nil, `('First', NULL, 'X')`, `{"name": "Second", "code": null, "category": "X"}`, false)
	},
}

// drfvUsernameUnique is RelatedModelSerializer's
// UniqueValidator(queryset=UniquenessModel.objects.all(), lookup='iexact')
// of its username, on db.
func drfvUsernameUnique(db *sqlx.DB) serializers.UniqueValidator {
	return serializers.UniqueValidator{Field: "username", Lookup: query.IExact,
		Queryset: queryset.Into(queryset.MustSQL[uqUser](db, queryset.SQLConfig{}), nil)}
}

// drfvUniqueFor is the items of TestUniquenessForDateValidation,
// UniqueForMonthTests and UniqueForYearTests: a row of slug "existing"
// published on stored, then a create of the same slug published on
// date, whose errors are want ("" for valid, the validated data then).
func drfvUniqueFor[T any](t *testing.T, db *sqlx.DB, level framework.Compatibility, table, stored, date, want string) string {
	drfvSetUp(t, db, []string{table}, `INSERT INTO "`+table+`" ("slug", "published") VALUES ('existing', '`+stored+`')`)
	s := drfvNew[T](t, db, level)
	got, errs := s.isValid(t, nil, false, `{"slug": "existing", "published": "`+date+`"}`)
	if want != "" {
		return drfvErrors("is_valid", orEmpty(errs), want)
	}
	if errs != "" {
		return "is_valid: " + errs
	}
	out, err := s.ser.Data(got, nil)
	if err != nil {
		return err.Error()
	}
	var data map[string]any
	_ = json.Unmarshal(out, &data)
	return drfvExpect("validated_data", []any{data["slug"], data["published"]}, []any{"existing", date})
}

// drfvNulls is the items of TestUniqueConstraintNullsDistinct: rows
// (name, code, category), then a create (an update of the row of id
// when id is not nil) of body, valid or not.
func drfvNulls(t *testing.T, db *sqlx.DB, level framework.Compatibility, id *int64, rows, body string, valid bool) string {
	drfvSetUp(t, db, []string{"drfv_uniqueconstraintnullsdistinctmodel"},
		`INSERT INTO "drfv_uniqueconstraintnullsdistinctmodel" ("name", "code", "category") VALUES `+rows)
	s := drfvNew[drfvNullsDistinct](t, db, level, serializers.Fields("name", "code", "category"))
	var stored *drfvNullsDistinct
	if id != nil {
		stored = s.instance(t, *id)
	}
	_, errs := s.isValid(t, stored, false, body)
	switch {
	case valid && errs != "":
		return "is_valid: " + errs
	case !valid && errs == "":
		return "is_valid: valid"
	}
	return ""
}

// orEmpty is errs, or {} for no errors (DRF's valid serializer.errors).
func orEmpty(errs string) string {
	if errs == "" {
		return "{}"
	}
	return errs
}

// drfvTogetherSetUp is TestUniquenessTogetherValidation.setUp.
func drfvTogetherSetUp(t *testing.T, db *sqlx.DB, rows ...string) {
	t.Helper()
	drfvSetUp(t, db, []string{"tests_uniquenesstogethermodel", "tests_nulluniquenesstogethermodel"}, append([]string{
		`INSERT INTO "tests_uniquenesstogethermodel" ("race_name", "position") VALUES ('example', 1), ('example', 2), ('other', 1)`,
	}, rows...)...)
}

// drfvConstraintSetUp is TestUniqueConstraintValidation.setUp.
func drfvConstraintSetUp(t *testing.T, db *sqlx.DB, rows ...string) {
	t.Helper()
	drfvSetUp(t, db, []string{"drfv_uniqueconstraintmodel"}, append([]string{
		`INSERT INTO "drfv_uniqueconstraintmodel" ("race_name", "position", "global_id", "fancy_conditions") VALUES ` +
			`('example', 1, 1, 1), ('example', 2, 2, 1), ('other', 1, 3, 1)`,
	}, rows...)...)
}

// drfValidatorsDiffer are the ported items the framework answers
// otherwise, each with why (docs/drf-differences.md); a key that starts
// with a dialect's name (or a level's) is an item that differs on that
// dialect (at that level) alone.
var drfValidatorsDiffer = map[string]string{
	"drf318 TestUniqueConstraintValidation.test_unique_together_condition": "a UniqueConstraint whose condition has lookups other than " +
		"exact (fancy_conditions__gte=10) is left to the database's partial index, which refuses the duplicate when it is written: " +
		"the same 400 then, not at validation",
}

// drfValidators314 are DRF 3.14's answers where they differ from DRF
// 3.18's, as the item reports them (drf_validators.py and
// drf_unique_constraint.py pin them): DRF 3.14 requires a nullable field
// of a unique-together, looks whether the set is unchanged or not, and
// has no validator for a UniqueConstraint.
var drfValidators314 = map[string]string{
	"TestUniquenessTogetherValidation.test_ignore_validation_for_missing_nullable_fields": `is_valid: errors: {"position":["This field is required."]}, want {}`,
	"TestUniquenessTogetherValidation.test_ignore_validation_for_unchanged_fields":        `qs_exists calls: 1, want 0`,
	"TestUniquenessTogetherValidation.test_unique_together_with_source":                   `qs_exists calls: 1, want 0`,
	"TestUniqueConstraintValidation.test_unique_together_condition":                       `fancy_conditions 11: valid`,
	"TestUniqueConstraintValidation.test_unique_constraint_default_message_code": `is_valid: errors "", want ` +
		`{"non_field_errors": ["The fields company_id, role must make a unique set."]}`,
}

// drfValidatorsNot314 are the ported items that cannot run at DRF 3.14's
// level: Django 3.2 has no UniqueConstraint(nulls_distinct=...) nor
// violation_error_message (Django 4.1).
var drfValidatorsNot314 = map[string]bool{
	"TestUniqueConstraintValidation.test_unique_constraint_custom_message_code":                     true,
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_validates_null_as_duplicate":       true,
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_allows_different_non_null_values":  true,
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_rejects_duplicate_non_null_values": true,
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_update_with_null_values":           true,
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_update_to_existing_null":           true,
	"TestUniqueConstraintNullsDistinct.test_nulls_distinct_false_partial_null":                      true,
}

// drfValidatorsNotPortable are the items that cannot be written against
// the serializers, each with why: Python's own API (a serializer's repr,
// its validators list, mock querysets), or an option with no counterpart
// (issue 41's "With no counterpart at all").
var drfValidatorsNotPortable = map[string]string{
	"TestUniquenessValidation.test_repr":                                                                 "Python's API: a serializer's repr",
	"TestUniquenessValidation.test_doesnt_pollute_model":                                                 "Python's API: the model field's validators list, which a serializer could change",
	"TestUniquenessTogetherValidation.test_repr":                                                         "Python's API: a serializer's repr",
	"TestUniquenessTogetherValidation.test_many_update_requires_child_instance":                          "Python's API: a ListSerializer subclass whose update sets no child.instance",
	"TestUniquenessTogetherValidation.test_ignore_excluded_fields":                                       "Python's API: a serializer's repr",
	"TestUniquenessTogetherValidation.test_ignore_read_only_fields":                                      "Python's API: a serializer's repr",
	"TestUniquenessTogetherValidation.test_default_validator_with_fields_with_source":                    "Python's API: a serializer's repr",
	"TestUniquenessTogetherValidation.test_default_validator_with_multiple_fields_with_same_source":      "Go's struct: one struct field per column",
	"TestUniquenessTogetherValidation.test_filter_queryset_do_not_skip_existing_attribute":               "Python's API: filter_queryset on a mock queryset",
	"TestUniquenessTogetherValidation.test_uniq_together_validation_uses_model_fields_method_field":      "Python's API: a serializer's repr",
	"TestUniquenessTogetherValidation.test_uniq_together_validation_uses_model_fields_with_source_field": "Python's API: a serializer's repr",
	"TestUniqueConstraintValidation.test_repr":                                                           "Python's API: a serializer's repr",
	"TestUniqueConstraintValidation.test_single_field_uniq_validators":                                   "Python's API: a field's validators list and their querysets",
	"TestUniquenessForDateValidation.test_repr":                                                          "Python's API: a serializer's repr",
	"TestHiddenFieldUniquenessForDateValidation.test_repr_date_field_not_included":                       "Python's API: a serializer's repr",
	"TestHiddenFieldUniquenessForDateValidation.test_repr_date_field_included":                           "Python's API: a serializer's repr",
	"ValidatorsTests.test_qs_exists_handles_type_error":                                                  "Python's API: qs_exists on a mock queryset",
	"ValidatorsTests.test_qs_exists_handles_value_error":                                                 "Python's API: qs_exists on a mock queryset",
	"ValidatorsTests.test_qs_exists_handles_data_error":                                                  "Python's API: qs_exists on a mock queryset",
	"ValidatorsTests.test_validator_raises_error_if_not_all_fields_are_provided":                         "Python's API: BaseUniqueForValidator.enforce_required_fields",
	"ValidatorsTests.test_validator_raises_error_when_abstract_method_called":                            "Python's API: an abstract method",
	"ValidatorsTests.test_equality_operator":                                                             "Python's API: validators' ==",
	"TestUniqueConstraintNullsDistinct.test_unique_together_validator_nulls_distinct_equality":           "Python's API: validators' ==",
}

// drfValidatorsMethods are test_validators.py's 63 test methods, by class.
var drfValidatorsMethods = map[string][]string{
	"TestUniquenessValidation": {"test_repr", "test_is_not_unique", "test_relation_is_not_unique", "test_is_unique",
		"test_updated_instance_excluded", "test_doesnt_pollute_model", "test_related_model_is_unique", "test_value_error_treated_as_not_unique"},
	"TestUniquenessTogetherValidation": {"test_repr", "test_is_not_unique_together", "test_is_unique_together",
		"test_updated_instance_excluded_from_unique_together", "test_many_update_requires_child_instance",
		"test_unique_together_is_required", "test_ignore_excluded_fields", "test_ignore_read_only_fields",
		"test_read_only_fields_with_default", "test_read_only_fields_with_default_and_source", "test_writeable_fields_with_source",
		"test_default_validator_with_fields_with_source", "test_default_validator_with_multiple_fields_with_same_source",
		"test_allow_explicit_override", "test_ignore_validation_for_null_fields", "test_ignore_validation_for_missing_nullable_fields",
		"test_do_not_ignore_validation_for_null_fields", "test_ignore_validation_for_unchanged_fields", "test_unique_together_with_source",
		"test_filter_queryset_do_not_skip_existing_attribute", "test_uniq_together_validation_uses_model_fields_method_field",
		"test_uniq_together_validation_uses_model_fields_with_source_field"},
	"TestUniqueConstraintValidation": {"test_repr", "test_unique_together_condition", "test_unique_together_condition_fields_required",
		"test_single_field_uniq_validators", "test_nullable_unique_constraint_fields_are_not_required", "test_unique_constraint_source",
		"test_uniq_constraint_condition_read_only_create", "test_uniq_constraint_condition_read_only_partial",
		"test_unique_constraint_custom_message_code", "test_unique_constraint_default_message_code"},
	"TestUniquenessForDateValidation": {"test_repr", "test_is_not_unique_for_date", "test_is_unique_for_date",
		"test_updated_instance_excluded_from_unique_for_date"},
	"UniqueForMonthTests":                        {"test_not_unique_for_month", "test_unique_for_month"},
	"UniqueForYearTests":                         {"test_not_unique_for_year", "test_unique_for_year"},
	"TestHiddenFieldUniquenessForDateValidation": {"test_repr_date_field_not_included", "test_repr_date_field_included"},
	"ValidatorsTests": {"test_qs_exists_handles_type_error", "test_qs_exists_handles_value_error", "test_qs_exists_handles_data_error",
		"test_validator_raises_error_if_not_all_fields_are_provided", "test_validator_raises_error_when_abstract_method_called",
		"test_equality_operator"},
	"TestUniqueConstraintNullsDistinct": {"test_nulls_distinct_false_validates_null_as_duplicate",
		"test_nulls_distinct_false_allows_different_non_null_values", "test_nulls_distinct_false_rejects_duplicate_non_null_values",
		"test_nulls_distinct_false_update_with_null_values", "test_nulls_distinct_false_update_to_existing_null",
		"test_nulls_distinct_false_partial_null", "test_unique_together_validator_nulls_distinct_equality"},
}

// TestDRFValidators runs the ported items on SQLite and PostgreSQL, at
// both levels.
func TestDRFValidators(t *testing.T) {
	total := 0
	for class, methods := range drfValidatorsMethods {
		for _, m := range methods {
			total++
			name := class + "." + m
			_, ported := drfValidatorsItems[name]
			_, notPortable := drfValidatorsNotPortable[name]
			if ported == notPortable {
				t.Errorf("%s: ported %v, listed as not portable %v", name, ported, notPortable)
			}
		}
	}
	if total != 63 || len(drfValidatorsItems)+len(drfValidatorsNotPortable) != total {
		t.Errorf("%d methods, %d ported and %d not portable: an item is named twice or is none of DRF's", total, len(drfValidatorsItems), len(drfValidatorsNotPortable))
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		dialect := "sqlite"
		if db.DriverName() != "sqlite3" {
			dialect = "postgresql"
		}
		names := make([]string, 0, len(drfValidatorsItems))
		for name := range drfValidatorsItems {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
			levelName := map[framework.Compatibility]string{framework.DRF314: "drf314", framework.DRF318: "drf318"}[level]
			passed, listed, not314 := 0, 0, 0
			for _, name := range names {
				if level == framework.DRF314 && drfValidatorsNot314[name] {
					not314++
					continue
				}
				got := drfValidatorsItems[name](t, db, level)
				if old, ok := drfValidators314[name]; ok && level == framework.DRF314 {
					if got == old {
						got = ""
					} else if got == "" {
						got = "DRF 3.18's answer, not DRF 3.14's: " + old
					}
				}
				why, differs := "", false
				for _, key := range []string{name, dialect + " " + name, levelName + " " + name} {
					if w, ok := drfValidatorsDiffer[key]; ok {
						why, differs = w, true
					}
				}
				switch {
				case differs && got == "":
					t.Errorf("%v: %s passes, but is listed as a difference (%s)", level, name, why)
				case differs:
					listed++
				case got == "":
					passed++
				default:
					t.Errorf("%v: %s: %s", level, name, got)
				}
			}
			t.Logf("%v: %d items pass, %d are listed differences, %d are not portable", level, passed, listed, len(drfValidatorsNotPortable)+not314)
			if portable := passed + listed; passed*100 < portable*95 {
				t.Errorf("%v: %d of %d portable items pass, under 95%%", level, passed, portable)
			}
		}
	})
}
