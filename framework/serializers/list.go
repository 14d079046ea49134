package serializers

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
)

// ListOptions are the options of DRF's ListSerializer (many=True) that
// ValidateList takes.
type ListOptions struct {
	// NotEmpty refuses an empty list (allow_empty=False): "This list may
	// not be empty.".
	NotEmpty bool
	// MaxLength and MinLength bound the list's length when above 0
	// (max_length and min_length, from DRF 3.15: not at the 3.14 level).
	MaxLength, MinLength int
}

// ValidateList reads a list of new items, as DRF's ListSerializer
// validates data=[...] with many=True: each item as ValidateNew reads
// it. Anything but a list, an empty one with NotEmpty and one outside
// MaxLength and MinLength are refused with DRF's non-field errors; the
// items' errors are DRF's list of each item's (an empty object for a
// valid one) at the 3.14 level, an object of the invalid items' by
// index at 3.18 (LIST_SERIALIZER_ERRORS_AS_DICT); a null item is "This
// field may not be null.".
func (s *Serializer[T]) ValidateList(data any, opts ListOptions, c *Context) ([]T, error) {
	level := levelOf(c)
	list, ok := data.([]any)
	var refused string
	switch {
	case !ok:
		refused = fmt.Sprintf(msgNotAList, pythonType(data))
	case opts.NotEmpty && len(list) == 0:
		refused = msgEmptyList
	case level == compat.DRF314:
	case opts.MaxLength > 0 && len(list) > opts.MaxLength:
		refused = fmt.Sprintf(msgListMaxLength, opts.MaxLength)
	case opts.MinLength > 0 && len(list) < opts.MinLength:
		refused = fmt.Sprintf(msgListMinLength, opts.MinLength)
	}
	if refused != "" {
		var errs exceptions.ValidationErrors
		errs.Add(exceptions.NonFieldErrors, refused)
		return nil, exceptions.ValidationError(errs)
	}
	items := make([]T, len(list))
	each := make([]any, len(list))
	var byIndex exceptions.ValidationErrors
	for i, raw := range list {
		each[i] = exceptions.ValidationErrors{}
		if raw == nil {
			each[i] = []string{msgNull}
			byIndex.Add(strconv.Itoa(i), msgNull)
			continue
		}
		err := s.ValidateNew(raw, &items[i], c)
		var api *exceptions.APIException
		if err == nil {
			continue
		}
		if !errors.As(err, &api) || api.Code != exceptions.CodeInvalid {
			return nil, err
		}
		itemErrs, ok := api.Detail.(exceptions.ValidationErrors)
		if !ok {
			return nil, err
		}
		each[i] = itemErrs
		byIndex = append(byIndex, exceptions.FieldError{Field: strconv.Itoa(i), Items: itemErrs})
	}
	if len(byIndex) == 0 {
		return items, nil
	}
	api := exceptions.ValidationError(byIndex)
	if level == compat.DRF314 {
		api.Detail = each
	}
	return nil, api
}
