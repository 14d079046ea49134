package generics

import (
	"context"
	"fmt"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

// checkBulkCreate refuses, at setup, a BulkCreate view whose Source cannot
// write a list in one transaction.
func (g *GenericAPIView[T]) checkBulkCreate() error {
	if g.BulkCreate == nil || g.Source == nil {
		return nil
	}
	_, err := g.atomicer(g.Source)
	return err
}

// atomicer is src as a queryset.Atomicer, else BulkCreate's setup error.
func (g *GenericAPIView[T]) atomicer(src queryset.Source[T]) (queryset.Atomicer, error) {
	a, ok := src.(queryset.Atomicer)
	if !ok {
		return nil, fmt.Errorf("generics: view of %s has BulkCreate, but its source %T cannot write in one transaction (a queryset.Atomicer)", g.DefaultBasename(), src)
	}
	return a, nil
}

// createList creates the items of a list body (BulkCreate), as DRF's
// CreateModelMixin.create with a ListSerializer: every item is validated
// first (ValidateList: the errors of them all at once), then each is
// saved with PerformCreate, as ListSerializer.create calls the child's
// create for each, in one atomic block of the source: a save that fails
// leaves none written, its error (a database's refusal of a field's
// value) given at the item's index. The answer is 201 with the list and
// no Location, as get_success_headers finds no URL in a list.
func (g *GenericAPIView[T]) createList(v *framework.View, r *request.Request, data []any) (*framework.Response, error) {
	ser, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, err
	}
	ctx := g.validationContext(r, nil)
	validated, err := ser.ValidateList(data, *g.BulkCreate, ctx)
	if err != nil {
		return nil, err
	}
	src, err := g.GetSource(r)
	if err != nil {
		return nil, err
	}
	block, err := g.atomicer(src)
	if err != nil {
		return nil, err
	}
	save := g.PerformCreate
	if save == nil {
		save = g.InsertObject
	}
	objs := make([]*T, len(validated))
	for i := range validated {
		objs[i] = &validated[i]
	}
	hr := r.Request
	failed := -1
	err = block.Atomic(hr.Context(), func(c context.Context) error {
		// The saves get the request with the block's context (InsertObject
		// writes with r.Context()), given back as it was when they end.
		r.Request = hr.WithContext(c)
		defer func() { r.Request = hr }()
		for i, obj := range objs {
			if err := save(r, obj); err != nil {
				failed = i
				return err
			}
		}
		return nil
	})
	if err != nil {
		if failed >= 0 {
			return nil, ser.ListItemError(failed, len(objs), duplicate(ser, err), ctx)
		}
		return nil, err
	}
	out, err := ser.Many(objs, ctx)
	if err != nil {
		return nil, err
	}
	return framework.Created(out), nil
}
