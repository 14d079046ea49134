package serializers

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
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
	list, ok := data.([]any)
	var refused string
	switch {
	case data == nil:
		refused = msgNoData
	case !ok:
		refused = fmt.Sprintf(msgNotAList, pythonType(data))
	case opts.NotEmpty && len(list) == 0:
		refused = msgEmptyList
	case opts.MaxLength > 0 && len(list) > opts.MaxLength:
		refused = fmt.Sprintf(msgListMaxLength, opts.MaxLength)
	case opts.MinLength > 0 && len(list) < opts.MinLength:
		refused = fmt.Sprintf(msgListMinLength, opts.MinLength)
	}
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
	if opts.Validate != nil {
		if err := opts.Validate(items, c); err != nil {
			var inv *InvalidError
			if errors.As(err, &inv) {
				return nil, nonFieldError(inv.Messages...)
			}
			return nil, err
		}
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
