// Package generics holds DRF's generic views and viewsets: GenericAPIView
// (a data source, a serializer, a lookup, filter backends and the view's
// policies), the concrete views built from it (ListAPIView ...
// RetrieveUpdateDestroyAPIView), and the viewsets a router mounts
// (ViewSet, GenericViewSet, ReadOnlyModelViewSet, ModelViewSet).
package generics

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
)

// GenericAPIView is DRF's GenericAPIView over items of type T. The
// embedded View holds the policies (authentication, permissions,
// throttles, renderers, parsers, pagination, versioning); the concrete
// views set its handlers. Configure it fully before it serves.
type GenericAPIView[T any] struct {
	framework.View

	// Source is the data source (queryset).
	Source queryset.Source[T]
	// SourceFor, when set, returns the source for a request instead
	// (get_queryset), e.g. the requester's own items.
	SourceFor func(r *request.Request) (queryset.Source[T], error)
	// Serializer reads and validates items (serializer_class).
	Serializer *serializers.Serializer[T]
	// SerializerFor, when set, picks the serializer per request
	// (get_serializer_class), e.g. by r.Version() or by the action,
	// v.Action(r) (DRF's self.action: "list", "retrieve", an extra
	// action's name, "metadata" for OPTIONS).
	SerializerFor func(v *framework.View, r *request.Request) *serializers.Serializer[T]
	// LookupField is the source field matched against the URL
	// (lookup_field); "" gives "id". It may end in a Django lookup, as
	// filter(**{lookup_field: value}) reads it ("title__iexact"): exact,
	// iexact, contains, icontains, gt, gte, lt, lte or date.
	LookupField string
	// LookupURLKwarg is the chi URL parameter holding the lookup value
	// (lookup_url_kwarg); "" gives LookupField, or "pk" when that is
	// unset too.
	LookupURLKwarg string
	// LookupValueRegex restricts the lookup value in a router's detail
	// routes (lookup_value_regex); "" gives DRF's "[^/.]+". A value it
	// does not match is a 404 from the URL resolver.
	LookupValueRegex string
	// FilterBackends filter lists and lookups, in order (filter_backends);
	// unset gives Settings.FilterBackends (DEFAULT_FILTER_BACKENDS).
	FilterBackends framework.List[framework.FilterBackend]
	// ContextValues, when set, gives the extra values of the serializers'
	// context (DRF's get_serializer_context), which fields and validators
	// read with a serializers.Key; nil leaves the request's context.
	ContextValues func(r *request.Request) context.Context

	// PerformCreate saves a validated new item (perform_create); nil
	// inserts it with the source's queryset.Writer. obj is DRF's
	// validated_data, typed: the input and what the serializer's
	// validation set on it, unexported fields included. A hook that sets
	// the owner (serializer.save(owner=...)) calls InsertObject itself.
	PerformCreate func(r *request.Request, obj *T) error
	// BulkCreate, when set, lets the create action take a list of items,
	// as a DRF view whose get_serializer passes
	// many=isinstance(request.data, list): each is validated as a
	// ListSerializer with these options validates it, and all are saved
	// with PerformCreate in one transaction of the Source (a
	// queryset.Atomicer), all or none; the answer is 201 with the list.
	// Nil refuses a list body, as DRF's default serializer does.
	BulkCreate *serializers.ListOptions[T]
	// PerformUpdate saves a validated item (perform_update), obj the
	// stored item with the validated data applied as for PerformCreate;
	// nil gives UpdateObject (on PATCH, the changed columns alone when the
	// source is a queryset.ChangeWriter).
	PerformUpdate func(r *request.Request, obj *T) error
	// PerformDestroy deletes an item (perform_destroy); nil gives DeleteObject.
	PerformDestroy func(r *request.Request, obj *T) error

	// Conditional, when set, gives the detail actions ETags and answers
	// If-None-Match and If-Match (RFC 9110); nil answers as DRF does.
	Conditional *Conditional

	// missing is the detail of GetObject's 404 from DRF 3.15 on, naming
	// T (CheckActions sets it).
	missing string
	// lookupKey bounds a conditional view's lookup values (CheckActions
	// sets it).
	lookupKey *lookupKey
}

// Policies returns the view configuration the handlers run under; a
// router gives it to every route of a viewset.
func (g *GenericAPIView[T]) Policies() framework.View {
	v := g.View
	if v.ObjectType == nil {
		v.ObjectType = reflect.TypeFor[*T]()
	}
	return v
}

// LookupParam returns the URL parameter of detail routes: LookupURLKwarg,
// else LookupField, else "pk" (DRF's lookup_url_kwarg or lookup_field).
func (g *GenericAPIView[T]) LookupParam() string {
	return cmp.Or(g.LookupURLKwarg, g.LookupField, "pk")
}

// LookupRegex returns the pattern of the lookup value in a router's
// detail routes (lookup_value_regex), "" for the router's default.
func (g *GenericAPIView[T]) LookupRegex() string { return g.LookupValueRegex }

// DefaultBasename returns the lower-cased name of T's model, the route
// basename a router uses when given none (DRF's
// queryset.model._meta.object_name.lower()).
func (g *GenericAPIView[T]) DefaultBasename() string {
	return strings.ToLower(modelName[T]())
}

// modelName is the name of T's model (Django's _meta.object_name): its
// models.Meta Name, else the Go type's name.
func modelName[T any]() string {
	if d, err := models.Of[T](); err == nil && d.Meta.Name != "" {
		return d.Meta.Name
	}
	return reflect.TypeFor[T]().Name()
}

// missingDetail is Django's Http404 detail for no T: "No Book matches the
// given query.", naming the model's object_name.
func missingDetail[T any]() string {
	return "No " + modelName[T]() + " matches the given query."
}

// lookupField is the source field of the lookup ("id" by default).
func (g *GenericAPIView[T]) lookupField() string {
	field, _ := splitLookup(cmp.Or(g.LookupField, "id"))
	return field
}

// lookupOf is the Django lookup of LookupField, "" for exact equality.
func (g *GenericAPIView[T]) lookupOf() query.Lookup {
	_, l := splitLookup(g.LookupField)
	return l
}

// servedLookups are the lookups a lookup field may end in: those that
// compare with one value.
var servedLookups = []query.Lookup{query.Exact, query.IExact, query.Contains, query.IContains,
	query.GT, query.GTE, query.LT, query.LTE, query.Date}

// splitLookup splits "title__iexact" into its field and lookup; a name
// with no "__" is the field itself, compared exactly (lookup "").
func splitLookup(name string) (string, query.Lookup) {
	i := strings.LastIndex(name, "__")
	if i < 0 {
		return name, ""
	}
	return name[:i], query.Lookup(name[i+2:])
}

// Filters returns the filter backends of v, the view compiled from g
// (filter_backends, else DEFAULT_FILTER_BACKENDS), whose query
// parameters the schema documents on list operations.
func (g *GenericAPIView[T]) Filters(v *framework.View) []framework.FilterBackend {
	if g.FilterBackends.IsSet() {
		return g.FilterBackends.Items()
	}
	return v.Global().FilterBackends.Items()
}

// GetSource returns the request's data source (get_queryset).
func (g *GenericAPIView[T]) GetSource(r *request.Request) (queryset.Source[T], error) {
	if g.SourceFor != nil {
		return g.SourceFor(r)
	}
	if g.Source == nil {
		return nil, fmt.Errorf("generics: %s has no Source", g.DefaultBasename())
	}
	return g.Source, nil
}

// Query returns the request's source as a query whose fetches fill rows,
// with v's filter backends applied in order (get_queryset, then
// filter_queryset).
func (g *GenericAPIView[T]) Query(v *framework.View, r *request.Request, rows *queryset.Rows[T]) (query.Query, error) {
	q, _, err := g.query(v, r, rows)
	return q, err
}

// query is Query, and reports whether an ordering filter chose the
// query's ordering.
func (g *GenericAPIView[T]) query(v *framework.View, r *request.Request, rows *queryset.Rows[T]) (query.Query, bool, error) {
	src, err := g.GetSource(r)
	if err != nil {
		return nil, false, err
	}
	return g.filter(v, r, queryset.Into(src, rows))
}

// filter applies v's filter backends to q, in order, and reports whether
// the first ordering filter among them chose an ordering. That one orders
// q by its Ordering, as DRF's OrderingFilter orders by get_ordering's
// answer, so that the choice is made once per request.
func (g *GenericAPIView[T]) filter(v *framework.View, r *request.Request, q query.Query) (query.Query, bool, error) {
	ordered, orderer := false, false
	for _, b := range g.Filters(v) {
		if o, ok := b.(filters.Orderer); ok && !orderer {
			orderer = true
			if ordering := o.Ordering(r, q); len(ordering) > 0 {
				q, ordered = q.OrderBy(ordering...), true
			}
			continue
		}
		var err error
		if q, err = b.Filter(r, q); err != nil {
			return nil, false, err
		}
	}
	return q, ordered, nil
}

// GetSerializer returns the serializer of r to v, the view serving it
// (get_serializer_class).
func (g *GenericAPIView[T]) GetSerializer(v *framework.View, r *request.Request) (*serializers.Serializer[T], error) {
	s := g.Serializer
	if g.SerializerFor != nil {
		s = g.SerializerFor(v, r)
	}
	if s == nil {
		return nil, fmt.Errorf("generics: %s has no Serializer", g.DefaultBasename())
	}
	return s, nil
}

// SerializerContext returns the context serializers get (get_serializer_context).
func (g *GenericAPIView[T]) SerializerContext(r *request.Request) *serializers.Context {
	c := &serializers.Context{}
	g.setContext(c, r)
	return c
}

// setContext makes c the context serializers get for r.
func (g *GenericAPIView[T]) setContext(c *serializers.Context, r *request.Request) {
	*c = serializers.Context{Request: r}
	if g.ContextValues != nil {
		c.Values = g.ContextValues(r)
	}
}

// retrieval is what RetrieveModel allocates per request, in one
// allocation: the serializer's context and the answer.
type retrieval struct {
	ctx  serializers.Context
	resp framework.Response
}

// GetObject returns the item the URL names (get_object): the filtered
// source's item whose lookup field equals the URL parameter, after the
// view's object permissions. No item is 404 "No T matches the given
// query." (Django's get_object_or_404, kept by DRF 3.15, #8051), "Not
// found." at DRF 3.14 level; a value of the wrong type is 404 "Not found.".
// A view with Conditional answers a value that no item can have before
// any query: one out of the field's range or longer than its longest
// value (a 300-digit spelling of an integer key) as no item.
func (g *GenericAPIView[T]) GetObject(v *framework.View, r *request.Request) (*T, error) {
	if g.Conditional != nil {
		if err := g.refuseLookup(v, chi.URLParam(r.Request, g.LookupParam())); err != nil {
			return nil, err
		}
	}
	src, err := g.GetSource(r)
	if err != nil {
		return nil, err
	}
	field, lookup, value := g.lookupField(), g.lookupOf(), chi.URLParam(r.Request, g.LookupParam())
	var items []*T
	if len(g.Filters(v)) == 0 {
		if lookup == "" {
			src = src.Filter(field, value)
		} else {
			src = src.Where(field, lookup, value)
		}
		items, err = src.Slice(r.Context(), 0, 1)
	} else {
		var rows queryset.Rows[T]
		var q query.Query
		if q, _, err = g.filter(v, r, queryset.Into(src, &rows)); err == nil {
			if lookup == "" {
				q = q.Filter(field, value)
			} else {
				q = q.Where(field, lookup, value)
			}
			_, err = q.Fetch(r.Context(), 0, 1)
		}
		items = rows.Items
	}
	if errors.Is(err, query.ErrInvalidValue) {
		return nil, exceptions.NotFound()
	}
	if err == nil && len(items) == 0 {
		return nil, g.noMatch(v)
	}
	if err != nil {
		return nil, err
	}
	obj := items[0]
	if err := v.CheckObjectPermissions(r, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// noMatch is GetObject's 404 of a lookup that no item matches: "No T
// matches the given query.", "Not found." at DRF 3.14 level.
func (g *GenericAPIView[T]) noMatch(v *framework.View) error {
	if v.Compatibility() == framework.DRF314 {
		return exceptions.NotFound()
	}
	detail := g.missing
	if detail == "" { // a view not set up by CheckActions
		detail = missingDetail[T]()
	}
	return exceptions.NotFound(detail)
}

// CheckPagination checks, at registration, that the view's paginator can
// page its Source (pagination.Checker: the cursor styles' ordering).
func (g *GenericAPIView[T]) CheckPagination(p framework.Paginator) error {
	if c, ok := p.(pagination.Checker); ok && g.Source != nil {
		return c.Check(queryset.Into(g.Source, nil))
	}
	return nil
}

// CheckFilters checks, at registration, that the view's filter backends
// can filter and order its Source (those with a Check method, as
// framework/filters' have: a FilterSet's path across relations over a Go
// slice, an OrderingFilter's field the source lacks).
func (g *GenericAPIView[T]) CheckFilters(v *framework.View) error {
	if g.Source == nil {
		return nil
	}
	for _, b := range g.Filters(v) {
		if c, ok := b.(interface{ Check(query.Query) error }); ok {
			if err := c.Check(queryset.Into(g.Source, nil)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *GenericAPIView[T]) writer(r *request.Request) (queryset.Writer[T], error) {
	src, err := g.GetSource(r)
	if err != nil {
		return nil, err
	}
	w, ok := src.(queryset.Writer[T])
	if !ok {
		return nil, fmt.Errorf("generics: source %T cannot write; set the Perform hooks", src)
	}
	return w, nil
}

// InsertObject inserts obj with the source's Writer (serializer.save() of
// a new item).
func (g *GenericAPIView[T]) InsertObject(r *request.Request, obj *T) error {
	w, err := g.writer(r)
	if err != nil {
		return err
	}
	return w.Insert(r.Context(), obj)
}

// UpdateObject saves obj with the source's Writer.
func (g *GenericAPIView[T]) UpdateObject(r *request.Request, obj *T) error {
	w, err := g.writer(r)
	if err != nil {
		return err
	}
	return w.Update(r.Context(), obj)
}

// updateChanged is the save of a partial update of before: the fields it
// changes alone when the source is a queryset.ChangeWriter (beyond DRF,
// whose save() writes every field), else UpdateObject.
func (g *GenericAPIView[T]) updateChanged(before *T) func(*request.Request, *T) error {
	return func(r *request.Request, obj *T) error {
		src, err := g.GetSource(r)
		if err != nil {
			return err
		}
		if cw, ok := src.(queryset.ChangeWriter[T]); ok {
			return cw.UpdateChanged(r.Context(), before, obj)
		}
		return g.UpdateObject(r, obj)
	}
}

// DeleteObject deletes obj with the source's Writer.
func (g *GenericAPIView[T]) DeleteObject(r *request.Request, obj *T) error {
	w, err := g.writer(r)
	if err != nil {
		return err
	}
	return w.Delete(r.Context(), obj)
}

// ListModel answers a list: the filtered source, paginated when the view
// has a paginator, else every item as a JSON array (ListModelMixin). With
// an ordering filter among the backends, the cursor paginator pages in
// the filter's ordering.
func (g *GenericAPIView[T]) ListModel(v *framework.View, r *request.Request) (*framework.Response, error) {
	// The rows and the serializer's context live as long as the answer:
	// one allocation for both.
	st := &struct {
		rows queryset.Rows[T]
		ctx  serializers.Context
	}{ctx: serializers.Context{Request: r}}
	if g.ContextValues != nil {
		st.ctx.Values = g.ContextValues(r)
	}
	rows := &st.rows
	q, ordered, err := g.query(v, r, rows)
	if err != nil {
		return nil, err
	}
	ser, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, err
	}
	// The first ordering filter decides; when it chooses no ordering, a
	// cursor pages in its own (DRF 3.15, #8954).
	if ordered {
		q = pagination.FilterOrdered(q)
	}
	var page framework.Page
	if p := v.Paginator(); p != nil {
		if page, err = p.Paginate(r, q); err != nil {
			return nil, err
		}
	}
	if page == nil {
		if _, err := q.Fetch(r.Context(), 0, -1); err != nil {
			return nil, err
		}
	}
	data, err := ser.Many(rows.Items, &st.ctx)
	if err != nil {
		return nil, err
	}
	if page == nil {
		return framework.OK(data), nil
	}
	resp := page.Response(data)
	if resp.Page == nil {
		resp.Page = page
	}
	return resp, nil
}

// validate reads the body into obj with the view's serializer (DRF's
// is_valid(raise_exception=True)) and returns the serializer and its
// context for the answer.
func (g *GenericAPIView[T]) validate(v *framework.View, r *request.Request, obj, stored *T, partial bool) (*serializers.Serializer[T], *serializers.Context, error) {
	ser, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, nil, err
	}
	data, err := serializers.RequestData(r)
	if err != nil {
		return nil, nil, err
	}
	ctx := g.validationContext(r, stored)
	if stored == nil {
		err = ser.ValidateNew(data, obj, ctx)
	} else {
		err = ser.Validate(data, obj, partial, ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	return ser, ctx, nil
}

// validationContext is the context of a serializer validating an item
// for r, stored being the item an update changes (nil for a new one): its
// unique checks and related look-ups read the view's source.
func (g *GenericAPIView[T]) validationContext(r *request.Request, stored *T) *serializers.Context {
	ctx := g.SerializerContext(r)
	ctx.ExistsTogether = g.exists(r, stored)
	ctx.DatesOf = g.datesOf(r, stored)
	ctx.Exists = func(column, value string) (bool, error) {
		return ctx.ExistsTogether([]string{column}, []string{value})
	}
	ctx.Related = g.related(r)
	return ctx
}

// related is the Related look-up of a serializer validating an item for
// r: its source's, when the source is a queryset.RelatedFinder.
func (g *GenericAPIView[T]) related(r *request.Request) func(serializers.RelatedLookup) (string, bool, error) {
	src := g.Source
	if src == nil {
		src, _ = g.GetSource(r)
	}
	finder, ok := src.(queryset.RelatedFinder)
	if !ok {
		return nil
	}
	return func(l serializers.RelatedLookup) (string, bool, error) {
		return finder.FindRelated(r.Context(), l.Table, l.Column, l.Value, l.Integer, l.Key, l.Where...)
	}
}

// relatedRows is the RelatedRows listing of a serializer described for
// r: its source's, when the source is a queryset.RelatedFinder.
func (g *GenericAPIView[T]) relatedRows(r *request.Request) func(serializers.RelatedRowsQuery) ([][2]string, error) {
	src := g.Source
	if src == nil {
		src, _ = g.GetSource(r)
	}
	finder, ok := src.(queryset.RelatedFinder)
	if !ok {
		return nil
	}
	return func(q serializers.RelatedRowsQuery) ([][2]string, error) {
		return finder.ListRelated(r.Context(), q.Table, q.Value, q.Display, q.Limit, q.Where...)
	}
}

// exists is the ExistsTogether of a serializer validating an item for r,
// stored being the item an update changes (nil for a new one): whether
// another item of the view's Source (all of them, as DRF's UniqueValidator
// and UniqueTogetherValidator read the model's default manager;
// SourceFor's when there is no Source) holds the values, told apart from
// stored by the lookup field ("COLUMN__LOOKUP" compares by a lookup:
// "COLUMN__isnull" asks for a null, "COLUMN__iexact" ignores case).
func (g *GenericAPIView[T]) exists(r *request.Request, stored *T) func(columns, values []string) (bool, error) {
	return func(columns, values []string) (bool, error) {
		_, items, err := g.others(r, stored, 2, func(src queryset.Source[T]) queryset.Source[T] {
			for i, column := range columns {
				if name, lookup := splitLookup(column); lookup != "" {
					src = src.Where(name, lookup, values[i])
				} else {
					src = src.Filter(column, values[i])
				}
			}
			return src
		})
		return len(items) > 0, err
	}
}

// datesOf is the DatesOf of a serializer validating an item for r, as
// exists reads the items: the values of dateColumn of the items other
// than stored that hold value in column.
func (g *GenericAPIView[T]) datesOf(r *request.Request, stored *T) func(column, value, dateColumn string) ([]string, error) {
	return func(column, value, dateColumn string) ([]string, error) {
		src, items, err := g.others(r, stored, -1, func(src queryset.Source[T]) queryset.Source[T] {
			return src.Filter(column, value)
		})
		dates := make([]string, len(items))
		for i, it := range items {
			if dates[i], err = src.Position(it, dateColumn); err != nil {
				return nil, err
			}
		}
		return dates, err
	}
}

// others reads the items, up to limit (< 0: all), of the view's Source
// that filter keeps, but stored (told apart by the lookup field), and
// the source read: the queryset of DRF's uniqueness validators, whose
// qs_exists takes a value the column's type refuses
// (query.ErrInvalidValue, or PostgreSQL's DataError) for no item.
func (g *GenericAPIView[T]) others(r *request.Request, stored *T, limit int, filter func(queryset.Source[T]) queryset.Source[T]) (queryset.Source[T], []*T, error) {
	src := g.Source
	if src == nil {
		var err error
		if src, err = g.GetSource(r); err != nil {
			return nil, nil, err
		}
	}
	src = filter(src)
	items, err := src.Slice(r.Context(), 0, limit)
	if errors.Is(err, query.ErrInvalidValue) || store.IsDataError(err) {
		return src, nil, nil
	}
	if err != nil || stored == nil {
		return src, items, err
	}
	b, err := src.Position(stored, g.lookupField())
	if err != nil {
		return nil, nil, err
	}
	others := items[:0]
	for _, it := range items {
		a, err := src.Position(it, g.lookupField())
		if err != nil {
			return nil, nil, err
		}
		if a != b {
			others = append(others, it)
		}
	}
	return src, others, nil
}

// CreateModel validates the body into a new item, saves it with
// PerformCreate, and answers 201 with its representation and, when the
// serializer has a "url" field, a Location header (CreateModelMixin).
// With BulkCreate, a list body creates a list of items (createList).
func (g *GenericAPIView[T]) CreateModel(v *framework.View, r *request.Request) (*framework.Response, error) {
	if g.BulkCreate != nil {
		if data, err := serializers.RequestData(r); err == nil {
			if list, ok := data.([]any); ok {
				return g.createList(v, r, list)
			}
		}
	}
	obj := new(T)
	ser, ctx, err := g.validate(v, r, obj, nil, false)
	if err != nil {
		return nil, err
	}
	save := g.PerformCreate
	if save == nil {
		save = g.InsertObject
	}
	if err := save(r, obj); err != nil {
		return nil, duplicate(ser, err)
	}
	out, err := ser.Data(obj, ctx)
	if err != nil {
		return nil, err
	}
	resp := framework.Created(out)
	if ser.HasField("url") {
		if u, err := ser.Value("url", obj, ctx); err == nil {
			if s, ok := u.(string); ok {
				resp.Header = http.Header{"Location": {s}}
			}
		}
	}
	return resp, nil
}

// RetrieveModel answers the item the URL names (RetrieveModelMixin).
func (g *GenericAPIView[T]) RetrieveModel(v *framework.View, r *request.Request) (*framework.Response, error) {
	obj, err := g.GetObject(v, r)
	if err != nil {
		return nil, err
	}
	ser, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, err
	}
	a := &retrieval{}
	g.setContext(&a.ctx, r)
	out, err := ser.Data(obj, &a.ctx)
	if err != nil {
		return nil, err
	}
	if g.Conditional != nil {
		return g.Conditional.tagged(r, out), nil
	}
	a.resp = framework.Response{Status: http.StatusOK, Data: out}
	return &a.resp, nil
}

// UpdateModel answers PUT: every required field must be given (UpdateModelMixin.update).
func (g *GenericAPIView[T]) UpdateModel(v *framework.View, r *request.Request) (*framework.Response, error) {
	return g.update(v, r, false)
}

// PartialUpdateModel answers PATCH: only the given fields change.
func (g *GenericAPIView[T]) PartialUpdateModel(v *framework.View, r *request.Request) (*framework.Response, error) {
	return g.update(v, r, true)
}

func (g *GenericAPIView[T]) update(v *framework.View, r *request.Request, partial bool) (*framework.Response, error) {
	obj, err := g.GetObject(v, r)
	if err != nil {
		return nil, err
	}
	checked, err := g.precondition(v, r, obj)
	if err != nil {
		return nil, err
	}
	changed := *obj
	ser, ctx, err := g.validate(v, r, &changed, obj, partial)
	if err != nil {
		return nil, err
	}
	if checked {
		// The item's lock, taken once the body is read and valid, is held
		// for the check and the write alone, until the write is committed
		// (Settings.AtomicRequests commits after the view answers).
		stored, unlock, err := g.ifMatch(v, r, obj)
		if err != nil {
			return nil, err
		}
		defer store.AfterEnd(r.Context(), unlock)
		// The item may have been written since the body was validated,
		// yet still be If-Match's (*, or a field the representation
		// leaves out): the body is validated again against the item as
		// stored, under the lock.
		obj, changed = stored, *stored
		if ser, ctx, err = g.validate(v, r, &changed, obj, partial); err != nil {
			return nil, err
		}
	}
	save := g.PerformUpdate
	if save == nil {
		save = g.UpdateObject
		if partial {
			save = g.updateChanged(obj)
		}
	}
	if err := save(r, &changed); err != nil {
		return nil, duplicate(ser, rowError(err))
	}
	out, err := ser.Data(&changed, ctx)
	if err != nil {
		return nil, err
	}
	if g.Conditional != nil {
		return g.Conditional.tagged(r, out), nil
	}
	return framework.OK(out), nil
}

// DestroyModel deletes the item the URL names and answers 204 (DestroyModelMixin).
func (g *GenericAPIView[T]) DestroyModel(v *framework.View, r *request.Request) (*framework.Response, error) {
	obj, err := g.GetObject(v, r)
	if err != nil {
		return nil, err
	}
	checked, err := g.precondition(v, r, obj)
	if err != nil {
		return nil, err
	}
	if checked {
		var unlock func()
		if obj, unlock, err = g.ifMatch(v, r, obj); err != nil {
			return nil, err
		}
		defer store.AfterEnd(r.Context(), unlock)
	}
	del := g.PerformDestroy
	if del == nil {
		del = g.DeleteObject
	}
	if err := del(r, obj); err != nil {
		return nil, rowError(err)
	}
	return framework.NoContent(), nil
}

// duplicate turns a write the database refused as a duplicate of one
// field's value into that field's 400, as the unique check answers it,
// and of a set's values into the set's unique-together 400,
// and a foreign key naming no row into its field's 400, as DRF's
// PrimaryKeyRelatedField answers it.
func duplicate[T any](ser *serializers.Serializer[T], err error) error {
	if cols := store.UniqueViolationColumns(err); len(cols) > 0 {
		if v := ser.UniqueViolation(cols...); v != nil {
			return v
		}
	}
	var missing *queryset.MissingRelatedError
	if errors.As(err, &missing) {
		if v := ser.RelatedViolation(missing.Column, missing.Value); v != nil {
			return v
		}
	}
	return err
}

// rowError is the answer to a write of a looked-up row that the source
// refused: "the row went away" (deleted by another request since the
// lookup) is 404, and a delete that rows of another model
// protect (on_delete PROTECT or RESTRICT) into 409 with Django's message,
// where DRF lets Django's ProtectedError be a 500.
func rowError(err error) error {
	var protected *queryset.ProtectedError
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return exceptions.NotFound()
	case errors.As(err, &protected):
		return &exceptions.APIException{Status: http.StatusConflict, Detail: protected.Error(), Code: "protected"}
	}
	return err
}
