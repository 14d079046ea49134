package serializers

import (
	"fmt"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/structs"
)

// RelatedViolation is the validation error of a foreign key column whose
// value names no row (a write the database refused: queryset's
// MissingRelatedError), as DRF's PrimaryKeyRelatedField words it:
// {"owner": ["Invalid pk \"99\" - object does not exist."]}; nil when no
// field of the serializer holds column.
func (s *Serializer[T]) RelatedViolation(column, value string) error {
	for _, f := range s.fields {
		if f.sf != nil && f.sf.Column == column {
			var errs exceptions.ValidationErrors
			errs.Add(f.name, `Invalid pk "`+value+`" - object does not exist.`)
			return exceptions.ValidationError(errs)
		}
	}
	return nil
}

// relatedLinks is the value of a read-only hyperlinked related field
// (DRF's HyperlinkedRelatedField with view_name and read_only): the
// absolute URL of route for the related key the field holds, or, for a
// slice of keys (a reverse accessor: many=True), the list of them. The
// route's parameter is "pk"; the request's format suffix is kept, as
// DRF's reverse keeps it.
func relatedLinks(sf *structs.Field, route string) (func(unsafe.Pointer, *Context) (any, error), error) {
	if route == "" {
		return nil, fmt.Errorf("view_name needs a route name")
	}
	link := func(key string, c *Context) (string, error) {
		if c == nil || c.Request == nil {
			return "", fmt.Errorf("serializers: hyperlinked field %q needs the request in the serializer context", sf.Name)
		}
		params := map[string]string{"pk": key}
		if f := c.Request.PathValue(reverse.FormatSuffixParam); f != "" {
			params[reverse.FormatSuffixParam] = f
		}
		return reverse.Reverse(route, params, c.Request)
	}
	var keys func(p unsafe.Pointer) []string
	switch t := sf.Type; {
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Int64:
		keys = intKeys[int64]
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Int:
		keys = intKeys[int]
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Int32:
		keys = intKeys[int32]
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		keys = func(p unsafe.Pointer) []string { return *(*[]string)(p) }
	case t.Kind() != reflect.Slice && sf.Supported() == nil:
		return func(obj unsafe.Pointer, c *Context) (any, error) {
			if sf.IsNull(obj) {
				return nil, nil
			}
			return link(sf.Get(obj).Text(), c)
		}, nil
	default:
		return nil, fmt.Errorf("view_name needs a key or a slice of int, int32, int64 or string keys, not %v", t)
	}
	return func(obj unsafe.Pointer, c *Context) (any, error) {
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

func intKeys[E int | int32 | int64](p unsafe.Pointer) []string {
	s := *(*[]E)(p)
	keys := make([]string, len(s))
	for i, k := range s {
		keys[i] = strconv.FormatInt(int64(k), 10)
	}
	return keys
}
