package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
)

// The OpenAPI components of the quickstart's serializers, and of a
// ModelSerializer of User's keys and many-to-many fields, are DRF's
// map_serializer of the same serializers (what testdata/drf_quickstart.py
// prints given "schema"): a link is a string, a
// many-to-many field an array of links or of integer keys, with Django's
// help texts and the username's pattern.
func TestSchemaAsDRF(t *testing.T) {
	var want map[string]any
	drfsuite.RunDRF(t, framework.DRF318, "testdata/drf_quickstart.py", "schema", &want)
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pkUsers := func(api *framework.API, db *sqlx.DB) error {
		vs := &generics.ModelViewSet[auth.User]{}
		vs.Source = queryset.MustSQL[auth.User](db, queryset.SQLConfig{})
		vs.Serializer = serializers.MustNew[auth.User](serializers.Fields("id", "username", "groups", "user_permissions"))
		var router routers.DefaultRouter
		router.Register("users", vs, "")
		router.Mount(api)
		return nil
	}
	for _, c := range []struct {
		urls   func(*framework.API, *sqlx.DB) error
		of, as string
	}{{urls, "User", "User"}, {urls, "Group", "Group"}, {pkUsers, "User", "PKUser"}} {
		api := framework.NewAPI(db, Project.Settings)
		if err := c.urls(api, db); err != nil {
			t.Fatal(err)
		}
		doc, err := (&schemas.Generator{Info: schemas.Info{Title: "Quickstart"}, API: api}).Document("")
		if err != nil {
			t.Fatal(err)
		}
		schema, ok := doc.Components.Schemas.Get(c.of)
		if !ok {
			t.Fatalf("no component %s", c.of)
		}
		raw, err := json.Marshal(schema)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want[c.as]) {
			w, _ := json.Marshal(want[c.as])
			t.Errorf("%s:\n got %s\nwant %s", c.as, raw, w)
		}
	}
}
