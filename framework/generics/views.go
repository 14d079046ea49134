package generics

import (
	"fmt"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/queryset"
)

// CheckActions reports a setup error when g cannot serve the actions
// ("list", "create", "retrieve", "update", "partial_update", "destroy"):
// no source, no serializer, or a source that cannot write for a write
// with no Perform hook. Routers call it on registration.
func (g *GenericAPIView[T]) CheckActions(actions ...string) error {
	name := g.DefaultBasename()
	if g.Source == nil && g.SourceFor == nil {
		return fmt.Errorf("generics: view of %s needs a Source or SourceFor", name)
	}
	// cannot says why writes through the source would fail, "" if they work
	// (a SourceFor is only known per request).
	var cannot string
	if w, ok := g.Source.(queryset.Writer[T]); g.Source != nil && !ok {
		cannot = fmt.Sprintf("the source %T cannot write", g.Source)
	} else if c, ok := w.(queryset.WriteChecker); ok && !c.CanWrite() {
		cannot = fmt.Sprintf("the source %T is read-only (it has a Query and no Columns)", g.Source)
	}
	hook := map[string]bool{"create": g.PerformCreate != nil, "update": g.PerformUpdate != nil,
		"partial_update": g.PerformUpdate != nil, "destroy": g.PerformDestroy != nil}
	for _, a := range actions {
		if a != "destroy" && g.Serializer == nil && g.SerializerFor == nil {
			return fmt.Errorf("generics: view of %s needs a Serializer or SerializerFor", name)
		}
		if has, writes := hook[a]; writes && !has && cannot != "" {
			return fmt.Errorf("generics: %s of %s writes but %s; set a Perform hook", a, name, cannot)
		}
	}
	return nil
}

// concrete returns g's policies with the handlers of the actions, after
// checking that g can serve them; it panics on a setup error. OPTIONS
// answers Metadata unless g has an OPTIONS handler of its own; g describes
// the view unless it has a Describer. g is a copy, so the caller's value
// is left as it was.
func concrete[T any](g GenericAPIView[T], actions ...string) framework.View {
	if err := g.CheckActions(actions...); err != nil {
		panic(err)
	}
	v := g.View
	for _, a := range actions {
		switch a {
		case "list":
			v.Get = g.ListModel
		case "create":
			v.Post = g.CreateModel
		case "retrieve":
			v.Get = g.RetrieveModel
		case "update":
			v.Put = g.UpdateModel
		case "partial_update":
			v.Patch = g.PartialUpdateModel
		case "destroy":
			v.Delete = g.DestroyModel
		}
	}
	if v.Options == nil {
		v.Options = g.Metadata
	}
	if v.Describer == nil {
		v.Describer = &g
	}
	return v
}

// ListAPIView answers GET with the list (ListAPIView). Like every
// concrete view, it panics on a setup error (see CheckActions).
func ListAPIView[T any](g GenericAPIView[T]) framework.View { return concrete(g, "list") }

// CreateAPIView answers POST with a created item (CreateAPIView).
func CreateAPIView[T any](g GenericAPIView[T]) framework.View { return concrete(g, "create") }

// RetrieveAPIView answers GET with one item (RetrieveAPIView).
func RetrieveAPIView[T any](g GenericAPIView[T]) framework.View { return concrete(g, "retrieve") }

// UpdateAPIView answers PUT and PATCH on one item (UpdateAPIView).
func UpdateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, "update", "partial_update")
}

// DestroyAPIView answers DELETE on one item (DestroyAPIView).
func DestroyAPIView[T any](g GenericAPIView[T]) framework.View { return concrete(g, "destroy") }

// ListCreateAPIView answers GET with the list and POST with a created item.
func ListCreateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, "list", "create")
}

// RetrieveUpdateAPIView answers GET, PUT and PATCH on one item.
func RetrieveUpdateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, "retrieve", "update", "partial_update")
}

// RetrieveDestroyAPIView answers GET and DELETE on one item.
func RetrieveDestroyAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, "retrieve", "destroy")
}

// RetrieveUpdateDestroyAPIView answers GET, PUT, PATCH and DELETE on one item.
func RetrieveUpdateDestroyAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, "retrieve", "update", "partial_update", "destroy")
}
