package generics

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

// CheckActions reports a setup error when g cannot serve the actions: no
// source, no serializer, a source that cannot write or a serializer with
// a writable NestedList or dotted-source field (WritableNested) for a
// write with no Perform hook, or an ObjectType other than *T. Routers
// call it on registration.
func (g *GenericAPIView[T]) CheckActions(actions ...framework.ViewAction) error {
	name := g.DefaultBasename()
	g.missing = missingDetail[T]()
	if g.Conditional != nil {
		g.lookupKey = lookupKeyOf[T](g.lookupField())
	}
	if g.Source == nil && g.SourceFor == nil {
		return fmt.Errorf("generics: view of %s needs a Source or SourceFor", name)
	}
	if err := g.checkLookup(actions); err != nil {
		return fmt.Errorf("generics: view of %s: %w", name, err)
	}
	if err := g.checkBulkCreate(); err != nil {
		return err
	}
	if t := g.ObjectType; t != nil && t != reflect.TypeFor[*T]() {
		return fmt.Errorf("generics: view of %s has ObjectType %v, but its objects are %v", name, t, reflect.TypeFor[*T]())
	}
	// cannot says why writes through the source would fail, "" if they work
	// (a SourceFor is only known per request).
	var cannot string
	if w, ok := g.Source.(queryset.Writer[T]); g.Source != nil && !ok {
		cannot = fmt.Sprintf("the source %T cannot write", g.Source)
	} else if c, ok := w.(queryset.WriteChecker); ok && !c.CanWrite() {
		cannot = fmt.Sprintf("the source %T is read-only (it has a Query and no Columns)", g.Source)
	}
	for _, a := range actions {
		if a != framework.ActionDestroy && g.Serializer == nil && g.SerializerFor == nil {
			return fmt.Errorf("generics: view of %s needs a Serializer or SerializerFor", name)
		}
		if a.Writes() && a != framework.ActionDestroy && g.perform(a) == nil && g.Serializer != nil {
			method, hook := "update", "PerformUpdate"
			if a == framework.ActionCreate {
				method, hook = "create", "PerformCreate"
			}
			if err := g.Serializer.WritableNested(method); err != nil {
				return fmt.Errorf("generics: %s of %s: %w\nSet %s, the explicit `.%s()`, to save it", a, name, err, hook, method)
			}
		}
		if a.Writes() && g.perform(a) == nil && cannot != "" {
			return fmt.Errorf("generics: %s of %s writes but %s; set a Perform hook", a, name, cannot)
		}
	}
	return nil
}

// checkLookup refuses a LookupField whose lookup GetObject cannot serve,
// or, for views of an item, whose field the Source lacks.
func (g *GenericAPIView[T]) checkLookup(actions []framework.ViewAction) error {
	field, lookup := g.lookupField(), g.lookupOf()
	if lookup != "" && !slices.Contains(servedLookups, lookup) {
		return fmt.Errorf("LookupField %q: unsupported lookup %q (use one of %v)", g.LookupField, lookup, servedLookups)
	}
	if lookup != "" && g.Conditional != nil {
		return fmt.Errorf("LookupField %q: a Conditional view looks items up exactly", g.LookupField)
	}
	detail := slices.ContainsFunc(actions, framework.ViewAction.Detail)
	if detail && g.Source != nil && !slices.Contains(g.Source.Fields(), field) {
		return fmt.Errorf("LookupField %q: the source has no field %q", cmp.Or(g.LookupField, "id"), field)
	}
	return nil
}

// perform is the view's own hook of a writing action, nil when it has none.
func (g *GenericAPIView[T]) perform(a framework.ViewAction) func(*request.Request, *T) error {
	switch a {
	case framework.ActionCreate:
		return g.PerformCreate
	case framework.ActionUpdate, framework.ActionPartialUpdate:
		return g.PerformUpdate
	case framework.ActionDestroy:
		return g.PerformDestroy
	}
	return nil
}

// concrete returns g's policies with the handlers of the actions, after
// checking that g can serve them; it panics on a setup error. OPTIONS
// answers Metadata unless g has an OPTIONS handler of its own; g describes
// the view unless it has a Describer. g is a copy, so the caller's value
// is left as it was.
func concrete[T any](g GenericAPIView[T], actions ...framework.ViewAction) framework.View {
	if err := g.CheckActions(actions...); err != nil {
		panic(err)
	}
	v := g.Policies()
	v.Actions = make(map[string]framework.ViewAction, len(actions))
	for _, a := range actions {
		v.Actions[a.HTTPMethod()] = a
		switch a {
		case framework.ActionList:
			v.Get = g.ListModel
		case framework.ActionCreate:
			v.Post = g.CreateModel
		case framework.ActionRetrieve:
			v.Get = g.RetrieveModel
		case framework.ActionUpdate:
			v.Put = g.UpdateModel
		case framework.ActionPartialUpdate:
			v.Patch = g.PartialUpdateModel
		case framework.ActionDestroy:
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
func ListAPIView[T any](g GenericAPIView[T]) framework.View { return concrete(g, framework.ActionList) }

// CreateAPIView answers POST with a created item (CreateAPIView).
func CreateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionCreate)
}

// RetrieveAPIView answers GET with one item (RetrieveAPIView).
func RetrieveAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionRetrieve)
}

// UpdateAPIView answers PUT and PATCH on one item (UpdateAPIView).
func UpdateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionUpdate, framework.ActionPartialUpdate)
}

// DestroyAPIView answers DELETE on one item (DestroyAPIView).
func DestroyAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionDestroy)
}

// ListCreateAPIView answers GET with the list and POST with a created item.
func ListCreateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionList, framework.ActionCreate)
}

// RetrieveUpdateAPIView answers GET, PUT and PATCH on one item.
func RetrieveUpdateAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionRetrieve, framework.ActionUpdate, framework.ActionPartialUpdate)
}

// RetrieveDestroyAPIView answers GET and DELETE on one item.
func RetrieveDestroyAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionRetrieve, framework.ActionDestroy)
}

// RetrieveUpdateDestroyAPIView answers GET, PUT, PATCH and DELETE on one item.
func RetrieveUpdateDestroyAPIView[T any](g GenericAPIView[T]) framework.View {
	return concrete(g, framework.ActionRetrieve, framework.ActionUpdate, framework.ActionPartialUpdate, framework.ActionDestroy)
}
