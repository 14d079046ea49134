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
	_, canWrite := g.Source.(queryset.Writer)
	canWrite = canWrite || g.Source == nil
	hook := map[string]bool{"create": g.PerformCreate != nil, "update": g.PerformUpdate != nil,
		"partial_update": g.PerformUpdate != nil, "destroy": g.PerformDestroy != nil}
	for _, a := range actions {
		if a != "destroy" && g.Serializer == nil && g.SerializerFor == nil {
			return fmt.Errorf("generics: view of %s needs a Serializer or SerializerFor", name)
		}
		if has, writes := hook[a]; writes && !has && !canWrite {
			return fmt.Errorf("generics: %s of %s writes but the source %T cannot; set a Perform hook", a, name, g.Source)
		}
	}
	return nil
}

// setup panics on a setup error; otherwise it makes g answer OPTIONS with
// Metadata unless g has an OPTIONS handler of its own.
func (g *GenericAPIView[T]) setup(err error) {
	if err != nil {
		panic(err)
	}
	if g.Options == nil {
		g.Options = g.Metadata
	}
}

// ListAPIView answers GET with the list (ListAPIView). Like every
// concrete view, it panics on a setup error (see CheckActions).
func ListAPIView[T any](g *GenericAPIView[T]) *framework.View {
	g.setup(g.CheckActions("list"))
	g.Get = g.ListModel
	return &g.View
}

// CreateAPIView answers POST with a created item (CreateAPIView).
func CreateAPIView[T any](g *GenericAPIView[T]) *framework.View {
	g.setup(g.CheckActions("create"))
	g.Post = g.CreateModel
	return &g.View
}

// RetrieveAPIView answers GET with one item (RetrieveAPIView).
func RetrieveAPIView[T any](g *GenericAPIView[T]) *framework.View {
	g.setup(g.CheckActions("retrieve"))
	g.Get = g.RetrieveModel
	return &g.View
}

// UpdateAPIView answers PUT and PATCH on one item (UpdateAPIView).
func UpdateAPIView[T any](g *GenericAPIView[T]) *framework.View {
	g.setup(g.CheckActions("update", "partial_update"))
	g.Put, g.Patch = g.UpdateModel, g.PartialUpdateModel
	return &g.View
}

// DestroyAPIView answers DELETE on one item (DestroyAPIView).
func DestroyAPIView[T any](g *GenericAPIView[T]) *framework.View {
	g.setup(g.CheckActions("destroy"))
	g.Delete = g.DestroyModel
	return &g.View
}

// ListCreateAPIView answers GET with the list and POST with a created item.
func ListCreateAPIView[T any](g *GenericAPIView[T]) *framework.View {
	ListAPIView(g)
	return CreateAPIView(g)
}

// RetrieveUpdateAPIView answers GET, PUT and PATCH on one item.
func RetrieveUpdateAPIView[T any](g *GenericAPIView[T]) *framework.View {
	RetrieveAPIView(g)
	return UpdateAPIView(g)
}

// RetrieveDestroyAPIView answers GET and DELETE on one item.
func RetrieveDestroyAPIView[T any](g *GenericAPIView[T]) *framework.View {
	RetrieveAPIView(g)
	return DestroyAPIView(g)
}

// RetrieveUpdateDestroyAPIView answers GET, PUT, PATCH and DELETE on one item.
func RetrieveUpdateDestroyAPIView[T any](g *GenericAPIView[T]) *framework.View {
	RetrieveUpdateAPIView(g)
	return DestroyAPIView(g)
}
