package models_test

import (
	"database/sql"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// everything has a field of each kind a Go type gives.
type everything struct {
	ID       int64            `db:"id"`
	Small    int16            `db:"small"`
	Int      int              `db:"int"`
	Int32    sql.NullInt32    `db:"int32"`
	Big      int64            `db:"big"`
	Count    uint32           `db:"count"`
	Flag     bool             `db:"flag" model:"default=true"`
	Ratio    float64          `db:"ratio" model:"default=0.5"`
	Price    decimal.Decimal  `db:"price" model:"max_digits=6,decimal_places=2,default=1.50"`
	Name     string           `db:"name" model:"max_length=20,default=a, b"`
	Body     *string          `db:"body"`
	Email    string           `db:"email" model:"field=EmailField"`
	Slug     string           `db:"slug" model:"field=SlugField"`
	At       time.Time        `db:"at" model:"auto_now"`
	Day      models.Date      `db:"day"`
	Clock    models.TimeOfDay `db:"clock"`
	Span     time.Duration    `db:"span"`
	Blob     []byte           `db:"blob"`
	Code     uuid.UUID        `db:"code"`
	Doc      json.RawMessage  `db:"doc"`
	ParentID *int64           `db:"parent_id" model:"foreign_key=app_everything,on_delete=set_null,related_name=children"`
	Parent   string           `json:"parent" drf:"source=parent.name"`
	Children []int64          `json:"children" model:"reverse=app_everything.parent_id"`
}

func (everything) Meta() models.Meta {
	return models.Meta{App: "app", Ordering: []string{"-at", "name"},
		Choices:  map[string][]models.Choice{"name": {{Value: "a, b", Label: "A and B"}}},
		Defaults: map[string]models.Default{"code": models.DefaultFunc(func() uuid.UUID { return uuid.MustParse("a0000000-0000-0000-0000-000000000001") })},
	}
}

func TestDescribe(t *testing.T) {
	d, err := models.Of[everything]()
	if err != nil {
		t.Fatal(err)
	}
	if d.Meta.Table != "app_everything" || d.Meta.VerboseName != "everything" || d.PrimaryKey.Column != "id" {
		t.Errorf("meta: %+v, key %s", d.Meta, d.PrimaryKey.Column)
	}
	want := map[string]models.Kind{
		"id": models.BigAutoField, "small": models.SmallIntegerField, "int": models.IntegerField, "int32": models.IntegerField,
		"big": models.BigIntegerField, "count": models.PositiveIntegerField, "flag": models.BooleanField, "ratio": models.FloatField,
		"price": models.DecimalField, "name": models.CharField, "body": models.TextField, "email": models.EmailField,
		"slug": models.SlugField, "at": models.DateTimeField, "day": models.DateField, "clock": models.TimeField,
		"span": models.DurationField, "blob": models.BinaryField, "code": models.UUIDField, "doc": models.JSONField,
		"parent": models.ForeignKey,
	}
	for _, f := range d.Fields {
		if want[f.Name] != f.Kind {
			t.Errorf("%s is a %s, want %s", f.Name, f.Kind, want[f.Name])
		}
	}
	if f := d.Field("email"); f.MaxLength != 254 {
		t.Errorf("an EmailField's max_length is Django's 254, not %d", f.MaxLength)
	}
	if f := d.Field("slug"); !f.DBIndex || f.MaxLength != 50 {
		t.Errorf("a SlugField is indexed with max_length 50: %+v", f)
	}
	if f := d.Field("body"); !f.Null || d.Field("name").Null {
		t.Error("a pointer field is null=True, a string is not")
	}
	if f := d.Field("parent_id"); f.Name != "parent" || f.Related.Table != "app_everything" || f.Related.Column != "id" ||
		f.Related.OnDelete != models.SetNull || f.Related.RelatedName != "children" {
		t.Errorf("the foreign key: %+v %+v", f, f.Related)
	}
	if f := d.Field("blob"); f.Editable {
		t.Error("a BinaryField is editable=False unless told, as Django's")
	}
	if f := d.Field("at"); f.Editable || !f.Blank {
		t.Error("auto_now makes a field not editable and blank, as Django")
	}
	if len(d.Joins) != 1 || d.Joins[0].Via.Column != "parent_id" || d.Joins[0].Column != "name" {
		t.Errorf("joins: %+v", d.Joins)
	}
	if len(d.Reverses) != 1 || d.Reverses[0].Table != "app_everything" || d.Reverses[0].Column != "parent_id" {
		t.Errorf("reverses: %+v", d.Reverses)
	}
	if len(d.Ordering) != 2 || d.Ordering[0].Field != "at" || !d.Ordering[0].Desc {
		t.Errorf("ordering: %+v", d.Ordering)
	}
	if c := d.Field("name").Choices; len(c) != 1 || c[0].Label != "A and B" {
		t.Errorf("choices: %+v", c)
	}

	var e everything
	if err := d.ApplyDefaults(structs.AddrOf(&e)); err != nil {
		t.Fatal(err)
	}
	if !e.Flag || e.Ratio != 0.5 || e.Price.String() != "1.5" || e.Name != "a, b" || e.Code.String() != "a0000000-0000-0000-0000-000000000001" {
		t.Errorf("defaults: %+v", e)
	}
	d.Touch(structs.AddrOf(&e), false)
	if e.At.IsZero() || e.At.Location() != time.UTC || e.At.Nanosecond()%1000 != 0 {
		t.Errorf("auto_now: %v", e.At)
	}
}

// A key of field=IntegerField is one the program numbers.
func TestDeclaredIntegerKey(t *testing.T) {
	type code struct {
		Code int `db:"code" model:"primary_key,field=IntegerField"`
	}
	d, err := models.Of[code]()
	if err != nil {
		t.Fatal(err)
	}
	if d.PrimaryKey.Kind != models.IntegerField || d.PrimaryKey.Generated() {
		t.Errorf("the key is a %s", d.PrimaryKey.Kind)
	}
}

// What cannot work is refused when the model is described, naming it.
func TestDescribeRefuses(t *testing.T) {
	type unknownOption struct {
		ID int `db:"id" model:"primary"`
	}
	type noKey struct {
		Name string `db:"name"`
	}
	type twoKeys struct {
		A int `db:"a" model:"primary_key"`
		B int `db:"b" model:"primary_key"`
	}
	type charWithoutLength struct {
		ID   int    `db:"id"`
		Name string `db:"name" model:"field=CharField"`
	}
	type setNullNotNull struct {
		ID      int `db:"id"`
		OwnerID int `db:"owner_id" model:"foreign_key=auth_user,on_delete=set_null"`
	}
	type badOnDelete struct {
		ID      int `db:"id"`
		OwnerID int `db:"owner_id" model:"foreign_key=auth_user,on_delete=explode"`
	}
	type joinWithoutKey struct {
		ID    int    `db:"id"`
		Owner string `json:"owner" drf:"source=owner.username"`
	}
	type badDefault struct {
		ID    int `db:"id"`
		Count int `db:"count" model:"default=many"`
	}
	type setDefaultWithout struct {
		ID      int `db:"id"`
		OwnerID int `db:"owner_id" model:"foreign_key=auth_user,on_delete=set_default"`
	}
	for name, describe := range map[string]func() error{
		"unknown option":        func() error { _, err := models.Of[unknownOption](); return err },
		"no key":                func() error { _, err := models.Of[noKey](); return err },
		"two keys":              func() error { _, err := models.Of[twoKeys](); return err },
		"a CharField no length": func() error { _, err := models.Of[charWithoutLength](); return err },
		"set_null, not null":    func() error { _, err := models.Of[setNullNotNull](); return err },
		"bad on_delete":         func() error { _, err := models.Of[badOnDelete](); return err },
		"join without key":      func() error { _, err := models.Of[joinWithoutKey](); return err },
		"bad default":           func() error { _, err := models.Of[badDefault](); return err },
		"set_default, none":     func() error { _, err := models.Of[setDefaultWithout](); return err },
		"set_default, callable": func() error { _, err := models.Of[setDefaultCallable](); return err },
		"bad meta":              func() error { _, err := models.Of[badMeta](); return err },
		"help text of no field": func() error { _, err := models.Of[badHelpText](); return err },
		"validator of a number": func() error { _, err := models.Of[badValidator](); return err },
		"unknown message":       func() error { _, err := models.Of[badMessage](); return err },
	} {
		err := describe()
		if err == nil || !strings.HasPrefix(err.Error(), "models: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

type badMeta struct {
	ID int `db:"id"`
}

func (badMeta) Meta() models.Meta {
	return models.Meta{Defaults: map[string]models.Default{"id": models.DefaultFunc(func() string { return "x" })}}
}

// setDefaultCallable's default is computed: on_delete=SET_DEFAULT sets
// the text of a literal one.
type setDefaultCallable struct {
	ID      int   `db:"id"`
	OwnerID int64 `db:"owner_id" model:"foreign_key=auth_user,on_delete=set_default"`
}

func (setDefaultCallable) Meta() models.Meta {
	return models.Meta{Defaults: map[string]models.Default{"owner_id": models.DefaultFunc(func() int64 { return 1 })}}
}

type badHelpText struct {
	ID int `db:"id"`
}

func (badHelpText) Meta() models.Meta {
	return models.Meta{HelpText: map[string]string{"name": "The name."}}
}

type badValidator struct {
	ID    int `db:"id"`
	Count int `db:"count"`
}

func (badValidator) Meta() models.Meta {
	return models.Meta{Validators: map[string][]models.Validator{"count": {{Check: func(string) error { return nil }}}}}
}

type badMessage struct {
	ID   int    `db:"id"`
	Name string `db:"name" model:"max_length=10,unique"`
}

func (badMessage) Meta() models.Meta {
	return models.Meta{ErrorMessages: map[string]map[string]string{"name": {"blank": "Say a name."}}}
}

// VerboseName is Django's camel_case_to_spaces (pinned against Django 3.2).
func TestVerboseName(t *testing.T) {
	for name, want := range map[string]string{
		"BlogPost": "blog post", "HTTPLog": "http log", "AB1": "a b1", "Book2Entry": "book2 entry", "item": "item", "URLs": "ur ls",
	} {
		if got := models.VerboseName(name); got != want {
			t.Errorf("VerboseName(%q) = %q, want Django's %q", name, got, want)
		}
	}
}
