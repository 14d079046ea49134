package filters

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/structs"
)

// ValueKind is how a filter reads its value: the form field of a
// django-filter filter.
type ValueKind int

// The kinds of filter values.
const (
	// Text is a CharField's: stripped; any text.
	Text ValueKind = iota
	// Number is a DecimalField's (NumberFilter): Python's Decimal,
	// finite ("Enter a number.").
	Number
	// DateTime is an IsoDateTimeField's: ISO 8601 (Django's
	// parse_datetime), naive times in UTC ("Enter a valid date/time.").
	DateTime
	// Date is a DateField's: DATE_INPUT_FORMATS ("Enter a valid date.").
	Date
	// Boolean is a NullBooleanField's (BooleanFilter), read as
	// django_filters.rest_framework's BooleanWidget reads it: "true" or
	// "1", "false" or "0", in any case; anything else is no filter.
	Boolean
	// Choice is a ChoiceField's (ChoiceFilter): the value as given, one
	// of the filter's Choices ("Select a valid choice. bogus is not one
	// of the available choices.").
	Choice
)

// Messages of the values a filter refuses, Django's.
const (
	msgInvalidNumber   = "Enter a number."
	msgInvalidDateTime = "Enter a valid date/time."
	msgInvalidDate     = "Enter a valid date."
	msgRangeValues     = "Range query expects two values."
	// msgListLength refuses a list longer than MaxListValues (the items
	// given, the bound): Django's SimpleArrayField's, its form field of a
	// comma-separated list.
	msgListLength = "List contains %d items, it should contain no more than %d."
	// msgPatternLength refuses a value longer than MaxPatternLength (the
	// bound, the characters given): Django's MaxLengthValidator's, which
	// a CharFilter's max_length gives.
	msgPatternLength = "Ensure this value has at most %d characters (it has %d)."
	// msgInvalidChoice refuses a value that is none of a Choice filter's
	// choices (the value): Django's ChoiceField's.
	msgInvalidChoice = "Select a valid choice. %s is not one of the available choices."
	// msgInvalidModelChoice refuses a value of a foreign key's filter
	// that no related row holds: Django's ModelChoiceField's.
	msgInvalidModelChoice = "Select a valid choice. That choice is not one of the available choices."
	// msgInvalidPKValue refuses a value of a many-to-many field's filter
	// that is no key of its type (the value): Django's
	// ModelMultipleChoiceField's.
	msgInvalidPKValue = "“%s” is not a valid value."
	// msgNullCharacters refuses a foreign key's value holding a NUL
	// character: Django 5.2's ModelChoiceField's (Django 3.2's answers
	// msgInvalidModelChoice).
	msgNullCharacters = "Null characters are not allowed."
)

// The bounds of the values filters read, so that no query they make
// reaches a limit of the database (which it would refuse, a 500).
const (
	// defaultMaxListValues is the default FilterSet.MaxListValues. Each
	// value of a list is a bound parameter of the query, of which SQLite
	// takes 32,766 (SQLITE_MAX_VARIABLE_NUMBER, go-sqlite3's build) and
	// PostgreSQL 65,535: 1000 leaves room for 30 lists besides the
	// search terms (one parameter per term and searched field).
	defaultMaxListValues = 1000
	// defaultMaxPatternLength is the default FilterSet.MaxPatternLength
	// and SearchFilter.MaxTermLength, in characters. SQLite refuses a
	// LIKE pattern over 50,000 bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH);
	// 10,000 characters make at most 40,002 (4 bytes a character, an
	// escaped one 2, and the two % of a containment).
	defaultMaxPatternLength = 10000
)

// Filter is one filter of a FilterSet: a query parameter whose value is
// compared with a field of the source by a lookup.
type Filter struct {
	// Param is the query parameter; "" gives Field, followed by
	// "__" and the lookup unless it is exact (django-filter's names).
	Param string
	// Field is the source's field (field_name).
	Field string
	// Lookup is the comparison (lookup_expr); "" is exact. The values
	// of In and Range are comma-separated.
	Lookup query.Lookup
	// Value is how the value is read.
	Value ValueKind
	// Label describes the filter in the schema; "" gives django-filter's
	// label ("Rating is greater than or equal to").
	Label string
	// Choices are the values a Choice filter takes (ChoiceFilter's
	// choices); NewFilterSet gives them from the model field's.
	Choices []models.Choice

	// related is the foreign key whose related rows the values must be
	// keys of (ModelChoiceFilter's queryset), set by NewFilterSet.
	related *relatedKey
	// many is the many-to-many field's, whose every value must be a key
	// of a related row (ModelMultipleChoiceFilter's), set by NewFilterSet.
	many *relatedKey
	// bareDates: a DateTime value may be a bare date (FilterSet.Compatibility).
	bareDates bool
	// array is a lookup on an ArrayField but len, set by NewFilterSet:
	// its value is the comma-separated elements of the array compared
	// with, as django-filter's BaseCSVFilter reads them (the filter that
	// a FilterSet's filter_overrides declares for an ArrayField).
	array bool
}

// relatedKey is a foreign key, whose values a filter reads as Django's
// ModelChoiceField reads them: keys of the rows of the table it references.
type relatedKey struct {
	table, column string
	// integer is a key of integers, read as Python's int() reads text.
	integer bool
}

// verboseLookups are django-filter's words for the lookups in labels.
var verboseLookups = map[query.Lookup]string{
	query.Contains: "contains", query.IContains: "contains", query.In: "is in", query.GT: "is greater than",
	query.GTE: "is greater than or equal to", query.LT: "is less than", query.LTE: "is less than or equal to",
	query.Range: "is in range", query.IsNull: "is null", query.Date: "date",
	query.ContainedBy: "is contained by", query.Overlap: "overlaps", query.Len: "len",
}

// label is the filter's Label, else django-filter's: the field's path
// in words, then the lookup's, capitalised.
func (f Filter) label() string {
	if f.Label != "" {
		return f.Label
	}
	path := f.Field
	if f.Param != "" {
		path = strings.TrimSuffix(f.Param, "__"+string(f.Lookup))
	}
	words := strings.ReplaceAll(strings.ReplaceAll(path, "__", " "), "_", " ")
	if v := verboseLookups[f.Lookup]; v != "" {
		words += " " + v
	}
	return strings.ToUpper(words[:1]) + words[1:]
}

// param is the filter's query parameter.
func (f Filter) param() string {
	if f.Param != "" {
		return f.Param
	}
	if f.Lookup == "" || f.Lookup == query.Exact {
		return f.Field
	}
	return f.Field + "__" + string(f.Lookup)
}

// Lookups declares a filter per lookup of one field, as a FilterSet's
// Meta.fields = {"rating": ["exact", "gte"]} does.
func Lookups(field string, value ValueKind, lookups ...query.Lookup) []Filter {
	out := make([]Filter, len(lookups))
	for i, l := range lookups {
		out[i] = Filter{Field: field, Lookup: l, Value: value}
	}
	return out
}

// FilterSet filters a list by its query parameters as django-filter's
// DjangoFilterBackend does with a FilterSet: each filter whose parameter
// the request gives (its last value) narrows the list, all of them
// together; an empty value and an unknown parameter are no filter; the
// values a filter refuses are answered at once, 400 with one message per
// parameter in the filters' order ({"rating": ["Enter a number."]}).
// Beyond django-filter, the values are bounded so that the query stays
// within the database's limits: a list longer than MaxListValues and a
// pattern longer than MaxPatternLength are refused the same way.
//
// A FilterSet literal has no model behind it, as django-filter's declared
// filters: each filter names a field as the source's Where takes it (a
// column, a foreign key by its Django name, a joined field's path) and
// reads its values by its Value. NewFilterSet resolves one against its
// model at setup, as django-filter's Meta.model does: a foreign key's
// values looked up as ModelChoiceFilter's, a field's choices as
// ChoiceFilter's, and a name the model lacks refused before any request.
type FilterSet struct {
	// Filters are the filters, in order.
	Filters []Filter
	// MaxListValues bounds the comma-separated items of an In filter's
	// value, empty ones included; 0 gives 1000.
	MaxListValues int
	// MaxPatternLength bounds the characters of a Contains, IContains or
	// IExact filter's value (stripped), which SQLite compares as a LIKE
	// pattern; 0 gives 10,000.
	MaxPatternLength int
	// Compatibility is the release whose django-filter reads the values:
	// the zero value (compat.Current) django-filter 25.1 on Django 5.2,
	// where a DateTime filter also takes a bare date ("2024-01-03" or
	// "20240103", midnight UTC: Django 4.0's parse_datetime tries Python's
	// datetime.fromisoformat first); compat.DRF314 django-filter 23.1 on
	// Django 3.2, where it is "Enter a valid date/time.".
	Compatibility compat.Level

	// name names the filterset in errors (NewFilterSet's).
	name string
}

// relatedLookups are the lookups that compare a foreign key with keys:
// Django's related lookups but isnull (exact, in, gt, gte, lt, lte).
var relatedLookups = []query.Lookup{"", query.Exact, query.In, query.GT, query.GTE, query.LT, query.LTE}

// NewFilterSet returns fs resolved, once, against the model T, as
// django-filter's FilterSet with Meta.model = T is when its class is
// made; name (the class's) names it in errors. Each filter's Field may be
// a field's Django name or its column, as Django reads both: a foreign
// key's name without "_id" ("post") filters its column (post_id); a
// joined field by its lookup path ("owner__username"), any `db` column.
// And each reads its values as django-filter derives the filter from the
// model field (its Value is not read):
//
//   - a foreign key, by any lookup but isnull, reads keys of the table it
//     references, as ModelChoiceFilter: each key is looked up in that
//     table (the source must be a queryset.RelatedFinder, as SQLSource
//     is), and a key that no row holds is refused, 400 {"post": ["Select
//     a valid choice. That choice is not one of the available
//     choices."]};
//   - a many-to-many field, by exact, reads every value of its parameter
//     (?tags=1&tags=2) as ModelMultipleChoiceFilter: each a key of a row
//     of the related table ({"tags": ["“x” is not a valid value."]},
//     {"tags": ["Select a valid choice. 99 is not one of the available
//     choices."]}), keeping the items related to any of them, each once;
//   - an exact filter of a field with choices (Meta.Choices) reads one of
//     them, as ChoiceFilter (Choice, the field's Choices unless the
//     filter has its own): {"status": ["Select a valid choice. bogus is
//     not one of the available choices."]}.
//
// A filter keeps the parameter of the name it was given ("post",
// "post_id") and, unless it has its own, takes django-filter's label of
// the model field ("Post"). A name that T has no field of is a setup
// error naming the filterset and the names, in django-filter's words
// ("'Meta.fields' must not contain non-model field names: bogus"), as is
// a lookup that a foreign key does not take (Django's "Related Field got
// invalid lookup: contains") and a Choice filter with no choices.
func NewFilterSet[T any](name string, fs FilterSet) (FilterSet, error) {
	fs.name = name
	fs.Filters = slices.Clone(fs.Filters)
	var unknown []string
	var many []*models.ManyToMany
	if d, err := models.Of[T](); err == nil {
		many = d.ManyToMany
	}
	for i := range fs.Filters {
		f := &fs.Filters[i]
		if f.Lookup == query.IsNull {
			// django-filter's BooleanFilter, whatever the field.
			f.Value = Boolean
		}
		if i := slices.IndexFunc(many, func(m *models.ManyToMany) bool { return m.Name == f.Field }); i >= 0 && f.Lookup != query.IsNull {
			if f.Lookup != "" && f.Lookup != query.Exact {
				return FilterSet{}, fmt.Errorf("filters: %s: %s: Related Field got invalid lookup: %s", name, f.param(), f.Lookup)
			}
			m := many[i]
			k := m.Field.Type.Elem().Kind()
			f.Param, f.Label = f.param(), cmp.Or(f.Label, Filter{Field: m.Name}.label())
			// A field of slugs (or of rows) is filtered by the related
			// keys, as ModelMultipleChoiceFilter's, integers.
			f.many = &relatedKey{table: m.Table, column: m.Column, integer: k != reflect.String || m.SlugField != ""}
			continue
		}
		column, mf, err := queryset.LookupField[T](f.Field)
		if _, ok := errors.AsType[*queryset.UnknownFieldError](err); ok && f.Lookup == query.IsNull {
			// A relation to many rows (tags, a reverse side) is null
			// where it has no related row: its rows' keys are compared.
			if _, _, err = queryset.LookupField[T](f.Field + "__pk"); err == nil {
				column, mf, f.Label = f.Field, nil, cmp.Or(f.Label, Filter{Field: queryset.VerboseFieldName[T](f.Field), Lookup: f.Lookup}.label())
			}
		}
		if _, ok := errors.AsType[*queryset.UnknownFieldError](err); ok {
			if !slices.Contains(unknown, f.Field) {
				unknown = append(unknown, f.Field)
			}
			continue
		}
		if err != nil {
			return FilterSet{}, fmt.Errorf("filters: %s: %w", name, err)
		}
		f.Param = f.param()
		switch {
		case f.Label != "":
		case strings.Contains(f.Field, "__"):
			// A path's label is its fields' names (django-filter's
			// label_for_filter of field_name), whatever its parameter.
			f.Label = Filter{Field: cmp.Or(queryset.VerboseFieldName[T](f.Field), f.Field), Lookup: f.Lookup}.label()
		case mf != nil:
			f.Label = Filter{Field: mf.Name, Lookup: f.Lookup}.label()
		}
		f.Field = column
		switch {
		case mf == nil || f.Lookup == query.IsNull:
		case mf.Related != nil:
			if !slices.Contains(relatedLookups, f.Lookup) {
				return FilterSet{}, fmt.Errorf("filters: %s: %s: Related Field got invalid lookup: %s", name, f.Param, f.Lookup)
			}
			kind := mf.Struct.Kind
			f.related = &relatedKey{table: mf.Related.Table, column: mf.Related.Column, integer: kind == structs.Int || kind == structs.Uint}
		case mf.Kind == models.ArrayField:
			f.array = f.Lookup != query.Len
		case mf.Choices != nil && (f.Lookup == "" || f.Lookup == query.Exact):
			f.Value = Choice
			if f.Choices == nil {
				f.Choices = mf.Choices
			}
		}
		if f.Value == Choice && f.related == nil && len(f.Choices) == 0 {
			return FilterSet{}, fmt.Errorf("filters: %s: %s reads a Choice and has no Choices", name, f.Param)
		}
	}
	if len(unknown) > 0 {
		return FilterSet{}, fmt.Errorf("filters: %s: 'Meta.fields' must not contain non-model field names: %s", name, strings.Join(unknown, ", "))
	}
	return fs, nil
}

// MustFilterSet is NewFilterSet that panics on a setup error.
func MustFilterSet[T any](name string, fs FilterSet) FilterSet {
	fs, err := NewFilterSet[T](name, fs)
	if err != nil {
		panic(err)
	}
	return fs
}

// Check reports, when a view is registered, whether its source can
// narrow its items by each filter (queryset.CheckLookup): a path across
// relations over a Go slice is refused with the error, naming the
// filterset and the parameter, rather than answered 500 on request.
func (fs FilterSet) Check(q query.Query) error {
	for _, f := range fs.Filters {
		lookup := cmp.Or(f.Lookup, query.Exact)
		if err := queryset.CheckLookup(q, f.Field, lookup); err != nil {
			return fmt.Errorf("filters: %s: %s: %w", cmp.Or(fs.name, "FilterSet"), f.param(), err)
		}
	}
	return nil
}

// Filter narrows q by the request's filters.
func (fs FilterSet) Filter(r *request.Request, q query.Query) (query.Query, error) {
	var errs exceptions.ValidationErrors
	params := r.QueryParams()
	maxItems := cmp.Or(fs.MaxListValues, defaultMaxListValues)
	maxLength := cmp.Or(fs.MaxPatternLength, defaultMaxPatternLength)
	for _, f := range fs.Filters {
		name := f.param()
		raw, ok := params[name]
		if !ok || len(raw) == 0 {
			continue
		}
		f.bareDates = fs.Compatibility != compat.DRF314
		if f.many != nil {
			values, msg, err := fs.readMany(r, q, f, raw, maxItems)
			switch {
			case err != nil:
				return nil, err
			case msg != "":
				errs.Add(name, msg)
			case len(errs) == 0:
				q = q.Where(f.Field, query.In, values...)
			}
			continue
		}
		values, msg := f.read(raw[len(raw)-1], maxItems, maxLength)
		if f.related != nil && msg == "" && values != nil {
			var err error
			if values, msg, err = fs.lookUp(r, q, f, values); err != nil {
				return nil, err
			}
		}
		switch {
		case msg != "":
			errs.Add(name, msg)
		case values != nil && len(errs) == 0:
			lookup := f.Lookup
			if lookup == "" {
				lookup = query.Exact
			}
			q = q.Where(f.Field, lookup, values...)
		}
	}
	if len(errs) > 0 {
		return nil, exceptions.ValidationError(errs)
	}
	return q, nil
}

// read returns the values of raw as Where reads them, nil for no filter,
// or the message refusing it: a list of more than maxItems items, a
// pattern of more than maxLength characters.
func (f Filter) read(raw string, maxItems, maxLength int) (values []string, msg string) {
	if raw == "" {
		return nil, ""
	}
	if f.Lookup != query.In && f.Lookup != query.Range && !f.array {
		v, ok, msg := f.readOne(raw)
		if msg != "" || !ok {
			return nil, msg
		}
		if f.Lookup == query.Contains || f.Lookup == query.IContains || f.Lookup == query.IExact {
			if n := utf8.RuneCountInString(v); n > maxLength {
				return nil, fmt.Sprintf(msgPatternLength, maxLength, n)
			}
		}
		return []string{v}, ""
	}
	// django-filter's BaseCSVField: each item read alone; in a list,
	// items that are empty are dropped (Django's In discards None); a
	// range takes two. The items are counted before any is read.
	switch n := strings.Count(raw, ",") + 1; {
	case f.Lookup == query.Range && n != 2:
		return nil, msgRangeValues
	case (f.Lookup == query.In || f.array) && n > maxItems:
		return nil, fmt.Sprintf(msgListLength, n, maxItems)
	}
	items := strings.Split(raw, ",")
	values = []string{}
	for _, item := range items {
		if f.array && f.Value == Text {
			// A CharField's item, stripped, is kept when empty ("").
			values = append(values, pycompat.Strip(item))
			continue
		}
		v, ok, msg := f.readOne(item)
		if msg != "" {
			return nil, msg
		}
		if ok {
			values = append(values, v)
		}
	}
	if f.Lookup == query.Range && len(values) != 2 {
		return nil, "" // a bound left empty: no filter
	}
	return values, ""
}

// readOne reads one value, or one item of a list: as a foreign key's
// (relatedKey.read), as one of the Choices, or as Value reads it.
func (f Filter) readOne(raw string) (value string, ok bool, msg string) {
	if f.bareDates && f.Value == DateTime && f.related == nil {
		raw = bareDateAsDateTime(raw)
	}
	switch {
	case f.related != nil:
		return f.related.read(raw)
	case f.Value != Choice:
		return f.Value.read(raw)
	case raw == "":
		return "", false, ""
	case slices.ContainsFunc(f.Choices, func(c models.Choice) bool { return c.Value == raw }):
		return raw, true, ""
	}
	return "", false, fmt.Sprintf(msgInvalidChoice, raw)
}

// read reads one key as Django 5.2's ModelChoiceField.to_python does
// before it asks for the row: a NUL character refused, a key of integers
// as Python's int() reads it (" 1", "+1" and "0_1" are 1; "1.0" is
// none); ok is false for an empty value (no filter).
func (k *relatedKey) read(raw string) (value string, ok bool, msg string) {
	switch {
	case raw == "":
		return "", false, ""
	case strings.ContainsRune(raw, 0):
		return "", false, msgNullCharacters
	case !k.integer:
		return raw, true, ""
	}
	n, ok := pycompat.Int(raw)
	if !ok {
		return "", false, msgInvalidModelChoice
	}
	return n.String(), true, ""
}

// lookUp returns the keys of the rows that hold keys in f's related
// table, as ModelChoiceField's queryset.get finds them (one look-up per
// distinct key), or refuses the first key that no row holds.
func (fs FilterSet) lookUp(r *request.Request, q query.Query, f Filter, keys []string) ([]string, string, error) {
	finder, ok := queryset.FinderOf(q)
	if !ok {
		return nil, "", fmt.Errorf("filters: %s: %s filters by a foreign key, and its source looks no related row up (no queryset.RelatedFinder)", fs.name, f.param())
	}
	rows := make(map[string]string, len(keys))
	out := make([]string, len(keys))
	for i, k := range keys {
		key, seen := rows[k]
		if !seen {
			var found bool
			var err error
			key, found, err = finder.FindRelated(r.Context(), f.related.table, f.related.column, k, f.related.integer, f.related.column)
			if err != nil {
				return nil, "", err
			}
			if !found {
				return nil, msgInvalidModelChoice, nil
			}
			rows[k] = key
		}
		out[i] = key
	}
	return out, "", nil
}

// readMany reads every value of a many-to-many field's filter as
// Django's ModelMultipleChoiceField checks them: first each as a key of
// its type ("“x” is not a valid value."), then each a related row's key,
// as the row's key reads ("Select a valid choice. 99 is not one of the
// available choices."; " 1" is not "1"). The posts related to any of
// them are kept, each once (the filter's distinct).
func (fs FilterSet) readMany(r *request.Request, q query.Query, f Filter, raw []string, maxItems int) ([]string, string, error) {
	if len(raw) > maxItems {
		return nil, fmt.Sprintf(msgListLength, len(raw), maxItems), nil
	}
	keys := make([]string, len(raw))
	for i, v := range raw {
		keys[i] = v
		if f.many.integer {
			n, ok := pycompat.Int(v)
			if !ok {
				return nil, fmt.Sprintf(msgInvalidPKValue, v), nil
			}
			keys[i] = n.String()
		}
	}
	finder, ok := queryset.FinderOf(q)
	if !ok {
		return nil, "", fmt.Errorf("filters: %s: %s filters by a many-to-many field, and its source looks no related row up (no queryset.RelatedFinder)", fs.name, f.param())
	}
	found := map[string]bool{}
	for i, k := range keys {
		if _, seen := found[k]; !seen {
			_, ok, err := finder.FindRelated(r.Context(), f.many.table, f.many.column, k, f.many.integer, f.many.column)
			if err != nil {
				return nil, "", err
			}
			found[k] = ok
		}
		if !found[k] || k != raw[i] {
			return nil, fmt.Sprintf(msgInvalidChoice, raw[i]), nil
		}
	}
	return keys, "", nil
}

// read returns raw as a Where value; ok is false for a value that means
// no filter (empty once stripped, a Boolean that is neither).
func (k ValueKind) read(raw string) (value string, ok bool, msg string) {
	switch k {
	case Number:
		if raw == "" {
			return "", false, ""
		}
		n, ok := pycompat.Decimal(raw)
		if !ok {
			return "", false, msgInvalidNumber
		}
		return n, true, ""
	case DateTime:
		// Only "" is no value: a blank one is stripped, then refused.
		t, err := structs.ParseDateTime(pycompat.Strip(raw))
		if err != nil {
			return "", false, msgInvalidDateTime
		}
		return t.UTC().Format("2006-01-02 15:04:05.999999-07:00"), true, ""
	case Date:
		d, ok := pycompat.DjangoDate(raw)
		if !ok {
			return "", false, msgInvalidDate
		}
		return d.Format(time.DateOnly), true, ""
	case Boolean:
		switch strings.ToLower(raw) {
		case "true", "1":
			return "true", true, ""
		case "false", "0":
			return "false", true, ""
		}
		return "", false, ""
	}
	s := pycompat.Strip(raw)
	return s, s != "", ""
}

// SchemaParameters lists the filters' parameters, for OpenAPI, as
// django-filter describes them: by their label, as strings.
func (fs FilterSet) SchemaParameters(*framework.View) []pagination.SchemaParameter {
	out := make([]pagination.SchemaParameter, len(fs.Filters))
	for i, f := range fs.Filters {
		out[i] = pagination.SchemaParameter{Name: f.param(), Location: "query", Description: f.label(), Type: "string"}
	}
	return out
}

// bareDateAsDateTime is raw as the date-time of midnight when, stripped,
// it is a date that Python 3.11's datetime.fromisoformat reads as one
// (YYYY-MM-DD or YYYYMMDD, a real day of a year from 1), which Django 4.0
// and later's parse_datetime accept; raw as it is otherwise.
func bareDateAsDateTime(raw string) string {
	s := pycompat.Strip(raw)
	var digits string
	switch {
	case len(s) == 10 && s[4] == '-' && s[7] == '-':
		digits = s[:4] + s[5:7] + s[8:]
	case len(s) == 8:
		digits = s
	default:
		return raw
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return raw
		}
	}
	d, err := time.Parse("20060102", digits)
	if err != nil || d.Year() < 1 {
		return raw
	}
	return d.Format("2006-01-02") + "T00:00:00"
}
