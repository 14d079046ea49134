package serializers

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/structs"
)

// decodeRelated validates one present value of a writable relational
// field and sets the foreign key in base (and a slug field to its slug),
// as DRF's RelatedField.run_validation and to_internal_value: an empty
// string is null; the related row is looked up through the context's
// Related (without it, a primary key or a hyperlink is left to the
// database's foreign key). The field's messages go to errs; an error is
// the server's.
func (f *field) decodeRelated(base structs.Addr, raw any, c *Context, errs *exceptions.ValidationErrors) error {
	msgs, err := f.relatedValue(base, raw, c)
	for _, msg := range msgs {
		errs.Add(f.name, msg)
	}
	return err
}

// relatedValue is decodeRelated's work: the field's messages, or the
// server's error.
func (f *field) relatedValue(base structs.Addr, raw any, c *Context) ([]string, error) {
	if f.rel.many != nil {
		return f.rel.decodeMany(f, base, raw, c)
	}
	if s, ok := raw.(string); ok && s == "" {
		raw = nil
	}
	r := f.rel
	if raw == nil {
		if !f.allowNull {
			return []string{msgNull}, nil
		}
		r.fk.SetNull(base)
		if r.kind == relSlug || r.lookup != "" {
			f.sf.SetNull(base)
		}
		return nil, nil
	}
	switch r.kind {
	case relSlug:
		return r.decodeSlug(f, base, raw, c)
	case relLink:
		return r.decodeLink(f, base, raw, c)
	}
	if r.pkField != "" {
		return r.decodePKField(base, raw, c)
	}
	key, msg := r.pkText(raw)
	if msg != "" {
		return []string{msg}, nil
	}
	text, _ := pythonStr(raw)
	if s, ok := raw.(string); ok {
		text = s
	}
	found, err := r.setKey(base, key, c)
	if err != nil || found {
		return nil, err
	}
	return []string{fmt.Sprintf(msgPKMissing, text)}, nil
}

// pkText reads a primary key as Django's queryset.get(pk=data) converts
// it (int() of a string or a number, truncating a float): its text, or
// DRF's incorrect_type message. An integer no row can hold (beyond 64
// bits) reads as itself, to be found in no row.
func (r *relation) pkText(raw any) (string, string) {
	if !r.integerKey() {
		switch raw.(type) {
		case []any, map[string]any:
			return "", fmt.Sprintf(msgPKType, relatedType(raw))
		}
		return pythonText(raw), ""
	}
	switch x := raw.(type) {
	case string:
		if i, ok := pycompat.Int(x); ok {
			return i.String(), ""
		}
	case json.Number:
		if i, ok := new(big.Int).SetString(string(x), 10); ok {
			return i.String(), ""
		}
		if f, err := strconv.ParseFloat(string(x), 64); err == nil || math.IsInf(f, 0) {
			return truncated(f), ""
		}
	case float64:
		return truncated(x), ""
	}
	return "", fmt.Sprintf(msgPKType, relatedType(raw))
}

// truncated is Python's int() of a float, as text; "inf" for an infinity
// (which no row holds).
func truncated(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "inf"
	}
	i, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
	return i.String()
}

// integerKey reports a foreign key (or many-to-many field) of integers.
func (r *relation) integerKey() bool {
	if r.many != nil {
		return r.many.integer
	}
	return r.fk.Kind == structs.Int || r.fk.Kind == structs.Uint
}

// setKey looks the related key up and, when a row holds it (or there is
// no look-up to ask), sets the foreign key to it.
func (r *relation) setKey(base structs.Addr, key string, c *Context) (bool, error) {
	v, err := r.fk.Parse(key)
	if err != nil {
		// Beyond the column's type: no row holds it.
		return false, nil
	}
	if c != nil && c.Related != nil {
		if _, found, err := c.Related(RelatedLookup{Table: r.table, Column: r.key, Value: key, Integer: r.integerKey(), Key: r.key, Where: r.where}); err != nil || !found {
			return false, err
		}
	}
	r.fk.Set(base, v)
	return true, nil
}

// decodeSlug is SlugRelatedField.to_internal_value: the row whose slug
// column holds str(data), else "Object with username=x does not exist."
// (an integer slug that is no integer: "Invalid value.").
func (r *relation) decodeSlug(f *field, base structs.Addr, raw any, c *Context) ([]string, error) {
	if c == nil || c.Related == nil {
		return nil, fmt.Errorf("serializers: the slug_related field %q needs the context's Related look-up (generic views set it)", f.name)
	}
	text := pythonText(raw)
	slug := text
	if r.integer {
		i, ok := pycompat.Int(text)
		if !ok {
			return []string{msgInvalid}, nil
		}
		slug = i.String()
	}
	sv, err := f.sf.Parse(slug)
	if err != nil {
		return []string{fmt.Sprintf(msgSlugMissing, r.slug, text)}, nil
	}
	key, found, err := c.Related(RelatedLookup{Table: r.table, Column: r.slug, Value: slug, Integer: r.integer, Key: r.key, Where: r.where})
	if err != nil {
		return nil, err
	}
	kv, kerr := r.fk.Parse(key)
	if !found || kerr != nil {
		return []string{fmt.Sprintf(msgSlugMissing, r.slug, text)}, nil
	}
	r.fk.Set(base, kv)
	f.sf.Set(base, sv)
	return nil, nil
}

// decodeLink is HyperlinkedRelatedField.to_internal_value: a URL string
// (absolute, whose host is not checked, or a path) that resolves to the
// field's route, as the request's versioning scheme names it (under
// NamespaceVersioning, the request's version's namespace), and whose pk
// names a row (by its lookup_field: lookupLink).
func (r *relation) decodeLink(f *field, base structs.Addr, raw any, c *Context) ([]string, error) {
	key, msg, err := r.linkKey(raw, c)
	if err != nil || msg != "" {
		return oneMessage(msg), err
	}
	if r.lookup != "" {
		return r.lookupLink(f, base, key, c)
	}
	found, err := r.setKey(base, key, c)
	if err != nil || found {
		return nil, err
	}
	return []string{msgLinkMissing}, nil
}

// oneMessage is msg alone, or none for "".
func oneMessage(msg string) []string {
	if msg == "" {
		return nil
	}
	return []string{msg}
}

// linkKey is the key of the hyperlink raw: the parameter of the field's
// route that it resolves to (lookup_url_kwarg), or the field's message.
func (r *relation) linkKey(raw any, c *Context) (key, msg string, err error) {
	s, ok := raw.(string)
	if !ok {
		return "", fmt.Sprintf(msgLinkType, relatedType(raw)), nil
	}
	if c == nil || c.Request == nil {
		return "", "", errors.New("serializers: a hyperlinked related field needs the request in the serializer context")
	}
	m, ok := reverse.MatchOf(c.Request.Request)
	if !ok {
		return "", "", errors.New("serializers: a hyperlinked related field needs a request routed through the API")
	}
	path := s
	if strings.HasPrefix(s, "http:") || strings.HasPrefix(s, "https:") {
		u, err := url.Parse(s)
		if err != nil {
			return "", msgNoMatch, nil
		}
		path = u.EscapedPath()
	}
	res, err := m.Routes().Resolve(path)
	if err != nil {
		return "", msgNoMatch, nil
	}
	want := r.route
	if h, ok := c.Request.VersioningScheme().(reverse.Hook); ok {
		l := reverse.Lookup{Name: r.route, Params: map[string]string{}, Query: url.Values{}, Version: c.Request.Version()}
		h.ReverseLookup(&l, c.Request)
		want = l.Name
	}
	if res.Name != want {
		return "", msgWrongMatch, nil
	}
	key, ok = res.Params[r.param()]
	if !ok {
		return "", msgLinkMissing, nil
	}
	if r.lookup == "" && r.integerKey() || r.lookup != "" && r.integer {
		i, ok := pycompat.Int(key)
		if !ok {
			return "", msgLinkMissing, nil
		}
		key = i.String()
	}
	return key, "", nil
}

// relatedType names raw's Python type in the relational fields' messages.
func relatedType(raw any) string {
	switch raw.(type) {
	case map[string]any:
		return "dict"
	case nil:
		return "NoneType" // an item of a many=True field's list
	}
	return pythonType(raw)
}
