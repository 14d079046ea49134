package serializers

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"mime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	fmts "github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/rawjson"
	"github.com/go-drf/drf/internal/structs"
)

// DRF's messages.
const (
	msgRequired     = "This field is required."
	msgNull         = "This field may not be null."
	msgBlank        = "This field may not be blank."
	msgString       = "Not a valid string."
	msgInteger      = "A valid integer is required."
	msgNumber       = "A valid number is required."
	msgBoolean      = "Must be a valid boolean."
	msgTooLarge     = "String value too large."
	msgNullChar     = "Null characters are not allowed."
	msgUUID         = "Must be a valid UUID."
	msgJSON         = "Value must be valid JSON."
	msgInvalid      = "Invalid value."
	msgDatetime     = "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
	msgNoData       = "No data provided"
	msgNotDict      = "Invalid data. Expected a dictionary, but got %s."
	msgMaxLength    = "Ensure this field has no more than %d characters."
	msgMinLength    = "Ensure this field has at least %d characters."
	msgMaxValue     = "Ensure this value is less than or equal to %s."
	msgMinValue     = "Ensure this value is greater than or equal to %s."
	maxNumberLength = 1000
)

// Validate reads data (request.Data(): a map for JSON objects and forms)
// into obj, DRF's is_valid() then save()'s attribute assignment. Only the
// fields present in data are set, so obj may be a new item or a copy of
// the stored one; with partial (PATCH) missing required fields are not an
// error. Read-only and unknown keys are ignored. Form bodies (the request
// in c is a form) follow DRF's HTML-input rules: a missing boolean is
// false (null when it may be null), an empty optional value is left out.
// On failure obj is unchanged and the error is a 400 with DRF's field
// map; a nil data is "No data provided", a non-object "Invalid data.
// Expected a dictionary, ...".
//
// In order, as DRF: each field's own validation (its type, bounds,
// choices, UniqueValidator) then its ValidateField check; the
// HiddenFields (not on partial); the model's UniqueTogetherValidators;
// the ValidateObject checks.
func (s *Serializer[T]) Validate(data any, obj *T, partial bool, c *Context) error {
	return s.validate(data, obj, partial, false, c)
}

// ValidateNew is Validate of a new item (DRF's serializer without an
// instance): a model's defaults (models.Description.ApplyDefaults) fill
// in the fields the input leaves out, as Django's model constructor does
// before it sets the validated values.
func (s *Serializer[T]) ValidateNew(data any, obj *T, c *Context) error {
	return s.validate(data, obj, false, true, c)
}

func (s *Serializer[T]) validate(data any, obj *T, partial, create bool, c *Context) error {
	var errs exceptions.ValidationErrors
	m, ok := data.(map[string]any)
	if !ok {
		if data == nil {
			errs.Add(exceptions.NonFieldErrors, msgNoData)
		} else {
			errs.Add(exceptions.NonFieldErrors, fmt.Sprintf(msgNotDict, pythonType(data)))
		}
		return exceptions.ValidationError(errs)
	}
	form, level := isForm(c), levelOf(c)
	// The values are set in a copy, which replaces obj once everything
	// is valid.
	tmp := *obj
	base := structs.AddrOf(&tmp)
	if create && s.model != nil {
		// Django's constructor: the defaults, then the validated values.
		if err := s.model.ApplyDefaults(base); err != nil {
			return err
		}
	}
	// stored is the item an update changes, as its UniqueValidators'
	// querysets leave it out.
	var stored structs.Addr
	if !create {
		stored = structs.AddrOf(obj)
	}
	if err := s.validateFields(s.fields, m, base, stored, partial, form, level, c, &errs); err != nil {
		return err
	}
	if len(errs) > 0 {
		return exceptions.ValidationError(errs)
	}
	if !partial {
		for _, h := range s.hidden {
			if h.createOnly && !create {
				continue
			}
			if err := h.set(base, c); err != nil {
				return err
			}
		}
	}
	if s.explicit {
		var err error
		if errs, err = s.checkValidators(m, base, structs.AddrOf(obj), partial, create, form, level, c); err != nil {
			return err
		}
	} else {
		msgs, err := s.checkTogether(base, structs.AddrOf(obj), create, level, c)
		if err != nil {
			return err
		}
		for _, msg := range msgs {
			errs.Add(exceptions.NonFieldErrors, msg)
		}
		forErrs, err := s.checkUniqueFor(m, base, partial, create, form, level, c)
		if err != nil {
			return err
		}
		if len(forErrs) > 0 {
			// DRF's dict error, raised past the list errors before it.
			errs = forErrs
		}
	}
	if len(errs) > 0 {
		return exceptions.ValidationError(errs)
	}
	for _, check := range s.validators {
		if err := check(&tmp, c); err != nil {
			var inv *InvalidError
			if errors.As(err, &inv) {
				for _, msg := range inv.Messages {
					errs.Add(exceptions.NonFieldErrors, msg)
				}
				return exceptions.ValidationError(errs)
			}
			return err
		}
	}
	if !create {
		// The relations the serializer does not write keep their rows,
		// whatever another request set since they were read.
		for _, sf := range s.leftAlone {
			*structs.At[[]byte](sf.Addr(base)) = nil
		}
	}
	*obj = tmp
	return nil
}

// validateFields reads the fields of m into base, adding their errors to
// errs: each field's own validation, then its ValidateField check; stored
// is the item an update changes (nil on a create).
func (s *Serializer[T]) validateFields(fields []*field, m map[string]any, base, stored structs.Addr, partial, form bool, level compat.Level, c *Context, errs *exceptions.ValidationErrors) error {
	for _, f := range fields {
		if f.readOnly {
			continue
		}
		raw, present := m[f.name]
		if form {
			raw, present = f.formValue(m, partial, level)
		}
		if !present {
			switch {
			case partial:
			case f.def != nil:
				f.sf.Set(base, *f.def)
			case f.required || f.required314 && level == compat.DRF314:
				errs.Add(f.name, f.requiredMessage())
			case f.required314:
				// DRF 3.18's default of a nullable or blank field of a
				// unique-together: None or "", on a create and a full
				// update alike.
				if f.allowNull && f.sf.Nullable {
					f.sf.SetNull(base)
				} else {
					f.sf.Set(base, structs.Value{Kind: f.sf.Kind})
				}
			}
			continue
		}
		before := len(*errs)
		switch {
		case f.group != nil:
			if err := s.validateGroup(f, base, stored, raw, partial, form, level, c, errs); err != nil {
				return err
			}
		case f.rel != nil:
			if err := f.decodeRelated(base, raw, c, errs); err != nil {
				return err
			}
			if len(*errs) > before || f.rel.many != nil {
				break
			}
			// A one-to-one field is unique: DRF's UniqueValidator on
			// the key the field looked up.
			taken, err := s.taken(f, f.rel.fk.Column, f.rel.fk.Get(base), stored, level, c)
			if err != nil {
				return err
			}
			if taken {
				errs.Add(f.name, s.uniqueMessage(f))
			}
		case f.list != nil:
			if err := f.list.decode(f.sf.Addr(base), raw, partial, c, errs); err != nil {
				return err
			}
		case f.container != nil:
			f.decodeContainer(base, raw, level, formatsOf(c), errs)
		case f.file != nil:
			for _, msg := range f.decodeFile(base, raw) {
				errs.Add(f.name, msg)
			}
		case f.sf.Kind == structs.Custom:
			for _, msg := range f.decodeCustom(base, raw, form, c) {
				errs.Add(f.name, msg)
			}
		default:
			v, msgs := f.toInternal(raw, level, formatsOf(c))
			for _, msg := range msgs {
				errs.Add(f.name, msg)
			}
			if len(msgs) > 0 {
				break
			}
			taken, err := s.taken(f, f.sf.Column, v, stored, level, c)
			if err != nil {
				return err
			}
			if taken {
				errs.Add(f.name, s.uniqueMessage(f))
				break
			}
			f.sf.Set(base, v)
		}
		if len(*errs) > before {
			continue
		}
		if f.check != nil {
			if err := f.check(base, c); err != nil {
				var inv *InvalidError
				if !errors.As(err, &inv) {
					return err
				}
				for _, msg := range inv.Messages {
					errs.Add(f.name, msg)
				}
			}
		}
	}
	return nil
}

// UniqueViolation is the 400 of a write the database refused because the
// values of columns are taken (a UNIQUE constraint, when two requests race
// past the unique check, or a UniqueConstraint the level does not check
// before writing, as DRF 3.14 does not, or whose condition the check
// cannot ask): the unique-together message of the serializer's set of
// those columns, or for one column that is no such set's, or is unique
// itself, the field's message, as the check gives it. nil when no field
// or set of the serializer is the columns.
func (s *Serializer[T]) UniqueViolation(columns ...string) error {
	var errs exceptions.ValidationErrors
	for _, u := range s.together {
		if len(u.fields) == len(columns) && !slices.ContainsFunc(u.fields, func(f *field) bool { return !slices.Contains(columns, f.sf.Column) }) &&
			!(len(columns) == 1 && (u.fields[0].unique || u.fields[0].unique315)) {
			errs.Add(exceptions.NonFieldErrors, u.text())
			return exceptions.ValidationError(errs)
		}
	}
	if len(columns) != 1 {
		return nil
	}
	for _, f := range s.fields {
		if f.sf != nil && f.sf.Column == columns[0] {
			errs.Add(f.name, s.uniqueMessage(f))
			return exceptions.ValidationError(errs)
		}
		for _, g := range f.group {
			if g.sf.Column == columns[0] {
				errs.AddItem(f.name, g.name, s.uniqueMessage(g))
				return exceptions.ValidationError(errs)
			}
		}
	}
	return nil
}

// taken is DRF's UniqueValidator of a unique field f (of a
// UniqueConstraint of f alone, from DRF 3.15 on): whether another item
// holds v in column, by the UniqueValidator option's lookup (never for
// null, or without c's Exists); a UniqueValidator's Queryset is asked
// instead, leaving stored out.
func (s *Serializer[T]) taken(f *field, column string, v structs.Value, stored structs.Addr, level compat.Level, c *Context) (bool, error) {
	if u := f.uniqueBy; u != nil && u.Queryset != nil && !v.Null {
		return u.takenIn(v.Text(), stored, c)
	}
	if !(f.unique || f.unique315 && level != compat.DRF314) || v.Null || c == nil || c.Exists == nil {
		return false, nil
	}
	return c.Exists(f.uniqueColumn(column), v.Text())
}

// uniqueMessage is Django's message of a value a unique field holds
// already: "book with this title already exists." (the model's and the
// field's verbose names: their names in lower-case words, a relation's
// without "_id"), or the model field's error_messages["unique"] with
// those names put in; a UniqueValidator's message, or DRF's "This field
// must be unique.".
func (s *Serializer[T]) uniqueMessage(f *field) string {
	if f.uniqueBy != nil {
		return cmp.Or(f.uniqueBy.Message, msgUnique)
	}
	label := f.verboseName
	if label == "" {
		label = strings.ReplaceAll(f.sf.Column, "_", " ")
	}
	if f.uniqueText == "" {
		return s.verbose + " with this " + label + " already exists."
	}
	return strings.NewReplacer("%(model_name)s", s.verbose, "%(field_label)s", label).Replace(f.uniqueText)
}

// RequestData returns the request's body for Validate, as DRF's
// request.data reaches a serializer: no body (or one without a
// Content-Type) is an empty object, so that required fields are reported,
// while a body that parses to nothing, such as JSON null, stays nil ("No
// data provided").
func RequestData(r *request.Request) (any, error) {
	data, err := r.Data()
	if err != nil {
		return nil, err
	}
	if data == nil && (r.ContentLength == 0 || r.Header.Get("Content-Type") == "") {
		return map[string]any{}, nil
	}
	return data, nil
}

func isForm(c *Context) bool {
	if c == nil || c.Request == nil {
		return false
	}
	mt, _, _ := mime.ParseMediaType(c.Request.Header.Get("Content-Type"))
	return mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data"
}

// formValue is DRF's get_value for HTML input.
func (f *field) formValue(m map[string]any, partial bool, level compat.Level) (any, bool) {
	if f.container != nil {
		return f.formContainer(m, partial, level)
	}
	if f.list != nil {
		return f.formNestedList(m)
	}
	if f.group != nil {
		return f.formGroup(m)
	}
	if f.rel != nil && f.rel.many != nil {
		return f.formMany(m, partial)
	}
	raw, ok := m[f.name]
	raw = request.FormValue(raw)
	if !ok {
		if partial || f.def != nil {
			// A default is DRF's default_empty_html too.
			return nil, false
		}
		if f.sf.Kind == structs.Bool {
			// DRF 3.18's BooleanField(allow_null=True) has None as its
			// default_empty_html (DRF 3.14: False).
			if f.allowNull && level != compat.DRF314 {
				return nil, true
			}
			return false, true
		}
		return nil, false
	}
	if raw == "" {
		switch {
		case f.allowNull && f.allowBlank:
			return "", true
		case f.allowNull:
			return nil, true
		case !f.required && !f.allowBlank:
			return nil, false
		}
	}
	return raw, true
}

// pythonType names data's type as DRF's message does.
func pythonType(data any) string {
	switch x := data.(type) {
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	case string:
		return "str"
	case bool:
		return "bool"
	case json.Number:
		if isIntegerText(string(x)) {
			return "int"
		}
		return "float"
	case float64:
		return "float"
	}
	return fmt.Sprintf("%T", data)
}

func isIntegerText(s string) bool { return !strings.ContainsAny(s, ".eE") }

// toInternal validates one present value, DRF's run_validation of the field.
func (f *field) toInternal(raw any, level compat.Level, fc *fmts.Compiled) (structs.Value, []string) {
	v := structs.Value{Kind: f.sf.Kind}
	if raw == nil {
		if !f.allowNull {
			return v, []string{msgNull}
		}
		v.Null = true
		return v, nil
	}
	switch {
	case f.kind == kindChoice:
		return f.toChoice(raw)
	case f.kind == kindIP:
		return f.toIP(raw, level)
	}
	switch f.sf.Kind {
	case structs.String:
		return f.checked(f.toString(raw))
	case structs.Int, structs.Uint:
		return f.toInteger(raw)
	case structs.Float:
		return f.toFloat(raw)
	case structs.Bool:
		return f.toBool(raw, level)
	case structs.Time:
		t, msg := f.toDateTime(raw, level, fc)
		if msg != "" {
			return v, []string{msg}
		}
		v.T = t
		return v, nil
	case structs.Duration:
		v, msgs := toDuration(raw)
		if msgs == nil {
			msgs = f.durationBounds(v)
		}
		return v, msgs
	case structs.Bytes:
		return f.toBinary(raw)
	}
	return v, []string{msgString}
}

// checked runs the text validators of an email, URL, slug or regex
// field on a string that is neither refused by its type nor blank
// (DRF's run_validators, after the length checks, whose messages come
// first).
func (f *field) checked(v structs.Value, msgs []string) (structs.Value, []string) {
	if f.kind == "" || (v.S == "" && len(msgs) == 0) {
		return v, msgs
	}
	for _, m := range msgs {
		if m == msgBlank || m == msgString {
			return v, msgs
		}
	}
	if m := f.checkText(v.S); m != "" {
		msgs = append(msgs, m)
	}
	return v, msgs
}

// decodeCustom validates one present value of a Custom field and decodes
// it into the struct at base: null when allowed, else the value as JSON
// through the type's decoder (a form's text, for a JSON field, is the
// JSON itself, as DRF's JSONField reads HTML input). A value the type
// refuses gets DRF's message for the field's type.
func (f *field) decodeCustom(base structs.Addr, raw any, form bool, c *Context) []string {
	fc := formatsOf(c)
	if raw == nil && !f.allowNull {
		return []string{msgNull}
	}
	if f.blankNullDecimal(raw) {
		raw = nil
	}
	var js []byte
	if f.kind == kindChoice && raw != nil {
		// A decimal's ChoiceField: the choice whose text is str(input).
		text := pythonText(raw)
		if !slices.ContainsFunc(f.choices, func(c choice) bool { return c.text == text }) {
			return []string{fmt.Sprintf(msgInvalidChoice, text)}
		}
		js = appendString(nil, text)
	} else if _, inputs := f.formats(fc); raw != nil && f.temporal() && inputs.IsSet() {
		text, msg := f.toTemporalText(raw, inputs)
		if msg != "" {
			return []string{msg}
		}
		js = appendString(nil, text)
	} else if s, ok := raw.(string); ok && (form || f.more.jsonBinary) && f.format == "json" {
		js = []byte(s)
	} else if text, ok := uuidOfInt(raw); ok && f.format == "uuid" {
		js = appendString(nil, text)
	} else if raw != nil && (f.maxDigits >= 0 || f.decimalPlaces >= 0 || f.maxValue != nil || f.minValue != nil || f.localize) {
		var msg string
		if js, msg = f.checkDecimal(raw, numberOf(c)); msg != "" {
			return []string{msg}
		}
	} else {
		var err error
		if js, err = rawjson.Marshal(raw); err != nil {
			return []string{msgJSON}
		}
	}
	if err := f.sf.Decode(base, js); err != nil {
		switch f.format {
		case "uuid":
			return []string{msgUUID}
		case "decimal":
			return []string{msgNumber}
		case "json":
			return []string{msgJSON}
		case "date":
			return []string{msgDate}
		case "time":
			return []string{msgTime}
		}
		return []string{msgInvalid}
	}
	return nil
}

// uuidOfInt is DRF's UUIDField reading an int (a bool is one in Python):
// uuid.UUID(int=data), in its text.
func uuidOfInt(raw any) (string, bool) {
	var n *big.Int
	switch x := raw.(type) {
	case bool:
		n = big.NewInt(int64(boolInt(x)))
	case json.Number:
		var ok bool
		if n, ok = new(big.Int).SetString(string(x), 10); !ok {
			return "", false
		}
	default:
		return "", false
	}
	if n.Sign() < 0 || n.BitLen() > 128 {
		return "", false
	}
	hex := fmt.Sprintf("%032x", n)
	return hex[:8] + "-" + hex[8:12] + "-" + hex[12:16] + "-" + hex[16:20] + "-" + hex[20:], true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pythonStr is Python's str() of a JSON scalar, false for other types.
func pythonStr(raw any) (string, bool) {
	switch x := raw.(type) {
	case string:
		return x, true
	case json.Number:
		s := string(x)
		if isIntegerText(s) {
			if i, ok := new(big.Int).SetString(s, 10); ok {
				return i.String(), true
			}
			return "", false
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !math.IsInf(f, 0) {
			return "", false
		}
		return string(structs.AppendPythonFloat(nil, f)), true
	case float64:
		return string(structs.AppendPythonFloat(nil, x)), true
	}
	return "", false
}

func (f *field) toString(raw any) (structs.Value, []string) {
	v := structs.Value{Kind: structs.String}
	s, ok := pythonStr(raw)
	if (ok && s == "") || (ok && f.trim && strings.TrimSpace(s) == "") {
		if !f.allowBlank {
			return v, []string{msgBlank}
		}
		return v, nil
	}
	if !ok {
		return v, []string{msgString}
	}
	if f.trim {
		s = strings.TrimSpace(s)
	}
	var msgs []string
	// DRF's run_validators: the model field's validators come before
	// the CharField's own.
	for _, v := range f.validators {
		if err := v.Check(s); err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	n := utf8.RuneCountInString(s)
	if f.maxLength >= 0 && n > f.maxLength {
		msgs = append(msgs, fmt.Sprintf(msgMaxLength, f.maxLength))
	}
	if f.minLength >= 0 && n < f.minLength {
		msgs = append(msgs, fmt.Sprintf(msgMinLength, f.minLength))
	}
	if strings.IndexByte(s, 0) >= 0 {
		msgs = append(msgs, msgNullChar)
	}
	if r := surrogateIn(s); r >= 0 {
		msgs = append(msgs, fmt.Sprintf(msgSurrogate, r))
	}
	v.S = s
	return v, msgs
}

// toInteger is DRF's IntegerField: int() of str(data) after dropping a
// ".0" tail, then the bounds (max first), then the Go type's range.
func (f *field) toInteger(raw any) (structs.Value, []string) {
	v := structs.Value{Kind: f.sf.Kind}
	if s, ok := raw.(string); ok && len(s) > maxNumberLength {
		return v, []string{msgTooLarge}
	}
	s, ok := pythonStr(raw)
	if !ok {
		return v, []string{msgInteger}
	}
	i, ok := pycompat.Int(trimDecimalZeros(s))
	if !ok {
		return v, []string{msgInteger}
	}
	var msgs []string
	if f.maxValue != nil && i.Cmp(f.maxValue.i) > 0 {
		msgs = append(msgs, fmt.Sprintf(msgMaxValue, f.maxValue.text))
	}
	if f.minValue != nil && i.Cmp(f.minValue.i) < 0 {
		msgs = append(msgs, fmt.Sprintf(msgMinValue, f.minValue.text))
	}
	if len(msgs) > 0 {
		return v, msgs
	}
	lo, hi := f.typeRange()
	switch {
	case i.Cmp(hi) > 0:
		return v, []string{fmt.Sprintf(msgMaxValue, hi)}
	case i.Cmp(lo) < 0:
		return v, []string{fmt.Sprintf(msgMinValue, lo)}
	}
	if f.sf.Kind == structs.Uint {
		v.U = i.Uint64()
	} else {
		v.I = i.Int64()
	}
	return v, nil
}

func (f *field) typeRange() (lo, hi *big.Int) {
	bits := uint(f.sf.Bits)
	one := big.NewInt(1)
	if f.sf.Kind == structs.Uint {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
	return new(big.Int).Neg(new(big.Int).Add(hi, one)), hi
}

// trimDecimalZeros removes DRF's `\.0*\s*$`.
func trimDecimalZeros(s string) string {
	t := strings.TrimRight(s, " \t\n\r\f\v")
	t = strings.TrimRight(t, "0")
	if strings.HasSuffix(t, ".") {
		return t[:len(t)-1]
	}
	return s
}

// toFloat is DRF's FloatField: float() of the value, then the bounds.
func (f *field) toFloat(raw any) (structs.Value, []string) {
	v := structs.Value{Kind: structs.Float}
	var x float64
	var err error
	switch r := raw.(type) {
	case string:
		if len(r) > maxNumberLength {
			return v, []string{msgTooLarge}
		}
		x, err = pythonFloat(r)
	case json.Number:
		x, err = strconv.ParseFloat(string(r), 64)
		if err != nil && isIntegerText(string(r)) && math.IsInf(x, 0) {
			// float() of a Python int too large for a float.
			return v, []string{msgFloatOverflow}
		}
	case float64:
		x = r
	default:
		return v, []string{msgNumber}
	}
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		// DRF 3.18 refuses what is not finite (DRF 3.14 took "inf").
		return v, []string{msgNumber}
	}
	var msgs []string
	if f.maxValue != nil && x > f.maxValue.f {
		msgs = append(msgs, fmt.Sprintf(msgMaxValue, f.maxValue.text))
	}
	if f.minValue != nil && x < f.minValue.f {
		msgs = append(msgs, fmt.Sprintf(msgMinValue, f.minValue.text))
	}
	v.F = x
	return v, msgs
}

func pythonFloat(s string) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "inf", "infinity", "nan":
		return strconv.ParseFloat(s, 64)
	}
	if strings.ContainsAny(s, "xXpP") || strings.Contains(s, "__") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
}

var (
	trueTexts  = map[string]bool{"t": true, "y": true, "yes": true, "true": true, "on": true, "1": true}
	falseTexts = map[string]bool{"f": true, "n": true, "no": true, "false": true, "off": true, "0": true}
)

// toBool is DRF's BooleanField with its true, false and null spellings.
func (f *field) toBool(raw any, level compat.Level) (structs.Value, []string) {
	v := structs.Value{Kind: structs.Bool}
	switch r := raw.(type) {
	case bool:
		v.B = r
		return v, nil
	case string:
		// DRF 3.18 reads them in any case, DRF 3.14 as listed.
		if level == compat.DRF314 && !listedCase(r) {
			break
		}
		r = strings.ToLower(r)
		switch {
		case trueTexts[r]:
			v.B = true
			return v, nil
		case falseTexts[r]:
			return v, nil
		case f.allowNull && (r == "" || r == "null"):
			v.Null = true
			return v, nil
		}
	case json.Number:
		switch x, err := strconv.ParseFloat(string(r), 64); {
		case err == nil && x == 1:
			v.B = true
			return v, nil
		case err == nil && x == 0:
			return v, nil
		}
	}
	return v, []string{msgBoolean}
}
