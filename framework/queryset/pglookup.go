package queryset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/internal/structs"
)

// arrayLookups are the lookups an ArrayField takes: Django's exact and
// isnull, and django.contrib.postgres' contains, contained_by, overlap
// and len.
var arrayLookups = map[query.Lookup]string{
	query.Exact: "=", query.Contains: "@>", query.ContainedBy: "<@", query.Overlap: "&&", query.Len: "", query.IsNull: "",
}

// elemKinds are the kinds of an ArrayField's elements by its base field.
var elemKinds = map[models.Kind]structs.Kind{
	models.IntegerField: structs.Int, models.BigIntegerField: structs.Int,
	models.BooleanField: structs.Bool, models.FloatField: structs.Float,
}

// arraysOf are d's ArrayFields' columns in m, with the kind of their
// elements.
func (m *model) arraysOf(d *models.Description) map[*structs.Field]structs.Kind {
	arrays := map[*structs.Field]structs.Kind{}
	for _, f := range d.Fields {
		if c := m.byColumn[f.Column]; c != nil && f.Kind == models.ArrayField && f.Base != nil {
			k, ok := elemKinds[f.Base.Kind]
			if !ok {
				k = structs.String
			}
			arrays[c] = k
		}
	}
	return arrays
}

// checkArrayLookup reports whether op applies to f: an ArrayField takes
// arrayLookups alone, and those of them that are django.contrib.postgres'
// apply to an ArrayField alone. The error is Django's FieldError.
func (m *model) checkArrayLookup(field string, f *structs.Field, path *relationPath, op query.Lookup) error {
	_, array := m.arrays[f]
	array = array && path == nil
	_, arrayOp := arrayLookups[op]
	postgres := op == query.ContainedBy || op == query.Overlap || op == query.Len
	if array && !arrayOp || !array && postgres {
		kind := "ArrayField"
		if !array {
			kind = "the field " + strconv.Quote(field) + " (not an ArrayField)"
		}
		return fmt.Errorf("queryset: %s: Unsupported lookup '%s' for %s or join on the field not permitted.", field, op, kind)
	}
	return nil
}

// arrayWhere fills c, a lookup on an ArrayField whose elements are of
// kind elem, from values: the elements of the array compared with (an
// array's text, as PostgreSQL reads it), or len's number. ok is false
// for a value that is not one of the elements' kind.
func arrayWhere(c *lookupCond, elem structs.Kind, values []string) (ok bool) {
	c.array = true
	if c.op == query.Len {
		if len(values) != 1 {
			return false
		}
		n, ok := truncInt(values[0])
		c.vs = []structs.Value{{Kind: structs.Int, I: n}}
		return ok
	}
	b := []byte{'{'}
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		switch elem {
		case structs.Int:
			n, ok := truncInt(v)
			if !ok {
				return false
			}
			b = strconv.AppendInt(b, n, 10)
		case structs.Float:
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return false
			}
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		case structs.Bool:
			switch v {
			case "true", "True", "1":
				b = append(b, 't')
			case "false", "False", "0":
				b = append(b, 'f')
			default:
				return false
			}
		default:
			b = append(b, '"')
			b = append(b, arrayQuoter.Replace(v)...)
			b = append(b, '"')
		}
	}
	c.vs = []structs.Value{{Kind: structs.String, S: string(append(b, '}'))}}
	return true
}

// arrayQuoter escapes an element's text inside the double quotes of an
// array's text.
var arrayQuoter = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// arraySQL is the WHERE term of c, a lookup on an ArrayField's column
// col: Django's, the array bound as its text, which PostgreSQL types as
// the column's array type. len is Django's ArrayLenTransform.
func arraySQL(col string, op query.Lookup) string {
	if op == query.Len {
		return "CASE WHEN " + col + " IS NULL THEN NULL ELSE coalesce(array_length(" + col + ", 1), 0) END = ?::bigint"
	}
	return col + " " + arrayLookups[op] + " ?"
}

// truncInt is the integer of text, a decimal truncated toward zero first
// ("2.5" is 2), as Django's IntegerField prepares a NumberFilter's
// value; false for text that is no number or beyond int64.
func truncInt(text string) (int64, bool) {
	if n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil {
		return n, true
	}
	n, ok := truncated(text)
	return n.Int64(), ok && n.IsInt64()
}

// arrayOnSlice is the error of a lookup on an ArrayField of a
// SliceSource, which compares no arrays: PostgreSQL does.
func arrayOnSlice(field string, op query.Lookup) error {
	return fmt.Errorf("queryset: lookup %s of the ArrayField %q needs an SQL source on PostgreSQL", op, field)
}
