package generics

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/rawjson"
)

// Metadata answers OPTIONS as DRF's SimpleMetadata does for generic views:
// the view's metadata plus, under "actions", the serializer's fields for
// each of PUT and POST that the view answers and the requester may use
// (its permissions allow the method and, for PUT, the object).
func (g *GenericAPIView[T]) Metadata(v *framework.View, r *request.Request) (*framework.Response, error) {
	base, err := rawjson.Marshal(framework.Metadata(v, r))
	if err != nil {
		return nil, err
	}
	// DRF's determine_actions asks for each method's serializer with the
	// view's action still "metadata".
	mv := *v
	mv.Actions = metadataActions
	var actions []byte
	for _, m := range []struct {
		method string
		h      framework.HandlerFunc
	}{{http.MethodPut, v.Put}, {http.MethodPost, v.Post}} {
		if m.h == nil {
			continue
		}
		as, ok, err := g.allowed(v, r, m.method)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		ser, err := g.GetSerializer(&mv, as)
		if err != nil {
			return nil, err
		}
		if len(actions) > 0 {
			actions = append(actions, ',')
		}
		actions = append(append(actions, `"`+m.method+`":`...), ser.FieldInfoAt(r.Compatibility())...)
	}
	if len(actions) == 0 || len(base) == 0 || base[len(base)-1] != '}' {
		return framework.OK(json.RawMessage(base)), nil
	}
	out := append(append(append(base[:len(base)-1:len(base)-1], `,"actions":{`...), actions...), '}', '}')
	return framework.OK(json.RawMessage(out)), nil
}

// metadataActions names every method's action "metadata".
var metadataActions = map[string]framework.ViewAction{
	http.MethodGet: framework.ActionMetadata, http.MethodPost: framework.ActionMetadata,
	http.MethodPut: framework.ActionMetadata, http.MethodPatch: framework.ActionMetadata,
	http.MethodDelete: framework.ActionMetadata,
}

// Allows reports whether r's user may send method to v: its permissions
// and, for PUT, PATCH and DELETE, the item's object permissions (DRF's
// show_form_for_method). It makes g a framework.Describer.
func (g *GenericAPIView[T]) Allows(v *framework.View, r *request.Request, method string) (bool, error) {
	_, ok, err := g.allowed(v, r, method)
	return ok, err
}

// SerializerOf returns the serializer of r's bodies to v. It makes g a
// framework.Describer.
func (g *GenericAPIView[T]) SerializerOf(v *framework.View, r *request.Request) (*framework.SerializerDescription, error) {
	s, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, err
	}
	return s.Description(), nil
}

// RelatedChoices lists the choices of the writable relational field of
// r's serializer named field, through the view's source (its database):
// the browsable form's select. It makes g a framework.RelatedLister.
func (g *GenericAPIView[T]) RelatedChoices(v *framework.View, r *request.Request, field string) ([]framework.Choice, error) {
	s, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, err
	}
	global := v.Global()
	return s.RelatedChoices(field, &serializers.Context{Request: r, RelatedRows: g.relatedRows(r),
		HTMLSelectCutoff: global.HTMLSelectCutoff, HTMLSelectCutoffText: global.HTMLSelectCutoffText})
}

// allowed reports whether r's user may send method to v (DRF's
// determine_actions on a cloned request), and returns that request. API
// errors (denied, not found) mean no; other errors are returned.
func (g *GenericAPIView[T]) allowed(v *framework.View, r *request.Request, method string) (*request.Request, bool, error) {
	as := request.As(r, method)
	err := v.CheckPermissions(as)
	if err == nil && (method == http.MethodPut || method == http.MethodPatch || method == http.MethodDelete) {
		_, err = g.GetObject(v, as)
	}
	if err != nil {
		var api exceptions.StatusCoder
		if errors.As(err, &api) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return as, true, nil
}
