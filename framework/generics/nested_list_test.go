package generics_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// orderLine and order are an order of lines, the lines a NestedList.
type (
	orderLine struct {
		Product string `json:"product" drf:"required"`
		Count   int64  `json:"count" drf:"required"`
	}
	order struct {
		ID       int64       `json:"id" db:"id" drf:"read_only"`
		Customer string      `json:"customer" db:"customer" drf:"required"`
		Lines    []orderLine `json:"lines" drf:"required"`
	}
)

func orderSerializer() *serializers.Serializer[order] {
	return serializers.MustNew[order](serializers.NestedList("lines", serializers.MustNew[orderLine](),
		serializers.ListOptions[orderLine]{NotEmpty: true}))
}

// TestNestedListNeedsAPerformHook: a create or an update through a
// serializer with a writable NestedList needs the Perform hook that saves
// its items, as DRF's default create() and update() refuse writable
// nested fields; it is refused at setup, naming the view and the field.
func TestNestedListNeedsAPerformHook(t *testing.T) {
	src, err := queryset.NewSlice([]order{})
	if err != nil {
		t.Fatal(err)
	}
	g := generics.GenericAPIView[order]{Source: src, Serializer: orderSerializer()}
	for _, a := range []framework.ViewAction{framework.ActionCreate, framework.ActionUpdate} {
		err := g.CheckActions(a)
		if err == nil || !strings.Contains(err.Error(), `"lines" is a NestedList`) || !strings.Contains(err.Error(), "writable nested fields") {
			t.Errorf("%s: %v, want the setup error naming lines", a, err)
		}
	}
	if err := g.CheckActions(framework.ActionList, framework.ActionRetrieve); err != nil {
		t.Errorf("read: %v", err)
	}
	g.PerformCreate = func(*request.Request, *order) error { return nil }
	if err := g.CheckActions(framework.ActionCreate); err != nil {
		t.Errorf("with PerformCreate: %v", err)
	}
}

// TestNestedListCreate: a POST of an order validates its lines as DRF's
// nested ListSerializer does, and PerformCreate gets them: 201 with the
// lines saved; a line's error is 400 under "lines", and an empty list is
// refused.
func TestNestedListCreate(t *testing.T) {
	var saved []order
	src, err := queryset.NewSlice([]order{})
	if err != nil {
		t.Fatal(err)
	}
	g := generics.GenericAPIView[order]{Source: src, Serializer: orderSerializer(),
		PerformCreate: func(_ *request.Request, o *order) error {
			o.ID = int64(len(saved) + 1)
			saved = append(saved, *o)
			return nil
		}}
	for _, c := range []struct {
		level  framework.Compatibility
		body   string
		status int
		want   string
	}{
		{framework.DRF318, `{"customer":"a","lines":[{"product":"p","count":"2"},{"product":"q","count":1}]}`, 201,
			`{"id":1,"customer":"a","lines":[{"product":"p","count":2},{"product":"q","count":1}]}`},
		{framework.DRF318, `{"customer":"a","lines":[{"product":"p","count":2},{"count":"x"}]}`, 400,
			`{"lines":{"1":{"product":["This field is required."],"count":["A valid integer is required."]}}}`},
		{framework.DRF314, `{"customer":"a","lines":[{"product":"p","count":2},{"count":"x"}]}`, 400,
			`{"lines":[{},{"product":["This field is required."],"count":["A valid integer is required."]}]}`},
		{framework.DRF318, `{"customer":"a","lines":[]}`, 400, `{"lines":{"non_field_errors":["This list may not be empty."]}}`},
		{framework.DRF318, `{"customer":"a"}`, 400, `{"lines":["This field is required."]}`},
	} {
		api := framework.NewAPI(nil, framework.Settings{Compatibility: c.level})
		api.Handle("/orders/", generics.ListCreateAPIView(g))
		resp := apitest.New(t, api).Post("/orders/", c.body, "Content-Type: application/json")
		if resp.Status != c.status || !sameJSON(t, resp.Body, c.want) {
			t.Errorf("%v %s: %d %s, want %d %s", c.level, c.body, resp.Status, resp.Body, c.status, c.want)
		}
	}
	if len(saved) != 1 || len(saved[0].Lines) != 2 || saved[0].Lines[0] != (orderLine{"p", 2}) {
		t.Errorf("saved %+v, want the order of two lines", saved)
	}
}
