// Package serializers turns model structs into JSON and request data into
// validated model structs, like DRF's ModelSerializer. A Serializer is
// derived once, at setup, from the struct's tags:
//
//   - `json:"name"` names the field in JSON (`json:"-"` leaves it out);
//     without one, the `db` name or the Go name is used;
//   - `drf:"..."` holds comma-separated options, over those a model
//     field derives (DRF's Meta.extra_kwargs): read_only, write_only,
//     required, allow_blank, allow_null (each a flag, or =true or =false:
//     read_only=false makes an auto primary key writable), no_trim (keep
//     surrounding whitespace), max_length=N, min_length=N, max_value=X,
//     min_value=X (a duration's in DRF's format, "3 00:00:00"),
//     max_digits=N and decimal_places=N (a decimal field's precision,
//     checked on input, and the places written, as DRF's DecimalField),
//     localize (a decimal read and written in the number format of the
//     request's language, which framework/translation's LocaleMiddleware
//     chooses: "1,5" in Polish; always as a string, as DRF's
//     DecimalField(localize=True)),
//     format=uuid|decimal|json (what a Scanner/Valuer type holds),
//     unique (no two items may hold the same value: DRF's
//     UniqueValidator, "book with this title already exists.", checked
//     through the Context's Exists),
//     default=TEXT (DRF's default=: the value a create or a full update
//     that leaves the field out gets, read as the field reads its input,
//     None being null; the field is then optional: defaults.go),
//     image, allow_empty_file and use_url=false (a files.File field's
//     options, DRF's ImageField and FileField's: files.go),
//     label=Text and type=name (the field's label and type in OPTIONS
//     metadata; type=field describes a value of no fixed type, as DRF's
//     ReadOnlyField, e.g. a column a join adds),
//     view_name=ROUTE (a HyperlinkedRelatedField: the URL of the key
//     the field holds, or of each key of a reverse accessor's slice;
//     on a foreign key column, writable) and slug_related (on a dotted
//     source through a foreign key, a writable SlugRelatedField), and
//     display=COLUMN (the related column a form's select shows, DRF's
//     str() of the row); a model's foreign key column is a
//     PrimaryKeyRelatedField (relations.go).
//
// Writable fields are optional unless marked required; pointer fields and
// sql.Null types (sql.NullString, sql.Null[T], ...) are nullable. Types
// that implement sql.Scanner and driver.Valuer (a UUID, a decimal, your
// own) and json.RawMessage are written through their json.Marshaler,
// else encoding.TextMarshaler, else as their Valuer's value, and read
// through their json.Unmarshaler, else encoding.TextUnmarshaler, else
// sql.Scanner. A [16]byte type is a UUID, a type called *Decimal* a
// decimal and json.RawMessage JSON, as DRF's UUIDField, DecimalField and
// JSONField (in OPTIONS, OpenAPI, the messages and forms); format=uuid,
// format=decimal or format=json says it of another type. Reading and
// validating use no reflection, but for the new value a pointer to such a
// type gets.
package serializers

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/structs"
)

// Context is what fields see of the request being answered (DRF's
// serializer context). Hyperlinked fields need the Request.
type Context struct {
	// Request is the request being answered; nil outside a request.
	Request *request.Request
	// Exists reports whether an item other than the one being validated
	// holds value (its text, as a source's Filter reads it) in column: the
	// queryset of DRF's UniqueValidator, which generic views set; a
	// column named "COLUMN__LOOKUP" compares by a UniqueValidator's
	// lookup ("email__iexact"). Without it, unique fields are not
	// checked.
	Exists func(column, value string) (bool, error)
	// ExistsTogether reports whether an item other than the one being
	// validated holds values in columns, all at once: the queryset of
	// DRF's UniqueTogetherValidator, which generic views set. A column
	// named "COLUMN__isnull" with the value "True" asks for a null, as
	// Django's filter(field=None) (a UniqueConstraint of
	// nulls_distinct=False). Without it, a model's Meta.UniqueTogether
	// is not checked. A value the column's type refuses is held by no
	// item (DRF's qs_exists).
	ExistsTogether func(columns, values []string) (bool, error)
	// DatesOf lists the values in dateColumn (as their text: a source's
	// Position) of the items other than the one being validated that
	// hold value in column: the queryset of DRF's
	// UniqueForDateValidator, UniqueForMonthValidator and
	// UniqueForYearValidator, which generic views set; the serializer
	// compares their day, month or year. Without it, a model field's
	// unique_for_date, unique_for_month and unique_for_year are not
	// checked.
	DatesOf func(column, value, dateColumn string) ([]string, error)
	// Related looks a related row up for the writable relational fields
	// (the queryset of DRF's PrimaryKeyRelatedField, SlugRelatedField and
	// HyperlinkedRelatedField): the Key of the row whose Column holds
	// the Value; found is false when no row does. Generic views set it
	// from their source's database. Without it, a primary key or a
	// hyperlink is left to the database's foreign key (a missing row is
	// then the same 400, through RelatedViolation) and a slug cannot be
	// written.
	Related func(l RelatedLookup) (key string, found bool, err error)
	// RelatedRows lists rows of a related table, for the select of a
	// relational field in a browsable form; generic views set it from
	// their source's database (RelatedChoices).
	RelatedRows func(q RelatedRowsQuery) ([][2]string, error)
	// HTMLSelectCutoff and HTMLSelectCutoffText are DRF's settings of
	// those names for RelatedChoices (Settings.HTMLSelectCutoff, which
	// generic views pass): the most options a relational field's select
	// lists, 0 giving 1000 and a negative number no limit, and the text
	// of the last, disabled option after them, "" giving "More than
	// {count} items...".
	HTMLSelectCutoff     int
	HTMLSelectCutoffText string
	// Values carries the extra values of DRF's context={...}, read with a
	// Key; nil reads the request's context.Context.
	Values context.Context
}

// Serializer reads and writes items of type T.
type Serializer[T any] struct {
	fields     []*field
	byName     map[string]*field
	validators []func(*T, *Context) error
	// hidden are the HiddenFields, set from their defaults on writes.
	hidden []*hiddenField
	// model is T's model declaration, nil for a type that is no model:
	// its defaults fill a new item in.
	model *models.Description
	// together are the sets of fields of the model's Meta.UniqueTogether
	// and of its UniqueConstraints of several fields or a condition.
	together []uniqueSet
	// leftAlone are the model's relations that the serializer does not
	// write (DRF's save() sets only those in validated_data): an update
	// validated by it leaves their slices nil, which a write leaves alone.
	leftAlone []*structs.Field
	// uniqueFor are the model fields' unique_for_date, unique_for_month
	// and unique_for_year, run after together.
	uniqueFor []uniqueFor
	// explicit reports the Validators option, metaValidators its
	// validators, which replace together's checks and uniqueFor.
	explicit       bool
	metaValidators []metaValidator
	// verbose is the model's verbose name, for the unique message.
	verbose string
	// info and info314 are what FieldInfoAt returns at each level.
	info, info314 json.RawMessage
	// description is what Description returns.
	description *framework.SerializerDescription
	// avgSize is a running estimate of an item's JSON size, to size buffers.
	avgSize atomic.Int64
}

type field struct {
	name string
	key  []byte // `"name":`
	sf   *structs.Field

	readOnly, writeOnly, required bool
	// required314 is required at DRF 3.14 alone: a nullable or blank
	// field of a unique-together, which DRF 3.18 defaults to None or "".
	required314 bool
	// choices315 marks the choices of a model field that is not
	// editable, which DRF 3.14's ModelSerializer drops.
	choices315 bool
	// unique marks a field no two items may share (drf:"unique");
	// unique315 one from DRF 3.15 on: a UniqueConstraint of the field
	// alone.
	unique, unique315           bool
	allowBlank, allowNull, trim bool
	maxLength, minLength        int // -1 when unset
	// maxDigits and decimalPlaces are a decimal's precision (DRF's
	// DecimalField max_digits and decimal_places); -1 when unset.
	maxDigits, decimalPlaces int
	maxValue, minValue       *bound
	// decimalNumber is a decimal's coerce_to_string=False, rounding its
	// rounding (Python's name, "" for ROUND_HALF_EVEN) and normalize its
	// normalize_output (DRF 3.15 and later).
	decimalNumber, normalize bool
	rounding                 string
	// coerceSet reports coerce_to_string set on the field, over the
	// settings' COERCE_DECIMAL_TO_STRING.
	coerceSet bool
	// localize is a decimal's localize=True: its input and output in
	// the number format of the request's language.
	localize bool
	// nullSet reports allow_null set by the drf tag, over what a
	// foreign key a field writes through derives.
	nullSet bool
	// def is the drf tag's default: the value a create or a full update
	// that leaves the field out gets (DRF's default=); nil when unset.
	def *structs.Value
	// defText is def's text, read by bindDefault.
	defText *string

	compute func(obj structs.Addr, c *Context) (any, error)
	// link reports a hyperlinked identity field.
	link bool

	label, typeName string
	// format is a Custom field's kind of value: "uuid", "decimal",
	// "json", or "" (structs.Field.Format, or the format option).
	format string

	// kind is the DRF field class beyond the Go type's (kindChoice,
	// kindEmail, ...), or "".
	kind string
	// choices are a choice field's values.
	choices []choice
	// pattern is a RegexField's.
	pattern *regexp.Regexp
	// protocol is an IPAddressField's protocol: "ipv4", "ipv6", or ""
	// for both; modelProtocol reports the model field's, which DRF 3.14
	// checks with the model field's validator instead.
	protocol      string
	modelProtocol bool
	// textarea is DRF's style={'base_template': 'textarea.html'}: a
	// model's TextField, rendered in a <textarea>.
	textarea bool
	// container is a list's or a dictionary's; allowEmpty its allow_empty.
	container  *container
	allowEmpty bool
	// check is the field's validate_<field>, run on its new value.
	check func(base structs.Addr, c *Context) error
	// helpText is the model field's help_text; validators its validators
	// and uniqueText its error_messages["unique"] ("" for Django's).
	helpText   string
	validators []models.Validator
	uniqueText string
	// uniqueBy is the field's UniqueValidator option, nil for none.
	uniqueBy *UniqueValidator
	// verboseName is the model field's verbose_name (its name in
	// lower-case words), which the unique message names; "" off a model.
	verboseName string
	// many reports a relational field of many=True: a many-to-many
	// field or a reverse accessor.
	many bool
	// viewName and slugRelated are the view_name and slug_related tag
	// options; rel is a writable relational field's (relations.go).
	viewName    string
	slugRelated bool
	display     string
	rel         *relation
	// relOpts are a relational field's other options (relation_options.go).
	relOpts *relationOptions
	// nested is a nested serializer's (relations_nested.go).
	nested *nested
	// group are the fields of a Group (star.go), given the whole item.
	group []*field
	// file is a FileField's or an ImageField's (files.go).
	file *fileField
	// dt is a datetime's format options (datetime_formats.go).
	dt *dateTime
	// more are the options of field_options.go.
	more fieldOptions
	// list is a writable nested serializer of many=True (nested_list.go).
	list *nestedList
}

// bound is a max_value or min_value: its text for messages, its value.
type bound struct {
	text string
	i    *big.Int      // integer fields
	f    float64       // float fields
	r    *big.Rat      // decimal fields
	d    time.Duration // duration fields (duration is true)
	// duration marks a DurationField's bound, listed in OPTIONS as its
	// text (a string, as DRF's JSON encoder writes a timedelta there).
	duration bool
}

// Option configures a serializer at setup.
type Option interface{ apply(*options) }

type options struct {
	fields     []string
	exclude    []string
	groups     []Group
	computed   []computed
	validators []any
	choices    []fieldChoices
	regexes    [][2]string
	hidden     []hiddenOption
	checks     []checkOption
	// metaValidators are Validators' (nil: not given), uniques the
	// UniqueValidators.
	metaValidators []Validator
	uniques        []UniqueValidator
	// hyperlinked: Hyperlinked.
	hyperlinked bool
	// nestedLists are the NestedList fields.
	nestedLists []*nestedList
}

type computed struct {
	name string
	fn   any
	link *HyperlinkedIdentity
	// implicit marks the "url" field Hyperlinked adds, which Fields may
	// leave out (DRF's url_field_name is no declared field).
	implicit bool
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// Hyperlinked makes the serializer DRF's HyperlinkedModelSerializer. It
// gains a "url" field, the link to each item's detail route,
// "{model}-detail" (the model's name in lower case, as DRF's
// get_detail_view_name): first and in place of the primary key, as in
// DRF's default fields, unless Fields names them. Its foreign
// keys, many-to-many fields and reverse accessors' keys without a
// view_name are links to their related model's detail route
// (HyperlinkedRelatedField) rather than keys:
// the related table's name after the model's app label ("auth_group" from
// an auth model is "group-detail"), or after the first "_" for a table
// of another app; drf:"view_name=ROUTE" names another route.
func Hyperlinked() Option { return optionFunc(func(o *options) { o.hyperlinked = true }) }

// Fields limits the serializer to the named fields, in that order (DRF's
// Meta.fields); names are JSON names of struct fields or of extra fields,
// and "pk" names a model's primary key as DRF's "pk" does.
func Fields(names ...string) Option {
	return optionFunc(func(o *options) { o.fields = append(o.fields, names...) })
}

// Exclude leaves the named fields out, the others in their order (DRF's
// Meta.exclude). Each name must be a field of T's (a struct field's JSON
// name, or Hyperlinked's "url"), not a declared one (Computed,
// HiddenField); Exclude cannot go with Fields. New refuses either in
// DRF's words.
func Exclude(names ...string) Option {
	return optionFunc(func(o *options) { o.exclude = append(o.exclude, names...) })
}

// Computed adds a read-only field whose value fn computes (DRF's
// SerializerMethodField); the value is encoded with encoding/json.
func Computed[T any](name string, fn func(obj *T, c *Context) (any, error)) Option {
	return optionFunc(func(o *options) { o.computed = append(o.computed, computed{name: name, fn: fn}) })
}

// ValidateObject adds an object-level check run after the fields are valid
// (DRF's validate()); obj holds the new values. Return an
// exceptions.ValidationError to answer 400.
func ValidateObject[T any](fn func(obj *T, c *Context) error) Option {
	return optionFunc(func(o *options) { o.validators = append(o.validators, fn) })
}

// HyperlinkedIdentity is a read-only field holding the absolute URL of the
// item's own route, reversed for the request in the context (so the URL
// keeps the request's version), like DRF's HyperlinkedIdentityField.
type HyperlinkedIdentity struct {
	// Name is the field's name, usually "url".
	Name string
	// Route is the route name, e.g. "book-detail".
	Route string
	// LookupField is the `db` or JSON name of the field that fills the URL
	// parameter; "" gives "id".
	LookupField string
	// URLParam is the route's parameter (lookup_url_kwarg); "" gives
	// LookupField, or "pk" when that is unset too.
	URLParam string
	// Format is the format suffix of the URL when the request has one
	// (DRF's format=): a request of "/snippets.json" links to
	// ".../highlight.html" with Format "html", where the URL carries the
	// request's own suffix by default; a request without a suffix links
	// without one, as in DRF.
	Format string
}

func (h HyperlinkedIdentity) apply(o *options) {
	o.computed = append(o.computed, computed{name: h.Name, link: &h})
}

// New derives the serializer of T. When T is a model (it implements
// models.Model), each column's field options are derived from its
// declaration as DRF's ModelSerializer derives them (see model.go); the
// drf tag's options apply over them.
func New[T any](opts ...Option) (*Serializer[T], error) {
	var o options
	for _, opt := range opts {
		opt.apply(&o)
	}
	desc, err := structs.Of[T]()
	if err != nil {
		return nil, err
	}
	md, err := modelOf[T]()
	if err != nil {
		return nil, fmt.Errorf("serializers: %w", err)
	}
	all := map[string]*field{}
	var order []*field
	add := func(f *field) error {
		if _, dup := all[f.name]; dup {
			return fmt.Errorf("serializers: %s: field %q is defined twice", desc.Type, f.name)
		}
		all[f.name] = f
		order = append(order, f)
		return nil
	}
	var links func(table string) string
	if o.hyperlinked {
		if md == nil {
			return nil, fmt.Errorf("serializers: %s: Hyperlinked needs a model (a Meta method)", desc.Type)
		}
		links = detailRoutes(md.desc.Meta.App)
		if !slices.ContainsFunc(o.computed, func(c computed) bool { return c.name == "url" }) {
			o.computed = append(o.computed, computed{name: "url", implicit: true,
				link: &HyperlinkedIdentity{Name: "url", Route: strings.ToLower(md.desc.Meta.Name) + "-detail"}})
		}
	}
	for _, sf := range desc.Fields {
		if sf.NoJSON {
			continue
		}
		var f *field
		if nl := o.nestedListOf(sf); nl != nil {
			f, err = nl.field(sf)
		} else {
			f, err = structField(sf, md, links)
		}
		if err == nil && links != nil {
			err = f.hyperlinkNested()
		}
		if err != nil {
			return nil, fmt.Errorf("serializers: %s.%s: %w", desc.Type, sf.Name, ofSerializer(err, desc.Type))
		}
		if err := add(f); err != nil {
			return nil, err
		}
	}
	for _, c := range o.computed {
		f, err := computedField[T](desc, c)
		if err != nil {
			return nil, fmt.Errorf("serializers: %s: %w", desc.Type, err)
		}
		if err := add(f); err != nil {
			return nil, err
		}
		if c.implicit {
			// DRF's HyperlinkedModelSerializer names its url field first
			// (get_default_field_names).
			order = slices.Insert(order[:len(order)-1], 0, f)
		}
	}
	s := &Serializer[T]{byName: map[string]*field{}, verbose: models.VerboseName(desc.Type.Name()), explicit: o.metaValidators != nil}
	if err := s.bindOptions(desc, all, &o); err != nil {
		return nil, fmt.Errorf("serializers: %s: %w", desc.Type, err)
	}
	if order, err = s.group(all, order, &o); err != nil {
		return nil, fmt.Errorf("serializers: %s: %w", desc.Type, err)
	}
	if o.hyperlinked && o.fields == nil {
		// HyperlinkedModelSerializer's default fields have the url in
		// place of the primary key.
		if key := md.desc.PrimaryKey; key != nil {
			order = slices.DeleteFunc(order, func(f *field) bool { return f.sf != nil && f.sf.Column == key.Column })
		}
	}
	if order, err = s.exclude(desc, order, &o); err != nil {
		return nil, err
	}
	if o.fields != nil {
		// DRF's ModelSerializer.get_field_names: a declared field must
		// be in Meta.fields.
		declared := slices.Collect(func(yield func(string) bool) {
			for _, c := range o.computed {
				if !c.implicit && !yield(c.name) {
					return
				}
			}
			for _, g := range o.groups {
				if !yield(g.Name) {
					return
				}
			}
		})
		for _, name := range declared {
			if !slices.Contains(o.fields, name) {
				return nil, fmt.Errorf("serializers: The field '%s' was declared on serializer Serializer[%s], "+
					"but has not been included in the 'fields' option.", name, desc.Type)
			}
		}
		order = order[:0]
		for _, name := range o.fields {
			f, ok := all[name]
			if !ok && name == "pk" {
				f = md.pkField(all)
				ok = f != nil
			}
			if !ok && md != nil {
				return nil, fmt.Errorf("serializers: Field name `%s` is not valid for model `%s` in `Serializer[%s]`.",
					name, md.desc.Meta.Name, desc.Type)
			}
			if !ok {
				return nil, fmt.Errorf("serializers: %s has no field %q", desc.Type, name)
			}
			order = append(order, f)
		}
	}
	// A HiddenField replaces the field of its struct field.
	order = slices.DeleteFunc(order, s.isHidden)
	s.fields = order
	for _, f := range order {
		if err := f.bind(); err != nil {
			return nil, err
		}
		s.byName[f.name] = f
	}
	if err := s.bindModel(md); err != nil {
		return nil, fmt.Errorf("serializers: %s: %w", desc.Type, err)
	}
	if err := s.bindValidators(o.metaValidators); err != nil {
		return nil, fmt.Errorf("serializers: %s: %w", desc.Type, err)
	}
	if err := s.bindUniques(o.uniques); err != nil {
		return nil, fmt.Errorf("serializers: %s: %w", desc.Type, err)
	}
	for _, c := range o.checks {
		f, ok := s.byName[c.field]
		if !ok || f.sf == nil || f.readOnly {
			return nil, fmt.Errorf("serializers: %s: ValidateField names %q, which is no writable field", desc.Type, c.field)
		}
		if f.check, err = c.bind(desc.Type, f.sf); err != nil {
			return nil, fmt.Errorf("serializers: %s: ValidateField(%q): %w", desc.Type, c.field, err)
		}
	}
	s.info, s.info314 = fieldInfo(order, compat.Current), fieldInfo(order, compat.DRF314)
	s.description = s.describe()
	for _, v := range o.validators {
		fn, ok := v.(func(*T, *Context) error)
		if !ok {
			return nil, fmt.Errorf("serializers: ValidateObject function %T is not for %s", v, desc.Type)
		}
		s.validators = append(s.validators, fn)
	}
	return s, nil
}

// exclude leaves o.exclude out of order, as DRF's
// ModelSerializer.get_field_names applies Meta.exclude.
func (s *Serializer[T]) exclude(desc *structs.Struct, order []*field, o *options) ([]*field, error) {
	if len(o.exclude) == 0 {
		return order, nil
	}
	name := fmt.Sprintf("Serializer[%s]", desc.Type)
	if len(o.fields) > 0 {
		return nil, fmt.Errorf("serializers: Cannot set both 'fields' and 'exclude' options on serializer %s.", name)
	}
	declared := func(f *field) bool {
		if f.sf != nil {
			return s.isHidden(f)
		}
		return !slices.ContainsFunc(o.computed, func(c computed) bool { return c.name == f.name && c.implicit })
	}
	for _, x := range o.exclude {
		i := slices.IndexFunc(order, func(f *field) bool { return f.name == x })
		switch {
		case i >= 0 && declared(order[i]):
			return nil, fmt.Errorf("serializers: Cannot both declare the field '%s' and include it in the %s "+
				"'exclude' option. Remove the field or leave it out of 'exclude'.", x, name)
		case i < 0:
			return nil, fmt.Errorf("serializers: The field '%s' was included on serializer %s in the "+
				"'exclude' option, but does not match any model field.", x, name)
		}
		order = slices.Delete(order, i, i+1)
	}
	return order, nil
}

// bind checks that the field's type is supported, and sets its key and
// its form keys.
func (f *field) bind() error {
	if f.sf != nil && f.container == nil && f.compute == nil && f.nested == nil && f.list == nil {
		if err := f.sf.Supported(); err != nil {
			return fmt.Errorf("serializers: %w", err)
		}
	}
	f.key = append(appendString(nil, f.name), ':')
	if f.container != nil {
		f.container.formKey = regexp.MustCompile(`^` + regexp.QuoteMeta(f.name) + `\[([0-9]+)\](.*)$`)
	}
	return nil
}

// bindOptions applies the Choices, Regex and HiddenField options.
func (s *Serializer[T]) bindOptions(desc *structs.Struct, all map[string]*field, o *options) error {
	for _, c := range o.choices {
		f, ok := all[c.field]
		if !ok || f.sf == nil {
			return fmt.Errorf("Choices names %q, which is no field", c.field)
		}
		if err := f.setChoices(c.choices); err != nil {
			return fmt.Errorf("Choices(%q): %w", c.field, err)
		}
	}
	for _, r := range o.regexes {
		f, ok := all[r[0]]
		if !ok || f.sf == nil || f.sf.Kind != structs.String {
			return fmt.Errorf("Regex names %q, which is no string field", r[0])
		}
		re, err := regexp.Compile(r[1])
		if err != nil {
			return fmt.Errorf("Regex(%q): %w", r[0], err)
		}
		f.kind, f.pattern = kindRegex, re
	}
	for _, nl := range o.nestedLists {
		if f, ok := all[nl.name]; !ok || f.list != nl {
			return fmt.Errorf("NestedList names %q, which is no field", nl.name)
		}
	}
	for _, h := range o.hidden {
		hf, err := h.bind(desc)
		if err != nil {
			return fmt.Errorf("HiddenField(%q): %w", h.name, err)
		}
		s.hidden = append(s.hidden, hf)
	}
	return nil
}

// MustNew is New that panics on a setup error.
func MustNew[T any](opts ...Option) *Serializer[T] {
	s, err := New[T](opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// detailRoutes names the detail route of a related table's model under a
// Hyperlinked serializer of a model of app.
func detailRoutes(app string) func(table string) string {
	return func(table string) string {
		name, ok := strings.CutPrefix(table, app+"_")
		if !ok || app == "" {
			if _, rest, cut := strings.Cut(table, "_"); cut {
				name = rest
			}
		}
		return name + "-detail"
	}
}

// structField is the field of sf; links, when not nil, names the detail
// route a relation without a view_name links to (Hyperlinked).
func structField(sf *structs.Field, md *modelInfo, links func(table string) string) (*field, error) {
	mf := md.field(sf)
	f := &field{sf: sf, name: sf.JSON, trim: true, maxLength: -1, minLength: -1, maxDigits: -1, decimalPlaces: -1,
		allowNull: sf.Nullable, format: sf.Format, allowEmpty: true}
	if f.name == "" {
		f.name = sf.Column
	}
	if f.name == "" {
		f.name = sf.Name
	}
	if !strings.Contains(sf.Tag.Get("model"), "reverse=") {
		f.container = containerOf(sf)
	}
	if mf != nil {
		if err := f.fromModel(mf); err != nil {
			return nil, err
		}
	}
	f.bindFile(mf)
	f.bindFieldOptions()
	tag, ok := sf.Tag.Lookup("drf")
	if !ok {
		f.hyperlink(md, links)
		if err := f.bindRelation(md); err != nil {
			return nil, err
		}
		return f, f.bindFilePath()
	}
	for _, opt := range splitTag(tag) {
		if err := f.applyOption(opt); err != nil {
			return nil, err
		}
	}
	f.hyperlink(md, links)
	if err := f.bindRelation(md); err != nil {
		return nil, err
	}
	return f, f.checkOptions()
}

// splitTag splits the drf tag's options on commas; a comma after a
// backslash (`\\,` in a struct tag's source) belongs to an option's value,
// such as a strftime pattern's.
func splitTag(tag string) []string {
	opts := strings.Split(tag, ",")
	for i := 0; i < len(opts)-1; i++ {
		if strings.HasSuffix(opts[i], `\`) {
			opts[i] = strings.TrimSuffix(opts[i], `\`) + "," + opts[i+1]
			opts = slices.Delete(opts, i+1, i+2)
			i--
		}
	}
	return opts
}

// tagRequires reports whether the drf tag of sf makes it required
// ("required", or "required=true"): DRF's extra_kwargs required=True over
// what a model field derives.
func tagRequires(sf *structs.Field) bool {
	for _, opt := range splitTag(sf.Tag.Get("drf")) {
		if k, v, hasVal := strings.Cut(strings.TrimSpace(opt), "="); k == "required" {
			on, err := strconv.ParseBool(v)
			return !hasVal || on && err == nil
		}
	}
	return false
}

// tagOption applies one option of the drf tag.
func (f *field) tagOption(key, val string, hasVal bool, opt string) error {
	sf := f.sf
	if ok, err := f.relationOption(key, val); ok {
		if err != nil {
			return fmt.Errorf("bad drf tag option %q: %w", opt, err)
		}
		return nil
	}
	if ok, err := f.fileOption(key, val); ok {
		if err != nil {
			return fmt.Errorf("bad drf tag option %q: %w", opt, err)
		}
		return nil
	}
	if ok, err := f.fieldOption(key, val, hasVal); ok {
		if err != nil {
			return fmt.Errorf("bad drf tag option %q: %w", opt, err)
		}
		return nil
	}
	var err error
	switch key {
	case "":
	case "read_only", "write_only", "required", "allow_blank", "allow_null":
		// A flag, or DRF's extra_kwargs value over what the model
		// derives (read_only=false over an auto primary key).
		on := true
		if hasVal {
			on, err = strconv.ParseBool(val)
		}
		*f.flag(key) = on
		f.nullSet = f.nullSet || key == "allow_null"
	case "unique":
		f.unique = true
	case "no_trim":
		f.trim = false
	case "max_length":
		f.maxLength, err = strconv.Atoi(val)
	case "min_length":
		f.minLength, err = strconv.Atoi(val)
	case "max_digits":
		if f.maxDigits, err = strconv.Atoi(val); err == nil && f.maxDigits < 1 {
			err = strconv.ErrRange
		}
	case "decimal_places":
		if f.decimalPlaces, err = strconv.Atoi(val); err == nil && f.decimalPlaces < 0 {
			err = strconv.ErrRange
		}
	case "max_value":
		f.maxValue, err = parseBound(sf, val)
	case "min_value":
		f.minValue, err = parseBound(sf, val)
	case "label":
		f.label = val
	case "type":
		f.typeName = val
	case "view_name":
		// DRF's HyperlinkedRelatedField(view_name=...): bindRelation.
		f.viewName = val
	case "slug_related":
		// DRF's SlugRelatedField of a dotted source: bindRelation.
		f.slugRelated = true
	case "display":
		// The related row's str() in a form's select: bindRelation.
		f.display = val
	case "source":
		// A dotted source is read through a relation by the data source
		// (models' joins): read-only, as DRF's ReadOnlyField(source=...).
		f.readOnly = strings.Contains(val, ".") || f.readOnly
		if f.typeName == "" && f.readOnly {
			f.typeName = "field"
		}
	case "format", "input_formats", "default_timezone":
		if key != "format" || sf.Kind == structs.Time || f.temporal() {
			if err := f.bindDateTime(key, val); err != nil {
				return fmt.Errorf("bad drf tag option %q: %w", opt, err)
			}
			break
		}
		f.format = val
		if !formats[val] || sf.Kind != structs.Custom {
			err = fmt.Errorf("format needs uuid, decimal or json, on a Scanner/Valuer type")
		}
	case "email", "url", "slug", "ip":
		f.kind = map[string]string{"email": kindEmail, "url": kindURL, "slug": kindSlug, "ip": kindIP}[key]
		if sf.Kind != structs.String || f.container != nil {
			err = fmt.Errorf("%s needs a string field", key)
		}
	case "textarea":
		f.textarea = true
	case "allow_empty":
		f.allowEmpty, err = strconv.ParseBool(val)
	case "coerce_to_string":
		var coerce bool
		coerce, err = strconv.ParseBool(val)
		f.decimalNumber, f.coerceSet = !coerce, true
	case "rounding":
		if !slices.Contains(roundings, val) {
			return fmt.Errorf("Invalid rounding option %s. Valid values for rounding are: ['%s']", val, strings.Join(roundings, "', '"))
		}
		f.rounding = val
	case "normalize_output":
		f.normalize = true
	case "localize":
		f.localize = true
	case "default":
		f.defText = &val
	default:
		return fmt.Errorf("unknown drf tag option %q", key)
	}
	if err != nil || (hasVal && val == "" && key != "default") || (key == "default" && !hasVal) {
		return fmt.Errorf("bad drf tag option %q", opt)
	}
	return nil
}

// flag is the field's option of a flag's name in the drf tag.
func (f *field) flag(key string) *bool {
	switch key {
	case "read_only":
		return &f.readOnly
	case "write_only":
		return &f.writeOnly
	case "required":
		return &f.required
	case "allow_blank":
		return &f.allowBlank
	}
	return &f.allowNull
}

// checkOptions refuses options that do not go together.
func (f *field) checkOptions() error {
	sf := f.sf
	if (f.maxDigits >= 0 || f.decimalPlaces >= 0) && f.format != "decimal" {
		return fmt.Errorf("max_digits and decimal_places need a decimal field")
	}
	if (f.coerceSet || f.normalize || f.rounding != "" || f.localize) && f.format != "decimal" {
		return fmt.Errorf("coerce_to_string, rounding, normalize_output and localize need a decimal field")
	}
	if (f.maxValue != nil && f.maxValue.r != nil || f.minValue != nil && f.minValue.r != nil) && f.format != "decimal" {
		return fmt.Errorf("max_value and min_value need a number field")
	}
	if f.maxDigits >= 0 && f.decimalPlaces > f.maxDigits {
		return fmt.Errorf("decimal_places cannot exceed max_digits")
	}
	if f.allowNull && !sf.Nullable && sf.Kind != structs.Custom && f.container == nil {
		return fmt.Errorf("allow_null needs a pointer field, an sql.Null type or a type that scans NULL")
	}
	if f.readOnly && (f.writeOnly || f.required) {
		return fmt.Errorf("a read_only field cannot be write_only or required")
	}
	if f.container != nil {
		if err := f.container.check(); err != nil {
			return err
		}
	}
	if err := f.checkFieldOptions(); err != nil {
		return err
	}
	return f.bindDefault()
}

func parseBound(sf *structs.Field, text string) (*bound, error) {
	b := &bound{text: text}
	switch sf.Kind {
	case structs.Int, structs.Uint:
		i, ok := new(big.Int).SetString(text, 10)
		if !ok {
			return nil, fmt.Errorf("bound %q is not an integer", text)
		}
		b.i = i
	case structs.Float:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("bound %q is not a finite number", text)
		}
		b.f = f
	case structs.Duration:
		return durationBound(text)
	case structs.Custom:
		d, ok := parseDecimal(text)
		if !ok {
			return nil, fmt.Errorf("bound %q is not a finite number", text)
		}
		b.r = d.rat()
	default:
		return nil, fmt.Errorf("max_value and min_value need a number field")
	}
	return b, nil
}

func computedField[T any](desc *structs.Struct, c computed) (*field, error) {
	if c.name == "" {
		return nil, fmt.Errorf("an extra field needs a name")
	}
	f := &field{name: c.name, readOnly: true, maxLength: -1, minLength: -1}
	if c.link == nil {
		fn, ok := c.fn.(func(*T, *Context) (any, error))
		if !ok {
			return nil, fmt.Errorf("computed field %q: function %T is not for %s", c.name, c.fn, reflect.TypeFor[T]())
		}
		f.compute = func(obj structs.Addr, ctx *Context) (any, error) { return fn(structs.At[T](obj), ctx) }
		return f, nil
	}
	return identityField(f, desc, *c.link)
}

// identityField makes f the HyperlinkedIdentity h of the items desc
// describes.
func identityField(f *field, desc *structs.Struct, h HyperlinkedIdentity) (*field, error) {
	f.link = true
	if h.Route == "" {
		return nil, fmt.Errorf("hyperlinked field %q needs a route name", h.Name)
	}
	lookup := h.LookupField
	if lookup == "" {
		lookup = "id"
	}
	param := h.URLParam
	if param == "" {
		// DRF's lookup_url_kwarg defaults to lookup_field.
		param = h.LookupField
	}
	if param == "" {
		param = "pk"
	}
	var lf *structs.Field
	for _, sf := range desc.Fields {
		if sf.Column == lookup || sf.JSON == lookup {
			lf = sf
			break
		}
	}
	if lf == nil {
		return nil, fmt.Errorf("hyperlinked field %q: no lookup field %q", h.Name, lookup)
	}
	f.compute = func(obj structs.Addr, ctx *Context) (any, error) {
		if ctx == nil || ctx.Request == nil {
			return nil, fmt.Errorf("serializers: hyperlinked field %q needs the request in the serializer context", h.Name)
		}
		params := map[string]string{param: lf.Get(obj).Text()}
		if f := ctx.Request.FormatSuffix(); f != "" {
			params[reverse.FormatSuffixParam] = cmp.Or(h.Format, f)
		}
		return reverse.Reverse(h.Route, params, ctx.Request)
	}
	return f, nil
}

// HasField reports whether the serializer has a field of that name.
func (s *Serializer[T]) HasField(name string) bool {
	_, ok := s.byName[name]
	return ok
}

// FieldNames lists the fields in output order.
func (s *Serializer[T]) FieldNames() []string {
	names := make([]string, len(s.fields))
	for i, f := range s.fields {
		names[i] = f.name
	}
	return names
}

// Value returns the representation of one field of obj, as it appears in
// the output (a string for a hyperlinked field).
func (s *Serializer[T]) Value(name string, obj *T, c *Context) (any, error) {
	f, ok := s.byName[name]
	if !ok {
		return nil, fmt.Errorf("serializers: no field %q", name)
	}
	if f.compute != nil {
		return f.compute(structs.AddrOf(obj), c)
	}
	var out any
	b, err := f.appendValue(nil, structs.AddrOf(obj), c)
	if err != nil {
		return nil, err
	}
	err = json.Unmarshal(b, &out)
	return out, err
}
