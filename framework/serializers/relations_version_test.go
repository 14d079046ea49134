package serializers_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/versioning"
	"github.com/go-drf/drf/internal/testservers"
)

// A HyperlinkedRelatedField resolves a URL as the request's versioning
// scheme names its route, as DRF 3.14 (drf_relations.py's "versions",
// DRF's test_bug_2489): under NamespaceVersioning the route of another
// version's namespace, or of none, is "Invalid hyperlink - Incorrect URL
// match."; under URLPathVersioning the route's name is the same in every
// version, so DRF takes a URL of another version, or of no version.
func TestHyperlinkedRelatedFieldAcrossVersions(t *testing.T) {
	drf := loadRelations(t)
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		relTables(t, db)
		link := generics.GenericAPIView[linkSnippet]{Source: queryset.MustSQL[linkSnippet](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[linkSnippet]()}
		users := generics.RetrieveAPIView(generics.GenericAPIView[relUser]{
			Source: queryset.MustSQL[relUser](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[relUser]()})
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/users/{pk}/", users, framework.Named("user-detail"))
		for _, ns := range []string{"v1", "v2"} {
			api.Route("/ns"+ns[1:], ns, func(api *framework.API) {
				api.Handle("/users/{pk}/", users, framework.Named("user-detail"))
				create := generics.ListCreateAPIView(link)
				create.Versioning = versioning.NamespaceVersioning{}
				api.Handle("/link/", create)
			})
		}
		api.Handle("/{version}/users/{pk}/", users, framework.Named("user-detail"))
		create := generics.ListCreateAPIView(link)
		create.Versioning = versioning.URLPathVersioning{}
		api.Handle("/{version}/link/", create)
		c := apitest.New(t, api)
		for _, step := range []struct{ name, path, owner string }{
			{"path_same", "/v1/link/", "/v1/users/1/"},
			{"path_other", "/v1/link/", "/v2/users/1/"},
			{"path_unversioned", "/v1/link/", "/users/1/"},
			{"ns_same", "/ns1/link/", "/ns1/users/1/"},
			{"ns_other", "/ns1/link/", "/ns2/users/1/"},
			{"ns_root", "/ns1/link/", "/users/1/"},
		} {
			r := c.Post(step.path, fmt.Sprintf(`{"title":"t","owner":%q}`, "http://testserver"+step.owner), "Content-Type: application/json")
			want := drf.Versions[step.name]
			if errs, refused := want["errors"]; refused {
				b, _ := json.Marshal(map[string]any{"owner": errs})
				if r.Status != 400 || !sameJSON(t, []byte(r.Body), b) {
					t.Errorf("%s: POST %s owner %s: %d %s, DRF %s", step.name, step.path, step.owner, r.Status, r.Body, b)
				}
			} else if r.Status != 201 || r.JSON()["owner"] == nil {
				t.Errorf("%s: POST %s owner %s: %d %s, DRF takes it", step.name, step.path, step.owner, r.Status, r.Body)
			}
		}
	})
}
