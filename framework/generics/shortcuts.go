package generics

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

// GetObjectOr404 is DRF's get_object_or_404 for hand-written views: the
// one item of src whose field (a `db` or JSON name) is value, else DRF's
// 404: a value the field cannot hold ("abc" for an integer) is a 404 too,
// not a 400. The detail is "Not found." at DRF 3.14 level, Django's "No
// Snippet matches the given query." after (v's Compatibility), as
// GetObject answers. Two items are a server error, as Django's get()
// raises MultipleObjectsReturned. Object permissions are not checked
// (v.CheckObjectPermissions does), as in DRF. The view's ObjectType, set
// or taken from its typed object permissions at registration, must be *T:
// another is an error naming both, never an object those permissions skip.
//
//	snippet, err := generics.GetObjectOr404(v, r, snippets, "id", r.PathValue("pk"))
func GetObjectOr404[T any](v *framework.View, r *request.Request, src queryset.Source[T], field, value string) (*T, error) {
	if t := v.ObjectType; t != nil && t != reflect.TypeFor[*T]() {
		return nil, fmt.Errorf("generics: GetObjectOr404 of %v on the view %q, whose ObjectType is %v", reflect.TypeFor[*T](), v.Name, t)
	}
	items, err := src.Filter(field, value).Slice(r.Context(), 0, 2)
	switch {
	case errors.Is(err, query.ErrInvalidValue) || err == nil && len(items) == 0 && v.Compatibility() == framework.DRF314:
		return nil, exceptions.NotFound()
	case err != nil:
		return nil, err
	case len(items) == 0:
		return nil, exceptions.NotFound(missingDetail[T]())
	case len(items) > 1:
		return nil, fmt.Errorf("generics: GetObjectOr404: more than one item has %s %q", field, value)
	}
	return items[0], nil
}
