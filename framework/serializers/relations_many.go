package serializers

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/structs"
)

// manyKeys is how a many-to-many field's slice of keys is written.
type manyKeys struct {
	// integer reports integer keys, of bits bits.
	integer bool
	bits    int
	// set stores keys, valid texts of the slice's element type, in the
	// slice at p, replacing it.
	set func(p structs.Addr, keys []string)
}

// manyToManyOf is the model's many-to-many field of sf, nil when none.
func manyToManyOf(md *modelInfo, sf *structs.Field) *models.ManyToMany {
	if md == nil {
		return nil
	}
	for _, m := range md.desc.ManyToMany {
		if m.Field.Name == sf.Name {
			return m
		}
	}
	return nil
}

// bindManyToMany makes a many-to-many field DRF's ManyRelatedField of a
// PrimaryKeyRelatedField (with view_name, of a HyperlinkedRelatedField;
// of a SlugRelatedField when the field holds slugs, slug_field=name),
// as ModelSerializer builds it: the related keys (their URLs), required
// and allow_empty=False unless the field is blank, read-only when a
// declared model is its through table. The reverse side of a field of an
// automatic through table is required and may be empty, as DRF builds a
// reverse relation.
func (f *field) bindManyToMany(m *models.ManyToMany) error {
	f.helpText = m.HelpText
	if m.Reverse {
		return f.bindMany(m.Table, m.Column, m.SlugField, true, f.allowEmpty)
	}
	if !m.AutoCreated {
		f.readOnly = true
	}
	if err := f.bindMany(m.Table, m.Column, m.SlugField, !m.Blank, m.Blank); err != nil || f.rel == nil {
		return err
	}
	f.rel.where = m.LimitChoicesTo
	return nil
}

// bindReverse makes a reverse foreign key's keys the field ModelSerializer
// builds for a reverse relation named in Meta.fields: a
// PrimaryKeyRelatedField(many=True) of the referencing rows (with
// view_name, a HyperlinkedRelatedField(many=True); with slug_field, a
// SlugRelatedField(many=True)), required, writable unless read_only:
// save() sets it (RelatedManager.set()). A reverse one-to-one is one
// PrimaryKeyRelatedField (HyperlinkedRelatedField), required and not
// null, as DRF builds it.
func (f *field) bindReverse(rev *models.Reverse) error {
	key, _ := rev.Referencing()
	if !rev.One {
		return f.bindMany(rev.Table, key, rev.SlugField, true, f.allowEmpty)
	}
	f.typeName, f.container = "field", nil
	kind := relPK
	if f.viewName != "" {
		links, err := relatedLinks(f.sf, f.viewName, f.linkKwarg())
		if err != nil {
			return err
		}
		kind, f.compute, f.link = relLink, links, true
	}
	if !f.readOnly {
		f.required, f.allowNull = true, false
		f.rel = &relation{kind: kind, fk: f.sf, table: rev.Table, key: key, route: f.viewName}
	}
	return nil
}

// bindMany makes f a ManyRelatedField of the rows of table, by their key
// column (or their slug column), writable unless read-only, with DRF's
// required and allow_empty (a SlugRelatedField's defaults when slug is set).
func (f *field) bindMany(table, key, slug string, required, allowEmpty bool) error {
	kind := relPK
	read, err := relatedKeys(f.sf)
	switch {
	case f.viewName != "" && slug != "":
		return fmt.Errorf("slug_field and view_name make two different fields")
	case f.viewName != "":
		kind, f.link = relLink, true
		read, err = relatedLinks(f.sf, f.viewName, f.linkKwarg())
	case slug != "":
		kind = relSlug
	}
	if err != nil {
		return err
	}
	f.compute, f.container, f.typeName, f.many = read, nil, "field", true
	if f.readOnly {
		return nil
	}
	if kind == relSlug {
		// A declared SlugRelatedField(many=True)'s defaults: required,
		// allow_empty (unless tagged allow_empty=false).
		f.required = true
	} else {
		f.required, f.allowEmpty = required, allowEmpty
	}
	mk := &manyKeys{}
	switch f.sf.Type.Elem().Kind() {
	case reflect.Int:
		mk.integer, mk.bits, mk.set = true, strconv.IntSize, setIntKeys[int]
	case reflect.Int32:
		mk.integer, mk.bits, mk.set = true, 32, setIntKeys[int32]
	case reflect.Int64:
		mk.integer, mk.bits, mk.set = true, 64, setIntKeys[int64]
	default:
		mk.set = func(p structs.Addr, keys []string) { *structs.At[[]string](p) = keys }
	}
	f.rel = &relation{kind: kind, fk: f.sf, table: table, key: key, route: f.viewName, many: mk,
		slug: slug, integer: mk.integer}
	return nil
}

func setIntKeys[E int | int32 | int64](p structs.Addr, keys []string) {
	s := make([]E, len(keys))
	for i, k := range keys {
		n, _ := strconv.ParseInt(k, 10, 64)
		s[i] = E(n)
	}
	*structs.At[[]E](p) = s
}

// decodeMany is ManyRelatedField.to_internal_value: a list (a dictionary
// is one of its keys, as Python iterates it), not empty unless allowed,
// each item a key (or a hyperlink) of a related row, the first item in
// error the field's message.
func (r *relation) decodeMany(f *field, base structs.Addr, raw any, c *Context) ([]string, error) {
	var items []any
	switch x := raw.(type) {
	case nil:
		return []string{msgNull}, nil
	case []any:
		items = x
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			items = append(items, k)
		}
	default:
		return []string{fmt.Sprintf(msgNotAList, pythonType(raw))}, nil
	}
	if len(items) == 0 && !f.allowEmpty {
		return []string{msgEmptyList}, nil
	}
	keys := make([]string, 0, len(items))
	for _, item := range items {
		var key, msg, missing string
		lookup := RelatedLookup{Table: r.table, Column: r.key, Integer: r.many.integer, Key: r.key, Where: r.where}
		switch {
		case r.kind == relLink:
			var err error
			if key, msg, err = r.linkKey(item, c); err != nil {
				return nil, err
			}
			missing = msgLinkMissing
		case r.kind == relSlug:
			// SlugRelatedField.to_internal_value: get(name=data).
			text := pythonText(item)
			key, missing, lookup.Column = text, fmt.Sprintf(msgSlugMissing, r.slug, text), r.slug
			if r.integer {
				i, ok := pycompat.Int(text)
				if !ok {
					msg = msgInvalid
					break
				}
				key = i.String()
			}
		case item == nil:
			// Django's get(pk=None) finds no row.
			msg = fmt.Sprintf(msgPKMissing, "None")
		default:
			key, msg = r.pkText(item)
			missing = fmt.Sprintf(msgPKMissing, pythonText(item))
		}
		if msg != "" {
			return []string{msg}, nil
		}
		if r.many.integer {
			if _, err := strconv.ParseInt(key, 10, r.many.bits); err != nil {
				return []string{missing}, nil
			}
		}
		if c != nil && c.Related != nil {
			lookup.Value = key
			_, found, err := c.Related(lookup)
			if err != nil {
				return nil, err
			}
			if !found {
				return []string{missing}, nil
			}
		}
		keys = append(keys, key)
	}
	r.many.set(f.sf.Addr(base), keys)
	return nil, nil
}

// formMany is ManyRelatedField.get_value of HTML input: the field's values
// (QueryDict.getlist), none when a full form leaves it out; a partial
// form that leaves it out leaves it alone.
func (f *field) formMany(m map[string]any, partial bool) (any, bool) {
	v, ok := m[f.name]
	switch l := v.(type) {
	case request.FormList:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, true
	case nil:
		if !ok && partial {
			return nil, false
		}
		return []any{}, true
	}
	return []any{v}, true
}
