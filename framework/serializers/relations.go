package serializers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/structs"
)

// DRF's messages of the relational fields.
const (
	msgPKMissing   = `Invalid pk "%s" - object does not exist.`
	msgPKType      = "Incorrect type. Expected pk value, received %s."
	msgSlugMissing = "Object with %s=%s does not exist."
	msgNoMatch     = "Invalid hyperlink - No URL match."
	msgWrongMatch  = "Invalid hyperlink - Incorrect URL match."
	msgLinkMissing = "Invalid hyperlink - Object does not exist."
	msgLinkType    = "Incorrect type. Expected URL string, received %s."
)

// RelatedLookup is one look-up of a related row by a relational field
// (the queryset.get() of DRF's RelatedField): the row of Table whose
// Column holds Value.
type RelatedLookup struct {
	// Table is the related table ("auth_user").
	Table string
	// Column is the column compared: the related key ("id") or a slug
	// field ("username").
	Column string
	// Value is the value compared, as text.
	Value string
	// Integer reports an integer column: Value is a base-10 integer.
	Integer bool
	// Key is the column whose value is returned: the related key, which
	// the foreign key holds.
	Key string
	// Where are the conditions the row meets too: the model field's
	// limit_choices_to, which ModelSerializer applies to the queryset of
	// the field it derives.
	Where []models.Condition
}

// relationKind is the DRF class of a writable relational field.
type relationKind int

const (
	relPK   relationKind = iota // PrimaryKeyRelatedField
	relSlug                     // SlugRelatedField
	relLink                     // HyperlinkedRelatedField
)

// relation is what a writable relational field needs to read its input:
// the foreign key column it sets and the related table it looks in.
type relation struct {
	kind relationKind
	// fk is the foreign key column's struct field, set to the related key.
	fk *structs.Field
	// table and key are the related table and its key column.
	table, key string
	// slug is a SlugRelatedField's slug column; integer, whether it holds
	// integers.
	slug    string
	integer bool
	// route is a HyperlinkedRelatedField's view_name; kwarg its
	// lookup_url_kwarg, "" for "pk"; lookup its lookup_field's column
	// when it is not the key (integer: whether it holds integers).
	route, kwarg, lookup string
	// pkField is a PrimaryKeyRelatedField's pk_field format
	// (relation_options.go); "" for none.
	pkField string
	// display is the related column a form's select shows (DRF's str()
	// of the row): the display tag option, else the key or the slug.
	display string
	// many is a many-to-many field's (ManyRelatedField, whose fk is the
	// slice of keys); nil for a foreign key.
	many *manyKeys
	// where is the model field's limit_choices_to, for a field derived
	// from it; nil for every row.
	where []models.Condition
}

// hyperlink gives a foreign key, a many-to-many field or a reverse
// accessor's keys without a view_name the route links names for its
// related table (Hyperlinked; for a reverse accessor, the referencing
// table, as DRF's HyperlinkedModelSerializer links a reverse relation);
// links nil leaves it.
func (f *field) hyperlink(md *modelInfo, links func(table string) string) {
	if links == nil || f.viewName != "" || f.slugRelated || md == nil {
		return
	}
	if m := manyToManyOf(md, f.sf); m != nil {
		f.viewName = links(m.Table)
	} else if mf := md.field(f.sf); mf != nil && mf.Related != nil {
		f.viewName = links(mf.Related.Table)
	} else if r := reverseOf(md.desc, f.sf); r != nil && r.SlugField == "" && r.Field.Type.Elem().Kind() != reflect.Struct {
		f.viewName = links(r.Table)
	}
}

// bindRelation makes a relational field of f, after its tag options, from
// its model declaration, as DRF's ModelSerializer builds one for a
// ForeignKey: a foreign key column is a PrimaryKeyRelatedField, or with
// view_name a HyperlinkedRelatedField (read-only when tagged so); a
// dotted source through a foreign key tagged slug_related is a writable
// SlugRelatedField; view_name on another key is a read-only
// HyperlinkedRelatedField; a reverse accessor's keys, or a many-to-many
// field's, a writable PrimaryKeyRelatedField(many=True) (with view_name,
// HyperlinkedRelatedField(many=True)); a
// struct, or a reverse accessor's slice of structs, a nested serializer;
// a dotted source declared writable, a field of its type (bindDotted).
func (f *field) bindRelation(md *modelInfo) error {
	err := f.bindRelationKind(md)
	switch {
	case err != nil:
	case f.rel != nil:
		f.rel.display = cmp.Or(f.display, f.rel.slug, f.rel.key)
	case f.display != "":
		err = fmt.Errorf("display needs a writable relational field")
	case f.sf.Column == "" && f.compute == nil && strings.Contains(f.source(), "."):
		f.bindDotted()
	}
	if err != nil {
		return err
	}
	return f.bindRelationOptions()
}

// source is the field's drf source option, "" when none.
func (f *field) source() string {
	src, _ := tagValue(f.sf.Tag.Get("drf"), "source")
	return src
}

// bindRelationKind is bindRelation's choice of the field's class.
func (f *field) bindRelationKind(md *modelInfo) error {
	if ok, err := f.bindNested(md); ok || err != nil {
		return err
	}
	mf := md.field(f.sf)
	fk := mf != nil && mf.Related != nil
	switch {
	case f.slugRelated:
		return f.bindSlug(md)
	case manyToManyOf(md, f.sf) != nil:
		return f.bindManyToMany(manyToManyOf(md, f.sf))
	case md != nil && reverseOf(md.desc, f.sf) != nil:
		return f.bindReverse(reverseOf(md.desc, f.sf))
	case f.viewName != "" && f.relOpts != nil && f.relOpts.lookupField != "":
		return f.bindLookup(md)
	case f.viewName != "" && fk:
		links, err := relatedLinks(f.sf, f.viewName, f.linkKwarg())
		if err != nil {
			return err
		}
		f.compute, f.link, f.container, f.typeName = links, true, nil, "field"
		if !f.readOnly {
			f.rel = &relation{kind: relLink, fk: f.sf, table: mf.Related.Table, key: mf.Related.Column, route: f.viewName,
				where: mf.Related.LimitChoicesTo}
		}
	case f.viewName != "":
		links, err := relatedLinks(f.sf, f.viewName, f.linkKwarg())
		if err != nil {
			return err
		}
		f.compute, f.readOnly, f.link, f.container, f.many = links, true, true, nil, true
	case fk:
		// DRF's SimpleMetadata names a RelatedField's type "field".
		f.typeName = "field"
		if !f.readOnly {
			if k := f.sf.Kind; k != structs.Int && k != structs.Uint && k != structs.String {
				return fmt.Errorf("a foreign key holds an integer or a string key, not %v", f.sf.Type)
			}
			f.rel = &relation{kind: relPK, fk: f.sf, table: mf.Related.Table, key: mf.Related.Column,
				where: mf.Related.LimitChoicesTo}
		}
	}
	return nil
}

// bindSlug makes a SlugRelatedField of a dotted source through a foreign
// key (drf:"source=owner.username,slug_related"): read by the join,
// written by looking the slug up in the related table. A source through
// more foreign keys (source=owner.team.name) is DRF 3.15's
// slug_field='team__name', its links and column checked here.
func (f *field) bindSlug(md *modelInfo) error {
	join := joinOf(md, f.sf)
	if join == nil {
		return fmt.Errorf("slug_related needs a dotted source through a foreign key of a model (source=owner.username)")
	}
	if f.viewName != "" {
		return fmt.Errorf("slug_related and view_name make two different fields")
	}
	switch f.sf.Kind {
	case structs.String, structs.Int, structs.Uint:
	default:
		return fmt.Errorf("slug_related needs a string or integer slug, not %v", f.sf.Type)
	}
	if err := slugChain(join); err != nil {
		return err
	}
	via := join.Via
	f.readOnly, f.typeName = false, "field"
	// The pointer a null link after the first needs is the read's: the
	// field takes null as its foreign key does, whatever the tag says.
	f.nullSet = f.nullSet && len(join.Through) == 0
	if err := f.writesThrough(via, "slug"); err != nil {
		return err
	}
	f.rel = &relation{kind: relSlug, fk: via.Struct, table: via.Related.Table, key: via.Related.Column,
		slug: join.Lookup(), integer: f.sf.Kind != structs.String}
	return nil
}

// writesThrough derives the options of a field written through the
// foreign key via, as DRF's ModelSerializer builds its relational field:
// required unless the key has null, blank or a default, and null allowed
// as the key allows it, whatever the Go type (a pointer read of a
// NOT NULL key is no null to write), unless tagged allow_null. A key
// that may be null needs a field that holds null; what names the field
// in that error ("slug").
func (f *field) writesThrough(via *models.Field, what string) error {
	f.required = f.required || !(via.Null || via.Blank || via.HasDefault)
	if !f.nullSet {
		f.allowNull = via.Null
	}
	if f.allowNull && !f.sf.Nullable {
		return fmt.Errorf("the foreign key %s may be null: the %s field must be a pointer or an sql.Null type", via.Column, what)
	}
	return nil
}

// slugChain checks the foreign keys a slug through relations follows
// (models.Join.Links) and that the last related model has its column, as
// Django's get(team__name=...) resolves them; a slug of the related
// table itself needs no check.
func slugChain(join *models.Join) error {
	if len(join.Through) == 0 {
		return nil
	}
	links, err := join.Links()
	if err != nil {
		return err
	}
	table := links[len(links)-1].Related.Table
	described := models.Described().OfTable(table)
	if len(described) == 0 {
		return fmt.Errorf("source %q: no model of the table %q is described (declare its source, serializer or migrations first)", join.Source, table)
	}
	for _, d := range described {
		if d.Field(join.Column) != nil {
			return nil
		}
	}
	return fmt.Errorf("source %q: %q is no field of the table %q", join.Source, join.Column, table)
}

// RelatedViolation is the validation error of a foreign key column (or a
// many-to-many field, by its name) whose value names no row (a write the
// database refused: queryset's MissingRelatedError), as DRF's relational
// field words it:
// {"owner": ["Invalid pk \"99\" - object does not exist."]}; nil when no
// field of the serializer holds or sets column.
func (s *Serializer[T]) RelatedViolation(column, value string) error {
	for _, f := range s.fields {
		msg := ""
		switch {
		case f.rel != nil && f.rel.fk.Column == column && f.rel.kind == relLink:
			msg = msgLinkMissing
		case f.rel != nil && f.rel.fk.Column == column && f.rel.kind == relSlug:
			// The slug it was looked up by is not known here.
			msg = msgInvalid
		case f.sf != nil && s.manyToMany(f.sf, column) && f.rel != nil && f.rel.kind == relLink:
			msg = msgLinkMissing
		case f.sf != nil && s.manyToMany(f.sf, column) && f.rel != nil && f.rel.kind == relSlug:
			msg = fmt.Sprintf(msgSlugMissing, f.rel.slug, value)
		case f.sf != nil && (f.sf.Column == column || s.manyToMany(f.sf, column)):
			msg = fmt.Sprintf(msgPKMissing, value)
		default:
			continue
		}
		var errs exceptions.ValidationErrors
		errs.Add(f.name, msg)
		return exceptions.ValidationError(errs)
	}
	return nil
}

// manyToMany reports that sf is the model's many-to-many field named name.
func (s *Serializer[T]) manyToMany(sf *structs.Field, name string) bool {
	if s.model == nil {
		return false
	}
	for _, m := range s.model.ManyToMany {
		if m.Name == name && m.Field.Name == sf.Name {
			return true
		}
	}
	return false
}

// relatedLinks is the value of a hyperlinked related field (DRF's
// HyperlinkedRelatedField with view_name): the absolute URL of route for
// the related key the field holds, or, for a slice of keys (a reverse
// accessor: many=True), the list of them. The route's parameter is kwarg
// (lookup_url_kwarg: "pk" by default); the request's format suffix is
// kept (reverse.Link), as DRF's field keeps it.
func relatedLinks(sf *structs.Field, route, kwarg string) (func(structs.Addr, *Context) (any, error), error) {
	if route == "" {
		return nil, fmt.Errorf("view_name needs a route name")
	}
	link := func(key string, c *Context) (string, error) {
		if c == nil || c.Request == nil {
			return "", fmt.Errorf("serializers: hyperlinked field %q needs the request in the serializer context", sf.Name)
		}
		return reverse.Link(route, map[string]string{kwarg: key}, c.Request)
	}
	keys, _ := sliceKeys(sf.Type)
	switch t := sf.Type; {
	case keys != nil:
	case t.Kind() != reflect.Slice && sf.Supported() == nil:
		return func(obj structs.Addr, c *Context) (any, error) {
			if sf.IsNull(obj) {
				return nil, nil
			}
			return link(sf.Get(obj).Text(), c)
		}, nil
	default:
		return nil, fmt.Errorf("view_name needs a key or a slice of int, int32, int64 or string keys, not %v", t)
	}
	return func(obj structs.Addr, c *Context) (any, error) {
		ks := keys(sf.Addr(obj))
		urls := make([]string, len(ks))
		for i, k := range ks {
			var err error
			if urls[i], err = link(k, c); err != nil {
				return nil, err
			}
		}
		return urls, nil
	}, nil
}

// relatedKeys is the value of a reverse accessor's keys (DRF's
// PrimaryKeyRelatedField(many=True, read_only=True)): their JSON list.
func relatedKeys(sf *structs.Field) (func(structs.Addr, *Context) (any, error), error) {
	keys, quote := sliceKeys(sf.Type)
	if keys == nil {
		return nil, fmt.Errorf("a reverse accessor holds int, int32, int64 or string keys, or structs, not %v", sf.Type)
	}
	return func(obj structs.Addr, _ *Context) (any, error) {
		b := []byte{'['}
		for i, k := range keys(sf.Addr(obj)) {
			if i > 0 {
				b = append(b, ',')
			}
			if quote {
				b = appendString(b, k)
			} else {
				b = append(b, k...)
			}
		}
		return json.RawMessage(append(b, ']')), nil
	}, nil
}

// sliceKeys reads the keys of a slice of type t as text: nil for a type
// that is no slice of int, int32, int64 or string keys; text reports
// string keys (quoted in JSON).
func sliceKeys(t reflect.Type) (keys func(p structs.Addr) []string, text bool) {
	if t.Kind() != reflect.Slice {
		return nil, false
	}
	switch t.Elem().Kind() {
	case reflect.Int64:
		return intKeys[int64], false
	case reflect.Int:
		return intKeys[int], false
	case reflect.Int32:
		return intKeys[int32], false
	case reflect.String:
		return func(p structs.Addr) []string { return *structs.At[[]string](p) }, true
	}
	return nil, false
}

func intKeys[E int | int32 | int64](p structs.Addr) []string {
	s := *structs.At[[]E](p)
	keys := make([]string, len(s))
	for i, k := range s {
		keys[i] = strconv.FormatInt(int64(k), 10)
	}
	return keys
}
