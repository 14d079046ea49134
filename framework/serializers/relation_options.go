package serializers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// DRF's html_cutoff of a relational field's select (HTML_SELECT_CUTOFF)
// and its text (HTML_SELECT_CUTOFF_TEXT), "{count}" the cutoff.
const (
	relatedCutoff     = 1000
	relatedCutoffText = "More than {count} items..."
)

// relationOptions are the drf tag options of a relational field that
// DRF's RelatedField and HyperlinkedRelatedField take besides its class.
type relationOptions struct {
	// cutoff and cutoffText are html_cutoff and html_cutoff_text; 0 and
	// "" take the context's settings.
	cutoff     int
	cutoffText string
	// lookupField and lookupKwarg are a HyperlinkedRelatedField's
	// lookup_field and lookup_url_kwarg; "" gives the key and "pk".
	lookupField, lookupKwarg string
	// pkField is a PrimaryKeyRelatedField's pk_field: the format of the
	// UUIDField its key is read and written as ("hex_verbose", "hex",
	// "int", "urn"); "" for none.
	pkField string
}

// The formats of DRF's UUIDField, as pk_field=uuid:FORMAT names them.
var uuidFormats = []string{"hex_verbose", "hex", "int", "urn"}

// relationOption applies a drf tag option of relationOptions; ok is false
// for another option.
func (f *field) relationOption(key, val string) (ok bool, err error) {
	o := f.relOpts
	if o == nil {
		o = &relationOptions{}
	}
	switch key {
	case "html_cutoff":
		if o.cutoff, err = strconv.Atoi(val); err == nil && o.cutoff < 1 {
			err = fmt.Errorf("html_cutoff needs a positive number of options")
		}
	case "html_cutoff_text":
		o.cutoffText = val
	case "lookup_field":
		o.lookupField = val
	case "lookup_url_kwarg":
		o.lookupKwarg = val
	case "pk_field":
		kind, format, _ := strings.Cut(val, ":")
		o.pkField = cmp.Or(format, "hex_verbose")
		if kind != "uuid" || !slices.Contains(uuidFormats, o.pkField) {
			err = fmt.Errorf("pk_field needs uuid or uuid:FORMAT, FORMAT one of %s", strings.Join(uuidFormats, ", "))
		}
	default:
		return false, nil
	}
	if val == "" {
		err = fmt.Errorf("%s needs a value", key)
	}
	f.relOpts = o
	return true, err
}

// linkKwarg is the route parameter a hyperlinked relational field fills
// and reads: lookup_url_kwarg, else lookup_field, else "pk".
func (f *field) linkKwarg() string {
	if f.relOpts == nil {
		return "pk"
	}
	return cmp.Or(f.relOpts.lookupKwarg, f.relOpts.lookupField, "pk")
}

// bindRelationOptions checks the field's relationOptions against the
// class bindRelation gave it.
func (f *field) bindRelationOptions() error {
	o := f.relOpts
	switch {
	case o == nil:
	case (o.cutoff != 0 || o.cutoffText != "") && (f.rel == nil || f.readOnly):
		return fmt.Errorf("html_cutoff and html_cutoff_text need a writable relational field")
	case (o.lookupField != "" || o.lookupKwarg != "") && f.viewName == "":
		return fmt.Errorf("lookup_field and lookup_url_kwarg need a hyperlinked field (view_name)")
	case o.lookupField != "" && (f.rel == nil || f.rel.lookup == ""):
		return fmt.Errorf("lookup_field %s needs a dotted source through a foreign key to that column (source=owner.%s)",
			o.lookupField, o.lookupField)
	case o.pkField != "" && (f.rel == nil || f.rel.kind != relPK || f.rel.many != nil || f.rel.fk.Kind != structs.String):
		return fmt.Errorf("pk_field needs a writable foreign key of string keys (a PrimaryKeyRelatedField)")
	case o.pkField != "":
		f.rel.pkField = o.pkField
		f.compute = f.pkFieldValue
	case f.rel != nil:
		f.rel.kwarg = f.linkKwarg()
	}
	return nil
}

// pkFieldValue is the representation of a foreign key of a pk_field:
// pk_field.to_representation(pk), its key as a UUID in the field's
// format.
func (f *field) pkFieldValue(obj structs.Addr, _ *Context) (any, error) {
	if f.sf.IsNull(obj) {
		return nil, nil
	}
	key := f.sf.Get(obj).Text()
	v, ok := uuidFormat(key, f.rel.pkField)
	if !ok {
		return nil, fmt.Errorf("serializers: field %q: the key %q is no UUID", f.name, key)
	}
	return v, nil
}

// uuidFormat is DRF's UUIDField.to_representation of the UUID text key
// in format: a JSON integer for "int", else a string; false when key is
// no UUID.
func uuidFormat(key, format string) (any, bool) {
	hex, ok := uuidHex(key)
	if !ok {
		return nil, false
	}
	verbose := hex[:8] + "-" + hex[8:12] + "-" + hex[12:16] + "-" + hex[16:20] + "-" + hex[20:]
	switch format {
	case "hex":
		return hex, true
	case "int":
		n, _ := new(big.Int).SetString(hex, 16)
		return json.RawMessage(n.String()), true
	case "urn":
		return "urn:uuid:" + verbose, true
	}
	return verbose, true
}

// uuidText is uuidFormat's representation as text, key itself when it
// is no UUID.
func uuidText(key, format string) string {
	switch v, _ := uuidFormat(key, format); v := v.(type) {
	case string:
		return v
	case json.RawMessage:
		return string(v)
	}
	return key
}

// uuidHex is Python's uuid.UUID(hex=s) (which DRF's UUIDField reads a
// string with): s without "urn:", "uuid:", braces and hyphens must be
// 32 hex digits; its 32 lower-case digits.
func uuidHex(s string) (string, bool) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "urn:", ""), "uuid:", "")
	s = strings.ReplaceAll(strings.Trim(s, "{}"), "-", "")
	if len(s) != 32 {
		return "", false
	}
	n, ok := new(big.Int).SetString(s, 16)
	if !ok || n.Sign() < 0 {
		return "", false
	}
	return fmt.Sprintf("%032x", n), true
}

// decodePKField is PrimaryKeyRelatedField.to_internal_value with a
// pk_field: the UUIDField reads raw (an integer as uuid.UUID(int=data), a
// string as uuid.UUID(hex=data), else "Must be a valid UUID."), then the
// row of that key is looked up, as Django's SQLite backend stores a UUID
// (its 32 hex digits; PostgreSQL's uuid reads them too); a key no row
// holds is "Invalid pk "00000000-0000-0000-0000-000000000004" - object
// does not exist.".
func (r *relation) decodePKField(base structs.Addr, raw any, c *Context) ([]string, error) {
	hex, ok := "", false
	if text, isInt := uuidOfInt(raw); isInt {
		hex, ok = strings.ReplaceAll(text, "-", ""), true
	} else if s, isStr := raw.(string); isStr {
		hex, ok = uuidHex(s)
	}
	if !ok {
		return []string{msgUUID}, nil
	}
	verbose, _ := uuidFormat(hex, "hex_verbose")
	key, found := hex, true
	if c != nil && c.Related != nil {
		var err error
		if key, found, err = c.Related(RelatedLookup{Table: r.table, Column: r.key, Value: hex, Key: r.key, Where: r.where}); err != nil {
			return nil, err
		}
	}
	// Without a look-up to ask, the database's foreign key checks the key.
	v, err := r.fk.Parse(key)
	if !found || err != nil {
		return []string{fmt.Sprintf(msgPKMissing, verbose)}, nil
	}
	r.fk.Set(base, v)
	return nil, nil
}

// bindLookup makes a HyperlinkedRelatedField of lookup_field over a
// dotted source through a foreign key (drf:"source=owner.username,
// view_name=user-detail,lookup_field=username"): its link names the
// related row's lookup_field column, read by the join, as the route's
// lookup_url_kwarg; a link written is resolved to that column's value,
// which is looked up in the related table to set the foreign key.
func (f *field) bindLookup(md *modelInfo) error {
	lookup := f.relOpts.lookupField
	join := joinOf(md, f.sf)
	if join == nil || join.Column != lookup {
		return fmt.Errorf("lookup_field %s needs a dotted source through a foreign key to that column (source=owner.%s)",
			lookup, lookup)
	}
	switch f.sf.Kind {
	case structs.String, structs.Int, structs.Uint:
	default:
		return fmt.Errorf("lookup_field needs a string or integer column, not %v", f.sf.Type)
	}
	links, err := relatedLinks(f.sf, f.viewName, f.linkKwarg())
	if err != nil {
		return err
	}
	via := join.Via
	f.compute, f.link, f.container, f.typeName, f.readOnly = links, true, nil, "field", false
	if err := f.writesThrough(via, "lookup"); err != nil {
		return err
	}
	f.rel = &relation{kind: relLink, fk: via.Struct, table: via.Related.Table, key: via.Related.Column,
		lookup: join.Column, integer: f.sf.Kind != structs.String, route: f.viewName}
	return nil
}

// joinOf is the join of a dotted source through a foreign key that fills
// sf, nil when it is none.
func joinOf(md *modelInfo, sf *structs.Field) *models.Join {
	if md == nil {
		return nil
	}
	for _, j := range md.desc.Joins {
		if j.Field.Name == sf.Name {
			return j
		}
	}
	return nil
}

// selectCutoff is the most options the field's select lists (0: no
// limit) and the text of the option after them: its html_cutoff and
// html_cutoff_text, else c's settings, else DRF's defaults.
func (f *field) selectCutoff(c *Context) (int, string) {
	n, text := relatedCutoff, cmp.Or(c.HTMLSelectCutoffText, relatedCutoffText)
	switch {
	case c.HTMLSelectCutoff > 0:
		n = c.HTMLSelectCutoff
	case c.HTMLSelectCutoff < 0:
		n = 0
	}
	if o := f.relOpts; o != nil {
		n, text = cmp.Or(o.cutoff, n), cmp.Or(o.cutoffText, text)
	}
	return n, strings.ReplaceAll(text, "{count}", strconv.Itoa(n))
}

// param is the route parameter of a hyperlinked relation's links.
func (r *relation) param() string { return cmp.Or(r.kwarg, "pk") }

// lookupLink is HyperlinkedRelatedField.get_object of a lookup_field:
// the row whose lookup column holds value, the route parameter of the
// link, sets the foreign key, and the field its value; else DRF's
// "Invalid hyperlink - Object does not exist.".
func (r *relation) lookupLink(f *field, base structs.Addr, value string, c *Context) ([]string, error) {
	if c == nil || c.Related == nil {
		return nil, fmt.Errorf("serializers: the hyperlinked field %q needs the context's Related look-up (generic views set it)", f.name)
	}
	v, err := f.sf.Parse(value)
	if err != nil {
		return []string{msgLinkMissing}, nil
	}
	key, found, err := c.Related(RelatedLookup{Table: r.table, Column: r.lookup, Value: value, Integer: r.integer, Key: r.key, Where: r.where})
	if err != nil {
		return nil, err
	}
	kv, kerr := r.fk.Parse(key)
	if !found || kerr != nil {
		return []string{msgLinkMissing}, nil
	}
	r.fk.Set(base, kv)
	f.sf.Set(base, v)
	return nil, nil
}
