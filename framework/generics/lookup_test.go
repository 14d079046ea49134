package generics_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// TestLookupWithDjangoLookup: a LookupField ending in a Django lookup is
// served as DRF's filter(**{lookup_field: value}), with and without filter
// backends (routers_drf_test.go pins DRF's answers); its URL parameter is
// the lookup field's name.
func TestLookupWithDjangoLookup(t *testing.T) {
	s := newServer(t, 12)
	v := s.view()
	v.LookupField = "title__iexact"
	s.handle("/iexact/{title__iexact}/", generics.RetrieveAPIView(v))
	searched := s.view()
	searched.LookupField, searched.LookupURLKwarg = "rating__gte", "min"
	searched.FilterBackends = framework.FilterBackends(filters.SearchFilter{Fields: []string{"title"}})
	s.handle("/rated/{min}/", generics.RetrieveAPIView(searched))
	for _, tc := range []struct {
		path string
		code int
		body string
	}{
		{"/iexact/bOOk%20007/", 200, `"title":"Book 007"`},
		{"/iexact/Book%2007/", 404, `{"detail":"No Book matches the given query."}`},
		{"/rated/5/", 200, `"title":"Book 002"`},
		{"/rated/5/?search=Book%2001", 200, `"title":"Book 012"`},
		{"/rated/9/", 404, `{"detail":"No Book matches the given query."}`},
		{"/rated/x/", 404, `{"detail":"Not found."}`},
	} {
		code, _, body := s.do(t, "GET", tc.path, "", "")
		if code != tc.code || !strings.Contains(body, tc.body) {
			t.Errorf("GET %s = %d %s, want %d with %s", tc.path, code, body, tc.code, tc.body)
		}
	}
	if p := v.LookupParam(); p != "title__iexact" {
		t.Errorf("LookupParam = %q, want the lookup field's name", p)
	}
}

// TestLookupRefusedAtSetup: a lookup GetObject cannot serve, or a lookup
// field the source lacks, is a setup error naming the view and the field.
func TestLookupRefusedAtSetup(t *testing.T) {
	s := newServer(t, 1)
	for field, want := range map[string]string{
		"title__in":      `view of book: LookupField "title__in": unsupported lookup "in"`,
		"author__name":   `view of book: LookupField "author__name": unsupported lookup "name"`,
		"missing":        `view of book: LookupField "missing": the source has no field "missing"`,
		"nope__contains": `view of book: LookupField "nope__contains": the source has no field "nope"`,
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, want) {
					t.Errorf("%s: setup error %q, want %q", field, msg, want)
				}
			}()
			v := s.view()
			v.LookupField = field
			generics.RetrieveAPIView(v)
		}()
	}
	// A list looks nothing up.
	v := s.view()
	v.LookupField = "missing"
	generics.ListAPIView(v)
}

// TestConcreteViewAction: a concrete generic view names the action of
// each method, as a viewset's route does, for SerializerFor.
func TestConcreteViewAction(t *testing.T) {
	s := newServer(t, 3)
	short := serializers.MustNew[qt.Book](serializers.Fields("id"))
	v := s.view()
	v.SerializerFor = func(v *framework.View, r *request.Request) *serializers.Serializer[qt.Book] {
		if v.Action(r) == framework.ActionList {
			return short
		}
		return bookSerializer
	}
	s.handle("/books/", generics.ListCreateAPIView(v))
	s.handle("/books/{pk}/", generics.RetrieveAPIView(v))
	if code, _, body := s.do(t, "GET", "/books/", "", ""); code != 200 || body != `[{"id":1},{"id":2},{"id":3}]` {
		t.Errorf("list = %d %s, want the list serializer's ids", code, body)
	}
	if code, _, body := s.do(t, "GET", "/books/2/", "", ""); code != 200 || !strings.Contains(body, `"title":"Book 002"`) {
		t.Errorf("retrieve = %d %s, want the detail serializer", code, body)
	}
}
