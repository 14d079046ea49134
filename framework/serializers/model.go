package serializers

import (
	"reflect"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// modelInfo is the model declaration of a serializer's type, nil for a
// type that is no model.
type modelInfo struct {
	desc *models.Description
}

// modelOf describes T's model declaration when T (or *T) implements
// models.Model; nil otherwise.
func modelOf[T any]() (*modelInfo, error) {
	t := reflect.TypeFor[T]()
	model := reflect.TypeFor[models.Model]()
	if !t.Implements(model) && !reflect.PointerTo(t).Implements(model) {
		return nil, nil
	}
	d, err := models.Describe(t)
	if err != nil {
		return nil, err
	}
	return &modelInfo{desc: d}, nil
}

// field is the model field of sf, nil when sf is no column or the type no
// model.
func (m *modelInfo) field(sf *structs.Field) *models.Field {
	if m == nil || sf.Column == "" {
		return nil
	}
	for _, f := range m.desc.Fields {
		if f.Column == sf.Column {
			return f
		}
	}
	return nil
}

// textField makes f the DRF field of a text model field of kind: a
// TextField written in a textarea (unless it has choices), an
// EmailField, URLField or SlugField DRF's field of that name.
func (f *field) textField(kind models.Kind, textarea bool) {
	switch kind {
	case models.TextField:
		f.textarea = textarea
	case models.EmailField:
		f.kind = kindEmail
	case models.URLField:
		f.kind = kindURL
	case models.SlugField:
		f.kind = kindSlug
	}
}

// fromModel derives the field's options from its model field, as DRF's
// ModelSerializer.build_standard_field and get_field_kwargs do: an auto
// primary key or a field that is not editable (auto_now, auto_now_add,
// editable=false) is read-only and nothing else but a ChoiceField of its
// choices (DRF 3.18's, where 3.14 drops them); a default, blank or null
// makes it optional; null allows null, blank a blank string (of the
// character fields); choices make a ChoiceField (without max_length);
// EmailField, URLField, SlugField and GenericIPAddressField are their DRF
// fields (an IPAddressField of the model field's protocol); a TextField
// is written in a textarea; a FilePathField is DRF's FilePathField of
// its path, match, recursive, allow_files and allow_folders; unique adds
// UniqueValidator (with the field's error_messages["unique"]); the
// field's help_text and validators are the model field's.
func (f *field) fromModel(mf *models.Field) error {
	f.helpText = mf.HelpText
	if mf.Generated() || !mf.Editable {
		// DRF 3.18 keeps a read-only field's choices (a ChoiceField).
		f.readOnly = true
		if mf.Choices != nil {
			f.choices315 = true
			return f.setChoices(mf.Choices)
		}
		return nil
	}
	f.required = !(mf.HasDefault || mf.Blank || mf.Null)
	f.allowNull = f.allowNull || mf.Null
	if isText(mf.Kind) {
		f.allowBlank = mf.Blank
		if mf.MaxLength > 0 {
			f.maxLength = mf.MaxLength
		}
	}
	f.textField(mf.Kind, mf.Choices == nil)
	switch mf.Kind {
	case models.GenericIPAddressField:
		f.kind = kindIP
		if mf.Protocol != "both" {
			f.protocol, f.modelProtocol = mf.Protocol, true
		}
	case models.DecimalField:
		f.maxDigits, f.decimalPlaces = mf.MaxDigits, mf.DecimalPlaces
	case models.FilePathField:
		fp := mf.FilePath
		f.more.filePath = &filePath{path: fp.Path, match: fp.Match, recursive: fp.Recursive,
			allowFiles: fp.AllowFiles, allowFolders: fp.AllowFolders, ofModel: true}
	case models.ArrayField, models.HStoreField:
		if err := f.fromPostgresField(mf); err != nil {
			return err
		}
	}
	f.unique, f.verboseName = mf.Unique, strings.ReplaceAll(mf.Name, "_", " ")
	f.validators, f.uniqueText = mf.Validators, mf.ErrorMessages["unique"]
	if mf.Choices != nil {
		return f.setChoices(mf.Choices)
	}
	return nil
}

// pkField is DRF's "pk" in Meta.fields: the field of the primary key's
// column under the name pk, labelled by the key's verbose name ("ID" for
// id); nil when T is no model or the serializer has no field of the key.
func (m *modelInfo) pkField(all map[string]*field) *field {
	if m == nil || m.desc.PrimaryKey == nil {
		return nil
	}
	for _, f := range all {
		if f.sf == nil || f.sf.Column != m.desc.PrimaryKey.Column {
			continue
		}
		pk := *f
		pk.name = "pk"
		if pk.label == "" {
			pk.label = f.labelText()
		}
		return &pk
	}
	return nil
}

// hyperlinkNested gives the nested serializer of f, a field of a
// Hyperlinked serializer, a "url" field first (unless its struct has
// one): the link to each related row's detail route, "{model}-detail",
// as DRF's HyperlinkedModelSerializer nests HyperlinkedModelSerializers
// (depth).
func (f *field) hyperlinkNested() error {
	n := f.nested
	if n == nil || slices.ContainsFunc(n.fields, func(c *field) bool { return c.name == "url" }) {
		return nil
	}
	t := f.sf.Type
	if n.many {
		t = t.Elem()
	}
	d, err := models.Describe(t)
	if err != nil {
		return err
	}
	desc, err := structs.Describe(t)
	if err != nil {
		return err
	}
	url := &field{name: "url", readOnly: true, maxLength: -1, minLength: -1}
	h := HyperlinkedIdentity{Name: "url", Route: strings.ToLower(d.Meta.Name) + "-detail", URLParam: "pk"}
	if d.PrimaryKey != nil {
		h.LookupField = d.PrimaryKey.Column
	}
	if url, err = identityField(url, desc, h); err != nil {
		return err
	}
	url.key = append(appendString(nil, url.name), ':')
	n.fields = append([]*field{url}, n.fields...)
	return nil
}

// isText reports Django's CharField and TextField, and their subclasses.
func isText(k models.Kind) bool {
	switch k {
	case models.CharField, models.TextField, models.EmailField, models.URLField, models.SlugField:
		return true
	}
	return false
}

// bindModel keeps the model's description, for its defaults, and reads
// its unique-together sets, whose fields are required (DRF 3.18: unless
// they may be null or blank), and its UniqueConstraints, which DRF 3.15
// and later check and DRF 3.14 leaves to the database: one of a single
// field without a condition is that field's UniqueValidator, the others
// sets unique together among the rows their condition matches, the
// condition's fields required as the set's.
func (s *Serializer[T]) bindModel(m *modelInfo) error {
	if m == nil {
		return nil
	}
	s.verbose, s.model = m.desc.Meta.VerboseName, m.desc
	for _, set := range m.desc.Meta.UniqueTogether {
		if fields := s.bindSet(m.desc, set, true); fields != nil {
			s.together = append(s.together, uniqueSet{fields: fields})
		}
	}
	for _, c := range m.desc.Meta.Constraints {
		if !c.Unique() {
			continue
		}
		lookups := c.Condition.Lookups()
		names := slices.Clone(c.Fields)
		for _, l := range lookups {
			if !slices.Contains(names, l.Field) {
				names = append(names, l.Field)
			}
		}
		if len(names) == 1 {
			if f := s.fieldOf(m.desc.Field(names[0])); f != nil && len(lookups) == 0 {
				f.unique315 = true
			}
			continue
		}
		fields := s.bindSet(m.desc, names, false)
		if fields == nil {
			continue
		}
		set := uniqueSet{fields: fields[:len(c.Fields)], drf315: true, nullsEqual: c.NullsNotDistinct}
		// DRF's _get_constraint_violation_error_message: Django's
		// message with the constraint's name, unless it is Django's
		// default.
		if msg := strings.ReplaceAll(c.ViolationErrorMessage, "%(name)s", c.Name); msg != "Constraint “"+c.Name+"” is violated." {
			set.message = msg
		}
		for _, l := range lookups {
			// The value in Text's spelling ("True" for "true"), which
			// the new value's is compared with.
			f := fields[slices.Index(names, l.Field)]
			v, err := f.sf.Parse(l.Value)
			set.where = append(set.where, uniqueWhere{field: f, value: v.Text()})
			set.unchecked = set.unchecked || l.Lookup != "exact" || err != nil
		}
		s.together = append(s.together, set)
	}
	s.bindUniqueFor(m.desc)
	s.bindLeftAlone(m.desc)
	return nil
}

// uniqueSet is one UniqueTogetherValidator of a ModelSerializer: the
// serializer's fields of a set unique together, and whether only DRF
// 3.15 and later check it (a UniqueConstraint's).
type uniqueSet struct {
	fields []*field
	drf315 bool
	// where is a UniqueConstraint's condition (Django's condition=Q):
	// the set is unique among the rows it matches, and checked only
	// when the new values match it.
	where []uniqueWhere
	// nullsEqual is a UniqueConstraint's nulls_distinct=False, which
	// DRF 3.18 checks with its null values (null equal to null).
	nullsEqual bool
	// unchecked marks a condition of other lookups than exact, which
	// the set's check cannot ask of a Source: the database's partial
	// index refuses a duplicate, answered as the set's (UniqueViolation).
	unchecked bool
	// message is a UniqueConstraint's violation_error_message, which
	// replaces DRF's; "" is DRF's.
	message string
}

// uniqueWhere is one exact lookup of a UniqueConstraint's condition: a
// serializer's field and the value's text (structs.Value.Text's).
type uniqueWhere struct {
	field *field
	value string
}

// fieldOf is the serializer's field of the model field mf, nil when the
// serializer has none.
func (s *Serializer[T]) fieldOf(mf *models.Field) *field {
	for _, f := range s.fields {
		if f.sf != nil && f.sf.Column == mf.Column {
			return f
		}
	}
	return nil
}

// bindSet is the serializer's fields of the model's fields named in set,
// nil when the serializer lacks one (DRF checks a set only when the
// serializer holds all its fields); each writable one without a default
// becomes required, as DRF's get_uniqueness_extra_kwargs makes it: a
// nullable or blank text field at DRF 3.14 alone (DRF 3.18 defaults it
// to None or ""), when drf314 (DRF 3.14 sees the set: unique_together).
func (s *Serializer[T]) bindSet(d *models.Description, set []string, drf314 bool) []*field {
	var fields []*field
	for _, name := range set {
		mf := d.Field(name)
		sf := s.fieldOf(mf)
		if sf == nil {
			if hidden := s.hiddenOf(mf); hidden != nil {
				// A HiddenField is one of DRF's writable fields, named
				// as the model's field: the set is checked with the
				// value it sets.
				sf = &field{name: mf.Name, sf: hidden}
			}
		} else if !sf.readOnly && !mf.HasDefault && !s.explicit {
			// Validators' own validators require their fields.
			requireUnique(mf, sf, drf314)
		}
		if sf == nil {
			return nil
		}
		fields = append(fields, sf)
	}
	return fields
}

// bindLeftAlone lists the relations of d that a write sets (the
// many-to-many fields of an automatic through table, from either side,
// the reverse accessors of keys) and that the serializer has no
// writable field of.
func (s *Serializer[T]) bindLeftAlone(d *models.Description) {
	var rels []*structs.Field
	for _, m := range d.ManyToMany {
		if m.AutoCreated || m.Reverse {
			rels = append(rels, m.Field)
		}
	}
	for _, r := range d.Reverses {
		if r.Field.Type.Elem().Kind() != reflect.Struct {
			rels = append(rels, r.Field)
		}
	}
	for _, rel := range rels {
		if !slices.ContainsFunc(s.fields, func(f *field) bool { return f.sf != nil && f.sf.Name == rel.Name && !f.readOnly }) {
			s.leftAlone = append(s.leftAlone, rel)
		}
	}
}

// requireUnique makes f, the serializer's field of the model field mf
// of a uniqueness check, required as DRF's get_uniqueness_extra_kwargs
// does: a nullable or blank text field at DRF 3.14 alone (DRF 3.18
// defaults it to None or ""), when drf314 (DRF 3.14 sees the check).
func requireUnique(mf *models.Field, f *field, drf314 bool) {
	switch {
	case !(mf.Null || mf.Blank && isText(mf.Kind)):
		f.required = true
	case drf314:
		f.required314 = true
	}
}

// hiddenOf is the struct field of the HiddenField that fills mf's
// column, nil when none does.
func (s *Serializer[T]) hiddenOf(mf *models.Field) *structs.Field {
	for _, h := range s.hidden {
		if h.sf.Column == mf.Column {
			return h.sf
		}
	}
	return nil
}

// text is the set's UniqueTogetherValidator message: DRF's, or the
// constraint's, "{field_names}" in either the fields' names.
func (u uniqueSet) text() string {
	names := make([]string, len(u.fields))
	for i, f := range u.fields {
		names[i] = f.name
	}
	msg := u.message
	if msg == "" {
		msg = "The fields {field_names} must make a unique set."
	}
	return strings.ReplaceAll(msg, "{field_names}", strings.Join(names, ", "))
}

// checkTogether runs the UniqueTogetherValidators on the new values in
// base: a set whose values are all non-null and held by another item is
// a non-field error (a UniqueConstraint's from DRF 3.15 on, when the new
// values match its condition, among the items that match it; one of
// nulls_distinct=False with its null values too, a null equal to a
// null, as DRF 3.18 checks it). DRF 3.18
// does not look when an update (not create) leaves the values of the set
// and of its condition as they were in stored.
func (s *Serializer[T]) checkTogether(base, stored structs.Addr, create bool, level compat.Level, c *Context) ([]string, error) {
	if c == nil || c.ExistsTogether == nil {
		return nil, nil
	}
	var msgs []string
	for _, u := range s.together {
		if u.drf315 && level == compat.DRF314 || u.unchecked {
			continue
		}
		n := len(u.fields)
		cols := make([]string, n, n+len(u.where))
		vals := make([]string, n, n+len(u.where))
		null, changed := false, create || level == compat.DRF314
		nullsEqual := u.nullsEqual && level != compat.DRF314
		for i, f := range u.fields {
			v := f.sf.Get(base)
			null = null || v.Null && !nullsEqual
			cols[i], vals[i] = f.sf.Column, v.Text()
			if v.Null {
				// Django's filter(field=None): IS NULL.
				cols[i], vals[i] = f.sf.Column+"__isnull", "True"
			}
			changed = changed || differs(f, base, stored)
		}
		match := true
		for _, w := range u.where {
			v := w.field.sf.Get(base)
			match = match && !v.Null && v.Text() == w.value
			cols, vals = append(cols, w.field.sf.Column), append(vals, w.value)
			changed = changed || differs(w.field, base, stored)
		}
		if null || !match || !changed {
			continue
		}
		taken, err := c.ExistsTogether(cols, vals)
		if err != nil {
			return nil, err
		}
		if taken {
			msgs = append(msgs, u.text())
		}
	}
	return msgs, nil
}

// differs reports whether f's value in base is not the one in stored.
func differs(f *field, base, stored structs.Addr) bool {
	v, was := f.sf.Get(base), f.sf.Get(stored)
	return was.Null != v.Null || was.Text() != v.Text()
}
