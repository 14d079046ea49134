package generics

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
)

// ViewSet is DRF's ViewSet: the policies of a View plus action methods
// that a router discovers when the viewset is registered. Embed it and
// define any of List, Create, Retrieve, Update, PartialUpdate and Destroy
// as framework.HandlerFunc methods, and extra actions the router is told of.
type ViewSet struct {
	framework.View
}

// Policies returns the view configuration every route starts from.
func (s *ViewSet) Policies() framework.View { return s.View }

// GenericViewSet is a GenericAPIView with no actions of its own (DRF's
// GenericViewSet): embed it and define the action methods, calling the
// GenericAPIView's ListModel, CreateModel ... as needed.
type GenericViewSet[T any] struct {
	GenericAPIView[T]
}

// ReadOnlyModelViewSet has the List and Retrieve actions.
type ReadOnlyModelViewSet[T any] struct {
	GenericAPIView[T]
}

// List answers the list route's GET.
func (s *ReadOnlyModelViewSet[T]) List(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.ListModel(v, r)
}

// Retrieve answers the detail route's GET.
func (s *ReadOnlyModelViewSet[T]) Retrieve(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.RetrieveModel(v, r)
}

// ModelViewSet has every action: List, Create, Retrieve, Update,
// PartialUpdate and Destroy.
type ModelViewSet[T any] struct {
	GenericAPIView[T]
}

// List answers the list route's GET.
func (s *ModelViewSet[T]) List(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.ListModel(v, r)
}

// Create answers the list route's POST.
func (s *ModelViewSet[T]) Create(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.CreateModel(v, r)
}

// Retrieve answers the detail route's GET.
func (s *ModelViewSet[T]) Retrieve(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.RetrieveModel(v, r)
}

// Update answers the detail route's PUT.
func (s *ModelViewSet[T]) Update(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.UpdateModel(v, r)
}

// PartialUpdate answers the detail route's PATCH.
func (s *ModelViewSet[T]) PartialUpdate(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.PartialUpdateModel(v, r)
}

// Destroy answers the detail route's DELETE.
func (s *ModelViewSet[T]) Destroy(v *framework.View, r *request.Request) (*framework.Response, error) {
	return s.DestroyModel(v, r)
}
