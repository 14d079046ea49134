package serializers

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/structs"
)

// ListOptions are the options of DRF's ListSerializer (many=True) that
// ValidateList and ValidateListUpdate take.
type ListOptions[T any] struct {
	// NotEmpty refuses an empty list (allow_empty=False): "This list may
	// not be empty.".
	NotEmpty bool
	// MaxLength and MinLength bound the list's length when above 0
	// (max_length and min_length).
	MaxLength, MinLength int
	// Validate, when set, checks the valid items as a whole (the
	// ListSerializer's validate()): an Invalid error's messages are the
	// list's non-field errors.
	Validate func(items []T, c *Context) error
}

// ValidateList reads a list of new items, as DRF's ListSerializer
// validates data=[...] with many=True: each item as ValidateNew reads
// it. HTML form input is read as DRF's parse_html_list reads it ("[0]a",
// "[1]a": no such key is an empty list). No data ("No data provided"),
// anything but a list, an empty one with NotEmpty and one outside
// MaxLength and MinLength are refused with DRF's non-field errors; the
// items' errors are DRF's list of each item's (an empty object for a
// valid one) at the 3.14 level, an object of the invalid items' by index
// at 3.18 (LIST_SERIALIZER_ERRORS_AS_DICT); a null item is "This field
// may not be null.". Validate runs last, on valid items.
func (s *Serializer[T]) ValidateList(data any, opts ListOptions[T], c *Context) ([]T, error) {
	return s.validateList(data, opts, false, nil, c)
}

// ValidateListUpdate reads a list of changes to stored items, as a DRF
// ListSerializer given instance= validates data=[...] when its
// run_child_validation sets the child's instance, DRF's way to a
// multiple update (its ListSerializer.update is the user's own, as saving
// the items is the caller's here): stored returns the stored item an
// input item changes (DRF's self.instance.get(pk=data["id"])), nil for
// none, and each item is validated into a copy of it as Validate does,
// or for none as a new item, partial as given. The list's checks and
// errors are ValidateList's.
func (s *Serializer[T]) ValidateListUpdate(data any, opts ListOptions[T], partial bool, stored func(item map[string]any) (*T, error), c *Context) ([]T, error) {
	return s.validateList(data, opts, partial, stored, c)
}

func (s *Serializer[T]) validateList(data any, opts ListOptions[T], partial bool, stored func(map[string]any) (*T, error), c *Context) ([]T, error) {
	level := levelOf(c)
	if m, ok := data.(map[string]any); ok && isForm(c) {
		data = formList(m)
	}
	list, refused := opts.refusal(data)
	if refused != "" {
		return nil, nonFieldError(refused)
	}
	items := make([]T, len(list))
	failed := map[int]exceptions.FieldError{}
	for i, raw := range list {
		if raw == nil {
			failed[i] = exceptions.FieldError{Messages: []string{msgNull}}
			continue
		}
		create := true
		if m, ok := raw.(map[string]any); ok && stored != nil {
			old, err := stored(m)
			if err != nil {
				return nil, err
			}
			if old != nil {
				items[i], create = *old, false
			}
		}
		err := s.validate(raw, &items[i], partial, create, c)
		if err == nil {
			continue
		}
		itemErrs, ok := itemErrors(err)
		if !ok {
			return nil, err
		}
		failed[i] = exceptions.FieldError{Items: itemErrs}
	}
	if len(failed) > 0 {
		return nil, listErrors(len(list), failed, level)
	}
	return opts.validated(items, c)
}

// refusal is data as a list, or DRF's message refusing it as a whole:
// no data, anything but a list, an empty one with NotEmpty, and one
// outside MaxLength and MinLength.
func (opts ListOptions[T]) refusal(data any) ([]any, string) {
	list, ok := data.([]any)
	switch {
	case data == nil:
		return nil, msgNoData
	case !ok:
		return nil, fmt.Sprintf(msgNotAList, pythonType(data))
	case opts.NotEmpty && len(list) == 0:
		return nil, msgEmptyList
	case opts.MaxLength > 0 && len(list) > opts.MaxLength:
		return nil, fmt.Sprintf(msgListMaxLength, opts.MaxLength)
	case opts.MinLength > 0 && len(list) < opts.MinLength:
		return nil, fmt.Sprintf(msgListMinLength, opts.MinLength)
	}
	return list, ""
}

// validated runs Validate, when set, on the valid items: an Invalid
// error's messages are the list's non-field errors.
func (opts ListOptions[T]) validated(items []T, c *Context) ([]T, error) {
	if opts.Validate == nil {
		return items, nil
	}
	if err := opts.Validate(items, c); err != nil {
		var inv *InvalidError
		if errors.As(err, &inv) {
			return nil, nonFieldError(inv.Messages...)
		}
		return nil, err
	}
	return items, nil
}

// formList is the list HTML input m holds, as DRF's parse_html_list reads
// it: by the keys "[i]" (the item itself) and "[i]name" (a field of
// item i, which replaces a value "[i]" gave), in the order of i; none is
// an empty list.
func formList(m map[string]any) []any {
	byIndex := map[int]any{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		sub := formIndex.FindStringSubmatch(k)
		if sub == nil {
			continue
		}
		i, err := strconv.Atoi(sub[1])
		if err != nil {
			continue
		}
		if sub[2] == "" {
			byIndex[i] = request.FormValue(v)
			continue
		}
		item, ok := byIndex[i].(map[string]any)
		if !ok {
			item = map[string]any{}
			byIndex[i] = item
		}
		item[sub[2]] = request.FormValue(v)
	}
	list := make([]any, 0, len(byIndex))
	for _, i := range slices.Sorted(maps.Keys(byIndex)) {
		list = append(list, byIndex[i])
	}
	return list
}

// formIndex matches a key of a list in HTML input: "[0]" or "[0]name".
var formIndex = regexp.MustCompile(`^\[([0-9]+)\](.*)$`)

// nonFieldError is the 400 of a list refused as a whole.
func nonFieldError(msgs ...string) *exceptions.APIException {
	var errs exceptions.ValidationErrors
	for _, msg := range msgs {
		errs.Add(exceptions.NonFieldErrors, msg)
	}
	return exceptions.ValidationError(errs)
}

// ListItemError returns err, the error of the item at index i of a list
// of n (a field's 400 of a write the database refused, as a view's
// create of a list meets it), in the shape of ValidateList's errors; an
// error of no field is returned as it is.
func (s *Serializer[T]) ListItemError(i, n int, err error, c *Context) error {
	itemErrs, ok := itemErrors(err)
	if !ok {
		return err
	}
	return listErrors(n, map[int]exceptions.FieldError{i: {Items: itemErrs}}, levelOf(c))
}

// itemErrors returns the field errors of err, a 400 of one item.
func itemErrors(err error) (exceptions.ValidationErrors, bool) {
	var api *exceptions.APIException
	if !errors.As(err, &api) || api.Code != exceptions.CodeInvalid {
		return nil, false
	}
	itemErrs, ok := api.Detail.(exceptions.ValidationErrors)
	return itemErrs, ok
}

// listErrors is the 400 of a list of n items of which those of failed are
// invalid, each with its errors (Items) or its messages: DRF's list of
// every item's errors (an empty object for a valid one) at the 3.14
// level, an object of the invalid items' by index at 3.18
// (LIST_SERIALIZER_ERRORS_AS_DICT).
func listErrors(n int, failed map[int]exceptions.FieldError, level compat.Level) *exceptions.APIException {
	if level == compat.DRF314 {
		each := make([]any, n)
		for i := range each {
			switch e, ok := failed[i]; {
			case !ok:
				each[i] = exceptions.ValidationErrors{}
			case e.Items != nil:
				each[i] = e.Items
			default:
				each[i] = e.Messages
			}
		}
		api := exceptions.ValidationError(nil)
		api.Detail = each
		return api
	}
	var byIndex exceptions.ValidationErrors
	for i := range n {
		if e, ok := failed[i]; ok {
			e.Field = strconv.Itoa(i)
			byIndex = append(byIndex, e)
		}
	}
	return exceptions.ValidationError(byIndex)
}

// List is DRF's ListSerializer whose child is a field
// (ListSerializer(child=IntegerField())): a list of E, each item
// validated as a field of type E. E is a type a ListField's items may be:
// a string, a bool, an int, int32, int64 or float64, a pointer to one (a
// child of allow_null), a list or dictionary of them, or any.
type List[E any] struct {
	// f is the list, as a field of []E.
	f *field
}

// NewList makes a List of E whose items take child, the options of a drf
// tag ("min_value=1,max_value=10"; "child.max_length=3" for the items of
// a list of lists).
func NewList[E any](child string) (*List[E], error) {
	t := reflect.TypeFor[[]E]()
	c := containerOfType("", t)
	if c == nil {
		return nil, fmt.Errorf("serializers: NewList[%s]: a list's items are scalars, pointers to scalars, lists or dictionaries of them, or any", t.Elem())
	}
	f := &field{sf: &structs.Field{Type: t}, container: c, allowEmpty: true, maxLength: -1, minLength: -1, maxDigits: -1, decimalPlaces: -1}
	if child != "" {
		for _, opt := range splitTag(child) {
			if err := c.child.applyOption(opt); err != nil {
				return nil, fmt.Errorf("serializers: NewList[%s]: %w", t.Elem(), err)
			}
		}
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("serializers: NewList[%s]: %w", t.Elem(), err)
	}
	return &List[E]{f: f}, nil
}

// Validate reads data, a list, as a ListSerializer of a field validates
// data=[...]: HTML form input as DRF's parse_html_list reads it ("[0]",
// "[1]"); the list is refused as a whole as ValidateList refuses it, and
// the items' errors are each invalid item's messages (or, for a list of
// lists, its items' by index): DRF's list of every item's ({} for a valid
// one) at the 3.14 level, an object by index at 3.18. opts.Validate runs
// last, on the valid items.
func (l *List[E]) Validate(data any, opts ListOptions[E], c *Context) ([]E, error) {
	level := levelOf(c)
	ct := l.f.container
	form := false
	if m, ok := data.(map[string]any); ok && isForm(c) {
		data, form = formList(m), true
	}
	list, refused := opts.refusal(data)
	if refused != "" {
		return nil, nonFieldError(refused)
	}
	items := make([]E, len(list))
	failed := map[int]exceptions.FieldError{}
	for i, raw := range list {
		if form {
			raw = ct.formItem(raw, level)
		}
		if fe := ct.decodeElem(structs.AddrOf(&items[i]), raw, level, formatsOf(c)); fe.Messages != nil || fe.Items != nil {
			failed[i] = fe
		}
	}
	if len(failed) > 0 {
		return nil, listErrors(len(list), failed, level)
	}
	return opts.validated(items, c)
}

// Data is the representation of items (DRF's ListSerializer.data).
func (l *List[E]) Data(items []E) (json.RawMessage, error) {
	return l.f.appendItems(nil, structs.AddrOf(&items))
}
