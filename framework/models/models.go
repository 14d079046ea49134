// Package models declares a model once, on its struct, as Django's models
// do: the table, each column's Django field, its options, and relations.
// Data sources derive their SQL from the declaration, migrations their
// schema, and serializers their fields, as Django's ORM, makemigrations and
// DRF's ModelSerializer derive theirs from a Django model.
//
// A model is a struct whose `db`-tagged fields are its columns, with a
// Meta method for the model's options:
//
//	type Snippet struct {
//		ID       int       `db:"id" json:"id"`
//		Created  time.Time `db:"created" json:"created" model:"auto_now_add"`
//		Title    string    `db:"title" json:"title" model:"max_length=100,blank,default="`
//		Code     string    `db:"code" json:"code"`
//		Language string    `db:"language" json:"language" model:"max_length=100,default=python"`
//		OwnerID  int64     `db:"owner_id" json:"-" model:"foreign_key=auth_user,on_delete=cascade,related_name=snippets"`
//		Owner    string    `json:"owner" drf:"source=owner.username"`
//	}
//
//	func (Snippet) Meta() models.Meta {
//		return models.Meta{App: "snippets", Ordering: []string{"created"},
//			Choices: map[string][]models.Choice{"language": languages}}
//	}
//
// The `model` tag holds Django's field options, comma-separated:
// primary_key, null, blank, unique, db_index, auto_now, auto_now_add,
// editable=false, unique_for_date=NAME, unique_for_month=NAME,
// unique_for_year=NAME (a DateField or DateTimeField), max_length=N, max_digits=N, decimal_places=N,
// default=TEXT (the rest of the tag, so it comes last), field=KIND (the
// Django field class, where the Go type allows several: EmailField,
// URLField, SlugField, GenericIPAddressField, TextField, CharField,
// PositiveIntegerField, ...), and for a relation foreign_key=TABLE[.COLUMN]
// (or one_to_one=TABLE[.COLUMN]), on_delete=cascade|protect|restrict|
// set_null|set_default|do_nothing, related_name=NAME,
// related_query_name=NAME and
// limit_choices_to=COLUMN=VALUE[&COLUMN=VALUE...] (exact lookups on the
// related table, as a query string), and for a file
// upload_to=PATTERN, and for an image width_field=NAME and
// height_field=NAME (files.go), and for a GenericIPAddressField
// protocol=both|IPv4|IPv6, and for a FilePathField (a string of
// path=DIR) match=REGEX, recursive, allow_files and allow_folders
// (filepath.go).
//
// Nullability follows the Go type: a pointer or an sql.Null type is
// null=True. A field without a kind of its own is derived from its Go
// type: int and int32 are IntegerField, int64 BigIntegerField, int16
// SmallIntegerField, unsigned ones the Positive… fields, bool
// BooleanField, float64 FloatField, string CharField with a max_length
// and TextField without, time.Time DateTimeField, Date DateField,
// TimeOfDay TimeField, time.Duration DurationField, []byte BinaryField, a
// UUID UUIDField, a decimal DecimalField, json.RawMessage JSONField,
// files.File FileField (field=ImageField for an ImageField). An
// integer primary key is an AutoField (int64: BigAutoField) that the
// database numbers (field=IntegerField keeps it one the program numbers,
// as Django's IntegerField(primary_key=True)); without a primary_key
// field, the column "id" is it. A BinaryField is editable=false unless its
// tag says editable=true, as in Django (so DRF makes it read-only).
//
// These fields read related rows rather than a column:
//   - a field without a `db` column whose `drf` tag has a dotted source
//     through a foreign key (`drf:"source=owner.username"`) is read by a
//     join, as select_related would (read-only, as DRF's ReadOnlyField);
//   - a struct field, or a pointer to a struct, without a `db` column and
//     named by a foreign key of the model (its JSON name, or its `drf`
//     source: `drf:"source=user"`) holds the related row, its columns by
//     their `db` tags (DRF's nested serializer, read-only): read with one
//     query per page, as prefetch_related would, or joined into the
//     page's query when the data source's SelectRelated names it, as
//     select_related would; one that JSON does not show (`json:"-"`, a
//     token's User) is read only then, as Django reads a relation when
//     asked for it;
//   - a slice field tagged `model:"reverse=TABLE.COLUMN"` holds the keys
//     of the rows of TABLE whose COLUMN references this row, a reverse
//     accessor (`snippets`), read with one query per page, as
//     prefetch_related would, and set by a write, as Django's
//     RelatedManager.set(); with slug_field=COLUMN, their values of that
//     column instead; a pointer to a key is a reverse one-to-one, the
//     one referencing row's key or nil;
//   - a slice field tagged `model:"many_to_many=TABLE[.COLUMN]"` (with
//     related_name=NAME, related_query_name=NAME, through=TABLE, blank,
//     limit_choices_to=...) is a ManyToManyField: the
//     keys of the related rows, kept in a through table (see ManyToMany);
//     with slug_field=COLUMN, their values of that column instead, and a
//     slice of structs holds the related rows themselves (read-only).
package models

import (
	"cmp"
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/internal/structs"
)

// Model is a struct type that declares its model options.
type Model interface {
	// Meta returns the model's options. It is called once, at setup.
	Meta() Meta
}

// Meta is a model's options, as Django's Meta class holds them, and what
// cannot go in a struct tag (choices, default functions).
type Meta struct {
	// App is the app label ("snippets"): migrations are written for it.
	App string
	// Name is the model's name, Django's class name; by default the Go type's.
	Name string
	// Table is the table's name; by default App + "_" + the lowercased
	// Name, as Django's db_table.
	Table string
	// Ordering is the default ordering, in Django's notation ("-created").
	Ordering []string
	// Choices are the valid values of fields, by the field's name (the
	// Django field name: its column, or a foreign key's name without "_id").
	Choices map[string][]Choice
	// Defaults are default functions of fields, by the field's name, for
	// defaults that a tag's literal cannot give (Django's default=callable).
	Defaults map[string]Default
	// HelpText is each field's help text, by the field's name (Django's
	// help_text): OPTIONS and the OpenAPI schema show it.
	HelpText map[string]string
	// Validators are the validators of fields of text, by the field's
	// name (Django's validators=[...]): serializers run them on the new
	// value before the field's own checks, as DRF runs a model field's;
	// an error's text is the field's message.
	Validators map[string][]Validator
	// ErrorMessages override a field's messages, by the field's name then
	// the message's key (Django's error_messages). The key is "unique",
	// whose text may hold Django's %(model_name)s and %(field_label)s.
	ErrorMessages map[string]map[string]string
	// Storage is the storage of file fields, by the field's name
	// (Django's FileField(storage=...)); a field not named keeps its
	// files in files.FileSystemStorage{}, MEDIA_ROOT and MEDIA_URL's
	// defaults.
	Storage map[string]files.Storage
	// UploadTo names each new file of file fields, by the field's name:
	// Django's upload_to as a callable, given the item and the upload's
	// name, over the tag's upload_to pattern.
	UploadTo map[string]func(obj any, filename string) string
	// UniqueTogether lists sets of field names unique together.
	UniqueTogether [][]string
	// Indexes are indexes of several fields.
	Indexes []Index
	// Constraints are Django's Meta.constraints: UniqueConstraint and
	// CheckConstraint, which migrations create.
	Constraints []Constraint
	// Unmanaged leaves the table to someone else (Django's managed=False):
	// migrations neither create nor change it.
	Unmanaged bool
	// VerboseName is the model's name for people; by default Name split
	// into lower-case words ("book", "blog post").
	VerboseName string
	// VerboseNamePlural is VerboseName + "s" by default.
	VerboseNamePlural string
}

// Choice is one valid value of a field and its label.
type Choice struct {
	// Value is the value as its field's text.
	Value string
	// Label is the value's human-readable name.
	Label string
}

// Validator is a Django validator of a field of text.
type Validator struct {
	// Check refuses a value by an error whose text is the field's
	// message ("Enter a valid username. ...").
	Check func(text string) error
	// Pattern is a RegexValidator's regular expression, in Python's
	// syntax (`^[\w.@+-]+\Z`), which OpenAPI schemas show as DRF does;
	// "" for another validator.
	Pattern string
}

// Index is an index of one or more fields.
type Index struct {
	// Name is the index's name; Django's derived name when empty.
	Name string
	// Fields are the field names; "-name" orders a field descending.
	Fields []string
}

// Default is a default value computed for each new row (Django's
// default=callable), made by DefaultFunc.
type Default struct {
	typ reflect.Type
	set func(field structs.Addr) // stores fn() in the field at that address
}

// DefaultFunc returns the default that calls fn for each new row; its
// type must be the field's (checked at setup).
func DefaultFunc[V any](fn func() V) Default {
	return Default{typ: reflect.TypeFor[V](), set: func(p structs.Addr) { *structs.At[V](p) = fn() }}
}

// The model hooks, which every write through a data source runs (generic
// views, viewsets, management commands): Django's save() override and its
// pre_save, post_save and pre_delete signals. Each is a method of *T.
type (
	// BeforeSaver's BeforeSave runs before the row is inserted (created)
	// or updated, inside the write; an error aborts it. What it sets is
	// written, so a derived column cannot go stale.
	BeforeSaver interface {
		BeforeSave(ctx context.Context, created bool) error
	}
	// AfterSaver's AfterSave runs after the row was inserted (created) or
	// updated, with the row as stored.
	AfterSaver interface {
		AfterSave(ctx context.Context, created bool) error
	}
	// BeforeDeleter's BeforeDelete runs before the row is deleted; an
	// error aborts the delete.
	BeforeDeleter interface {
		BeforeDelete(ctx context.Context) error
	}
)

// Description is a model's declaration, read once from its struct.
type Description struct {
	// Type is the model's struct type.
	Type reflect.Type
	// Struct describes the struct's tagged fields.
	Struct *structs.Struct
	// Meta is the model's options, with its defaults filled in (Name,
	// Table, VerboseName, VerboseNamePlural).
	Meta Meta
	// Fields are the model's columns, in declaration order.
	Fields []*Field
	// PrimaryKey is the primary key's field.
	PrimaryKey *Field
	// Ordering is Meta.Ordering, parsed.
	Ordering []query.Order
	// Joins are the fields read through a foreign key (dotted sources).
	Joins []*Join
	// Reverses are the reverse accessors.
	Reverses []*Reverse
	// ManyToMany are the many-to-many fields, in declaration order.
	ManyToMany []*ManyToMany

	// files are the FileFields and ImageFields of Fields, which
	// SaveFiles stores.
	files []*Field
}

// ManyToMany is a many-to-many field (Django's ManyToManyField): a slice
// of the related rows' keys, kept in a through table of two foreign keys
// rather than in a column of the model.
type ManyToMany struct {
	// Field is the struct field, a slice of the related keys, or of
	// structs of the related rows' columns, which are read and never
	// written (a nested serializer's, many=True).
	Field *structs.Field
	// Name is the Django field name, the field's JSON name ("tags").
	Name string
	// HelpText is Meta.HelpText's text for the field, "" for none.
	HelpText string
	// Table and Column are the related table and its key column.
	Table, Column string
	// RelatedName is the name of the reverse accessor, "" for none.
	RelatedName string
	// RelatedQueryName is the reverse side's name in lookups from the
	// related model (Django's related_query_name); "" for RelatedName,
	// or the model's name in lower case when that is "" too.
	RelatedQueryName string
	// SlugField is the related column the slice holds instead of the
	// keys (slug_field=name: DRF's SlugRelatedField(many=True)), which
	// a write looks the keys up by; "" for the keys.
	SlugField string
	// Blank is Django's blank: the relation may be empty.
	Blank bool
	// LimitChoicesTo are Django's limit_choices_to: the conditions a
	// related row meets to be a valid choice; nil for every row.
	LimitChoicesTo []Condition
	// Through is the through table: Django's automatic one
	// ({table}_{name}), or a declared model's (through=TABLE).
	Through string
	// AutoCreated reports Django's automatic through table, which
	// migrations create with the field; a declared through model is
	// created by its own migrations, and its rows written by its own
	// source.
	AutoCreated bool
	// Reverse reports the reverse side of the related model's
	// many-to-many field (Django's ManyToManyRel), tagged
	// through=TABLE,auto_created: Through is that field's automatic
	// through table, which a write sets from this side as from the other
	// (ModelSerializer's save() calls set() on the reverse manager), and
	// which the other side's migrations create.
	Reverse bool
	// From and To are the through table's foreign key columns to the
	// model and to the related model ("post_id", "tag_id"; "from_x_id"
	// and "to_x_id" when both are the same model, as Django names them).
	From, To string
	// ThroughModel is the automatic through table as a model (Django's
	// auto-created intermediary model, "Post_tags"): its id, From and To,
	// both foreign keys on_delete=CASCADE, unique together; nil for a
	// declared through model.
	ThroughModel *Description
}

// Join is a field whose value is a column of a related row.
type Join struct {
	// Field is the struct field that holds the value.
	Field *structs.Field
	// Source is the dotted source, "owner.username".
	Source string
	// Via is the foreign key the join follows.
	Via *Field
	// Through are the foreign keys followed after Via, by their Django
	// names on each related model in turn ("author" of
	// "post.author.username", as Django's post__author__username); nil
	// when the join follows Via alone.
	Through []string
	// Column is the last related table's column read.
	Column string
}

// Lookup is the Django lookup of the column read from Via's related
// model: "username", or "author__username" through more relations.
func (j *Join) Lookup() string {
	if len(j.Through) == 0 {
		return j.Column
	}
	return strings.Join(j.Through, "__") + "__" + j.Column
}

// Reverse is a field holding the keys of the rows that reference the row.
type Reverse struct {
	// Field is the struct field, a slice of keys.
	Field *structs.Field
	// Table and Column are the referencing table and its foreign key column.
	Table, Column string
	// Key is the referencing table's primary key column read into the slice.
	Key string
	// SlugField is the referencing rows' column the slice holds instead
	// of their keys (slug_field=name: DRF's SlugRelatedField(many=True)
	// of a reverse relation), which a write looks the rows up by; "" for
	// the keys.
	SlugField string
	// One reports a reverse one-to-one (Django's OneToOneRel), a pointer
	// to the one referencing row's key, nil when no row references the
	// row.
	One bool
}

// Referencing is the referencing table's primary key column, Key unless a
// model of the table described so far has another, and whether its
// foreign key column is nullable (what Django's RelatedManager.set() of a
// reverse foreign key clears).
func (r *Reverse) Referencing() (key string, null bool) {
	key = r.Key
	for _, d := range known.OfTable(r.Table) {
		if d.PrimaryKey != nil {
			key = d.PrimaryKey.Column
		}
		if f := d.Field(r.Column); f != nil && f.Null {
			null = true
		}
	}
	return key, null
}

// Field is one field of a model, the one description of it: Describe
// makes it from the struct, and a migration records it (package
// migrations) with what its schema needs and what makes an AlterField
// (name, column, kind, the options of the column, choices, a literal
// default, the relation's target and on_delete, limit_choices_to, a
// file field's upload_to), without the struct and the options read at
// run time, which a migration refuses. In a migration's record a
// ManyToManyField is a Field too, with no column.
type Field struct {
	// Name is the Django field name: the column, or a relation's column
	// without "_id".
	Name string
	// Column is the column's name.
	Column string
	// Struct is the struct field.
	Struct *structs.Field
	// Kind is the Django field class.
	Kind Kind
	// PrimaryKey, Null, Blank, Unique, DBIndex, AutoNow, AutoNowAdd and
	// Editable are the field's options of those names.
	PrimaryKey, Null, Blank, Unique, DBIndex, AutoNow, AutoNowAdd, Editable bool
	// UniqueForDate, UniqueForMonth and UniqueForYear name the DateField
	// or DateTimeField whose date (month, year) the field's value is
	// unique for (Django's unique_for_date, unique_for_month and
	// unique_for_year); "" for none.
	UniqueForDate, UniqueForMonth, UniqueForYear string
	// MaxLength is max_length; 0 for none.
	MaxLength int
	// MaxDigits and DecimalPlaces are a DecimalField's precision.
	MaxDigits, DecimalPlaces int
	// Protocol is a GenericIPAddressField's protocol, lower-cased as
	// Django keeps it: "both" (the default), "ipv4" or "ipv6"; "" for
	// other fields.
	Protocol string
	// HasDefault reports a default: Default (the text of a literal, when
	// DefaultFunc is nil) or DefaultFunc.
	HasDefault bool
	// Default is a literal default, as its field's text.
	Default string
	// DefaultFunc computes a default; nil for a literal.
	DefaultFunc *Default
	// Choices are the field's valid values; nil for any.
	Choices []Choice
	// Related is the relation of a ForeignKey or OneToOneField, else nil.
	Related *Relation
	// HelpText is Meta.HelpText's text for the field, "" for none.
	HelpText string
	// Validators are Meta.Validators' for the field.
	Validators []Validator
	// ErrorMessages are Meta.ErrorMessages' for the field, nil for none.
	ErrorMessages map[string]string
	// UploadTo and Storage are a FileField's or an ImageField's upload_to
	// pattern and storage (files.go).
	UploadTo string
	Storage  files.Storage
	// WidthField and HeightField are an ImageField's width_field and
	// height_field: the names of the integer fields a save fills with
	// the image's size (files.go).
	WidthField, HeightField string
	// Base is an ArrayField's base_field: its elements' kind and options
	// (max_length, null for a slice of pointers); nil for another field.
	Base *Field
	// Size is an ArrayField's size, the most elements it holds; 0 for
	// any number.
	Size int
	// FilePath is a FilePathField's options (filepath.go); nil for
	// another field.
	FilePath *FilePath
	// AutoCreated is Django's auto_created, which a migration of
	// Django's own apps records on the id Django added to a model that
	// declared no primary key (package migrations); a described model
	// declares its key, so Describe leaves it false.
	AutoCreated bool
	// Through is, in a migration's record of a ManyToManyField (a Field
	// of that Kind), its declared through table (Django's through=); ""
	// for Django's automatic one. A described model's many-to-many
	// fields are its ManyToMany.
	Through string

	declared bool           // the Kind is the tag's field=KIND
	offset   uintptr        // of the struct field in the model
	literal  *structs.Value // Default parsed, for a field of a scalar kind
	// uploadToFunc is Meta.UploadTo's function for the field.
	uploadToFunc func(obj any, filename string) string
	// width and height are the fields WidthField and HeightField name.
	width, height *Field
}

// Relation is where a foreign key points and what deleting its target does.
type Relation struct {
	// Table and Column are the referenced table and column ("auth_user", "id").
	Table, Column string
	// OnDelete is what deleting the referenced row does.
	OnDelete OnDelete
	// RelatedName is the name of the reverse accessor, "" for none.
	RelatedName string
	// RelatedQueryName is the reverse side's name in lookups from the
	// referenced model (Django's related_query_name); "" for
	// RelatedName, or the model's name in lower case when that is ""
	// too.
	RelatedQueryName string
	// LimitChoicesTo are Django's limit_choices_to: the conditions a
	// related row meets to be a valid choice; nil for every row.
	LimitChoicesTo []Condition
	// Kind is the referenced column's Django field, which gives the
	// foreign key column's type, as a migration records it (package
	// migrations): "" is an AutoField. Describe leaves it "".
	Kind Kind
}

// Condition is one condition of limit_choices_to, an exact lookup: the
// related row's Column holds Value (as text, which the database compares
// as the column's type; a BooleanField's true, True, t or 1, or false,
// False, f or 0).
type Condition struct {
	// Column is the related table's column.
	Column string
	// Value is the value it holds.
	Value string
}

// parseLimitChoicesTo reads limit_choices_to=COLUMN=VALUE[&COLUMN=VALUE...],
// a query string (so %2C is a comma in a value), as Django's admin
// passes limit_choices_to in a URL: the conditions, ordered by column.
func parseLimitChoicesTo(s string) ([]Condition, error) {
	q, err := url.ParseQuery(s)
	if err == nil && len(q) == 0 {
		err = fmt.Errorf("no condition")
	}
	if err != nil {
		return nil, fmt.Errorf("limit_choices_to=%s is not COLUMN=VALUE[&COLUMN=VALUE...]: %v", s, err)
	}
	out := make([]Condition, 0, len(q))
	for _, column := range slices.Sorted(maps.Keys(q)) {
		if column == "" || len(q[column]) != 1 || strings.Contains(column, "__") {
			return nil, fmt.Errorf("limit_choices_to=%s: each condition is one COLUMN=VALUE, an exact lookup", s)
		}
		out = append(out, Condition{Column: column, Value: q[column][0]})
	}
	return out, nil
}

// Kind is a Django model field class.
type Kind string

// The Django field classes a model field can be.
const (
	AutoField                 Kind = "AutoField"
	BigAutoField              Kind = "BigAutoField"
	SmallAutoField            Kind = "SmallAutoField"
	IntegerField              Kind = "IntegerField"
	BigIntegerField           Kind = "BigIntegerField"
	SmallIntegerField         Kind = "SmallIntegerField"
	PositiveIntegerField      Kind = "PositiveIntegerField"
	PositiveBigIntegerField   Kind = "PositiveBigIntegerField"
	PositiveSmallIntegerField Kind = "PositiveSmallIntegerField"
	BooleanField              Kind = "BooleanField"
	FloatField                Kind = "FloatField"
	DecimalField              Kind = "DecimalField"
	CharField                 Kind = "CharField"
	TextField                 Kind = "TextField"
	EmailField                Kind = "EmailField"
	URLField                  Kind = "URLField"
	SlugField                 Kind = "SlugField"
	GenericIPAddressField     Kind = "GenericIPAddressField"
	DateTimeField             Kind = "DateTimeField"
	DateField                 Kind = "DateField"
	TimeField                 Kind = "TimeField"
	DurationField             Kind = "DurationField"
	UUIDField                 Kind = "UUIDField"
	JSONField                 Kind = "JSONField"
	BinaryField               Kind = "BinaryField"
	FileField                 Kind = "FileField"
	FilePathField             Kind = "FilePathField"
	ImageField                Kind = "ImageField"
	ForeignKey                Kind = "ForeignKey"
	OneToOneField             Kind = "OneToOneField"
	ManyToManyField           Kind = "ManyToManyField"
	// ArrayField and HStoreField are django.contrib.postgres' fields,
	// PostgreSQL's array and hstore columns (postgres.go).
	ArrayField  Kind = "ArrayField"
	HStoreField Kind = "HStoreField"
)

// OnDelete is a foreign key's on_delete behaviour.
type OnDelete string

// The on_delete behaviours. The database enforces CASCADE, SET_NULL and
// SET_DEFAULT through the data source's delete, PROTECT and RESTRICT by
// refusing it, as Django's Collector does.
const (
	Cascade    OnDelete = "CASCADE"
	Protect    OnDelete = "PROTECT"
	Restrict   OnDelete = "RESTRICT"
	SetNull    OnDelete = "SET_NULL"
	SetDefault OnDelete = "SET_DEFAULT"
	DoNothing  OnDelete = "DO_NOTHING"
)

var described sync.Map // reflect.Type -> *Description or error

// Of describes T's model declaration; T need not implement Model (then
// its Meta is empty and the defaults apply).
func Of[T any]() (*Description, error) { return Describe(reflect.TypeFor[T]()) }

// Describe describes t's model declaration, once per type.
func Describe(t reflect.Type) (*Description, error) {
	if v, ok := described.Load(t); ok {
		if err, bad := v.(error); bad {
			return nil, err
		}
		return v.(*Description), nil
	}
	d, err := describe(t)
	if err != nil {
		described.Store(t, err)
		return nil, err
	}
	v, loaded := described.LoadOrStore(t, d)
	if !loaded {
		known.Add(d)
	}
	return v.(*Description), nil
}

// known holds every model described so far, whose structure a related
// model's lookup reads (Described).
var known Registry

// Referrer is a foreign key of a model that references a table.
type Referrer struct {
	// Model is the referencing model.
	Model *Description
	// Field is its foreign key.
	Field *Field
}

// Registry is a set of models, as Django's app registry holds those of
// INSTALLED_APPS: the foreign keys a delete applies on_delete to, and
// the reverse relations a lookup follows. The zero value is empty and
// ready; it is safe for concurrent use.
type Registry struct {
	mu        sync.RWMutex
	added     map[*Description]bool
	tables    map[string][]*Description
	referrers map[string][]Referrer // by the referenced table
}

// Add adds d, with the automatic through models of its many-to-many
// fields; adding it again changes nothing.
func (r *Registry) Add(d *Description) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.added[d] {
		return
	}
	if r.added == nil {
		r.added, r.tables, r.referrers = map[*Description]bool{}, map[string][]*Description{}, map[string][]Referrer{}
	}
	r.added[d] = true
	r.tables[d.Meta.Table] = append(r.tables[d.Meta.Table], d)
	for _, f := range d.Fields {
		if f.Related != nil {
			r.referrers[f.Related.Table] = append(r.referrers[f.Related.Table], Referrer{Model: d, Field: f})
		}
	}
	for _, m := range d.ManyToMany {
		if t := m.ThroughModel; t != nil {
			for _, f := range t.Fields[1:] {
				r.referrers[f.Related.Table] = append(r.referrers[f.Related.Table], Referrer{Model: t, Field: f})
			}
		}
	}
}

// ReferencesTo lists the foreign keys to table of the registry's models:
// what deleting a row of table applies their on_delete to, as Django's
// Collector does.
func (r *Registry) ReferencesTo(table string) []Referrer {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.referrers[table])
}

// OfTable lists the registry's models of table.
func (r *Registry) OfTable(table string) []*Description {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.tables[table])
}

// Described is every model described so far: the related models whose
// fields a lookup across a relation ("author__username") compares, and
// the reverse relations a lookup named before a database is known may
// follow (a FilterSet's fields). A delete applies on_delete by its
// database's registry instead (queryset.Installed).
func Described() *Registry { return &known }

// Field returns the field of that Django name or column, nil if none.
func (d *Description) Field(name string) *Field {
	for _, f := range d.Fields {
		if f.Name == name || f.Column == name {
			return f
		}
	}
	return nil
}

// Columns are the columns of the model's fields, in order.
func (d *Description) Columns() []string {
	cols := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		cols[i] = f.Column
	}
	return cols
}

// Generated reports a field the database fills in: an auto primary key.
func (f *Field) Generated() bool {
	return f.Kind == AutoField || f.Kind == BigAutoField || f.Kind == SmallAutoField
}

func describe(t reflect.Type) (*Description, error) {
	s, err := structs.Describe(t)
	if err != nil {
		return nil, err
	}
	d := &Description{Type: t, Struct: s}
	if m, ok := reflect.Zero(t).Interface().(Model); ok {
		d.Meta = m.Meta()
	} else if m, ok := reflect.New(t).Interface().(Model); ok {
		d.Meta = m.Meta()
	}
	fillMeta(&d.Meta, t)
	for _, sf := range s.Fields {
		if sf.Column == "" {
			continue
		}
		f, err := newField(sf)
		if err == nil {
			err = f.prepare(t)
		}
		if err != nil {
			return nil, fmt.Errorf("models: %s.%s: %w", t.Name(), sf.Name, err)
		}
		d.Fields = append(d.Fields, f)
	}
	if err := d.resolve(); err != nil {
		return nil, fmt.Errorf("models: %s: %w", t.Name(), err)
	}
	for _, sf := range s.Fields {
		if sf.Column != "" {
			continue
		}
		if err := d.relatedField(sf); err != nil {
			return nil, fmt.Errorf("models: %s.%s: %w", t.Name(), sf.Name, err)
		}
	}
	if err := d.helpTexts(); err != nil {
		return nil, fmt.Errorf("models: %s: %w", t.Name(), err)
	}
	if err := d.fileFields(); err != nil {
		return nil, fmt.Errorf("models: %s: %w", t.Name(), err)
	}
	return d, nil
}

// helpTexts gives the fields, many-to-many ones among them, their
// Meta.HelpText.
func (d *Description) helpTexts() error {
	for name, text := range d.Meta.HelpText {
		if f := d.Field(name); f != nil {
			f.HelpText = text
			continue
		}
		i := slices.IndexFunc(d.ManyToMany, func(m *ManyToMany) bool { return m.Name == name })
		if i < 0 {
			return fmt.Errorf("Meta.HelpText names %q, which is no field", name)
		}
		d.ManyToMany[i].HelpText = text
	}
	return nil
}

func fillMeta(m *Meta, t reflect.Type) {
	if m.Name == "" {
		m.Name = t.Name()
	}
	if m.Table == "" {
		m.Table = strings.ToLower(m.Name)
		if m.App != "" {
			m.Table = m.App + "_" + m.Table
		}
	}
	if m.VerboseName == "" {
		m.VerboseName = VerboseName(m.Name)
	}
	if m.VerboseNamePlural == "" {
		m.VerboseNamePlural = m.VerboseName + "s"
	}
}

// VerboseName splits a CamelCase name into lower-case words, as Django's
// camel_case_to_spaces gives a model its default verbose_name: a space
// before an upper-case letter that follows a lower-case one or that starts
// a word ("BlogPost" is "blog post", "HTTPLog" "http log").
func VerboseName(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && !unicode.IsUpper(rs[i+1])) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimSpace(b.String())
}

// resolve finds the primary key, checks the Meta's field names and parses
// the ordering.
func (d *Description) resolve() error {
	for _, f := range d.Fields {
		if f.PrimaryKey {
			if d.PrimaryKey != nil {
				return fmt.Errorf("two primary keys, %s and %s", d.PrimaryKey.Name, f.Name)
			}
			d.PrimaryKey = f
		}
	}
	if d.PrimaryKey == nil {
		if f := d.Field("id"); f != nil {
			f.PrimaryKey = true
			d.PrimaryKey = f
		} else {
			return fmt.Errorf("no primary key: tag a field model:\"primary_key\" or name a column \"id\"")
		}
	}
	pk := d.PrimaryKey
	pk.Null, pk.Unique = false, true
	switch {
	case pk.declared:
		// field=IntegerField on a key: a key the program numbers, as
		// Django's IntegerField(primary_key=True).
	case pk.Kind == IntegerField:
		pk.Kind = AutoField
	case pk.Kind == BigIntegerField:
		pk.Kind = BigAutoField
	case pk.Kind == SmallIntegerField:
		pk.Kind = SmallAutoField
	}
	for name, choices := range d.Meta.Choices {
		f := d.Field(name)
		if f == nil {
			return fmt.Errorf("Meta.Choices names %q, which is no field", name)
		}
		f.Choices = choices
	}
	for name, def := range d.Meta.Defaults {
		f := d.Field(name)
		if f == nil {
			return fmt.Errorf("Meta.Defaults names %q, which is no field", name)
		}
		if def.set == nil || def.typ != f.Struct.Type {
			return fmt.Errorf("Meta.Defaults[%q] gives %v, the field is %v", name, def.typ, f.Struct.Type)
		}
		f.HasDefault, f.DefaultFunc = true, &def
	}
	for _, f := range d.Fields {
		// Django's check fields.E321; the delete sets the default's text.
		if f.Related != nil && f.Related.OnDelete == SetDefault && (!f.HasDefault || f.DefaultFunc != nil) {
			return fmt.Errorf("%s: on_delete=set_default needs a literal default (default=...)", f.Name)
		}
	}
	for name, vs := range d.Meta.Validators {
		f := d.Field(name)
		if f == nil {
			return fmt.Errorf("Meta.Validators names %q, which is no field", name)
		}
		if f.Related != nil || f.Struct.Kind != structs.String || slices.ContainsFunc(vs, func(v Validator) bool { return v.Check == nil }) {
			return fmt.Errorf("Meta.Validators[%q]: each validator needs a Check, and the field must be text", name)
		}
		f.Validators = vs
	}
	for name, msgs := range d.Meta.ErrorMessages {
		f := d.Field(name)
		if f == nil {
			return fmt.Errorf("Meta.ErrorMessages names %q, which is no field", name)
		}
		for key := range msgs {
			if key != "unique" {
				return fmt.Errorf("Meta.ErrorMessages[%q] sets %q: only \"unique\" can be set", name, key)
			}
		}
		f.ErrorMessages = msgs
	}
	for _, set := range d.Meta.UniqueTogether {
		for _, name := range set {
			if d.Field(name) == nil {
				return fmt.Errorf("Meta.UniqueTogether names %q, which is no field", name)
			}
		}
	}
	if err := d.checkConstraints(); err != nil {
		return err
	}
	if err := d.checkUniqueFor(); err != nil {
		return err
	}
	for _, ix := range d.Meta.Indexes {
		for _, name := range ix.Fields {
			if d.Field(strings.TrimPrefix(name, "-")) == nil {
				return fmt.Errorf("Meta.Indexes names %q, which is no field", name)
			}
		}
	}
	for _, o := range d.Meta.Ordering {
		ord := query.ParseOrder(o)
		// A path across relations ("author__username") is resolved by
		// the model's source, once the related models are described.
		if d.Field(ord.Field) == nil && !strings.Contains(ord.Field, "__") {
			return fmt.Errorf("Meta.Ordering names %q, which is no field", ord.Field)
		}
		d.Ordering = append(d.Ordering, ord)
	}
	return nil
}

// relatedField reads a field without a column: a join, a reverse
// accessor or a many-to-many field.
func (d *Description) relatedField(sf *structs.Field) error {
	opts := sf.Tag.Get("model")
	if _, ok := option(opts, "many_to_many"); ok {
		return d.manyToMany(sf, opts)
	}
	if rev, ok := option(opts, "reverse"); ok {
		table, column, found := strings.Cut(rev, ".")
		if !found || table == "" || column == "" {
			return fmt.Errorf("reverse=%q is not TABLE.COLUMN", rev)
		}
		r := &Reverse{Field: sf, Table: table, Column: column, Key: "id"}
		r.SlugField, _ = option(opts, "slug_field")
		switch k := sf.Type.Kind(); {
		case k == reflect.Pointer:
			r.One = true
			if r.SlugField != "" {
				return fmt.Errorf("slug_field needs a slice of the referencing rows' slugs, not %v", sf.Type)
			}
		case k != reflect.Slice:
			return fmt.Errorf("a reverse accessor is a slice of keys, or a pointer to one key (a reverse one-to-one), not %v", sf.Type)
		case r.SlugField != "" && sf.Type.Elem().Kind() == reflect.Struct:
			return fmt.Errorf("slug_field needs a slice of the referencing rows' slugs, not of structs")
		case strings.Contains(r.SlugField, "__"):
			return fmt.Errorf("slug_field=%s: the slugs of many rows are a column of theirs, not one across their relations", r.SlugField)
		}
		d.Reverses = append(d.Reverses, r)
		return nil
	}
	src, ok := option(sf.Tag.Get("drf"), "source")
	if !ok || !strings.Contains(src, ".") {
		return nil
	}
	rel, col, _ := strings.Cut(src, ".")
	via := d.Field(rel)
	if via == nil || via.Related == nil {
		return fmt.Errorf("source %q: %q is no foreign key of %s", src, rel, d.Meta.Name)
	}
	j := &Join{Field: sf, Source: src, Via: via, Column: col}
	if i := strings.LastIndexByte(col, '.'); i >= 0 {
		j.Through, j.Column = strings.Split(col[:i], "."), col[i+1:]
	}
	if j.Column == "" || slices.Contains(j.Through, "") {
		return fmt.Errorf("source %q names an empty field", src)
	}
	d.Joins = append(d.Joins, j)
	return nil
}

// maxNameLength is the longest name Django gives a through table
// (PostgreSQL's max_name_length, which Django's truncate_name applies).
const maxNameLength = 63

// manyToMany reads a many-to-many field, tagged
// model:"many_to_many=TABLE[.COLUMN],related_name=NAME,related_query_name=NAME,through=TABLE,slug_field=COLUMN,blank"
// (through=TABLE,auto_created for the reverse side of the related
// model's field of an automatic through table). null is accepted and
// has no effect, as Django ignores it on a ManyToManyField (with its
// warning fields.W340).
func (d *Description) manyToMany(sf *structs.Field, opts string) error {
	m := &ManyToMany{Field: sf, Name: sf.JSON}
	for opt := range strings.SplitSeq(opts, ",") {
		key, val, _ := strings.Cut(opt, "=")
		switch key {
		case "many_to_many":
			m.Table, m.Column, _ = strings.Cut(val, ".")
			m.Column = cmp.Or(m.Column, "id")
		case "related_name":
			m.RelatedName = val
		case "related_query_name":
			m.RelatedQueryName = val
		case "through":
			m.Through = val
		case "slug_field":
			m.SlugField = val
		case "blank":
			m.Blank = true
		case "limit_choices_to":
			var err error
			if m.LimitChoicesTo, err = parseLimitChoicesTo(val); err != nil {
				return err
			}
		case "auto_created":
			m.Reverse = true
		case "null":
		default:
			return fmt.Errorf("unknown option %q of a many-to-many field", opt)
		}
	}
	switch {
	case m.Table == "":
		return fmt.Errorf("many_to_many needs a table")
	case m.Name == "":
		return fmt.Errorf("a many-to-many field needs a json name, its Django name")
	case sf.Type.Kind() != reflect.Slice || !slices.Contains([]reflect.Kind{reflect.Int, reflect.Int32, reflect.Int64, reflect.String, reflect.Struct}, sf.Type.Elem().Kind()):
		return fmt.Errorf("a many-to-many field is a slice of the related keys (int, int32, int64 or string) or of the related rows (structs, read-only), not %v", sf.Type)
	case m.SlugField != "" && sf.Type.Elem().Kind() == reflect.Struct:
		return fmt.Errorf("slug_field needs a slice of the related rows' slugs, not of structs")
	case strings.Contains(m.SlugField, "__"):
		return fmt.Errorf("slug_field=%s: the slugs of many rows are a column of theirs, not one across their relations", m.SlugField)
	case m.Reverse && m.Through == "":
		return fmt.Errorf("auto_created needs through=TABLE, the related model's automatic through table")
	case m.Reverse && m.LimitChoicesTo != nil:
		return fmt.Errorf("limit_choices_to is an option of the many-to-many field, not of its reverse side")
	}
	auto, from, to := AutoThrough(d.Meta.Name, d.Meta.Table, m.Name, m.Table)
	switch {
	case m.Reverse && m.Table == d.Meta.Table:
		// The reverse side of a field to the model itself goes from
		// to_x_id to from_x_id.
		from, to = to, from
	case m.Reverse:
		// The other side's through table names this model after its
		// table, and that side's model after its own name, which is
		// its table's unless Meta.Table says otherwise.
		from, to = tableModel(d.Meta.Table), tableModel(m.Table)
	}
	m.From, m.To = from+"_id", to+"_id"
	if m.Through == "" {
		m.AutoCreated, m.Through = true, auto
		m.ThroughModel = d.throughModel(m, from, to)
	}
	d.ManyToMany = append(d.ManyToMany, m)
	return nil
}

// AutoThrough names Django's automatic through table of the many-to-many
// field named field of the model named model, of table, to the related
// table: the table ({table}_{field}, shortened as Django's truncate_name
// shortens it to 63 characters) and the names of its two foreign keys,
// the models' names in lower case ("post" and "tag", the related model's
// name being its table's after the app label; "from_post" and "to_post"
// when both are the same).
func AutoThrough(model, table, field, related string) (through, from, to string) {
	from, to = strings.ToLower(model), tableModel(related)
	if related == table {
		from, to = "from_"+from, "to_"+to
	}
	return truncateName(table+"_"+field, maxNameLength), from, to
}

// tableModel is the model name in lower case of a table named as Django
// names it: the table's name after the app label.
func tableModel(table string) string {
	_, name, _ := strings.Cut(table, "_")
	return cmp.Or(name, table)
}

// throughModel is Django's create_many_to_many_intermediary_model: the
// model "Post_tags" of the table m.Through, with an automatic id (of the
// model's own key's kind when that is an auto key) and a foreign key to
// each side, on_delete=CASCADE.
func (d *Description) throughModel(m *ManyToMany, from, to string) *Description {
	id := &Field{Name: "id", Column: "id", Kind: AutoField, PrimaryKey: true, Unique: true}
	if d.PrimaryKey.Generated() {
		id.Kind = d.PrimaryKey.Kind
	}
	fk := func(name, table, column string) *Field {
		return &Field{Name: name, Column: name + "_id", Kind: ForeignKey, DBIndex: true, Editable: true,
			Related: &Relation{Table: table, Column: column, OnDelete: Cascade}}
	}
	t := &Description{Meta: Meta{App: d.Meta.App, Name: d.Meta.Name + "_" + m.Name, Table: m.Through,
		UniqueTogether: [][]string{{from, to}}}}
	t.Fields = []*Field{id, fk(from, d.Meta.Table, d.PrimaryKey.Column), fk(to, m.Table, m.Column)}
	t.PrimaryKey = id
	t.Meta.VerboseName = VerboseName(t.Meta.Name)
	t.Meta.VerboseNamePlural = t.Meta.VerboseName + "s"
	return t
}

// truncateName is Django's truncate_name: a name longer than length is
// cut to length-4 characters and ends with the first 4 hex digits of its
// MD5.
func truncateName(name string, length int) string {
	if len(name) <= length {
		return name
	}
	sum := md5.Sum([]byte(name))
	return name[:length-4] + hex.EncodeToString(sum[:])[:4]
}

// checkUniqueFor holds unique_for_date, unique_for_month and
// unique_for_year to a DateField or DateTimeField of the model, named by
// its Django name from then on.
func (d *Description) checkUniqueFor() error {
	for _, f := range d.Fields {
		for _, opt := range []struct {
			name string
			date *string
		}{{"unique_for_date", &f.UniqueForDate}, {"unique_for_month", &f.UniqueForMonth}, {"unique_for_year", &f.UniqueForYear}} {
			if *opt.date == "" {
				continue
			}
			date := d.Field(*opt.date)
			if date == nil || date.Kind != DateField && date.Kind != DateTimeField {
				return fmt.Errorf("field %q: %s=%s names no DateField or DateTimeField", f.Name, opt.name, *opt.date)
			}
			*opt.date = date.Name
		}
	}
	return nil
}

// option returns the value of key=value in a comma-separated tag.
func option(tag, key string) (string, bool) {
	for opt := range strings.SplitSeq(tag, ",") {
		if v, ok := strings.CutPrefix(opt, key+"="); ok {
			return v, true
		}
	}
	return "", false
}

func newField(sf *structs.Field) (*Field, error) {
	f := &Field{Name: sf.Column, Column: sf.Column, Struct: sf, Null: sf.Nullable, Editable: true}
	tag := sf.Tag.Get("model")
	var kind Kind
	for tag != "" {
		var opt string
		opt, tag, _ = strings.Cut(tag, ",")
		key, val, hasVal := strings.Cut(opt, "=")
		if key == "default" {
			// The default is the rest of the tag, commas included.
			f.HasDefault, f.Default = true, val
			if tag != "" {
				f.Default += "," + tag
			}
			break
		}
		var err error
		switch key {
		case "path", "match", "recursive", "allow_files", "allow_folders":
			err = f.filePathOption(key, val, hasVal)
		case "primary_key":
			f.PrimaryKey = true
		case "null":
			f.Null = true
		case "blank":
			f.Blank = true
		case "unique":
			f.Unique = true
		case "db_index":
			f.DBIndex = true
		case "auto_now":
			f.AutoNow = true
		case "auto_now_add":
			f.AutoNowAdd = true
		case "editable":
			f.Editable, err = strconv.ParseBool(val)
		case "max_length":
			f.MaxLength, err = positive(val)
		case "max_digits":
			f.MaxDigits, err = positive(val)
		case "decimal_places":
			f.DecimalPlaces, err = strconv.Atoi(val)
		case "field":
			kind = Kind(val)
		case "protocol":
			f.Protocol = strings.ToLower(val)
			if f.Protocol != "both" && f.Protocol != "ipv4" && f.Protocol != "ipv6" {
				err = fmt.Errorf("protocol=%s is none of both, IPv4, IPv6", val)
			}
		case "upload_to":
			f.UploadTo = val
		case "unique_for_date":
			f.UniqueForDate = val
		case "unique_for_month":
			f.UniqueForMonth = val
		case "unique_for_year":
			f.UniqueForYear = val
		case "width_field":
			f.WidthField = val
		case "height_field":
			f.HeightField = val
		case "size":
			f.Size, err = positive(val)
		case "foreign_key", "one_to_one":
			table, column, _ := strings.Cut(val, ".")
			if column == "" {
				column = "id"
			}
			if table == "" {
				err = fmt.Errorf("%s needs a table", key)
			}
			if f.Related == nil {
				f.Related = &Relation{OnDelete: Cascade}
			}
			f.Related.Table, f.Related.Column = table, column
			kind = ForeignKey
			if key == "one_to_one" {
				kind, f.Unique = OneToOneField, true
			}
		case "many_to_many":
			err = fmt.Errorf("a many-to-many field has no column: drop its db tag")
		case "on_delete":
			if f.Related == nil {
				f.Related = &Relation{}
			}
			f.Related.OnDelete, err = parseOnDelete(val)
		case "related_name":
			if f.Related == nil {
				f.Related = &Relation{OnDelete: Cascade}
			}
			f.Related.RelatedName = val
		case "related_query_name":
			if f.Related == nil {
				f.Related = &Relation{OnDelete: Cascade}
			}
			f.Related.RelatedQueryName = val
		case "limit_choices_to":
			if f.Related == nil {
				f.Related = &Relation{OnDelete: Cascade}
			}
			f.Related.LimitChoicesTo, err = parseLimitChoicesTo(val)
		default:
			err = fmt.Errorf("unknown model option %q", opt)
		}
		if err == nil && !hasVal && (key == "max_length" || key == "max_digits" || key == "decimal_places" || key == "field" || key == "editable" || key == "protocol" || key == "size" || strings.HasPrefix(key, "unique_for_")) {
			err = fmt.Errorf("model option %q needs a value", key)
		}
		if err != nil {
			return nil, err
		}
	}
	if f.Related != nil && f.Related.Table == "" {
		return nil, fmt.Errorf("on_delete, related_name or limit_choices_to without foreign_key")
	}
	if f.AutoNow || f.AutoNowAdd {
		f.Editable, f.Blank = false, true
	}
	if f.Related != nil {
		f.Name = strings.TrimSuffix(f.Column, "_id")
		if f.Related.OnDelete == SetNull && !f.Null {
			return nil, fmt.Errorf("on_delete=set_null on a column that cannot be null")
		}
	}
	f.declared = kind != ""
	if structs.IsCollection(sf.Type) || sf.Type.Kind() == reflect.Pointer && structs.IsCollection(sf.Type.Elem()) {
		return f, f.postgresField(sf, kind)
	}
	if f.Size != 0 {
		return nil, fmt.Errorf("size needs an ArrayField, a slice")
	}
	kind, err := f.filePathField(sf, kind)
	if err != nil {
		return nil, err
	}
	if kind == "" {
		kind = kindOf(sf, f.MaxLength)
	}
	if kind == "" {
		return nil, fmt.Errorf("no Django field holds %v: give it field=KIND", sf.Type)
	}
	f.Kind = kind
	if kind == BinaryField && !strings.Contains(","+sf.Tag.Get("model"), ",editable=") {
		f.Editable = false // Django's BinaryField is editable=False unless told
	}
	if err := f.defaultLength(); err != nil {
		return nil, err
	}
	switch kind {
	case DecimalField:
		if f.MaxDigits == 0 {
			return nil, fmt.Errorf("a DecimalField needs max_digits and decimal_places")
		}
	}
	if kind == SlugField {
		f.DBIndex = true
	}
	switch {
	case kind == GenericIPAddressField && f.Protocol == "":
		f.Protocol = "both"
	case kind != GenericIPAddressField && f.Protocol != "":
		return nil, fmt.Errorf("protocol needs a GenericIPAddressField")
	}
	return f, nil
}

// defaultLength gives a CharField, an EmailField, a URLField or a
// SlugField Django's default max_length, and refuses a CharField
// without one.
func (f *Field) defaultLength() error {
	switch f.Kind {
	case CharField, EmailField, URLField, SlugField:
		if f.MaxLength == 0 {
			f.MaxLength = map[Kind]int{CharField: 0, EmailField: 254, URLField: 200, SlugField: 50}[f.Kind]
		}
		if f.MaxLength == 0 {
			return fmt.Errorf("a CharField needs max_length")
		}
	}
	return nil
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err == nil && n <= 0 {
		err = fmt.Errorf("%d is not positive", n)
	}
	return n, err
}

func parseOnDelete(s string) (OnDelete, error) {
	switch o := OnDelete(strings.ToUpper(s)); o {
	case Cascade, Protect, Restrict, SetNull, SetDefault, DoNothing:
		return o, nil
	}
	return "", fmt.Errorf("on_delete=%s is none of cascade, protect, restrict, set_null, set_default, do_nothing", s)
}

// kindOf is the Django field of a Go type, "" when none is.
func kindOf(sf *structs.Field, maxLength int) Kind {
	t := sf.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == fileType {
		return FileField
	}
	switch sf.Format {
	case "uuid":
		return UUIDField
	case "decimal":
		return DecimalField
	case "json":
		return JSONField
	case "date":
		return DateField
	case "time":
		return TimeField
	case "duration":
		return DurationField
	case "binary":
		return BinaryField
	}
	switch sf.Kind {
	case structs.String:
		if t.Kind() == reflect.Slice {
			return BinaryField
		}
		if maxLength > 0 {
			return CharField
		}
		return TextField
	case structs.Bool:
		return BooleanField
	case structs.Float:
		return FloatField
	case structs.Time:
		return DateTimeField
	case structs.Int:
		switch sf.Bits {
		case 8, 16:
			return SmallIntegerField
		case 64:
			if baseKind(sf) == reflect.Int64 {
				return BigIntegerField
			}
		}
		return IntegerField
	case structs.Uint:
		switch sf.Bits {
		case 8, 16:
			return PositiveSmallIntegerField
		case 64:
			if baseKind(sf) == reflect.Uint64 {
				return PositiveBigIntegerField
			}
		}
		return PositiveIntegerField
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return BinaryField
	}
	return ""
}

// baseKind is the reflect kind of the field's scalar: int64 is a
// BigIntegerField where Go's int is an IntegerField.
func baseKind(sf *structs.Field) reflect.Kind {
	t := sf.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && t.NumField() > 0 {
		return t.Field(0).Type.Kind() // sql.NullInt64 and sql.Null[T]
	}
	return t.Kind()
}

// prepare finds the field's offset in t and reads its literal default.
func (f *Field) prepare(t reflect.Type) error {
	sf, ok := t.FieldByName(f.Struct.Name)
	if !ok {
		return fmt.Errorf("no field %s", f.Struct.Name)
	}
	for i := range sf.Index {
		g := t.FieldByIndex(sf.Index[:i+1])
		f.offset += g.Offset
	}
	if !f.HasDefault || f.Struct.Kind == structs.Custom {
		return nil
	}
	v, err := f.Struct.Parse(f.Default)
	if f.Default == "" && f.Struct.Kind == structs.String {
		v, err = structs.Value{Kind: structs.String}, nil
	}
	if err != nil {
		return fmt.Errorf("default=%s: %w", f.Default, err)
	}
	f.literal = &v
	return nil
}

// ApplyDefaults sets each field of the model at base that has a default
// to it, as Django's model constructor does for a new object: a literal
// (default=TEXT) or Meta.Defaults' function. base is a *T of the model.
func (d *Description) ApplyDefaults(base structs.Addr) error {
	for _, f := range d.Fields {
		switch {
		case !f.HasDefault:
		case f.DefaultFunc != nil:
			f.DefaultFunc.set(base.Add(f.offset))
		case f.literal != nil:
			f.Struct.Set(base, *f.literal)
		default:
			if err := f.Struct.Scan(base, f.Default); err != nil {
				return fmt.Errorf("models: %s.%s: default=%s: %w", d.Meta.Name, f.Name, f.Default, err)
			}
		}
	}
	return nil
}

// Touch sets the model's auto_now fields, and on creation its
// auto_now_add fields too, to now in UTC (today, for a DateField), as
// Django's pre_save does.
func (d *Description) Touch(base structs.Addr, created bool) {
	var now structs.Value
	for _, f := range d.Fields {
		if f.AutoNow || (created && f.AutoNowAdd) {
			if now.Kind == structs.Unsupported {
				now = structs.Value{Kind: structs.Time, T: time.Now().UTC().Truncate(time.Microsecond)}
			}
			switch {
			case f.Struct.Kind == structs.Time:
				f.Struct.Set(base, now)
			case f.Kind == DateField:
				_ = f.Struct.Scan(base, now.T.Format(time.DateOnly)) // a date's own text scans
			}
		}
	}
}
